/**
 * One server of `npm run bench:api`, in its own process so that autocannon
 * (in the parent) does not share its event loop:
 *   bare      a bare Fastify JSON route answering the envelope
 *   pglite    the product's server on PGlite on disk (as `npm start`)
 *   postgres  the product's server on PostgreSQL (BENCH_DATABASE_URL), in a schema of its own
 * The product's server runs with its production settings (request log at
 * info, to stdout, which the parent discards). It seeds the demo account with
 * a paper account, a strategy and a few running tasks with orders, keeps the
 * engine ticking once a second, and tells the parent its address and a
 * signed-in user's access token over IPC.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { DEV_SIGN_SECRET, isSignedCall, signBody } from '../src/api/signing';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { dropSchema, migrate, openDatabase } from '../server/src/db/database';
import { ensureDemoAccount } from '../server/src/demo/account';
import { loginDemo } from './demoLogin';

export interface ServerReady {
  url: string;
  token?: string;
  taskId?: string;
  /** What the seeding stored: tasks, orders. */
  seeded?: { tasks: number; orders: number };
}

const mode = process.argv[2];
const send = (message: ServerReady) => process.send!(message);
// The parent asks for this process's CPU time (microseconds, user + system) around each measured call.
process.on('message', (message) => {
  if (message === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send!({ cpuMicros: user + system });
  }
});

if (mode === 'bare') {
  const app = Fastify({ logger: false });
  app.get('/bare', async () => ({ code: 0, message: 'ok', data: { hello: 'world' } }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  send({ url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` });
  process.on('disconnect', () => void app.close().then(() => process.exit(0)));
} else if (mode === 'pglite' || mode === 'postgres') {
  const dataDir = mkdtempSync(join(tmpdir(), 'qt-bench-api-'));
  const databaseUrl = mode === 'postgres' ? process.env.BENCH_DATABASE_URL : undefined;
  if (mode === 'postgres' && !databaseUrl) throw new Error('BENCH_DATABASE_URL is not set');
  const schema = mode === 'postgres' ? `bench_api_${randomBytes(4).toString('hex')}` : 'public';
  // The production settings, except: ticks driven below (so seeding can run the market fast), no dashboard files.
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    DASHBOARD_DIR: join(dataDir, 'none'),
    ENGINE_TICK_MS: '0',
    PAPER_SEED: '42',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const db = await openDatabase({ url: databaseUrl, dataDir, schema });
  await migrate(db, schema);
  await ensureDemoAccount(db, config.scryptCost);
  const app = await buildApp(config, { db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

  const login = await loginDemo(url);
  if (login.code !== 0) throw new Error(`demo login failed: ${JSON.stringify(login)}`);
  const token: string = login.data.accessToken;
  const call = async (method: string, path: string, body?: object) => {
    const answer = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(isSignedCall(method, path) ? signBody(method, path, body, DEV_SIGN_SECRET) : body) : undefined,
    });
    const envelope = (await answer.json()) as { code: number; data: any };
    if (envelope.code !== 0) throw new Error(`${method} ${path}: ${JSON.stringify(envelope)}`);
    return envelope.data;
  };
  const exchangeId: string = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper', priceSource: 'simulator' })).id;
  const strategyId: string = (
    await call('POST', '/api/strategy/add', {
      name: 'Bench',
      levels: [
        { dropPercent: '0.05', multiple: '1' },
        { dropPercent: '0.1', multiple: '2' },
        { dropPercent: '0.2', multiple: '4' },
      ],
      takeProfitPercent: '0.3',
      takeProfitCallbackPercent: '0',
      replenishCallbackPercent: '0',
      stopLossPercent: null,
      cooldownSeconds: 5,
    })
  ).id;
  const created: { id: string }[] = await call('POST', '/api/trade/add', {
    exchangeId,
    coinIdList: ['BTC/USDT', 'ETH/USDT', 'SOL/USDT', 'BNB/USDT', 'XRP/USDT'],
    cycleCount: 9999,
    firstOrderAmount: '10',
    firstOrderMultiple: false,
    running: true,
    replenishStatus: 'replenish_open',
    strategyId,
  });
  // Ten minutes of market time: first orders, levels, take profits.
  for (let i = 0; i < 60; i++) await app.engine.tick(10);
  const orders: number = (await call('GET', '/api/trade/order-history?pageSize=1')).total;
  // Then the engine's usual pace while the calls are measured.
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const next = () => {
    timer = setTimeout(() => {
      void app.engine.tick(1).then(() => {
        if (!stopped) next();
      });
    }, 1000);
  };
  next();

  send({ url, token, taskId: created[0]!.id, seeded: { tasks: created.length, orders } });
  process.on('disconnect', () => {
    stopped = true;
    clearTimeout(timer);
    void (async () => {
      await app.close();
      if (mode === 'postgres') await dropSchema(db, schema);
      await db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    })();
  });
} else {
  throw new Error(`unknown mode ${mode}`);
}
