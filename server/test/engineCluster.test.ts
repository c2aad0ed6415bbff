import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Big from 'big.js';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { dropSchema, migrate, openDatabase, type Db } from '../src/db/database';
import { initialCycleState } from '../src/engine/core/decide';
import { PAPER_MARKETS, type PaperTicker } from '../src/engine/venues/paper/market';
import Fastify from 'fastify';
import { createLeases, FencedError } from '../src/engine/store/shards';
import { createEngineStore, emptyWrites, SHARD_COUNT } from '../src/engine/store/journal';
import { post, system, user as ledgerUser } from '../src/wallet/ledger';
import { quickStrategy, registerUser, startServer } from './harness';
import { checkMoneyInDb } from './invariants';
import { DEFAULT_SETTINGS, writeSettings } from '../src/settings';

/**
 * Several engine processes on one PostgreSQL (issue: engine at scale): each
 * shard is driven by one process at a time; when one is killed with SIGKILL
 * in the middle of its orders, the others take its shards within 15 s, no
 * task is traded twice, no order is lost, and the money reconciles: every
 * paper account's coins are its tasks' positions, its quote is its start
 * plus sales minus buys, and the fuel charged is what the ledger moved.
 */
const url = process.env.TEST_DATABASE_URL;
const ACCOUNTS = 32;
const TASKS_PER_ACCOUNT = 6;
const FUEL = '100000';
/** Short leases (renewed every 750 ms): a killed process's shards move in about 4 s, and the fence keeps a stalled one from trading them. */
const LEASE_MS = 3_000;

/** A tight ladder, so the simulated market trades it within seconds. */
const TIGHT = {
  levels: JSON.stringify([
    { dropPercent: '0.05', multiple: '1' },
    { dropPercent: '0.1', multiple: '2' },
    { dropPercent: '0.2', multiple: '4' },
  ]),
  take_profit_percent: '0.3',
  take_profit_callback_percent: '0',
  replenish_callback_percent: '0',
  stop_loss_percent: null,
  cooldown_seconds: 0,
};

const seed = async (db: Db) => {
  const owner = await db.insertInto('users').values({ email: 'cluster@example.com', nickname: 'Cluster', password_hash: 'x', invite_code: 'CLUSTER', inviter_id: null, avatar: null, activated: true } as never).returning('id').executeTakeFirstOrThrow();
  await db.transaction().execute((trx) => post(trx, { kind: 'adjustment', userId: null, moves: [{ from: system('adjustments', 'FUEL'), to: ledgerUser(owner.id, 'FUEL'), amount: FUEL }], memo: { reason: 'test' } }));
  const strategy = await db.insertInto('strategies').values({ user_id: owner.id, name: 'Tight', ...TIGHT } as never).returning('id').executeTakeFirstOrThrow();
  for (let a = 0; a < ACCOUNTS; a += 1) {
    const account = await db
      .insertInto('exchange_accounts')
      .values({ user_id: owner.id, exchange: 'paper', name: `Paper ${a}`, paper_balances: JSON.stringify({ USDT: '5000' }) } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('trade_tasks')
      .values(
        Array.from({ length: TASKS_PER_ACCOUNT }, (_, t) => ({
          user_id: owner.id,
          exchange_account_id: account.id,
          symbol: PAPER_MARKETS[(a * TASKS_PER_ACCOUNT + t) % PAPER_MARKETS.length]!.symbol,
          strategy_id: strategy.id,
          first_order_amount: String(10 + t),
          first_order_multiple: false,
          cycle_count: 9999,
          running: true,
          replenish_status: 'replenish_open' as const,
          state: JSON.stringify(initialCycleState()),
        })),
      )
      .execute();
  }
  return owner.id;
};

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (what: string, check: () => Promise<boolean>, timeoutMs: number) => {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await wait(200);
  }
  return Date.now() - started;
};

describe.skipIf(!url)('engine processes sharing one PostgreSQL', () => {
  let db: Db;
  let schema: string;
  const children: ChildProcess[] = [];

  const startEngine = (on = schema) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join('server', 'test', 'clusterEngine.ts')], {
      cwd: process.cwd(),
      env: { ...process.env, CLUSTER_DATABASE_URL: url, CLUSTER_SCHEMA: on, CLUSTER_TICK_MS: '100', CLUSTER_LEASE_MS: String(LEASE_MS) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += String(chunk)));
    child.stderr!.on('data', (chunk) => (output += String(chunk)));
    children.push(child);
    const ready = new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', () => {
        const line = output.split('\n').find((l) => l.includes('"ready"'));
        if (line) resolve((JSON.parse(line) as { owner: string }).owner);
      });
      child.on('exit', (code) => reject(new Error(`engine exited (${code}) before it was ready: ${output}`)));
    });
    return { child, ready, output: () => output };
  };

  const stop = async (child: ChildProcess) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };

  afterEach(async () => {
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    if (db) {
      await dropSchema(db, schema);
      await db.destroy();
      db = undefined as unknown as Db;
    }
  });

  const leases = () => sql<{ name: string; owner: string | null; live: boolean }>`select name, owner, expires_at > now() as live from engine_leases order by name`.execute(db).then((r) => r.rows);
  const ordersStored = async () => Number((await sql<{ n: string }>`select count(*) as n from orders`.execute(db)).rows[0]!.n);

  it.each([2, 3])('%i processes: a SIGKILL mid-orders loses nothing, doubles nothing, and its shards move within 15 s', async (processes) => {
    schema = `t_${randomBytes(6).toString('hex')}`;
    db = await openDatabase({ url, schema });
    await migrate(db, schema);
    const userId = await seed(db);

    const engines = Array.from({ length: processes }, () => startEngine());
    const owners = await Promise.all(engines.map((engine) => engine.ready));
    // Every shard leased, each process with its share, one of them running the market.
    await until('the shards to be shared out', async () => {
      const rows = await leases();
      const owners = new Set(rows.filter((r) => r.name.startsWith('shard:') && r.live).map((r) => r.owner));
      return rows.filter((r) => r.name.startsWith('shard:') && r.live).length === SHARD_COUNT && owners.size === processes;
    }, 20_000);
    await until('orders to flow', async () => (await ordersStored()) > ACCOUNTS * TASKS_PER_ACCOUNT, 30_000);

    // Kill one in the middle of its work: orders are being placed every tick.
    const victim = engines[0]!;
    const before = await ordersStored();
    victim.child.kill('SIGKILL');
    await new Promise((resolve) => victim.child.once('exit', resolve));
    const survivors = new Set(owners.slice(1));
    const takeover = await until('the survivors to take every shard', async () => {
      const rows = (await leases()).filter((r) => r.name.startsWith('shard:'));
      return rows.every((r) => r.live && r.owner !== null && survivors.has(r.owner));
    }, 20_000);
    expect(takeover).toBeLessThanOrEqual(15_000);
    console.info(`${processes} processes: shards taken over ${takeover} ms after the SIGKILL`);
    await until('trading to go on', async () => (await ordersStored()) > before + 50, 20_000);
    // The simulated prices are a seeded walk, so the first take profit comes at the
    // same simulated second on any machine; a slow one only needs longer to get there.
    await until('a cycle to complete', async () => Number((await sql<{ n: string }>`select count(*) as n from cycles`.execute(db)).rows[0]!.n) > 0, 120_000);
    await wait(1_000);
    for (const engine of engines.slice(1)) await stop(engine.child);

    // No order left half-way: paper orders are written whole.
    const intents = await sql<{ n: string }>`select count(*) as n from orders where status = 'intent'`.execute(db);
    expect(Number(intents.rows[0]!.n)).toBe(0);
    // No task traded twice: per task and cycle, one first order, one buy per level, one sale.
    const doubles = await sql<{ task_id: string; cycle: number; kind: string; n: string }>`
      select task_id, cycle, side || ':' || case when side = 'buy' then level::text else 'sell' end as kind, count(*) as n
      from orders where status = 'closed' group by 1, 2, 3 having count(*) > 1`.execute(db);
    expect(doubles.rows).toEqual([]);
    // The money reconciles, at the prices the market last published.
    const published = await db.selectFrom('paper_prices').select(['symbol', 'ticker']).execute();
    const bids = new Map(published.map((row) => [row.symbol, (row.ticker as unknown as PaperTicker).bid]));
    const report = await checkMoneyInDb(db, (symbol) => bids.get(symbol)!);
    expect(report.cycles).toBeGreaterThan(0);
    console.info(`${processes} processes: ${await ordersStored()} orders, ${report.cycles} cycles, money reconciled on ${report.accounts.length} accounts`);
    // Fuel: what the cycles were charged is what left the user's fuel account.
    const charged = await sql<{ total: string }>`select coalesce(sum(fuel_charged), 0)::text as total from cycles`.execute(db);
    const fuel = await sql<{ balance: string }>`select balance::text from ledger_accounts where user_id = ${userId} and asset = 'FUEL' and kind = 'available'`.execute(db);
    expect(new Big(FUEL).minus(fuel.rows[0]!.balance).eq(charged.rows[0]!.total)).toBe(true);
  }, 300_000);

  it('serves the API from a process without an engine (ENGINE=off) while an engine-only process drives the tasks', async () => {
    const api = await startServer('postgres', { engine: 'off' });
    try {
      expect(api.app.hasDecorator('engine')).toBe(false);
      const engine = startEngine(api.schema);
      await engine.ready;
      const { accessToken } = await registerUser(api, { email: 'split@example.com', activated: true });
      const call = (method: string, path: string, body?: unknown) => api.call(method, path, body, { token: accessToken });
      const exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper' })).body.data.id;
      // The prices the engine process publishes.
      await until('the engine to publish prices', async () => (await call('GET', `/api/trade/pairs?exchangeId=${exchangeId}&q=BTC`)).body.data?.list?.length === 1, 20_000);
      const strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id;
      const created = await call('POST', '/api/trade/add', {
        exchangeId,
        coinIdList: ['BTC/USDT'],
        cycleCount: 9999,
        firstOrderAmount: '10',
        firstOrderMultiple: false,
        running: true,
        replenishStatus: 'replenish_open',
        strategyId,
      });
      expect(created.body.code).toBe(0);
      const id = created.body.data[0].id as string;
      // The engine process picks the new task up from the API's command and trades it.
      await until('the first order', async () => (await call('GET', `/api/trade/order-history?taskId=${id}`)).body.data.total > 0, 20_000);
      expect((await call('POST', '/api/trade/action', { id, action: 'replenish' })).body.code).toBe(0);
      const closed = await call('POST', `/api/trade/close-order/${id}`);
      expect(closed.body).toMatchObject({ code: 0, data: { symbol: 'BTC/USDT' } });
      const detail = (await call('GET', `/api/trade/detail/${id}`)).body.data;
      expect(detail).toMatchObject({ running: false, quantity: closed.body.data.remainder });
      const orders = (await call('GET', `/api/trade/order-history?taskId=${id}`)).body.data.list.map((o: { side: string; reason: string }) => `${o.side}:${o.reason}`);
      expect(orders).toEqual(expect.arrayContaining(['sell:close', 'buy:replenish', 'buy:first']));
      await stop(engine.child);
    } finally {
      await api.close();
    }
  });

  it('creates 15 pairs through an API-only process in one round trip, even with the engine process frozen, and the engine then trades them all', async () => {
    const api = await startServer('postgres', { engine: 'off' });
    try {
      const engine = startEngine(api.schema);
      await engine.ready;
      await writeSettings(api.db, { levels: DEFAULT_SETTINGS.levels.map((level) => ({ ...level, taskLimit: 20 })) });
      const { accessToken } = await registerUser(api, { email: 'many@example.com', activated: true });
      const call = (method: string, path: string, body?: unknown) => api.call(method, path, body, { token: accessToken });
      const exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper' })).body.data.id;
      await until('the engine to publish prices', async () => (await call('GET', `/api/trade/pairs?exchangeId=${exchangeId}&q=BTC`)).body.data?.list?.length === 1, 20_000);
      const strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id;
      const pairs = PAPER_MARKETS.slice(0, 15).map((market) => market.symbol);
      // The engine process answers nothing while the creation runs: the answer must not wait for a tick of it.
      engine.child.kill('SIGSTOP');
      let created;
      try {
        created = await call('POST', '/api/trade/add', { exchangeId, coinIdList: pairs, cycleCount: 9999, firstOrderAmount: '10', firstOrderMultiple: false, running: true, replenishStatus: 'replenish_open', strategyId });
      } finally {
        engine.child.kill('SIGCONT');
      }
      expect(created.body.code).toBe(0);
      const ids = (created.body.data as { id: string }[]).map((task) => task.id);
      expect(ids).toHaveLength(15);
      // One reload command per pair, all left at once for the process that drives them.
      const commands = await api.db.selectFrom('engine_commands').select(['task_id', 'kind']).where('task_id', 'in', ids).execute();
      expect(commands.map((c) => c.kind)).toEqual(Array(15).fill('reload'));
      expect(new Set(commands.map((c) => c.task_id)).size).toBe(15);
      // Thawed, the engine picks them all up and each buys its first order.
      await until('every pair to buy', async () => (await api.db.selectFrom('orders').select('task_id').distinct().where('task_id', 'in', ids).where('status', '=', 'closed').execute()).length === 15, 30_000);
      await stop(engine.child);
    } finally {
      await api.close();
    }
  });

  it("refuses the writes of a process whose lease another took (the fence), and tells it it lost the shard", async () => {
    schema = `t_${randomBytes(6).toString('hex')}`;
    db = await openDatabase({ url, schema });
    await migrate(db, schema);
    const log = Fastify({ logger: { level: 'silent' } }).log;
    const lost: number[][] = [];
    const events = (name: string) => ({
      acquired: async () => undefined,
      lost: async (shards: number[]) => void (name === 'a' && lost.push(shards)),
      market: async () => undefined,
    });
    const a = createLeases({ db, log, events: events('a') });
    const b = createLeases({ db, log, events: events('b') });
    await a.start();
    expect(a.shards()).toHaveLength(SHARD_COUNT);
    // A pauses past its lease on shard 0; B joins and takes what is free or expired.
    await sql`update engine_leases set expires_at = now() - interval '1 second' where name = 'shard:0'`.execute(db);
    await b.start();
    expect(b.holdsShard(0)).toBe(true);
    const store = createEngineStore(db);
    const writes = { ...emptyWrites(), events: [] as { taskId: string; kind: string; data: Record<string, unknown> }[] };
    await expect(store.commit({ ...writes, commands: [{ id: '1', result: null }] }, { check: a.fence, shards: new Set([0]) })).rejects.toBeInstanceOf(FencedError);
    // B's own writes for the shard pass its fence.
    await store.commit({ ...writes, commands: [{ id: '1', result: null }] }, { check: b.fence, shards: new Set([0]) });
    await a.round();
    // First the shard B took; then, two processes being alive, A gives back what is beyond its half.
    expect(lost[0]).toEqual([0]);
    expect(a.holdsShard(0)).toBe(false);
    expect(a.shards().length + b.shards().length).toBeLessThanOrEqual(SHARD_COUNT);
    expect(a.shards()).toHaveLength(SHARD_COUNT / 2);
    // A tick of A's still in flight when its round noticed the loss (the round waits for it to
    // end before it drops the tasks) is refused too: a shard A no longer holds in memory is not
    // one it may write for, whether B took it or A gave it back.
    const givenBack = Array.from({ length: SHARD_COUNT }, (_, shard) => shard).find((shard) => shard !== 0 && !a.holdsShard(shard))!;
    for (const shard of [0, givenBack]) {
      await expect(store.commit({ ...writes, commands: [{ id: '1', result: null }] }, { check: a.fence, shards: new Set([shard]) })).rejects.toBeInstanceOf(FencedError);
    }
    await a.stop();
    await b.stop();
  });
});
