/**
 * The exchange soak (issue 27): users' tasks on bound Binance accounts trade
 * through the real engine and our ccxt client against the local Binance,
 * which meets the engine's requests with faults drawn from a seed (each kind
 * at least `faultsPerKind` times), while the engine is restarted.
 *
 * On PostgreSQL (`databaseUrl`) the engine runs in its own process
 * (soakEngine.ts) and each restart is a SIGKILL at a random moment of its
 * work, the local exchange living on in this process. On the embedded
 * database (one process's), the engine runs here and a restart drops the
 * runner between two ticks without stopping it and starts a new one.
 *
 * Then the price is held, the faults stop, the engine settles its open
 * questions (intents whose answer was lost), and the books are compared with
 * the exchange's: orders placed twice or unknown to the engine, fills the
 * engine did not book, and positions (the tasks' quantities per account and
 * coin) that differ from the account's balance on the exchange.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import Big from 'big.js';
import Fastify from 'fastify';
import { dropSchema, migrate, openDatabase, type Db } from '../../src/db/database';
import { initialCycleState } from '../../src/engine/core/decide';
import { createRunner, type Runner } from '../../src/engine/runner/runner';
import { createSecretBox, sealCredentials } from '../../src/engine/venues/exchangeAccess';
import { processPauses } from '../../src/engine/venues/exchangePauses';
import { createExchangeShared } from '../../src/engine/venues/exchangeShared';
import { engineDomains } from '../../src/engineDomains';
import { post, system, user as ledgerUser } from '../../src/wallet/ledger';
import { seeded, startLocalBinance, type Fault, type LocalBinance } from './binance';
import { startLocalOkx, type LocalOkx, type OkxEndpoint, type OkxFault } from './okx';
import { BINANCE_ORIGIN, OKX_ORIGIN, pointedAt } from './pointed';

export interface SoakOptions {
  users: number;
  /** Tasks on the local Binance. */
  tasks: number;
  /** Tasks on the local OKX (ten to an account of the first users); a fifth of `tasks` when not given. */
  okxTasks?: number;
  /** Each fault kind is met by the engine at least this many times. */
  faultsPerKind: number;
  restarts: number;
  seed: number;
  /** PostgreSQL (the engine in its own process, killed with SIGKILL); none: the embedded database, the engine here. */
  databaseUrl?: string | undefined;
  /** The engine's tick and the price's step. */
  tickMs?: number;
  /** Requests the engine makes to Binance between two of its faults (a quarter of it on OKX); 20 when not given; 0: a fault queued every step, met or not. */
  faultGap?: number;
  /** Gives up injecting after this long (the goals are still checked). */
  maxSeconds?: number;
  progress?: (line: string) => void;
}

export const FAULT_KINDS = ['drop_answer', 'delay_answer', 'server_error', 'rate_limit', 'ban', 'maintenance', 'partial_fill', 'cancel_by_exchange', 'clock_skew'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
/**
 * OKX's faults, as the local OKX answers them: a lost order answer, 429 (50011), maintenance (503, 50001), an order
 * refused as too large (51202), a partial fill that never completes, a read's 5XX (500 with 50026, or a gateway's
 * 502 or 504) and a read's answer later than the client's timeout.
 */
export const OKX_FAULT_KINDS = ['okx_drop_answer', 'okx_rate_limit', 'okx_maintenance', 'okx_too_large', 'okx_partial_fill', 'okx_server_error', 'okx_delay_answer'] as const;
export type OkxFaultKind = (typeof OKX_FAULT_KINDS)[number];
export const ALL_FAULT_KINDS = [...FAULT_KINDS, ...OKX_FAULT_KINDS] as const;
/** The local OKX's name of a kind. */
const okxKindOf = (kind: OkxFaultKind) => kind.slice('okx_'.length) as OkxFault['kind'];
const OKX_ORDER = 'POST /trade/batch-orders';
/** The OKX kinds placed on an order; the 5XX and the late answer on a read; 429 and maintenance on any request. */
const OKX_ORDER_ONLY = new Set<OkxFaultKind>(['okx_drop_answer', 'okx_too_large', 'okx_partial_fill']);
const OKX_READ_ONLY = new Set<OkxFaultKind>(['okx_server_error', 'okx_delay_answer']);
/**
 * The engine's request timeout in the soak (its ccxt instances'; the product's is 10 s), and how late a late OKX
 * answer comes: past it, so that the read times out.
 */
const SOAK_TIMEOUT_MS = 3_000;
const okxFaultOf = (kind: OkxFaultKind, random: () => number): OkxFault => {
  switch (kind) {
    case 'okx_partial_fill':
      return { kind: 'partial_fill', share: '0.5' };
    case 'okx_server_error':
      return { kind: 'server_error', status: ([500, 502, 504] as const)[Math.floor(random() * 3)]! };
    case 'okx_delay_answer':
      return { kind: 'delay_answer', ms: SOAK_TIMEOUT_MS + 500 };
    default:
      return { kind: okxKindOf(kind) } as OkxFault;
  }
};
/** Requests the engine makes to an exchange between two faults (a quarter of it on OKX, which has a fifth of the tasks). */
const FAULT_GAP = 20;

/** A fault of each kind, and the requests it may meet. */
const ORDER_ONLY = new Set<FaultKind>(['drop_answer', 'partial_fill', 'cancel_by_exchange', 'delay_answer']);
const faultOf = (kind: FaultKind, random: () => number): Fault => {
  switch (kind) {
    case 'delay_answer':
      return { kind, ms: 300 };
    case 'server_error':
      return { kind, status: ([500, 502, 503, 504] as const)[Math.floor(random() * 4)]! };
    case 'rate_limit':
      return { kind, retryAfterSeconds: 1 };
    case 'ban':
      return { kind, seconds: 1 };
    case 'partial_fill':
      return { kind, share: '0.5' };
    default:
      return { kind } as Fault;
  }
};

/** A tight ladder: the seeded walk (up to ±0.5 % a step) trades it every few steps. */
const TIGHT = {
  levels: JSON.stringify([
    { dropPercent: '0.1', multiple: '1' },
    { dropPercent: '0.25', multiple: '2' },
  ]),
  take_profit_percent: '0.3',
  take_profit_callback_percent: '0',
  replenish_callback_percent: '0',
  stop_loss_percent: null,
  cooldown_seconds: 0,
};

const SYMBOLS = [
  { task: 'BTC/USDT', base: 'BTC' },
  { task: 'DOGE/USDT', base: 'DOGE' },
];
const OKX_SYMBOLS = [
  { task: 'BTC/USDT', base: 'BTC' },
  { task: 'ETH/USDT', base: 'ETH' },
];
const OKX_TASKS_PER_ACCOUNT = 10;
const okxTasksOf = (options: SoakOptions) => options.okxTasks ?? Math.round(options.tasks / 5);
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const seedBooks = async (db: Db, local: LocalBinance, okx: LocalOkx, masterKey: string, options: SoakOptions, random: () => number) => {
  const box = createSecretBox(masterKey);
  const key = () => Array.from({ length: 64 }, () => ALPHANUMERIC[Math.floor(random() * ALPHANUMERIC.length)]).join('');
  const perUser = Math.ceil(options.tasks / options.users);
  const owners: { userId: string; accountId: string; strategyId: string }[] = [];
  for (let u = 0; u < options.users; u += 1) {
    const owner = await db
      .insertInto('users')
      .values({ email: `soak${u}@example.com`, nickname: `Soak ${u}`, password_hash: 'x', invite_code: `SOAK${u}`, inviter_id: null, avatar: null, activated: true } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.transaction().execute((trx) =>
      post(trx, { kind: 'adjustment', userId: null, moves: [{ from: system('adjustments', 'FUEL'), to: ledgerUser(owner.id, 'FUEL'), amount: '1000000' }], memo: { reason: 'soak' } }),
    );
    const credentials = { apiKey: key(), secret: key() };
    // Every other account pays its fees in BNB; the others in the coin received.
    local.addAccount(credentials.apiKey, credentials.secret, { USDT: String(perUser * 60), BNB: u % 2 === 0 ? '1' : '0' }, { payFeesInBnb: u % 2 === 0 });
    const account = await db
      .insertInto('exchange_accounts')
      .values({ user_id: owner.id, exchange: 'binance', name: 'Binance', api_key_hint: `${credentials.apiKey.slice(0, 4)}****`, ...sealCredentials(box, owner.id, credentials) } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const strategy = await db.insertInto('strategies').values({ user_id: owner.id, name: 'Tight', ...TIGHT } as never).returning('id').executeTakeFirstOrThrow();
    owners.push({ userId: owner.id, accountId: account.id, strategyId: strategy.id });
  }
  // OKX: an account of its own for each of the first users, ten tasks on it.
  const okxTasks = okxTasksOf(options);
  const okxOwners: typeof owners = [];
  for (let u = 0; u < Math.min(options.users, Math.ceil(okxTasks / OKX_TASKS_PER_ACCOUNT)); u += 1) {
    const owner = owners[u]!;
    const credentials = { apiKey: key(), secret: key(), password: `Soak-${key().slice(0, 12)}` };
    okx.addAccount(credentials.apiKey, credentials.secret, credentials.password, { USDT: String(OKX_TASKS_PER_ACCOUNT * 60) });
    const account = await db
      .insertInto('exchange_accounts')
      .values({ user_id: owner.userId, exchange: 'okx', name: 'OKX', api_key_hint: `${credentials.apiKey.slice(0, 4)}****`, ...sealCredentials(box, owner.userId, credentials) } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    okxOwners.push({ ...owner, accountId: account.id });
  }
  /** The i-th running task of an owner on a pair: first orders of 10 to 14 USDT, cycles until stopped. */
  const taskRow = (owner: { userId: string; accountId: string; strategyId: string }, symbol: string, i: number) => ({
    user_id: owner.userId,
    exchange_account_id: owner.accountId,
    symbol,
    strategy_id: owner.strategyId,
    first_order_amount: String(10 + (i % 5)),
    first_order_multiple: false,
    cycle_count: 9999,
    running: true,
    replenish_status: 'replenish_open' as const,
    state: JSON.stringify(initialCycleState()),
  });
  if (okxTasks > 0) {
    await db
      .insertInto('trade_tasks')
      .values(Array.from({ length: okxTasks }, (_, i) => taskRow(okxOwners[i % okxOwners.length]!, OKX_SYMBOLS[Math.floor(i / okxOwners.length) % OKX_SYMBOLS.length]!.task, i)))
      .execute();
  }
  for (let offset = 0; offset < options.tasks; offset += 500) {
    await db
      .insertInto('trade_tasks')
      .values(
        Array.from({ length: Math.min(500, options.tasks - offset) }, (_, j) => {
          const i = offset + j;
          return taskRow(owners[i % options.users]!, SYMBOLS[Math.floor(i / options.users) % SYMBOLS.length]!.task, i);
        }),
      )
      .execute();
  }
  return owners;
};

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

/** The engine: a child process on PostgreSQL, or a runner here. */
interface Engine {
  restart(): Promise<void>;
  /** Lets the engine work for a while (a tick here; the time of a tick there). */
  step(): Promise<void>;
  stop(): Promise<void>;
}

const processEngine = async (url: string, schema: string, masterKey: string, origin: string, okxOrigin: string, tickMs: number): Promise<Engine> => {
  let child: ChildProcess;
  const start = async () => {
    child = spawn(process.execPath, ['--import', 'tsx', join('server', 'test', 'localExchange', 'soakEngine.ts')], {
      cwd: process.cwd(),
      env: { ...process.env, SOAK_DATABASE_URL: url, SOAK_SCHEMA: schema, SOAK_MASTER_KEY: masterKey, SOAK_BINANCE: origin, SOAK_OKX: okxOrigin, SOAK_TICK_MS: String(tickMs), SOAK_TIMEOUT_MS: String(SOAK_TIMEOUT_MS) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += String(chunk)));
    const started = Date.now();
    while (!output.includes('"ready"')) {
      if (child.exitCode !== null) throw new Error(`the engine process ended at start (${child.exitCode})`);
      if (Date.now() - started > 60_000) throw new Error('the engine process did not start');
      await wait(25);
    }
  };
  await start();
  const ended = (target: ChildProcess) => new Promise((resolve) => (target.exitCode !== null || target.signalCode !== null ? resolve(null) : target.once('exit', resolve)));
  return {
    async restart() {
      child.kill('SIGKILL');
      await ended(child);
      await start();
    },
    async step() {
      await wait(tickMs);
    },
    async stop() {
      child.kill('SIGTERM');
      await ended(child);
    },
  };
};

const inlineEngine = async (db: Db, masterKey: string, origin: string, okxOrigin: string): Promise<Engine> => {
  const log = Fastify({ logger: { level: 'silent' } }).log;
  // The engines in turn share one budget of the exchange's weight, as they share this process's address.
  const exchangeShared = createExchangeShared(processPauses);
  const make = () =>
    createRunner({ db, domains: engineDomains, log, seed: 42, tickMs: 0, exchangeMasterKey: masterKey, createExchange: pointedAt({ [BINANCE_ORIGIN]: origin, [OKX_ORIGIN]: okxOrigin }, { timeoutMs: SOAK_TIMEOUT_MS }), exchangeShared, tickerFeed: null });
  let runner: Runner = make();
  await runner.start();
  return {
    async restart() {
      // Dropped without stop(): what it held in memory is gone, as after a kill between two ticks.
      runner = make();
      await runner.start();
    },
    async step() {
      await runner.tick();
      await runner.idle();
    },
    async stop() {
      await runner.stop();
    },
  };
};

export interface SoakReport {
  database: 'pglite' | 'postgresql';
  users: number;
  tasks: number;
  okxTasks: number;
  seconds: number;
  restarts: number;
  ordersPlaced: number;
  fills: number;
  /** Orders placed and fills on each exchange. */
  byExchange: { binance: { orders: number; fills: number }; okx: { orders: number; fills: number } };
  duplicates: number;
  unknownToEngine: number;
  fillsMissing: number;
  positionsDisagreeing: number;
  peakWeightPerMinute: number;
  weightLimit: number;
  faults: Record<FaultKind | OkxFaultKind, { met: number; clearMs: { p50: number; max: number } }>;
  /** Every goal met, and something traded. */
  ok: boolean;
}

export const runExchangeSoak = async (options: SoakOptions): Promise<SoakReport> => {
  const tickMs = options.tickMs ?? 250;
  const random = seeded(options.seed);
  const local = await startLocalBinance({ seed: options.seed, levelQty: { BTCUSDT: '0.0001', DOGEUSDT: '50' } });
  const okx = await startLocalOkx({ seed: options.seed + 1 });
  const okxTasks = okxTasksOf(options);
  const url = options.databaseUrl;
  const schema = url ? `soak_${process.pid}_${Date.now() % 100_000}` : 'public';
  const db = url ? await openDatabase({ url, schema }) : await openDatabase({ pglite: new PGlite() });
  const masterKey = randomBytes(32).toString('hex');
  const began = Date.now();
  try {
    await migrate(db, schema);
    await seedBooks(db, local, okx, masterKey, options, random);
    const engine = url ? await processEngine(url, schema, masterKey, local.origin, okx.origin, tickMs) : await inlineEngine(db, masterKey, local.origin, okx.origin);

    // ------------------------------------------------------------ faults
    // A clock skew lasts until a request meets it (-1021) and a second more, or 15 s (the engine may be holding back for the weight limit).
    const skews: { at: number; end: number }[] = [];
    let skewMs = 0;
    const skewHit = (skew: { at: number; end: number }) => local.requests.find((request) => request.at >= skew.at && request.at < skew.end && request.code === -1021);
    // Counted as requests come: scanning every request at each step made this process (the local exchange's) answer late.
    const skewsMet = new Set<{ at: number; end: number }>();
    const met = (kind: FaultKind | OkxFaultKind) => {
      if (kind.startsWith('okx_')) return okx.faultsMet(okxKindOf(kind as OkxFaultKind));
      if (kind !== 'clock_skew') return local.faultsMet(kind as FaultKind);
      for (const skew of skews) if (!skewsMet.has(skew) && skewHit(skew)) skewsMet.add(skew);
      return skewsMet.size;
    };
    const kinds = okxTasks > 0 ? ALL_FAULT_KINDS : FAULT_KINDS;
    const short = () => kinds.filter((kind) => met(kind) < options.faultsPerKind);
    const deadline = began + (options.maxSeconds ?? 3_600) * 1_000;
    /** Whether an exchange may be given its next fault: the last one met (or given up after 5 s) and a few requests since; always with a gap of 0. */
    const gate = (metTotal: () => number, requests: () => number, gap: number, clear: () => void) => {
      let armed: { met: number; requests: number; at: number } | undefined;
      return {
        arm() {
          armed = { met: metTotal(), requests: requests(), at: Date.now() };
        },
        ready() {
          if (!armed || gap === 0) return true;
          if (metTotal() > armed.met) return requests() - armed.requests >= gap;
          if (Date.now() - armed.at < 5_000) return false;
          clear();
          return true;
        },
      };
    };
    const gates = {
      binance: gate(() => FAULT_KINDS.reduce((sum, kind) => sum + (kind === 'clock_skew' ? 0 : local.faultsMet(kind)), 0), () => local.requests.length, options.faultGap ?? FAULT_GAP, () => local.clearFaults()),
      okx: gate(() => OKX_FAULT_KINDS.reduce((sum, kind) => sum + okx.faultsMet(okxKindOf(kind)), 0), () => okx.requests.length, (options.faultGap ?? FAULT_GAP) / 4, () => okx.clearFaults()),
    };
    let restarted = 0;
    let steps = 0;
    let reportedMinute = 0;
    const total = kinds.length * options.faultsPerKind;
    while (Date.now() < deadline) {
      const missing = short();
      const done = kinds.reduce((sum, kind) => sum + Math.min(options.faultsPerKind, met(kind)), 0);
      // The restarts are spread over the run: at a quarter, a half and three quarters of the faults (three of them).
      if (restarted < options.restarts && done >= ((restarted + 1) * total) / (options.restarts + 1)) {
        options.progress?.(`restart ${restarted + 1} at ${done}/${total} faults`);
        await engine.restart();
        restarted += 1;
      }
      if (missing.length === 0 && restarted >= options.restarts) break;
      local.walk();
      okx.walk();
      // One fault queued at a time per exchange, on a request the engine makes (those of the last steps), once the last one
      // was met and the engine has asked that exchange a few more times: faults queued while the engine waits out a pause
      // would otherwise meet every request it sends when the pause ends, and it would never trade again.
      const binanceMissing = missing.filter((kind) => !kind.startsWith('okx_'));
      const okxMissing = missing.filter((kind) => kind.startsWith('okx_'));
      let kind: (typeof missing)[number] | undefined;
      if (gates.binance.ready()) kind = binanceMissing[Math.floor(random() * binanceMissing.length)];
      if (gates.okx.ready()) {
        const okxKind = okxMissing[Math.floor(random() * okxMissing.length)];
        // One order fault waiting at a time: the few OKX tasks place orders seldom, and a queue of them (too large stops a task) would starve the others.
        if (okxKind && !(OKX_ORDER_ONLY.has(okxKind as OkxFaultKind) && okx.queued(OKX_ORDER) > 0)) {
          gates.okx.arm();
          const recent = [...new Set(okx.requests.slice(-100).map((request) => request.endpoint))];
          // Order faults on an order; a 5XX or a late answer on a read the engine makes (not a cancel); 429 and maintenance on whatever it asks.
          const reads = recent.filter((endpoint) => endpoint.startsWith('GET '));
          const fitting = OKX_READ_ONLY.has(okxKind as OkxFaultKind) ? reads : recent;
          const endpoint = OKX_ORDER_ONLY.has(okxKind as OkxFaultKind) ? OKX_ORDER : fitting[Math.floor(random() * fitting.length)];
          if (endpoint) okx.fault(endpoint as OkxEndpoint, okxFaultOf(okxKind as OkxFaultKind, random));
        }
      }
      const skew = skews.at(-1);
      if (skew && skew.end === Infinity) {
        const hit = skewHit(skew);
        if ((hit && Date.now() - hit.at > 1_000) || Date.now() - skew.at > 15_000) skew.end = Date.now();
      } else if (kind === 'clock_skew') {
        // The exchange's clock falls 3 s further behind ours: our timestamps are ahead of its (-1021) until the engine reads its time.
        skewMs -= 3_000;
        local.skewClock(skewMs);
        skews.push({ at: Date.now(), end: Infinity });
      }
      if (kind && kind !== 'clock_skew' && !kind.startsWith('okx_')) {
        const binanceKind = kind as FaultKind;
        gates.binance.arm();
        const recent = [...new Set(local.requests.slice(-200).map((request) => request.endpoint))];
        const fitting = recent.filter((endpoint) => (ORDER_ONLY.has(binanceKind) ? endpoint === 'POST /order' : endpoint !== 'POST /order' || binanceKind !== 'server_error'));
        const endpoint = fitting[Math.floor(random() * fitting.length)];
        if (endpoint) local.fault(endpoint as never, faultOf(binanceKind, random));
      }
      const stepStarted = Date.now();
      await engine.step();
      steps += 1;
      const minute = local.minutes().at(-2);
      if (minute && minute.minute !== reportedMinute) {
        reportedMinute = minute.minute;
        const banned = local.requests.filter((request) => Math.floor(request.at / 60_000) === minute.minute);
        options.progress?.(`minute ${new Date(minute.minute * 60_000).toISOString().slice(11, 16)}: weight ${minute.used} of ${local.weightLimit}; ${banned.filter((r) => r.status === 429).length} x 429, ${banned.filter((r) => r.status === 418).length} x 418 (${banned.filter((r) => r.status === 418 && !r.fault).length} not injected); bans earned ${JSON.stringify(banned.filter((r) => r.banAfterRateLimitMs !== undefined).map((r) => [r.endpoint, r.banAfterRateLimitMs]))}`);
      }
      if (steps % 20 === 0) options.progress?.(`step ${steps} (${Date.now() - stepStarted} ms): ${kinds.map((k) => `${k} ${met(k)}`).join(', ')}; ${local.orders.length} + ${okx.orders.length} orders; last request ${JSON.stringify(((last) => last && [last.endpoint, last.status, last.code, Date.now() - last.at])(local.requests.at(-1)))}`);
    }

    // ------------------------------------------------------------ settle
    // Prices held, no more faults: every lost answer is looked up, every order settled.
    // Up to past a whole weight window and a 2-minute ban: an engine at its weight budget may hold its lookups until the next minute.
    const settleUntil = Date.now() + 150_000;
    for (;;) {
      local.clearFaults();
      okx.clearFaults();
      await engine.step();
      const waiting = await db.selectFrom('orders').select((eb) => eb.fn.countAll<string>().as('n')).where('status', '=', 'intent').executeTakeFirstOrThrow();
      if (Number(waiting.n) === 0 || Date.now() > settleUntil) break;
    }
    await engine.step();
    await engine.stop();

    // ------------------------------------------------------------ the books against the exchange's
    if (process.env.SOAK_DEBUG) {
      // What was asked, per endpoint, and the tasks that stopped for a reason of their own.
      const asked: Record<string, number> = {};
      for (const request of local.requests) asked[request.endpoint] = (asked[request.endpoint] ?? 0) + 1;
      const stopped = await db.selectFrom('trade_tasks').select(['id', 'attention']).where('attention', 'is not', null).execute();
      options.progress?.(JSON.stringify({ asked, stopped }));
    }
    const rows = await db.selectFrom('orders').select(['client_order_id', 'exchange_order_id', 'filled', 'status']).execute();
    const byClient = new Map(rows.map((row) => [row.client_order_id, row]));
    const clientIds = local.orders.map((order) => order.clientOrderId);
    const okxClientIds = okx.orders.map((order) => `${order.account.apiKey}:${order.clOrdId}`);
    const duplicates = clientIds.length - new Set(clientIds).size + okxClientIds.length - new Set(okxClientIds).size;
    let unknownToEngine = 0;
    let fillsMissing = 0;
    for (const order of local.orders) {
      const row = byClient.get(order.clientOrderId);
      if (!row) {
        unknownToEngine += 1;
        if (order.executedQty.gt(0)) fillsMissing += 1;
        continue;
      }
      if (!new Big(row.filled).eq(order.executedQty)) {
        fillsMissing += 1;
        options.progress?.(`fill missing: ${JSON.stringify({ row, exchange: { status: order.status, executedQty: order.executedQty, side: order.side, type: order.type, stuck: order.stuck } })}`);
      }
    }
    for (const order of okx.orders) {
      const row = byClient.get(order.clOrdId);
      if (!row) {
        unknownToEngine += 1;
        if (order.accFillSz.gt(0)) fillsMissing += 1;
        continue;
      }
      if (!new Big(row.filled).eq(order.accFillSz)) {
        fillsMissing += 1;
        options.progress?.(`fill missing on OKX: ${JSON.stringify({ row, exchange: { state: order.state, accFillSz: order.accFillSz, side: order.side } })}`);
      }
    }
    // Per account and coin: the quantities its tasks carry against what the exchange holds.
    const tasks = await db.selectFrom('trade_tasks').select(['exchange_account_id', 'symbol', 'state']).execute();
    const held = new Map<string, Big>();
    for (const task of tasks) {
      const key = `${task.exchange_account_id}:${task.symbol}`;
      held.set(key, (held.get(key) ?? new Big(0)).plus(String((task.state as { quantity?: string }).quantity ?? '0')));
    }
    const accounts = await db.selectFrom('exchange_accounts').select(['id', 'user_id', 'exchange', 'api_key_ciphertext']).execute();
    const box = createSecretBox(masterKey);
    let positionsDisagreeing = 0;
    for (const account of accounts) {
      const apiKey = box.open(account.api_key_ciphertext!, `exchange_accounts:${account.user_id}:apiKey`);
      for (const symbol of account.exchange === 'okx' ? OKX_SYMBOLS : SYMBOLS) {
        const books = held.get(`${account.id}:${symbol.task}`) ?? new Big(0);
        const balance = account.exchange === 'okx' ? new Big(okx.balance(apiKey, symbol.base)) : ((b) => new Big(b.free).plus(b.locked))(local.balance(apiKey, symbol.base));
        if (!books.eq(balance)) {
          positionsDisagreeing += 1;
          const mine = await db.selectFrom('trade_tasks').select(['id', 'state', 'attention']).where('exchange_account_id', '=', account.id).where('symbol', '=', symbol.task).execute();
          options.progress?.(`position disagrees: ${JSON.stringify({ exchange: account.exchange, symbol: symbol.task, books: books.toFixed(), balance: balance.toFixed(), tasks: mine })}`);
        }
      }
    }

    // How long each fault kind took to clear: for an order, from the request it met to its outcome stored by the engine;
    // else to the next answered request (the same account's for a signed one).
    const settledAt = new Map(
      (await db.selectFrom('orders').select(['client_order_id', 'status', 'updated_at']).execute()).filter((row) => row.status !== 'intent').map((row) => [row.client_order_id, new Date(row.updated_at).getTime()]),
    );
    const okxFaults = OKX_FAULT_KINDS.map((kind) => {
      const hits = okx.requests.filter((request) => request.fault === okxKindOf(kind));
      const clear = hits
        .map((hit) => {
          const settled = hit.endpoint === OKX_ORDER ? settledAt.get(hit.clOrdId ?? '') : undefined;
          if (settled !== undefined) return Math.max(0, settled - hit.at);
          const index = okx.requests.indexOf(hit);
          const next = okx.requests.slice(index + 1).find((request) => request.status === 200 && !request.code && (!hit.apiKey || request.apiKey === hit.apiKey));
          return next ? next.at - hit.at : null;
        })
        .filter((ms): ms is number => ms !== null)
        .sort((a, b) => a - b);
      return [kind, { met: hits.length, clearMs: { p50: percentile(clear, 50), max: clear.at(-1) ?? 0 } }] as const;
    });
    const faults = Object.fromEntries([
      ...okxFaults,
      ...FAULT_KINDS.map((kind) => {
        const hits =
          kind === 'clock_skew'
            ? skews.map(skewHit).filter((request) => request !== undefined)
            : local.requests.filter((request) => request.fault === kind);
        const clear = hits
          .map((hit) => {
            const settled = hit.endpoint === 'POST /order' ? settledAt.get(hit.query.get('newClientOrderId') ?? '') : undefined;
            if (settled !== undefined) return Math.max(0, settled - hit.at);
            const index = local.requests.indexOf(hit);
            const next = local.requests.slice(index + 1).find((request) => request.status === 200 && request.at >= hit.at && (!hit.apiKey || request.apiKey === hit.apiKey));
            return next ? next.at - hit.at : null;
          })
          .filter((ms): ms is number => ms !== null)
          .sort((a, b) => a - b);
        return [kind, { met: hits.length, clearMs: { p50: percentile(clear, 50), max: clear.at(-1) ?? 0 } }] as const;
      }),
    ]) as SoakReport['faults'];

    const report: SoakReport = {
      database: url ? 'postgresql' : 'pglite',
      users: options.users,
      tasks: options.tasks,
      okxTasks,
      seconds: Number(((Date.now() - began) / 1000).toFixed(1)),
      restarts: restarted,
      ordersPlaced: local.orders.length + okx.orders.length,
      fills: local.trades.length + okx.fills.length,
      byExchange: { binance: { orders: local.orders.length, fills: local.trades.length }, okx: { orders: okx.orders.length, fills: okx.fills.length } },
      duplicates,
      unknownToEngine,
      fillsMissing,
      positionsDisagreeing,
      peakWeightPerMinute: local.peakWeight(),
      weightLimit: local.weightLimit,
      faults,
      ok: false,
    };
    report.ok =
      report.byExchange.binance.orders > 0 &&
      (okxTasks === 0 || report.byExchange.okx.orders > 0) &&
      report.duplicates === 0 &&
      report.unknownToEngine === 0 &&
      report.fillsMissing === 0 &&
      report.positionsDisagreeing === 0 &&
      report.peakWeightPerMinute <= report.weightLimit &&
      report.restarts === options.restarts &&
      kinds.every((kind) => report.faults[kind].met >= options.faultsPerKind);
    return report;
  } finally {
    if (url) await dropSchema(db, schema);
    await db.destroy();
    await local.close();
    await okx.close();
  }
};
