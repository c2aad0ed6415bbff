import Big from 'big.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addPaperTask, BACKENDS, quickStrategy, registerUser, startServer, taskPayload, type TestServer } from './harness';
import { startLocalBinance, type LocalBinance } from './localExchange/binance';
import { BINANCE_ORIGIN, pointedAt } from './localExchange/pointed';

/**
 * A task on a bound Binance account trading against the local Binance: the
 * server builds its client from the stored key as for any user, and the
 * task's books agree with the exchange's own balances and trade list to the
 * last unit, whether the fee is taken in the coin received or in BNB, and
 * when an order's answer was lost on the way.
 */

const KEY = { apiKey: 'Rk2Tq8Wm4Yp0Ls6Hd1Vb7Nc3Gx9Fz5Ja2Ue8Io4Pl0Kn6Mh1Sr7Bw3Cf9Dv5Ty0E', secret: 'hJ4kL8mN2pQ6rS0tU4vW8xY2zA6bC0dE4fG8hI2jK6lM0nO4pQ8rS2tU6vW0xY4z' };
const START = { USDT: '1000', BNB: '0.05' };

describe.each(BACKENDS)('a task on the local Binance (%s)', (backend) => {
  let server: TestServer;
  let local: LocalBinance;
  let token: string;
  let accountId: string;

  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token });
  const tick = async () => {
    await server.app.engine.tick();
    await server.app.engine.idle();
  };
  const createTask = async () => {
    const strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id;
    const created = await call('POST', '/api/trade/add', taskPayload(accountId, strategyId));
    expect(created.body.code).toBe(0);
    return created.body.data[0].id as string;
  };
  const held = (asset: string) => new Big(local.balance(KEY.apiKey, asset).free);

  beforeEach(async () => {
    local = await startLocalBinance({ levelQty: { BTCUSDT: '0.0001' } });
    server = await startServer(backend, {}, { exchangeFactory: pointedAt({ [BINANCE_ORIGIN]: local.origin }) });
    token = (await registerUser(server, { email: 'local@example.com', activated: true })).accessToken;
  });
  afterEach(async () => {
    await server.close();
    await local.close();
  });

  const bind = async (payFeesInBnb: boolean) => {
    local.addAccount(KEY.apiKey, KEY.secret, START, { payFeesInBnb });
    const added = await call('POST', '/api/exchange/add', { exchange: 'binance', name: 'Binance', ...KEY });
    expect(added.body.code).toBe(0);
    accountId = added.body.data.id;
  };

  it.each([
    ['in the coin received, its first answer lost', false],
    ['in BNB', true],
  ])('buys and sells a cycle with the fee %s, booked as the exchange charged it', async (_, payFeesInBnb) => {
    await bind(payFeesInBnb);
    const taskId = await createTask();
    const lost = !payFeesInBnb;
    if (lost) local.fault('POST /order', { kind: 'drop_answer' });
    await tick();
    if (lost) {
      // Placed, its answer lost: the intent waits, and the next tick finds the order by its client order id.
      expect((await server.db.selectFrom('orders').select('status').execute()).map((row) => row.status)).toEqual(['intent']);
      await tick();
      expect(local.count('POST /order')).toBe(1);
    }
    const [buy] = local.orders;
    expect(buy).toMatchObject({ side: 'BUY', status: 'FILLED' });
    const buyTrades = local.trades.filter((trade) => trade.orderId === buy!.orderId);
    // 10 USDT at 0.0001 BTC a level: two fills at two prices.
    expect(buyTrades.length).toBeGreaterThan(1);
    const bnbPrice = new Big(local.price('BNBUSDT'));
    const bnbSpent = new Big(START.BNB).minus(held('BNB'));
    let state = server.app.engine.tasks.get(taskId)!.state;
    // The position is the coin the account received; its cost is the USDT paid plus a BNB fee at BNB's price.
    expect(new Big(state.quantity).eq(held('BTC'))).toBe(true);
    expect(new Big(state.cost).eq(new Big(START.USDT).minus(held('USDT')).plus(bnbSpent.times(bnbPrice)))).toBe(true);
    expect(bnbSpent.gt(0)).toBe(payFeesInBnb);

    // 1 % up: past the 0.3 % take profit.
    local.setPrice('BTCUSDT', new Big(local.price('BTCUSDT')).times('1.01').round(2).toFixed());
    await tick();
    expect(local.orders.map((order) => [order.side, order.status])).toEqual([
      ['BUY', 'FILLED'],
      ['SELL', 'FILLED'],
    ]);
    const [cycle] = await server.db.selectFrom('cycles').selectAll().where('task_id', '=', taskId).execute();
    expect(cycle).toBeDefined();
    // What the exchange holds now is what the task says it carries; the USDT it gained is the realized profit
    // less what BNB paid (counted in the cycle's cost, not taken from the USDT).
    state = server.app.engine.tasks.get(taskId)!.state;
    expect(held('BTC').eq(cycle!.remainder_quantity)).toBe(true);
    expect(new Big(state.quantity).eq(held('BTC'))).toBe(true);
    const bnbValue = new Big(START.BNB).minus(held('BNB')).times(bnbPrice);
    expect(held('USDT').minus(START.USDT).eq(new Big(cycle!.realized_profit).minus(cycle!.remainder_cost).plus(bnbValue))).toBe(true);
    // Every order on the exchange is one of the task's, with the quantity it filled there.
    const rows = await server.db.selectFrom('orders').select(['exchange_order_id', 'filled']).where('task_id', '=', taskId).orderBy('created_at').execute();
    expect(rows.map((row) => [row.exchange_order_id, new Big(row.filled!).toFixed()])).toEqual(local.orders.map((order) => [String(order.orderId), order.executedQty.toFixed()]));
  });

  it('waits out a ban on Binance without asking it, while a paper task trades on', async () => {
    await bind(false);
    const taskId = await createTask();
    await tick();
    expect(local.orders).toHaveLength(1);
    const paperTaskId = await addPaperTask(server, token, { strategy: { ...quickStrategy, name: 'Quick on paper' } });
    // The next price read meets a 2 s ban of the server's address.
    local.fault('GET /ticker/24hr', { kind: 'ban', seconds: 2 });
    const asked = local.requests.length;
    const started = Date.now();
    await tick();
    const after = local.requests.slice(asked);
    expect(after[0]).toMatchObject({ endpoint: 'GET /ticker/24hr', status: 418 });
    // Nothing more went to Binance until the ban was over; then the read was answered.
    expect(after[1]!.at - after[0]!.at).toBeGreaterThanOrEqual(1_900);
    expect(after.slice(1).every((request) => request.status === 200)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    // The paper task traded in the same tick; the Binance task holds what it held.
    const paperOrders = await server.db.selectFrom('orders').select('status').where('task_id', '=', paperTaskId).execute();
    expect(paperOrders.map((order) => order.status)).toEqual(['closed']);
    expect(new Big(server.app.engine.tasks.get(taskId)!.state.quantity).eq(held('BTC'))).toBe(true);
  });
});
