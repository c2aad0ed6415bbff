/**
 * One engine process of `npm run bench:engine` with BENCH_PROCESSES > 1: the
 * real runner in cluster mode on the bench's PostgreSQL schema, leasing its
 * share of the shards. It ticks BENCH_TICKS times back to back and prints its
 * tick times and the tasks it drove as one JSON line.
 */
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { openDatabase } from '../server/src/db/database';
import { createRunner } from '../server/src/engine/runner/runner';
import { engineDomains } from '../server/src/engineDomains';

const db = await openDatabase({ url: process.env.BENCH_DATABASE_URL!, schema: process.env.BENCH_SCHEMA! });
const runner = createRunner({ db, domains: engineDomains, log: Fastify({ logger: { level: 'silent' } }).log, seed: 42, tickMs: 0, cluster: true });
await runner.start();
// Every process holds its share before the ticks begin (the parent says go once all are up).
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
// Nothing more is read: the open pipe must not keep the process alive.
process.stdin.destroy();
const durations: number[] = [];
for (let i = 0; i < Number(process.env.BENCH_TICKS ?? 60); i += 1) {
  const started = performance.now();
  await runner.tick();
  durations.push(performance.now() - started);
}
const tasks = runner.tasks.size;
await runner.stop();
await db.destroy();
process.stdout.write(`${JSON.stringify({ durations, tasks, heapMb: Math.round(process.memoryUsage().heapUsed / 1024 / 1024), rssMb: Math.round(process.memoryUsage().rss / 1024 / 1024) })}\n`);
