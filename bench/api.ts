/**
 * Authenticated API throughput against a bare Fastify JSON route measured in
 * the same run: autocannon (this process) on loopback with BENCH_CONNECTIONS
 * (default 50) connections, BENCH_SECONDS (default 5) per call, against
 * servers in their own processes (bench/apiServer.ts):
 *   - the bare route (GET /bare, the envelope of a small object),
 *   - the product's server on PGlite on disk, and on PostgreSQL when
 *     BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set or `--postgres` is given
 *     (then the default local server),
 * each call with the demo account's access token: the task list, the wallet
 * balances and a task's detail (five running paper tasks with orders behind
 * them). BENCH_ROUNDS (default 3) rounds of the bare route and then each
 * call; each call's run is compared with the bare run of its round, and the
 * round with the median ratio is reported (with every round's ratio): the
 * machine's speed drifts between runs, which a single pair would take for the
 * server's. Prints requests per second, p50 / p99 latency, the ratio to the
 * bare route, the CPU per request, and the answers with code 0; fails when
 * any run had no code-0 answer, or any non-2xx answer, error or timeout.
 *
 * BENCH_CALLS=list,detail measures only those calls (list, balances, detail),
 * e.g. for a CPU profile of one call.
 *
 *   npm run bench:api   (BENCH_SECONDS, BENCH_ROUNDS, BENCH_CONNECTIONS, BENCH_CALLS, BENCH_DATABASE_URL, BENCH_CPU_PROF, --postgres, --pglite-only, --postgres-only)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { ServerReady } from './apiServer';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const postgresUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  (process.argv.includes('--postgres') ? 'postgresql://postgres@127.0.0.1:5432/test' : undefined);
const only = process.env.BENCH_CALLS?.split(',').map((name) => name.trim());
if (only?.some((name) => !['list', 'balances', 'detail'].includes(name))) throw new Error(`BENCH_CALLS: list, balances or detail, not ${process.env.BENCH_CALLS}`);
const backends = process.argv.includes('--pglite-only') || !postgresUrl ? ['pglite'] : process.argv.includes('--postgres-only') ? ['postgres'] : ['pglite', 'postgres'];

const start = async (mode: string): Promise<{ child: ChildProcess; ready: ServerReady }> => {
  const child = fork(fileURLToPath(new URL('./apiServer.ts', import.meta.url)), [mode], {
    // BENCH_CPU_PROF=folder: the product's servers write a V8 CPU profile there (open it in Chrome's DevTools).
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_CPU_PROF && mode !== 'bare' ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [])],
    env: { ...process.env, ...(postgresUrl ? { BENCH_DATABASE_URL: postgresUrl } : {}) },
    // The server's log goes nowhere (as to a log collector); its errors show.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const [ready] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`the ${mode} server stopped (exit ${code}) before it was ready`);
    }),
  ])) as [ServerReady];
  return { child, ready };
};

const stop = async (child: ChildProcess) => {
  const exited = once(child, 'exit');
  child.disconnect();
  await exited;
};

/** The server's CPU time so far (microseconds). */
const cpuOf = async (child: ChildProcess): Promise<number> => {
  const answer = once(child, 'message');
  child.send('cpu');
  return ((await answer)[0] as { cpuMicros: number }).cpuMicros;
};

/** Every measured run (warm-ups too) that got no code-0 answer, another code, a non-2xx answer, an error or a timeout. */
const failures: string[] = [];

interface Measured {
  call: string;
  /** The server process's CPU time per answered request (microseconds): what the machine's load disturbs least. */
  cpuMicrosPerRequest: number;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  codeZero: number;
  otherCodes: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

const measure = async (call: string, server: ChildProcess, url: string, path: string, token?: string): Promise<Measured> => {
  const cpuBefore = await cpuOf(server);
  let codeZero = 0;
  let otherCodes = 0;
  const result = await autocannon({
    url: `${url}${path}`,
    connections,
    duration: seconds,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    requests: [
      {
        // Every answer is the envelope; its code comes first (the routes' serializers keep the order).
        onResponse: (status: number, body: string) => {
          if (status === 200 && body.startsWith('{"code":0,')) codeZero += 1;
          else otherCodes += 1;
        },
      },
    ],
  });
  const cpu = (await cpuOf(server)) - cpuBefore;
  if (codeZero === 0 || otherCodes > 0 || result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) failures.push(`${call} (${path})`);
  return {
    call,
    cpuMicrosPerRequest: result.requests.total > 0 ? Math.round((cpu / result.requests.total) * 10) / 10 : 0,
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    codeZero,
    otherCodes,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
};

/** The middle value (the lower middle of an even count). */
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

type Call = Measured & { ratioToBare: number; cpuRatioToBare: number };
/** One call over the rounds: the round with the median ratio to its own bare run, and every round's ratio. */
type Summary = Call & { rounds: { requestsPerSecond: number; ratioToBare: number; cpuRatioToBare: number }[] };

const bare = await start('bare');
const runs: { backend: string; seeded: ServerReady['seeded']; bare: Measured[]; calls: Summary[] }[] = [];
try {
  for (const backend of backends) {
    const server = await start(backend);
    try {
      const { url, token, taskId } = server.ready;
      // Warm both (JIT, connection pools).
      await measure('warm-up', bare.child, bare.ready.url, '/bare');
      await measure('warm-up', server.child, url, '/api/trade/list?page=1&pageSize=20', token);
      const calls = (
        [
          ['list', 'GET /api/trade/list', '/api/trade/list?page=1&pageSize=20'],
          ['balances', 'GET /api/wallet/balances', '/api/wallet/balances'],
          ['detail', 'GET /api/trade/detail/:id', `/api/trade/detail/${taskId}`],
        ] as const
      ).filter(([name]) => !only || only.includes(name));
      // Rounds of the bare route and then each call, one after the other: each call is compared with the bare run
      // just before it, so a machine that slows down or speeds up between runs moves both.
      const bareRuns: Measured[] = [];
      const byCall = new Map<string, Call[]>(calls.map(([, call]) => [call, []]));
      for (let round = 0; round < rounds; round++) {
        const bareRun = await measure('GET /bare (bare Fastify)', bare.child, bare.ready.url, '/bare');
        bareRuns.push(bareRun);
        for (const [, call, path] of calls) {
          const run = await measure(call, server.child, url, path, token);
          byCall.get(call)!.push({
            ...run,
            ratioToBare: Math.round((run.requestsPerSecond / bareRun.requestsPerSecond) * 1000) / 1000,
            // The bare route's CPU per request over the call's: the throughput ratio a machine of free cores would show.
            cpuRatioToBare: run.cpuMicrosPerRequest > 0 ? Math.round((bareRun.cpuMicrosPerRequest / run.cpuMicrosPerRequest) * 1000) / 1000 : 0,
          });
        }
      }
      const summaries = [...byCall.values()].map((measured): Summary => {
        const middle = median(measured.map((m) => m.ratioToBare));
        return {
          ...measured.find((m) => m.ratioToBare === middle)!,
          rounds: measured.map(({ requestsPerSecond, ratioToBare, cpuRatioToBare }) => ({ requestsPerSecond, ratioToBare, cpuRatioToBare })),
        };
      });
      runs.push({ backend, seeded: server.ready.seeded, bare: bareRuns, calls: summaries });
    } finally {
      await stop(server.child);
    }
  }
} finally {
  await stop(bare.child);
}

console.log(JSON.stringify({ bench: 'authenticated API calls against a bare Fastify route', connections, secondsPerCall: seconds, runs }, null, 2));
for (const run of runs) {
  const bareRates = run.bare.map((b) => b.requestsPerSecond);
  console.log(
    `\n${run.backend}: bare route ${Math.min(...bareRates)}-${Math.max(...bareRates)} req/s over ${run.bare.length} rounds (${median(run.bare.map((b) => b.cpuMicrosPerRequest))} µs CPU per request, median)`,
  );
  for (const c of run.calls) {
    console.log(
      `  ${c.call.padEnd(26)} ${String(c.requestsPerSecond).padStart(6)} req/s  x${c.ratioToBare.toFixed(3)} of bare (median round; rounds ${c.rounds.map((r) => r.ratioToBare.toFixed(3)).join(' ')})  p50 ${c.p50Ms} ms  p99 ${c.p99Ms} ms  ${c.cpuMicrosPerRequest} µs CPU (x${c.cpuRatioToBare.toFixed(3)} of bare)  code 0: ${c.codeZero}`,
    );
  }
}
// A run that answered nothing with code 0, or anything but 2xx, measured refusals or failures, not the calls.
if (failures.length > 0) {
  console.error(`failed answers (no code 0, another code, non-2xx, errors or timeouts): ${failures.join(', ')}`);
  process.exit(1);
}
