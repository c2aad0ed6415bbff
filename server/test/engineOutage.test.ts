import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMarket, PAPER_MARKETS, type SimulatedMarket } from '../src/engine/venues/paper/market';
import { BACKENDS, closedOrders, quickStrategy, registerUser, startServer, taskPayload, type TestServer } from './harness';
import { checkMoney } from './invariants';

/**
 * An outage of what every task shares (design section 5) pauses no task: the
 * database refusing every write for a while, or the paper venue pricing no
 * pair. It is reported once, in the engine status and the log; the tasks go
 * on when it ends, and no order is lost or doubled.
 */

/** The seeded walk, with pairs whose price call throws while a test says so. */
const unreachableMarket = () => {
  const inner = createMarket(42, Date.UTC(2024, 0, 1), PAPER_MARKETS);
  const down = new Set<string>();
  const check = (symbol: string) => {
    if (down.has(symbol)) throw new Error(`price feed of ${symbol} unreachable`);
  };
  const market: SimulatedMarket = {
    ...inner,
    price: (symbol) => (check(symbol), inner.price(symbol)),
    bestPrices: (symbol) => (check(symbol), inner.bestPrices(symbol)),
    ticker: (symbol) => (check(symbol), inner.ticker(symbol)),
  };
  return { market, down };
};

describe.each(BACKENDS)('a shared outage (%s)', (backend) => {
  let server: TestServer;
  let down: Set<string>;
  let token: string;
  let exchangeId: string;
  let strategyId: string;

  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token });
  const addTask = async (symbol: string) => {
    const created = await call('POST', '/api/trade/add', taskPayload(exchangeId, strategyId, { coinIdList: [symbol] }));
    expect(created.body.code).toBe(0);
    return created.body.data[0].id as string;
  };
  const orderCount = (taskId: string) => closedOrders(server, taskId);
  const eventKinds = async (taskId: string) => (await server.db.selectFrom('task_events').select('kind').where('task_id', '=', taskId).orderBy('id').execute()).map((e) => e.kind);
  const logLines = (text: string) => server.logs.filter((line) => line.includes(text)).length;
  const tick = () => server.app.engine.tick();

  beforeEach(async () => {
    const built = unreachableMarket();
    down = built.down;
    server = await startServer(backend, {}, { market: built.market });
    token = (await registerUser(server, { email: 'outage@example.com', activated: true })).accessToken;
    exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper' })).body.data.id;
    strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id;
  });
  afterEach(async () => server.close());

  it('waits out a database write outage: no task fails or pauses, the outage is reported once, trading resumes, no order lost or doubled', async () => {
    const ids = [await addTask('ETH/USDT'), await addTask('SOL/USDT'), await addTask('BNB/USDT')];
    await tick();
    for (const id of ids) expect(await orderCount(id)).toBe(1);
    // The database refuses every write of the engine's journal, as a server gone read-only in a failover does (a real SQLSTATE).
    const tables = ['orders', 'task_events', 'trade_tasks', 'paper_balances'];
    await sql
      .raw(
        `create function refuse_writes() returns trigger language plpgsql as $$ begin
           raise exception 'cannot execute UPDATE in a read-only transaction' using errcode = 'read_only_sql_transaction'; end $$`,
      )
      .execute(server.db);
    for (const table of tables) await sql.raw(`create trigger refuse_writes before insert or update or delete on ${table} for each statement execute function refuse_writes()`).execute(server.db);
    // Long enough for the old rule to pause a task eight times over (its backoff doubles: 1, 2, 4 ... 64 ticks).
    const OUTAGE_TICKS = 140;
    for (let i = 0; i < OUTAGE_TICKS; i += 1) await tick();
    const during = server.app.engine.status();
    // Seen at the first write it refused; from then on every tick failed, and is counted as failed.
    expect(during.outages).toEqual([{ dependency: 'database', exchange: null, since: expect.any(String), failedTicks: expect.any(Number), message: expect.stringContaining('read-only') }]);
    const failed = during.outages[0]!.failedTicks;
    expect(failed).toBeGreaterThan(OUTAGE_TICKS - 30);
    expect(during.failedTicks).toBe(failed);
    expect(during.tasks).toEqual({ loaded: 3, running: 3, attention: 0, failing: 0 });
    expect(logLines('database is down')).toBe(1);
    expect(logLines('task failed')).toBe(0);

    for (const table of tables) await sql.raw(`drop trigger refuse_writes on ${table}`).execute(server.db);
    await tick();
    const after = server.app.engine.status();
    expect(after.outages).toEqual([]);
    expect(after.failedTicks).toBe(failed);
    expect(logLines('database is back')).toBe(1);
    // Nothing was paused nor marked: every task runs on, with no error of its own.
    for (const id of ids) {
      expect(server.app.engine.tasks.get(id)).toMatchObject({ failures: 0, attention: null, params: expect.objectContaining({ running: true }) });
      expect((await eventKinds(id))).not.toContain('error');
    }
    expect(await server.db.selectFrom('trade_tasks').select('running').where('id', 'in', ids).execute()).toEqual(ids.map(() => ({ running: true })));
    // Trading goes on: a new task buys at once, and the journal agrees with the paper accounts to the last unit.
    const next = await addTask('XRP/USDT');
    await tick();
    expect(await orderCount(next)).toBe(1);
    for (let i = 0; i < 20; i += 1) await tick();
    const doubled = await sql<{ n: number }>`
      select count(*)::int as n from (select task_id, cycle, side, level from orders where status = 'closed' and side = 'buy' group by 1, 2, 3, 4 having count(*) > 1) d`.execute(server.db);
    expect(doubled.rows[0]!.n).toBe(0);
    await checkMoney(server);
  });

  it('waits out a paper venue that prices no pair: one outage, not a failure per pair, and trading resumes', async () => {
    const ids = [await addTask('ETH/USDT'), await addTask('SOL/USDT')];
    await tick();
    for (const symbol of ['ETH/USDT', 'SOL/USDT']) down.add(symbol);
    for (let i = 0; i < 10; i += 1) await tick();
    const during = server.app.engine.status();
    expect(during.outages).toEqual([{ dependency: 'exchange', exchange: 'simulator', since: expect.any(String), failedTicks: 0, message: expect.stringContaining('unreachable') }]);
    expect(during.failedTicks).toBe(0);
    expect(logLines('exchange:simulator is down')).toBe(1);
    expect(logLines('no price for the symbol')).toBe(0);
    down.clear();
    await tick();
    expect(server.app.engine.status()).toMatchObject({ outages: [], unusablePrices: [], tasks: { loaded: 2, running: 2, attention: 0, failing: 0 } });
    expect(logLines('exchange:simulator is back')).toBe(1);
    for (const id of ids) expect((await eventKinds(id))).not.toContain('error');
    const next = await addTask('BNB/USDT');
    await tick();
    expect(await orderCount(next)).toBe(1);
    await checkMoney(server);
  });

});

describe.skipIf(!process.env.TEST_DATABASE_URL)('the database closing every connection (a restart or a failover, PostgreSQL)', () => {
  let server: TestServer;
  afterEach(async () => server.close());

  it('crashes nothing (the pool drops the ended connections), fails no task, and trading goes on with new connections', async () => {
    server = await startServer('postgres');
    const token = (await registerUser(server, { email: 'restart@example.com', activated: true })).accessToken;
    const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token });
    const exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper' })).body.data.id;
    const strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id;
    const add = async (symbol: string) => (await call('POST', '/api/trade/add', { exchangeId, coinIdList: [symbol], cycleCount: 9999, firstOrderAmount: '10', firstOrderMultiple: false, running: true, replenishStatus: 'replenish_open', strategyId })).body.data[0].id as string;
    const first = await add('ETH/USDT');
    await server.app.engine.tick();
    // Several connections open in the pool, then idle in it.
    await Promise.all(Array.from({ length: 4 }, () => sql`select pg_sleep(0.05)`.execute(server.db)));
    // Every other connection of this database is ended by the server, idle ones included (what a restart does to a pool).
    const ended = await sql<{ n: number }>`
      select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()) t`.execute(server.db);
    expect(ended.rows[0]!.n).toBeGreaterThan(0);
    for (let i = 0; i < 5; i += 1) await server.app.engine.tick();
    const next = await add('SOL/USDT');
    await server.app.engine.tick();
    const filled = await server.db.selectFrom('orders').select('task_id').where('status', '=', 'closed').where('task_id', 'in', [first, next]).execute();
    expect(new Set(filled.map((row) => row.task_id))).toEqual(new Set([first, next]));
    expect(server.app.engine.tasks.get(first)).toMatchObject({ failures: 0, attention: null });
    expect(server.app.engine.status().outages).toEqual([]);
    await checkMoney(server);
  });
});
