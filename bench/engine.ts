/**
 * The engine's speed:
 *  1. decide(): evaluations per second on one core, for tasks whose price is
 *     between thresholds (the common case) and for a random walk with fills.
 *  2. A paper run of N running tasks (default 10 000) over the 20 simulated
 *     symbols, one tick a second of market time: per tick, the time until
 *     every due order is stored (the tick awaits them), and that time as a
 *     share of the second (the CPU share of one core).
 *
 *   npm run bench:engine            (BENCH_TASKS, BENCH_TICKS to change the run)
 */
import { performance } from 'node:perf_hooks';
import Big from 'big.js';
import Fastify from 'fastify';
import { PGlite } from '@electric-sql/pglite';
import { applyBuyFill, decide, initialCycleState, type TaskParams } from '../server/src/engine/decide';
import { createRunner } from '../server/src/engine/runner';
import { PAPER_MARKETS } from '../server/src/engine/paper/market';
import { migrate, openDatabase } from '../server/src/db/database';
import type { StrategySettings } from '../src/api/strategy';

const strategy: StrategySettings = {
  levels: [
    { dropPercent: '1', multiple: '1' },
    { dropPercent: '2.5', multiple: '2' },
    { dropPercent: '4.75', multiple: '4' },
    { dropPercent: '8.125', multiple: '8' },
  ],
  takeProfitPercent: '1.5',
  takeProfitCallbackPercent: '0.3',
  replenishCallbackPercent: '0.2',
  stopLossPercent: null,
  cooldownSeconds: 60,
};
const params: TaskParams = { firstOrderAmount: '10', firstOrderMultiple: false, cycleCount: 9999, replenishStatus: 'replenish_open', running: true };

const decisions = () => {
  const open = applyBuyFill(initialCycleState(), { price: '100', quantity: '0.0999', cost: '10', level: 0 });
  const prices = Array.from({ length: 1000 }, (_, i) => (99.5 + (i % 100) / 100).toFixed(2));
  const n = 5_000_000;
  let t = performance.now();
  for (let i = 0; i < n; i++) decide(params, strategy, open, prices[i % 1000]!, 0, true);
  const quiet = n / ((performance.now() - t) / 1000);

  // A wavy, noisy price path (it cycles through the ladder) with its fills applied, as the runner does.
  let state = initialCycleState();
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const walk = 1_000_000;
  t = performance.now();
  for (let i = 0; i < walk; i++) {
    const text = (100 + 8 * Math.sin(i / 997) + 2 * (random() - 0.5)).toFixed(4);
    const decision = decide(params, strategy, state, text, i * 1000, true);
    state = decision.state;
    for (const action of decision.actions) {
      if (action.kind === 'buy') state = applyBuyFill(state, { price: text, quantity: new Big(action.quoteAmount).div(text).toFixed(8), cost: action.quoteAmount, level: action.level });
      if (action.kind === 'sell') state = { ...initialCycleState(), cyclesDone: state.cyclesDone + 1, phase: 'cooldown', cooldownUntil: i * 1000 + 60_000 };
    }
  }
  const walking = walk / ((performance.now() - t) / 1000);
  return { quietPerSecond: Math.round(quiet), randomWalkPerSecond: Math.round(walking) };
};

const paperRun = async (taskCount: number, tickCount: number) => {
  const pglite = new PGlite();
  const db = await openDatabase({ pglite });
  await migrate(db);
  const user = await db.insertInto('users').values({ email: 'bench@example.com', nickname: 'Bench', password_hash: 'x', invite_code: 'BENCH', inviter_id: null, avatar: null }).returning('id').executeTakeFirstOrThrow();
  const account = await db
    .insertInto('exchange_accounts')
    .values({ user_id: user.id, exchange: 'paper', name: 'Bench', paper_balances: JSON.stringify({ USDT: String(taskCount * 200) }) } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const strategyRow = await db.selectFrom('strategies').select('id').where('name', '=', 'balanced').executeTakeFirstOrThrow();
  for (let offset = 0; offset < taskCount; offset += 1000) {
    await db
      .insertInto('trade_tasks')
      .values(
        Array.from({ length: Math.min(1000, taskCount - offset) }, (_, i) => ({
          user_id: user.id,
          exchange_account_id: account.id,
          symbol: PAPER_MARKETS[(offset + i) % PAPER_MARKETS.length]!.symbol,
          strategy_id: strategyRow.id,
          first_order_amount: '10',
          first_order_multiple: false,
          cycle_count: 9999,
          running: true,
          replenish_status: 'replenish_open' as const,
          state: JSON.stringify(initialCycleState()),
        })),
      )
      .execute();
  }
  const runner = createRunner({ db, log: Fastify({ logger: { level: 'silent' } }).log, seed: 42, tickMs: 0 });
  await runner.start();
  const durations: number[] = [];
  const cpuStart = process.cpuUsage();
  const wallStart = performance.now();
  for (let i = 0; i < tickCount; i++) {
    const t = performance.now();
    await runner.tick();
    durations.push(performance.now() - t);
  }
  const wall = performance.now() - wallStart;
  const cpu = process.cpuUsage(cpuStart);
  const orders = await db.selectFrom('orders').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  await runner.stop();
  await db.destroy();
  const steady = durations.slice(1).sort((a, b) => a - b);
  const median = steady[Math.floor(steady.length / 2)] ?? 0;
  return {
    tasks: taskCount,
    ticks: tickCount,
    ordersStored: Number(orders.n),
    firstTickMs: Math.round(durations[0]!),
    steadyTickMs: { median: Number(median.toFixed(1)), max: Number((steady.at(-1) ?? 0).toFixed(1)) },
    steadyCpuShareOfOneCore: `${((median / 1000) * 100).toFixed(1)} %`,
    processCpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(1)),
    wallSeconds: Number((wall / 1000).toFixed(1)),
  };
};

console.log(JSON.stringify({ decide: decisions(), paperRun: await paperRun(Number(process.env.BENCH_TASKS ?? 10_000), Number(process.env.BENCH_TICKS ?? 60)) }, null, 2));
