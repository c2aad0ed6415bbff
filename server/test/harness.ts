import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { PGlite } from '@electric-sql/pglite';
import { describe, inject } from 'vitest';
import { DEV_SIGN_SECRET, isSignedCall, signBody } from '../../src/api/signing';
import { buildApp, type App, type BuildOptions } from '../src/app';
import type { ServerConfig } from '../src/config';
import { dropSchema, openDatabase, type Db } from '../src/db/database';
import { readSettings } from '../src/settings';
import { post, system, user as ledgerUser } from '../src/wallet/ledger';
import type { Asset } from '../../src/api/wallet';
import { pgliteFrom, recordMigration, replayMigration, templateSchema, type MigrationScript } from './migrated';
import { recordedExchange } from './recordedExchange';

/** Public markets of real exchanges in tests: every request fails like a dropped connection. */
const offlineExchange = (() => {
  const replay = recordedExchange();
  replay.failNetwork();
  return replay.factory;
})();

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export const BACKENDS: readonly ('pglite' | 'postgres')[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/**
 * A long file's tests on one database, its twin file running them on the
 * other (each file within the time a file may take, the two on both workers):
 * PGlite always, PostgreSQL when TEST_DATABASE_URL is set.
 */
export const onDatabase = (backend: 'pglite' | 'postgres', define: (backend: 'pglite' | 'postgres') => void) =>
  backend === 'pglite' ? define('pglite') : describe.runIf(process.env.TEST_DATABASE_URL)('on PostgreSQL', () => define('postgres'));

let sharedPglite: Promise<PGlite> | undefined;

/** What the global setup provided, or nothing outside a test run (the contract snapshot script starts servers too). */
const provided = <K extends 'pgliteDump' | 'migration'>(key: K) => {
  try {
    return inject(key);
  } catch {
    return undefined;
  }
};

/**
 * A new PGlite for a test: started from the data folder the global setup
 * dumped (no initdb) when there is one (globalSetup.ts).
 */
export const newPglite = (): Promise<PGlite> => pgliteFrom(provided('pgliteDump'));

/** This file's PGlite, shared by its servers (each in its own schema). */
export const filePglite = (): Promise<PGlite> => (sharedPglite ??= newPglite());

let recorded: Promise<MigrationScript> | undefined;
/** The migrations as one script (recorded by the global setup, or once in this file without it). */
const migrationScript = (): Promise<MigrationScript> =>
  (recorded ??= (async () => provided('migration') ?? recordMigration(await filePglite(), templateSchema()))());

/**
 * Gives a fresh, empty schema every migration, in one transaction: the
 * recorded migration replayed (migrated.ts), which equals running the
 * migrations (migrationClone.test.ts) at a fraction of the cost.
 */
export const migrateFresh = async (db: Db, schema: string, pglite?: PGlite): Promise<void> => {
  const script = await migrationScript();
  await replayMigration(script, schema, pglite ? { pglite } : { db });
};

export interface Envelope<T = any> {
  code: number;
  message: string;
  data: T;
}

export interface TestServer {
  app: App;
  db: Db;
  /** The database schema the server's tables live in. */
  schema: string;
  base: string;
  config: ServerConfig;
  /** Every log line the server wrote, as text. */
  logs: string[];
  call<T = any>(
    method: string,
    path: string,
    body?: unknown,
    options?: { token?: string; headers?: Record<string, string>; raw?: string; sign?: boolean; signAt?: { uuid?: string; timestamp?: number } },
  ): Promise<{ status: number; headers: Record<string, string>; body: Envelope<T> }>;
  /** Texts of the mails in the outbox, oldest first. */
  outbox(): string[];
  /** The 6-digit code of the newest mail to an address. */
  lastCode(email: string): string;
  close(): Promise<void>;
}

/** A second API process on a test server's database (tests of what every process must see at once). */
export interface OtherProcess {
  app: App;
  /** Its address, http://127.0.0.1:<port>. */
  base: string;
  close(): Promise<void>;
}

/**
 * Starts a second API process on the server's schema, without an engine (one
 * is enough): on PostgreSQL with its own pool and listening connection, on
 * PGlite a second app on its one connection. Resolves once both processes
 * hear the database's change notices.
 */
export const startOtherProcess = async (server: TestServer, backend: 'pglite' | 'postgres'): Promise<OtherProcess> => {
  const ownDb = backend === 'postgres' ? await openDatabase({ url: process.env.TEST_DATABASE_URL, schema: server.schema }) : undefined;
  const app = await buildApp({ ...server.config, engine: 'off' }, { db: ownDb ?? server.db, logStream: new Writable({ write: (_c, _e, done) => done() }), cluster: backend === 'postgres' });
  const close = async () => {
    await app.close();
    await ownDb?.destroy();
  };
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    for (const each of [server.app, app]) {
      const started = Date.now();
      while (!each.sessionCache.listening()) {
        if (Date.now() - started > 10_000) throw new Error('the change notices are not heard');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { app, base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`, close };
};

export const testConfig = (dataDir: string, overrides: Partial<ServerConfig> = {}): ServerConfig => ({
  port: 0,
  host: '127.0.0.1',
  dataDir,
  databaseUrl: undefined,
  signSecret: DEV_SIGN_SECRET,
  tokenSecret: randomBytes(32).toString('hex'),
  smtpUrl: undefined,
  mailFrom: 'Quant Trader <no-reply@quant-trader.local>',
  corsOrigins: [],
  accessTokenTtlSeconds: 900,
  refreshTokenTtlDays: 30,
  refreshGraceSeconds: 10,
  // The cheapest cost scrypt allows: tests hash many passwords; production uses 2^17.
  scryptCost: 1024,
  dashboardDir: undefined,
  demoAccount: false,
  logLevel: 'info',
  trustProxy: false,
  paperSeed: 42,
  // The engine ticks only when a test calls server.app.engine.tick().
  engineTickMs: 0,
  engineLeaseMs: 8000,
  exchangeMasterKey: randomBytes(32).toString('hex'),
  paperStartUsdt: '10000',
  paperAccountsMax: 20,
  paperMinutesDays: 7,
  backtestUploadsPerUser: 2,
  backtestUploadsTotal: 4,
  ...overrides,
});

/** A fresh schema, a server on a random port, talking HTTP. */
export const startServer = async (
  backend: 'pglite' | 'postgres',
  overrides: Partial<ServerConfig> = {},
  options: Pick<BuildOptions, 'now' | 'exchangeFactory' | 'publicExchangeFactory' | 'tickerFeed' | 'market' | 'cluster' | 'priceClock' | 'factorClock' | 'clientOrderIds'> = {},
): Promise<TestServer> => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  // Recorded before this server's handle sets the file PGlite's search path (recording there, without a global setup, sets it too).
  await migrationScript();
  let db: Db;
  if (backend === 'postgres') {
    db = await openDatabase({ url: process.env.TEST_DATABASE_URL, schema });
    await migrateFresh(db, schema);
  } else {
    const pglite = await filePglite();
    db = await openDatabase({ pglite, schema });
    await migrateFresh(db, schema, pglite);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'qt-test-'));
  const config = testConfig(dataDir, overrides);
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  // On PostgreSQL the engine runs as it does there in production: leasing its shards.
  // Tests reach no real exchange: paper accounts on a live source fall back to the simulator unless a test records answers.
  const app = await buildApp(config, { db, logStream, cluster: backend === 'postgres', publicExchangeFactory: offlineExchange, ...options });
  let closed = false;
  app.addHook('onClose', async () => {
    closed = true;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

  const outboxDir = join(dataDir, 'outbox');
  const outbox = () => {
    let files: string[] = [];
    try {
      files = readdirSync(outboxDir).filter((name) => name.endsWith('.eml')).sort();
    } catch {
      return [];
    }
    return files.map((file) => readFileSync(join(outboxDir, file), 'utf8'));
  };

  return {
    app,
    db,
    schema,
    base,
    config,
    logs,
    outbox,
    lastCode(email) {
      const mail = [...outbox()].reverse().find((text) => text.includes(`To: ${email}`));
      const code = mail ? decodeMail(mail).match(/\b(\d{6})\b/)?.[1] : undefined;
      if (!code) throw new Error(`no code mailed to ${email}`);
      return code;
    },
    async call(method, path, body, options = {}) {
      const headers: Record<string, string> = { 'Accept-Language': 'zh-CN', ...options.headers };
      if (options.token) headers.Authorization = `Bearer ${options.token}`;
      let payload: string | undefined = options.raw;
      if (payload === undefined && body !== undefined) {
        const shouldSign = options.sign ?? isSignedCall(method, path);
        payload = JSON.stringify(shouldSign ? signBody(method, path, body as object, DEV_SIGN_SECRET, options.signAt) : body);
      }
      if (payload !== undefined) headers['Content-Type'] ??= 'application/json';
      // A test's own writes straight into the database or by the engine reach the kept sessions and task
      // answers as their change notices are heard: on PostgreSQL wait for that (PGlite hears them at once).
      await app.sessionCache.sync();
      const response = await fetch(`${base}${path}`, { method, headers, body: payload });
      const text = await response.text();
      return { status: response.status, headers: Object.fromEntries(response.headers), body: JSON.parse(text) as Envelope };
    },
    async close() {
      if (!closed) await app.close();
      await dropSchema(db, schema);
      if (backend === 'postgres') await db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/** The text of an .eml as a person reads it (quoted-printable or base64 bodies decoded). */
export const decodeMail = (eml: string): string => {
  const [head = '', ...rest] = eml.split('\n\n');
  const body = rest.join('\n\n');
  if (/Content-Transfer-Encoding: base64/i.test(head)) return `${head}\n\n${Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')}`;
  if (/Content-Transfer-Encoding: quoted-printable/i.test(head)) {
    const decoded = body.replace(/=\r?\n/g, '').replace(/(=[0-9A-F]{2})+/gi, (run) => Buffer.from(run.replace(/=/g, ''), 'hex').toString('utf8'));
    return `${head}\n\n${decoded}`;
  }
  return eml;
};

/**
 * Registers a user through the API (code from the outbox) and returns its
 * tokens and user. `activated`: also activates it the way a user does (an
 * activation card credited, then POST /api/member/activate), which leaves it
 * the activation's fuel gift; needed to create tasks.
 */
export const registerUser = async (
  server: TestServer,
  fields: { email: string; nickname?: string; password?: string; inviteCode?: string; rememberMe?: boolean; activated?: boolean },
) => {
  const password = fields.password ?? 'Sturdy-Passw0rd!';
  const sent = await server.call('POST', '/api/user/verify-code', { email: fields.email, type: 'register' });
  if (sent.body.code !== 0) throw new Error(`verify-code failed: ${JSON.stringify(sent.body)}`);
  const answer = await server.call('POST', '/api/user/register', {
    email: fields.email,
    nickname: fields.nickname ?? 'Trader',
    password,
    secondPassword: password,
    captcha: server.lastCode(fields.email),
    inviteCode: fields.inviteCode ?? '',
    rememberMe: fields.rememberMe ?? true,
  });
  if (answer.body.code !== 0) throw new Error(`register failed: ${JSON.stringify(answer.body)}`);
  if (fields.activated) {
    const { activationCardPrice } = await readSettings(server.db);
    await adjustBalance(server, answer.body.data.user.id, 'CARD', activationCardPrice);
    const activated = await server.call('POST', '/api/member/activate', { method: 'card', idempotencyKey: `activate-${randomBytes(6).toString('hex')}` }, { token: answer.body.data.accessToken });
    if (activated.body.code !== 0) throw new Error(`activate failed: ${JSON.stringify(activated.body)}`);
    answer.body.data.user.activated = true;
  }
  return { ...answer.body.data, password } as { accessToken: string; refreshToken: string; user: any; password: string };
};

/** Credits a user's available balance (an adjustment from the system), as an operator would. */
export const adjustBalance = async (server: TestServer, userId: string, asset: Asset, amount: string) => {
  await server.db.transaction().execute((trx) =>
    post(trx, { kind: 'adjustment', userId: null, moves: [{ from: system('adjustments', asset), to: ledgerUser(userId, asset), amount }], memo: { reason: 'test' } }),
  );
};

/** The body of POST /api/trade/add: one running BTC task of 10 USDT first orders, unless told otherwise. */
export const taskPayload = (exchangeId: string, strategyId: string, overrides: Record<string, unknown> = {}) => ({
  exchangeId,
  coinIdList: ['BTC/USDT'],
  cycleCount: 9999,
  firstOrderAmount: '10',
  firstOrderMultiple: false,
  running: true,
  replenishStatus: 'replenish_open',
  strategyId,
  ...overrides,
});

/** How many of a task's orders closed (filled). */
export const closedOrders = async (server: TestServer, taskId: string): Promise<number> =>
  Number((await server.db.selectFrom('orders').select(server.db.fn.countAll<number>().as('n')).where('task_id', '=', taskId).where('status', '=', 'closed').executeTakeFirstOrThrow()).n);

/** A tight ladder so that the simulated market (seed 42) fills and closes cycles within minutes. */
export const quickStrategy = {
  name: 'Quick',
  levels: [
    { dropPercent: '0.05', multiple: '1' },
    { dropPercent: '0.1', multiple: '2' },
    { dropPercent: '0.2', multiple: '4' },
  ],
  // The lowest take profit that covers the paper exchange's two 0.1 % fees (0.25 %), and a little more.
  takeProfitPercent: '0.3',
  takeProfitCallbackPercent: '0',
  replenishCallbackPercent: '0',
  stopLossPercent: null,
  cooldownSeconds: 5,
};

/** A paper account, a template and one BTC task of the caller's (`taskPayload` with `task`); answers the task's id. */
export const addPaperTask = async (server: TestServer, token: string, options: { strategy?: object; task?: Record<string, unknown> } = {}): Promise<string> => {
  const call = (path: string, body: unknown) => server.call('POST', path, body, { token });
  const exchangeId = (await call('/api/exchange/add', { exchange: 'paper', name: 'Paper' })).body.data.id;
  const strategyId = (await call('/api/strategy/add', options.strategy ?? quickStrategy)).body.data.id;
  const created = await call('/api/trade/add', taskPayload(exchangeId, strategyId, options.task));
  if (created.body.code !== 0) throw new Error(`the task was refused: ${JSON.stringify(created.body)}`);
  return created.body.data[0].id;
};

/** Puts an address in a user's withdrawal address book, usable at once (as one withdrawn to before the 24-hour rule). */
export const trustAddress = async (server: TestServer, userId: string, address: string) => {
  const past = new Date(Date.now() - 48 * 3_600_000);
  await server.db
    .insertInto('withdrawal_addresses')
    .values({ user_id: userId, address, network: 'TRC20', created_at: past, usable_at: past })
    .onConflict((oc) => oc.columns(['user_id', 'address']).doNothing())
    .execute();
};
