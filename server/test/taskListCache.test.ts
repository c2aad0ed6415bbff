import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKENDS, quickStrategy, registerUser, startOtherProcess, startServer, type OtherProcess, type TestServer } from './harness';

/**
 * The task list and a task's detail are kept per user (db/userCache.ts)
 * and dropped on every write to what they show, whoever writes: a call after
 * a change through the API shows it, in every process; a change written
 * outside the API (the engine, the database directly) shows once its notice
 * is heard (at once on PGlite), on both databases.
 */
describe.each(BACKENDS)('task list after changes (%s)', { timeout: 60_000 }, (backend) => {
  let server: TestServer;
  let other: OtherProcess | undefined;
  afterEach(async () => {
    await other?.close();
    other = undefined;
    await server?.close();
  });
  /** This process has heard every notice committed so far (at once on PGlite). */
  const heard = () => server.app.sessionCache.sync();

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
    await heard();
    expect((await list()).list.find((t) => t.id === first!.id)).toMatchObject({ running: true, levelsFilled: 0 });
    expect(Number((await list()).list.find((t) => t.id === first!.id).quantity)).toBeGreaterThan(0);

    // Other writers, straight into the database: a cycle's profit, the account's and the template's names.
    await sql`insert into cycles (task_id, user_id, cycle, buy_cost, sell_proceeds, realized_profit) select id, user_id, 77, 10, 10.5, 0.5 from trade_tasks where id = ${first!.id}`.execute(server.db);
    await heard();
    expect((await list()).list.find((t) => t.id === first!.id).realizedProfit).toBe('0.5');
    await server.db.updateTable('exchange_accounts').set({ name: 'Renamed' }).where('id', '=', exchangeId).execute();
    await server.db.updateTable('strategies').set({ name: 'Quicker' }).where('id', '=', strategyId).execute();
    await heard();
    expect((await list()).list.every((t) => t.exchangeName === 'Renamed' && t.strategyName === 'Quicker')).toBe(true);
    await server.db.deleteFrom('task_events').execute();
    await server.db.deleteFrom('trade_tasks').where('symbol', '=', 'SOL/USDT').execute();
    await heard();
    expect((await list()).total).toBe(2);

    // Another user's change leaves this list as it is, and their list is their own.
    expect((await call('GET', '/api/trade/list', undefined, other.accessToken)).body.data.total).toBe(0);
    expect((await list()).total).toBe(2);
  });

  it('shows the live values at once: a price that moved, a position the engine changed, with no write between', async () => {
    server = await startServer(backend);
    const token = (await registerUser(server, { email: 'live@example.com' })).accessToken;
    const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token });
    const list = async () => {
      const answer = await call('GET', '/api/trade/list?pageSize=20');
      // The kept answer goes out as the envelope JSON, like every other answer.
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      return (answer.body.data as { list: any[] }).list;
    };
    const exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper' })).body.data.id;
    const strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id;
    const created = await call('POST', '/api/trade/add', {
      exchangeId, coinIdList: ['BTC/USDT', 'ETH/USDT'], cycleCount: 9999, firstOrderAmount: '10', firstOrderMultiple: false, running: false, replenishStatus: 'replenish_open', strategyId,
    });
    const [btc] = created.body.data as { id: string }[];
    const market = server.app.engine.market;
    const shown = async () => Object.fromEntries((await list()).map((t) => [t.symbol, t.lastPrice]));
    // The task's detail, kept the same way.
    const detail = async () => {
      const answer = await call('GET', `/api/trade/detail/${btc!.id}`);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      return answer.body.data as { lastPrice: string; quantity: string; cost: string; running: boolean; firstFillPrice: string | null; events: { kind: string }[] };
    };
    expect(await shown()).toEqual({ 'BTC/USDT': market.price('BTC/USDT'), 'ETH/USDT': market.price('ETH/USDT') });
    expect((await detail()).lastPrice).toBe(market.price('BTC/USDT'));
    // Asked again unchanged: the same answer.
    expect(await list()).toEqual(await list());
    expect(await detail()).toEqual(await detail());
    // The market moves (nothing is written about the tasks): the next call shows the new prices.
    const before = market.price('BTC/USDT');
    for (let i = 0; i < 50 && market.price('BTC/USDT') === before; i++) market.tick(60);
    expect(market.price('BTC/USDT')).not.toBe(before);
    expect(await shown()).toEqual({ 'BTC/USDT': market.price('BTC/USDT'), 'ETH/USDT': market.price('ETH/USDT') });
    expect((await detail()).lastPrice).toBe(market.price('BTC/USDT'));
    // The engine buys for one task: its position shows on the very next call, whatever was heard.
    expect((await call('POST', '/api/trade/action', { id: btc!.id, action: 'start' })).body.code).toBe(0);
    await server.app.engine.tick(1);
    const live = server.app.engine.tasks.get(btc!.id)!;
    expect(Number(live.state.quantity)).toBeGreaterThan(0);
    const position = { running: true, quantity: live.state.quantity, cost: live.state.cost, lastPrice: market.price('BTC/USDT') };
    expect((await list()).find((t) => t.id === btc!.id)).toMatchObject(position);
    expect(await detail()).toMatchObject({ ...position, firstFillPrice: live.state.firstFillPrice });
    expect(live.state.firstFillPrice).not.toBeNull();
  });

  it("shows a change made through one process in the other's list and task detail at once, and keeps users apart", async () => {
    server = await startServer(backend);
    other = await startOtherProcess(server, backend);
    const otherBase = other.base;
    const token = (await registerUser(server, { email: 'two@example.com' })).accessToken;
    const neighbour = (await registerUser(server, { email: 'next-door@example.com' })).accessToken;
    const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token });
    const there = async (path: string, as = token) => ((await (await fetch(`${otherBase}${path}`, { headers: { authorization: `Bearer ${as}` } })).json()) as { code: number; data: any });

    const exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper' })).body.data.id;
    const strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id;
    expect((await there('/api/trade/list')).data.total).toBe(0);
    const [task] = (await call('POST', '/api/trade/add', { exchangeId, coinIdList: ['BTC/USDT'], cycleCount: 9999, firstOrderAmount: '10', firstOrderMultiple: false, running: false, replenishStatus: 'replenish_open', strategyId })).body.data as { id: string }[];
    const id = task!.id;
    // Read (and kept) in the other process.
    expect((await there('/api/trade/list')).data.list.map((t: { id: string }) => t.id)).toEqual([id]);
    const detail = await there(`/api/trade/detail/${id}`);
    expect(detail.data).toMatchObject({ id, cycleCount: 9999, running: false });
    expect(detail.data.events.map((e: { kind: string }) => e.kind)).toEqual(['created']);
    expect((await there(`/api/trade/detail/${id}`)).data.events).toHaveLength(1);

    // A change through the first process: the other's very next list and detail show it.
    expect((await call('POST', '/api/trade/update', { id, cycleCount: 3, firstOrderAmount: '12.5', firstOrderMultiple: true, running: false, status: 'replenish_closed', strategyId })).body.code).toBe(0);
    expect((await there('/api/trade/list')).data.list[0]).toMatchObject({ cycleCount: 3, firstOrderAmount: '12.5' });
    const changed = (await there(`/api/trade/detail/${id}`)).data;
    expect(changed).toMatchObject({ cycleCount: 3, firstOrderAmount: '12.5', status: 'replenish_closed' });
    expect(changed.events.map((e: { kind: string }) => e.kind)).toEqual(['updated', 'created']);
    expect((await call('POST', '/api/strategy/edit', { ...quickStrategy, id: strategyId, name: 'Renamed template' })).body.code).toBe(0);
    expect((await there(`/api/trade/detail/${id}`)).data.strategyName).toBe('Renamed template');

    // Written outside the API: an event alone (no change to the task row) and a cycle's profit.
    await sql`insert into task_events (task_id, kind, data) values (${id}, 'stopped', '{}')`.execute(server.db);
    await Promise.all([server.app.sessionCache.sync(), other!.app.sessionCache.sync()]);
    expect((await there(`/api/trade/detail/${id}`)).data.events.map((e: { kind: string }) => e.kind)).toEqual(['stopped', 'updated', 'created']);
    await sql`insert into cycles (task_id, user_id, cycle, buy_cost, sell_proceeds, realized_profit) select id, user_id, 5, 10, 10.25, 0.25 from trade_tasks where id = ${id}`.execute(server.db);
    await Promise.all([server.app.sessionCache.sync(), other!.app.sessionCache.sync()]);
    expect((await there(`/api/trade/detail/${id}`)).data.realizedProfit).toBe('0.25');
    expect((await there('/api/trade/list')).data.list[0].realizedProfit).toBe('0.25');

    // Another user sees neither the list nor the detail kept for this one.
    expect((await there('/api/trade/list', neighbour)).data.total).toBe(0);
    expect((await there(`/api/trade/detail/${id}`, neighbour)).code).not.toBe(0);

    // Deleted through the first process: gone from the other's list and detail at once.
    expect((await call('POST', '/api/trade/action', { id, action: 'stop' })).body.code).toBe(0);
    await server.db.deleteFrom('task_events').where('task_id', '=', id).execute();
    await server.db.deleteFrom('cycles').where('task_id', '=', id).execute();
    await server.db.deleteFrom('trade_tasks').where('id', '=', id).execute();
    await Promise.all([server.app.sessionCache.sync(), other!.app.sessionCache.sync()]);
    expect((await there('/api/trade/list')).data.total).toBe(0);
    expect((await there(`/api/trade/detail/${id}`)).code).not.toBe(0);
  });
});
