/**
 * One engine process of the multi-process test (engineCluster.test.ts): the
 * real runner in cluster mode on the schema it is given, ticking every
 * CLUSTER_TICK_MS. SIGTERM stops it cleanly; the test also kills it with
 * SIGKILL in the middle of its work.
 */
import Fastify from 'fastify';
import { openDatabase } from '../src/db/database';
import { createRunner } from '../src/engine/runner/runner';
import { engineDomains } from '../src/engineDomains';

const db = await openDatabase({ url: process.env.CLUSTER_DATABASE_URL!, schema: process.env.CLUSTER_SCHEMA! });
const log = Fastify({ logger: { level: 'warn' } }).log;
const runner = createRunner({ db, domains: engineDomains, log, seed: 42, tickMs: Number(process.env.CLUSTER_TICK_MS ?? 100), cluster: true, ...(process.env.CLUSTER_LEASE_MS ? { leaseMs: Number(process.env.CLUSTER_LEASE_MS) } : {}) });
await runner.start();
console.log(JSON.stringify({ ready: process.pid, owner: (await runner.cluster())?.self }));
process.on('SIGTERM', () => {
  void runner.stop().then(async () => {
    await db.destroy();
    process.exit(0);
  });
});
