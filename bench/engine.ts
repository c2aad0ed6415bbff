/**
 * The engine's speed, with the work it did beside every figure:
 *  1. decide(): evaluations per second on one core, for a price between
 *     thresholds (the common case) and for a noisy path with fills applied.
 *  2. A paper run of BENCH_TASKS running tasks (default 10 000) over the 20
 *     simulated symbols, one tick a second of market time, on PGlite (in
 *     memory) or PostgreSQL (BENCH_DATABASE_URL): users activated, with fuel
 *     and funds, so the tasks really trade (first orders, levels, take
 *     profits). Prints the first tick (every first order due at once), the
 *     steady ticks' p50 / p99 / max, the memory, and the orders, fills,
 *     cycles and events stored; fails when no order was stored.
 *
 *  3. With `--conditions` (issue 29): the same paper run twice in one
 *     process, first without conditions, then with half the tasks gated by
 *     signal conditions on 3 timeframes (paperTasks.ts BENCH_CONDITIONS),
 *     both on a day of seeded minute history; prints both steady p50s, their
 *     ratio (target <= 1.2), the orders placed (all, and by the gated
 *     tasks), the gated tasks and the gate evaluations, and fails when a
 *     count is zero.
 *
 * With BENCH_DATABASE_URL the run is on PostgreSQL, in cluster mode; with
 * BENCH_PROCESSES=2 (or more) it runs that many engine processes
 * (bench/engineWorker.ts) sharing the tasks by leased shards, and prints each
 * one's tick times and the cluster's capacity in task decisions per second.
 *
 *   npm run bench:engine     (BENCH_TASKS, BENCH_TICKS, BENCH_DATABASE_URL, BENCH_PROCESSES)
 *   npm run bench:engine -- --conditions
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import Big from 'big.js';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { applyBuyFill, decide, initialCycleState, type TaskParams } from '../server/src/engine/core/decide';
import { SHARD_COUNT } from '../server/src/engine/store/journal';
import { createRunner } from '../server/src/engine/runner/runner';
import { engineDomains } from '../server/src/engineDomains';
import { dropSchema, migrate, openDatabase, type Db } from '../server/src/db/database';
import { BENCH_CONDITIONS, seed, seedHistory, strategy } from './paperTasks';

const params: TaskParams = { firstOrderAmount: '10', firstOrderMultiple: false, cycleCount: 9999, replenishStatus: 'replenish_open', running: true, feeRate: '0.001' };

const decisions = () => {
  const open = applyBuyFill(initialCycleState(), { price: '100', quantity: '0.0999', cost: '10', level: 0 });
  const prices = Array.from({ length: 1000 }, (_, i) => (99.5 + (i % 100) / 100).toFixed(2));
  const n = 5_000_000;
  let t = performance.now();
  let idle = 0;
  for (let i = 0; i < n; i++) if (decide(params, strategy, open, prices[i % 1000]!, 0, true).actions.length === 0) idle += 1;
  const quiet = n / ((performance.now() - t) / 1000);

  // A wavy, noisy price path (it cycles through the ladder) with its fills applied, as the runner does.
  let state = initialCycleState();
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const walk = 1_000_000;
  let orders = 0;
  t = performance.now();
  for (let i = 0; i < walk; i++) {
    const text = (100 + 8 * Math.sin(i / 997) + 2 * (random() - 0.5)).toFixed(4);
    const decision = decide(params, strategy, state, text, i * 1000, true);
    state = decision.state;
    for (const action of decision.actions) {
      if (action.kind === 'buy') state = applyBuyFill(state, { price: text, quantity: new Big(action.quoteAmount).div(text).toFixed(8), cost: action.quoteAmount, level: action.level });
      if (action.kind === 'sell') state = { ...initialCycleState(), cyclesDone: state.cyclesDone + 1, phase: 'cooldown', cooldownUntil: i * 1000 + 60_000 };
      if (action.kind !== 'event') orders += 1;
    }
  }
  const walking = walk / ((performance.now() - t) / 1000);
  if (idle !== n || orders === 0) throw new Error('the decision benchmark did no work');
  return { quietPerSecond: Math.round(quiet), quietEvaluations: n, randomWalkPerSecond: Math.round(walking), randomWalkOrders: orders, cyclesOnTheWalk: state.cyclesDone };
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
const mb = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(0));

const count = async (db: Db) => {
  const row = await sql<{ orders: string; fills: string; cycles: string; events: string }>`
    select (select count(*) from orders) as orders,
           (select count(*) from orders where status = 'closed') as fills,
           (select count(*) from cycles) as cycles,
           (select count(*) from task_events) as events`.execute(db);
  const r = row.rows[0]!;
  return { orders: Number(r.orders), fills: Number(r.fills), cycles: Number(r.cycles), events: Number(r.events) };
};

/** Runs the engine processes of a cluster run and collects their tick times. */
const runProcesses = async (db: Db, processes: number, url: string, schema: string, tickCount: number) => {
  const workers = Array.from({ length: processes }, () =>
    spawn(process.execPath, ['--import', 'tsx', join('bench', 'engineWorker.ts')], {
      cwd: process.cwd(),
      env: { ...process.env, BENCH_DATABASE_URL: url, BENCH_SCHEMA: schema, BENCH_TICKS: String(tickCount) },
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  const lines = workers.map((worker) => {
    let output = '';
    worker.stdout!.on('data', (chunk) => (output += String(chunk)));
    return () => output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
  });
  const until = async (check: () => boolean) => {
    while (!check()) await new Promise((resolve) => setTimeout(resolve, 50));
  };
  await until(() => lines.every((read) => read().some((line) => line.ready)));
  // Let the leases settle to an even share before the clock starts (one process gives back what the other takes).
  const share = Math.ceil(SHARD_COUNT / processes);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const held = await sql<{ owner: string; n: number }>`select owner, count(*)::int as n from engine_leases where name like 'shard:%' and expires_at > now() group by owner`.execute(db);
    if (held.rows.length === processes && held.rows.every((row) => row.n <= share)) break;
    if (Date.now() > deadline) throw new Error(`the shards did not settle: ${JSON.stringify(held.rows)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const wallStart = performance.now();
  for (const worker of workers) worker.stdin!.write('go\n');
  await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('exit', resolve))));
  const wall = performance.now() - wallStart;
  const results = lines.map((read) => read().find((line) => 'durations' in line) as { durations: number[]; tasks: number; heapMb: number; rssMb: number });
  return { results, wall };
};

const paperRun = async (taskCount: number, tickCount: number, processes: number, conditions?: 'with' | 'without') => {
  const url = process.env.BENCH_DATABASE_URL;
  if (processes > 1 && !url) throw new Error('BENCH_PROCESSES > 1 needs BENCH_DATABASE_URL: the embedded database is one process\'s');
  const schema = url ? `bench_${process.pid}` : 'public';
  const db = url ? await openDatabase({ url, schema }) : await openDatabase({ pglite: new PGlite() });
  await migrate(db, schema);
  try {
    await seed(db, taskCount);
    if (conditions) await seedHistory(db);
    let gated: { tasks: number; orders: number; gateEvaluations: number } | undefined;
    // The first orders land on the first tick that has prices (a process that mirrors the market gets them a tick later).
    const summary = (durations: number[]) => {
      const steady = durations.slice(3).sort((a, b) => a - b);
      return { firstTickMs: Math.round(Math.max(...durations.slice(0, 3))), steadyTickMs: { p50: Number(percentile(steady, 50).toFixed(1)), p99: Number(percentile(steady, 99).toFixed(1)), max: Number((steady.at(-1) ?? 0).toFixed(1)) } };
    };
    let timing: Record<string, unknown>;
    if (processes > 1) {
      const { results, wall } = await runProcesses(db, processes, url!, schema, tickCount);
      timing = {
        processes: results.map((r) => ({ tasks: r.tasks, ...summary(r.durations), memoryMb: { rss: r.rssMb, heapUsed: r.heapMb } })),
        wallSeconds: Number((wall / 1000).toFixed(1)),
        // Tasks decided per second of the slowest process's tick time: the cluster's capacity.
        taskTicksPerSecond: Math.round((taskCount * tickCount) / (Math.max(...results.map((r) => r.durations.reduce((a, b) => a + b, 0))) / 1000)),
      };
    } else {
      const runner = createRunner({ db, domains: engineDomains, log: Fastify({ logger: { level: 'silent' } }).log, seed: 42, tickMs: 0, cluster: Boolean(url) });
      await runner.start();
      const gatedIds: string[] = [];
      if (conditions === 'with') {
        // Every second task's template gains the conditions (one strategy object per ladder, as the engine loads them).
        const gatedStrategies = new Map<object, typeof strategy>();
        [...runner.tasks.values()].forEach((task, i) => {
          if (i % 2 === 0) return;
          let gatedStrategy = gatedStrategies.get(task.strategy);
          if (!gatedStrategy) gatedStrategies.set(task.strategy, (gatedStrategy = { ...task.strategy, conditions: BENCH_CONDITIONS }));
          task.strategy = gatedStrategy;
          gatedIds.push(task.id);
        });
      }
      const durations: number[] = [];
      const cpuStart = process.cpuUsage();
      const wallStart = performance.now();
      let heapPeak = 0;
      // The first tick opens every task's first order at once; then one tick a second of market time.
      for (let i = 0; i < tickCount; i++) {
        const t = performance.now();
        await runner.tick();
        durations.push(performance.now() - t);
        heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
      }
      const wall = performance.now() - wallStart;
      const cpu = process.cpuUsage(cpuStart);
      await runner.stop();
      if (conditions === 'with') {
        const placed = await sql<{ n: string }>`select count(*) as n from orders where task_id = any(${gatedIds}::uuid[])`.execute(db);
        gated = { tasks: gatedIds.length, orders: Number(placed.rows[0]!.n), gateEvaluations: runner.signalCounts().gateEvaluations };
      }
      const memory = process.memoryUsage();
      timing = {
        ...summary(durations),
        memoryMb: { rss: mb(memory.rss), heapUsed: mb(memory.heapUsed), heapPeak: mb(heapPeak) },
        processCpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(1)),
        wallSeconds: Number((wall / 1000).toFixed(1)),
        taskTicksPerSecond: Math.round((taskCount * tickCount) / (durations.reduce((a, b) => a + b, 0) / 1000)),
      };
    }
    return { database: url ? 'postgresql' : 'pglite', tasks: taskCount, ticks: tickCount, processes, work: await count(db), ...(gated ? { gated } : {}), ...timing };
  } finally {
    if (url) await dropSchema(db, schema);
    await db.destroy();
  }
};

const taskCount = Number(process.env.BENCH_TASKS ?? 10_000);
const tickCount = Number(process.env.BENCH_TICKS ?? 300);
if (process.argv.includes('--conditions')) {
  // The same run without and with conditions, in this process, one after the other.
  const without = await paperRun(taskCount, tickCount, 1, 'without');
  const withConditions = await paperRun(taskCount, tickCount, 1, 'with');
  const p50 = (run: typeof without) => (run as unknown as { steadyTickMs: { p50: number } }).steadyTickMs.p50;
  const ratio = Number((p50(withConditions) / p50(without)).toFixed(2));
  console.log(JSON.stringify({ without, with: withConditions, steadyP50: { without: p50(without), with: p50(withConditions), ratio, target: 1.2 } }, null, 2));
  const gated = withConditions.gated!;
  if (without.work.orders === 0 || withConditions.work.orders === 0 || gated.tasks === 0 || gated.orders === 0 || gated.gateEvaluations === 0) {
    console.error('A count is zero (orders, gated tasks, their orders or gate evaluations): the benchmark measured no conditions at work.');
    process.exit(1);
  }
} else {
  const decided = decisions();
  const run = await paperRun(taskCount, tickCount, Number(process.env.BENCH_PROCESSES ?? 1));
  console.log(JSON.stringify({ decide: decided, paperRun: run }, null, 2));
  if (run.work.fills === 0 || run.work.cycles === 0) {
    console.error('The paper run stored no fills or closed no cycle: the benchmark measured no trading.');
    process.exit(1);
  }
}
