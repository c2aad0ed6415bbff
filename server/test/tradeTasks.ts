import Big from 'big.js';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { firstOrderForInvestment, maxCycleFunds, withBuyFees } from '../../src/api/strategy';
import { quickStrategy, registerUser, startServer, taskPayload, type TestServer } from './harness';


/** The market and the robot's trading ('market'), or the task's life and its refusals ('tasks'). */
export const describeTradingTasks = (backend: 'pglite' | 'postgres', part: 'market' | 'tasks') =>
  describe(`trading tasks: ${part} (${backend})`, () => {
  let server: TestServer;
  let token: string;
  let exchangeId: string;
  let strategyId: string;

  const call = (method: string, path: string, body?: unknown, as = token) => server.call(method, path, body, { token: as });
  const createTasks = async (coins: string[], overrides: Record<string, unknown> = {}) =>
    call('POST', '/api/trade/add', taskPayload(exchangeId, strategyId, { coinIdList: coins, ...overrides }));
  /** n ticks of `seconds` market seconds each. */
  const ticks = async (n: number, seconds = 1) => {
    for (let i = 0; i < n; i++) await server.app.engine.tick(seconds);
  };

  beforeEach(async () => {
    server = await startServer(backend);
    token = (await registerUser(server, { email: 'trader@example.com', activated: true })).accessToken;
    expect((await createTasksWithoutAccount()).body.code).toBe(11006);
    exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper' })).body.data.id;
    strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id;
  });
  afterEach(async () => server.close());

  const createTasksWithoutAccount = () => call('POST', '/api/trade/add', taskPayload('00000000-0000-4000-8000-0000000000ff', '00000000-0000-4000-8000-000000000002'));

  // Two parts, one file each per database (each well under the per-file limit), sharing this set-up.
  if (part === 'market') {
    it('lists pairs, hot pairs and prices of the paper market', async () => {
      const pairs = await call('GET', `/api/trade/pairs?exchangeId=${exchangeId}&q=btc`);
      expect(pairs.body.data.list).toEqual([expect.objectContaining({ id: 'BTC/USDT', base: 'BTC', quote: 'USDT', minCost: '5' })]);
      expect((await call('GET', `/api/trade/pairs?exchangeId=${exchangeId}&pageSize=100`)).body.data.total).toBe(20);
      const hot = await call('GET', `/api/trade/hot-pairs?exchangeId=${exchangeId}&sort=volume&limit=5`);
      expect(hot.body.data).toHaveLength(5);
      expect(hot.body.data[0].id).toBe('BTC/USDT');
      const prices = await call('POST', '/api/trade/coin-price', { exchangeId, coins: ['BTC', 'ETH/USDT', 'NOPE'] });
      expect(Object.keys(prices.body.data).sort()).toEqual(['BTC', 'ETH/USDT']);
      expect(Number(prices.body.data.BTC)).toBeGreaterThan(1000);
    });

    it("gives pairs and tasks their market's price tick and amount step", async () => {
      const pairs = (await call('GET', `/api/trade/pairs?exchangeId=${exchangeId}&pageSize=100`)).body.data.list;
      expect(pairs.find((p: { id: string }) => p.id === 'BTC/USDT')).toMatchObject({ tickSize: '0.01', amountStep: '0.00001' });
      expect(pairs.find((p: { id: string }) => p.id === 'SHIB/USDT')).toMatchObject({ tickSize: '0.00000001', amountStep: '1' });
      expect((await createTasks(['BTC/USDT', 'SHIB/USDT'], { running: false })).body.code).toBe(0);
      const list = (await call('GET', '/api/trade/list')).body.data.list;
      const bySymbol = Object.fromEntries(list.map((t: { symbol: string; tickSize: string; amountStep: string }) => [t.symbol, { tickSize: t.tickSize, amountStep: t.amountStep }]));
      expect(bySymbol).toEqual({ 'BTC/USDT': { tickSize: '0.01', amountStep: '0.00001' }, 'SHIB/USDT': { tickSize: '0.00000001', amountStep: '1' } });
      const shib = list.find((t: { symbol: string }) => t.symbol === 'SHIB/USDT');
      expect((await call('GET', `/api/trade/detail/${shib.id}`)).body.data).toMatchObject({ symbol: 'SHIB/USDT', tickSize: '0.00000001', amountStep: '1' });
    });

    it('creates one task per coin and the robot buys, replenishes, takes profit and starts the next cycle', async () => {
      const created = await createTasks(['BTC/USDT', 'ETH/USDT']);
      expect(created.body.code).toBe(0);
      expect(created.body.data).toHaveLength(2);
      await ticks(720, 10);

      const list = (await call('GET', '/api/trade/list')).body.data;
      expect(list.total).toBe(2);
      const orders = (await call('GET', '/api/trade/order-history?pageSize=100')).body.data;
      expect(orders.total).toBeGreaterThan(2);
      const sells = orders.list.filter((o: { side: string }) => o.side === 'sell');
      expect(sells.length).toBeGreaterThan(0);
      // Every order carries its market's tick and step, so all orders of all tasks show to their own precision.
      const precisions = { 'BTC/USDT': { tickSize: '0.01', amountStep: '0.00001' }, 'ETH/USDT': { tickSize: '0.01', amountStep: '0.0001' } } as Record<string, object>;
      for (const order of orders.list) expect(order).toMatchObject({ symbol: expect.any(String), ...precisions[order.symbol] });
      expect(new Set(orders.list.map((o: { symbol: string }) => o.symbol))).toEqual(new Set(['BTC/USDT', 'ETH/USDT']));
      for (const order of orders.list) {
        expect(order.status).toBe('closed');
        expect(new Big(order.cost).eq(new Big(order.amount).times(order.price))).toBe(true);
        expect(new Big(order.fee).gt(0)).toBe(true);
      }
      // The task that has closed cycles (on seed 42, ETH: BTC drifts below its ladder).
      const btc = list.list.find((t: { cyclesDone: number }) => t.cyclesDone > 0);
      expect(btc).toBeDefined();
      const detail = (await call('GET', `/api/trade/detail/${btc.id}`)).body.data;
      expect(detail.cyclesDone).toBeGreaterThan(0);
      expect(detail.events.map((e: { kind: string }) => e.kind)).toEqual(expect.arrayContaining(['created', 'cycle_started', 'sold', 'cycle_complete']));

      // Realized profit is booked per cycle and adds up to the task's figure.
      const cycles = await server.db.selectFrom('cycles').selectAll().where('task_id', '=', btc.id).execute();
      const sum = cycles.reduce((acc, c) => acc.plus(c.realized_profit), new Big(0));
      expect(sum.eq(btc.realizedProfit)).toBe(true);
      for (const cycle of cycles) {
        expect(new Big(cycle.sell_proceeds).minus(cycle.buy_cost).eq(cycle.realized_profit)).toBe(true);
        // Take profit exits: never a loss.
        expect(cycle.exit_reason).toBe('take_profit');
        expect(new Big(cycle.realized_profit).gte(0)).toBe(true);
      }

      // Today's profit in the user's time zone: every cycle of this test closed today.
      const everyCycle = await server.db.selectFrom('cycles').select('realized_profit').execute();
      const total = everyCycle.reduce((acc, c) => acc.plus(c.realized_profit), new Big(0));
      const summary = (await call('GET', '/api/trade/profit-summary?timeZone=Asia/Shanghai')).body.data;
      expect(summary).toMatchObject({ cyclesToday: everyCycle.length });
      expect(new Big(summary.realizedTotal).eq(total)).toBe(true);
      expect(new Big(summary.realizedToday).eq(total)).toBe(true);
      expect((await call('GET', '/api/trade/profit-summary?timeZone=Mars/Olympus')).body.code).toBe(10003);

      // The open cycle's position is the remainder carried from the last cycle plus its buys (net of the fee taken in the coin).
      const open = await server.db
        .selectFrom('orders')
        .selectAll()
        .where('task_id', '=', btc.id)
        .where('cycle', '=', detail.cyclesDone + 1)
        .where('status', '=', 'closed')
        .execute();
      const carried = cycles.find((c) => c.cycle === detail.cyclesDone)?.remainder_quantity ?? '0';
      const bought = open.reduce((acc, o) => acc.plus(new Big(o.filled).minus(o.fee)), new Big(carried));
      expect(bought.eq(detail.quantity)).toBe(true);
    });

    it('replays the same orders for the same seed', async () => {
      await createTasks(['SOL/USDT']);
      await ticks(100, 10);
      const first = (await call('GET', '/api/trade/order-history?pageSize=100')).body.data.list.map((o: { side: string; price: string; level: number }) => `${o.side}@${o.price}#${o.level}`);
      await server.close();

      server = await startServer(backend);
      token = (await registerUser(server, { email: 'trader@example.com', activated: true })).accessToken;
      exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper' })).body.data.id;
      strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id;
      await createTasks(['SOL/USDT']);
      await ticks(100, 10);
      const second = (await call('GET', '/api/trade/order-history?pageSize=100')).body.data.list.map((o: { side: string; price: string; level: number }) => `${o.side}@${o.price}#${o.level}`);
      expect(first.length).toBeGreaterThan(1);
      expect(second).toEqual(first);
    });
  } else {
    it('refuses a fourth task for one coin (14001) and changes nothing', async () => {
      for (let i = 0; i < 3; i++) expect((await createTasks(['ETH/USDT'], { running: false })).body.code).toBe(0);
      const refused = await createTasks(['ETH/USDT', 'SOL/USDT'], { running: false });
      expect(refused.body).toMatchObject({ code: 14001, data: { symbol: 'ETH/USDT' } });
      expect((await call('GET', '/api/trade/list')).body.data.total).toBe(3);
    });

    it('checks the ladder and the funds before a task runs', async () => {
      const tooSmall = await createTasks(['BTC/USDT'], { firstOrderAmount: '1' });
      expect(tooSmall.body).toMatchObject({ code: 10002, data: { reason: 'below_min_order', level: 0 } });
      const tooBig = await createTasks(['BTC/USDT'], { firstOrderAmount: '2000' });
      expect(tooBig.body).toMatchObject({ code: 11003, data: { reason: 'insufficient_funds', available: '10000' } });
      expect((await createTasks(['NOPE/USDT'])).body.code).toBe(10006);
      expect((await createTasks(['BTC/USDT'], { strategyId: '00000000-0000-4000-8000-0000000000aa' })).body.code).toBe(10006);
      expect((await call('GET', '/api/trade/list')).body.data.total).toBe(0);
    });

    it('sizes the first order from a total to invest, and checks the total against the free balance', async () => {
      const strategy = (await call('GET', `/api/strategy/detail/${strategyId}`)).body.data;
      const expected = firstOrderForInvestment(strategy, '500', 2);
      const created = await createTasks(['BTC/USDT', 'ETH/USDT'], { firstOrderAmount: '10', investAmount: '500' });
      expect(created.body.code).toBe(0);
      const tasks = (await call('GET', '/api/trade/list')).body.data.list;
      expect(tasks.map((t: { firstOrderAmount: string }) => new Big(t.firstOrderAmount).toFixed(2))).toEqual([expected, expected]);
      // Both pairs' full cycles, with the buys' fees, fit in 500.
      expect(withBuyFees(maxCycleFunds(strategy, expected)).times(2).lte(500)).toBe(true);
      // More than the free balance, or too little for a cent: refused, nothing created.
      const tooMuch = await createTasks(['SOL/USDT'], { investAmount: '20000' });
      expect(tooMuch.body).toMatchObject({ code: 11003, data: { reason: 'insufficient_funds', required: '20000', available: '10000' } });
      const tooLittle = await createTasks(['SOL/USDT'], { investAmount: '0.01' });
      expect(tooLittle.body).toMatchObject({ code: 10002, data: { reason: 'invest_too_small', field: 'investAmount' } });
      expect((await call('GET', '/api/trade/list')).body.data.total).toBe(2);
    });

    it('replenishes now only with a position (14000), closes the position at market and stops', async () => {
      const id = (await createTasks(['BTC/USDT'], { running: false })).body.data[0].id;
      expect((await call('POST', '/api/trade/action', { id, action: 'replenish' })).body.code).toBe(14000);
      expect((await call('POST', `/api/trade/close-order/${id}`)).body.code).toBe(14000);

      expect((await call('POST', '/api/trade/action', { id, action: 'start' })).body.code).toBe(0);
      await ticks(1);
      let detail = (await call('GET', `/api/trade/detail/${id}`)).body.data;
      expect(detail.phase).toBe('open');
      expect(detail.levelsFilled).toBe(0);
      expect((await call('POST', '/api/trade/action', { id, action: 'replenish' })).body.code).toBe(0);
      detail = (await call('GET', `/api/trade/detail/${id}`)).body.data;
      expect(detail.levelsFilled).toBe(1);

      const closed = (await call('POST', `/api/trade/close-order/${id}`)).body;
      expect(closed).toMatchObject({ code: 0, data: { symbol: 'BTC/USDT' } });
      detail = (await call('GET', `/api/trade/detail/${id}`)).body.data;
      expect(detail).toMatchObject({ running: false, cyclesDone: 1, quantity: closed.data.remainder });
      // Sold to the last step of 0.00001 BTC: what is left below it stays with the task, at its cost basis.
      expect(new Big(closed.data.remainder).lt('0.00001')).toBe(true);
      expect(new Big(closed.data.sold).plus(closed.data.remainder).gt(0)).toBe(true);
      const orders = (await call('GET', `/api/trade/order-history?taskId=${id}`)).body.data.list;
      expect(orders.map((o: { side: string; reason: string }) => `${o.side}:${o.reason}`)).toEqual(['sell:close', 'buy:replenish', 'buy:first']);
      await ticks(30);
      expect((await call('GET', `/api/trade/order-history?taskId=${id}`)).body.data.total).toBe(3);
    });

    it('stops and starts a task, keeping its position', async () => {
      const id = (await createTasks(['BTC/USDT'])).body.data[0].id;
      await ticks(1);
      expect((await call('POST', '/api/trade/action', { id, action: 'stop' })).body.code).toBe(0);
      const stopped = (await call('GET', `/api/trade/detail/${id}`)).body.data;
      expect(stopped.running).toBe(false);
      await ticks(120);
      const after = (await call('GET', `/api/trade/detail/${id}`)).body.data;
      expect(after.quantity).toBe(stopped.quantity);
      expect((await call('GET', `/api/trade/order-history?taskId=${id}`)).body.data.total).toBe(1);
    });

    it('updates a task and refuses a strategy in use from being deleted (13002)', async () => {
      const id = (await createTasks(['BTC/USDT'], { running: false })).body.data[0].id;
      const updated = await call('POST', '/api/trade/update', { id, cycleCount: 3, firstOrderAmount: '12.5', firstOrderMultiple: true, running: false, status: 'replenish_closed', strategyId });
      expect(updated.body.code).toBe(0);
      expect((await call('GET', `/api/trade/detail/${id}`)).body.data).toMatchObject({ cycleCount: 3, firstOrderAmount: '12.5', firstOrderMultiple: true, status: 'replenish_closed' });
      expect((await call('POST', '/api/strategy/delete', { id: strategyId })).body).toMatchObject({ code: 13002, data: { taskId: id } });
      expect((await call('POST', '/api/exchange/delete', { id: exchangeId })).body).toMatchObject({ code: 10008 });
      // Another user learns nothing of it: not its use, not the task's id.
      const stranger = (await registerUser(server, { email: 'stranger@example.com', activated: true })).accessToken;
      expect((await server.call('POST', '/api/strategy/delete', { id: strategyId }, { token: stranger })).body).toMatchObject({ code: 13001, data: null });
    });

    it('never loses or doubles an order when its transaction dies half way (a crash), and resolves intents left behind', async () => {
      const id = (await createTasks(['BTC/USDT'])).body.data[0].id;
      // The transaction that records the fill cannot finish: like a crash between sending and storing.
      await sql`alter table task_events rename to task_events_gone`.execute(server.db);
      await ticks(1);
      await sql`alter table task_events_gone rename to task_events`.execute(server.db);
      expect(await server.db.selectFrom('orders').selectAll().execute()).toEqual([]);
      const untouched = await server.db.selectFrom('paper_balances').select(['asset', 'free']).execute();
      expect(untouched.filter((b) => b.asset === 'BTC')).toEqual([]);

      // An intent stored before a crash and never answered: resolved on the next start, never sent twice.
      await server.db
        .insertInto('orders')
        .values({ task_id: id, user_id: (await server.db.selectFrom('trade_tasks').select('user_id').executeTakeFirstOrThrow()).user_id, exchange_account_id: exchangeId, client_order_id: 'qt-left-behind', symbol: 'BTC/USDT', cycle: 1, level: 0, side: 'buy', reason: 'first', status: 'intent', requested: '10' })
        .execute();
      await server.app.engine.stop();
      await server.app.engine.start();
      await ticks(61);
      const orders = await server.db.selectFrom('orders').select(['side', 'status', 'error', 'filled', 'fee', 'cost']).where('task_id', '=', id).orderBy('created_at').execute();
      expect(orders.filter((o) => o.status === 'failed')).toEqual([expect.objectContaining({ error: 'not_sent' })]);
      const filled = orders.filter((o) => o.status === 'closed');
      expect(filled.filter((o) => o.side === 'buy').length).toBeGreaterThanOrEqual(1);
      // The paper account and the orders agree to the last decimal.
      const balances = Object.fromEntries((await server.db.selectFrom('paper_balances').select(['asset', 'free']).execute()).map((b) => [b.asset, b.free]));
      const spent = filled.reduce((acc, o) => (o.side === 'buy' ? acc.plus(o.cost) : acc.minus(new Big(o.cost).minus(o.fee))), new Big(0));
      const coins = filled.reduce((acc, o) => (o.side === 'buy' ? acc.plus(new Big(o.filled).minus(o.fee)) : acc.minus(o.filled)), new Big(0));
      expect(new Big(10000).minus(spent).eq(balances.USDT!)).toBe(true);
      expect(coins.eq(balances.BTC ?? '0')).toBe(true);
    });

    it('keeps tasks and orders private', async () => {
      const id = (await createTasks(['BTC/USDT'])).body.data[0].id;
      await ticks(1);
      const other = (await registerUser(server, { email: 'other@example.com', activated: true })).accessToken;
      expect((await call('GET', '/api/trade/list', undefined, other)).body.data).toEqual({ list: [], total: 0 });
      expect((await call('GET', `/api/trade/detail/${id}`, undefined, other)).body.code).toBe(10006);
      expect((await call('GET', `/api/trade/order-history?taskId=${id}`, undefined, other)).body.code).toBe(10006);
      expect((await call('GET', '/api/trade/order-history', undefined, other)).body.data.total).toBe(0);
      expect((await call('POST', '/api/trade/action', { id, action: 'stop' }, other)).body.code).toBe(10006);
      expect((await call('POST', `/api/trade/close-order/${id}`, undefined, other)).body.code).toBe(10006);
      expect((await call('POST', '/api/trade/add', { exchangeId, coinIdList: ['ETH/USDT'], cycleCount: 1, firstOrderAmount: '10', firstOrderMultiple: false, running: false, replenishStatus: 'replenish_open', strategyId }, other)).body.code).toBe(11006);
    });
  }
});
