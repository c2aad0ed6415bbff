import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKENDS, quickStrategy, registerUser, startServer, type TestServer } from './harness';

/**
 * The task list is kept per user on PGlite (trade/listCache.ts) and dropped on
 * every write to what it shows, whoever writes: a list read after a change
 * shows the change, on both databases.
 */
describe.each(BACKENDS)('task list after changes (%s)', { timeout: 60_000 }, (backend) => {
  let server: TestServer;
  afterEach(async () => server?.close());

  it('shows every change on the next call, from the API, the engine or the database directly', async () => {
    server = await startServer(backend);
    const token = (await registerUser(server, { email: 'lists@example.com' })).accessToken;
    const other = await registerUser(server, { email: 'neighbour@example.com' });
    const call = (method: string, path: string, body?: unknown, as = token) => server.call(method, path, body, { token: as });
    const list = async (query = '') => (await call('GET', `/api/trade/list?pageSize=20${query}`)).body.data as { total: number; list: any[] };

    const exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper' })).body.data.id;
    const strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id;
    expect((await list()).total).toBe(0);
    const add = (coins: string[]) =>
      call('POST', '/api/trade/add', { exchangeId, coinIdList: coins, cycleCount: 9999, firstOrderAmount: '10', firstOrderMultiple: false, running: false, replenishStatus: 'replenish_open', strategyId });
    const [first] = (await add(['BTC/USDT'])).body.data as { id: string }[];
    expect((await list()).list.map((t) => t.id)).toEqual([first!.id]);
    await add(['ETH/USDT', 'SOL/USDT']);
    expect((await list()).total).toBe(3);
    expect((await list('&symbol=eth')).total).toBe(1);

    // The API changes a task.
    expect((await call('POST', '/api/trade/update', { id: first!.id, cycleCount: 3, firstOrderAmount: '12.5', firstOrderMultiple: true, running: false, status: 'replenish_closed', strategyId })).body.code).toBe(0);
    expect((await list()).list.find((t) => t.id === first!.id)).toMatchObject({ cycleCount: 3, firstOrderAmount: '12.5', status: 'replenish_closed' });

    // The engine trades it: a first order, then a cycle closed at a profit (stored by the engine).
    expect((await call('POST', '/api/trade/action', { id: first!.id, action: 'start' })).body.code).toBe(0);
    await server.app.engine.tick(1);
    expect((await list()).list.find((t) => t.id === first!.id)).toMatchObject({ running: true, levelsFilled: 0 });
    expect(Number((await list()).list.find((t) => t.id === first!.id).quantity)).toBeGreaterThan(0);

    // Other writers, straight into the database: a cycle's profit, the account's and the template's names.
    await sql`insert into cycles (task_id, user_id, cycle, buy_cost, sell_proceeds, realized_profit) select id, user_id, 77, 10, 10.5, 0.5 from trade_tasks where id = ${first!.id}`.execute(server.db);
    expect((await list()).list.find((t) => t.id === first!.id).realizedProfit).toBe('0.5');
    await server.db.updateTable('exchange_accounts').set({ name: 'Renamed' }).where('id', '=', exchangeId).execute();
    await server.db.updateTable('strategies').set({ name: 'Quicker' }).where('id', '=', strategyId).execute();
    expect((await list()).list.every((t) => t.exchangeName === 'Renamed' && t.strategyName === 'Quicker')).toBe(true);
    await server.db.deleteFrom('task_events').execute();
    await server.db.deleteFrom('trade_tasks').where('symbol', '=', 'SOL/USDT').execute();
    expect((await list()).total).toBe(2);

    // Another user's change leaves this list as it is, and their list is their own.
    expect((await call('GET', '/api/trade/list', undefined, other.accessToken)).body.data.total).toBe(0);
    expect((await list()).total).toBe(2);
  });
});
