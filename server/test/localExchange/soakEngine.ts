/**
 * One engine process of the exchange soak (soak.ts): the real runner on the
 * soak's PostgreSQL schema, its ccxt instances sent to the parent's local
 * Binance and OKX (timing out after SOAK_TIMEOUT_MS), ticking every SOAK_TICK_MS. The parent kills it with SIGKILL in
 * the middle of its work and starts another; SIGTERM stops it cleanly.
 */
import Fastify from 'fastify';
import { openDatabase } from '../../src/db/database';
import { createRunner } from '../../src/engine/runner/runner';
import { engineDomains } from '../../src/engineDomains';
import { BINANCE_ORIGIN, OKX_ORIGIN, pointedAt } from './pointed';

const db = await openDatabase({ url: process.env.SOAK_DATABASE_URL!, schema: process.env.SOAK_SCHEMA! });
const log = Fastify({ logger: { level: 'silent' } }).log;
const runner = createRunner({
  db,
  domains: engineDomains,
  log,
  seed: 42,
  tickMs: Number(process.env.SOAK_TICK_MS ?? 250),
  // One engine process at a time (the parent starts the next after the kill): no leases to wait out.
  cluster: false,
  exchangeMasterKey: process.env.SOAK_MASTER_KEY!,
  createExchange: pointedAt({ [BINANCE_ORIGIN]: process.env.SOAK_BINANCE!, [OKX_ORIGIN]: process.env.SOAK_OKX! }, process.env.SOAK_TIMEOUT_MS ? { timeoutMs: Number(process.env.SOAK_TIMEOUT_MS) } : {}),
  tickerFeed: null,
});
await runner.start();
console.log(JSON.stringify({ ready: process.pid }));
process.on('SIGTERM', () => {
  void runner.stop().then(async () => {
    await db.destroy();
    process.exit(0);
  });
});
