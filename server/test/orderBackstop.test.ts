import Big from 'big.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKENDS, quickStrategy, registerUser, startServer, taskPayload, type TestServer } from './harness';
import { startLocalBinance, type LocalBinance } from './localExchange/binance';
import { BINANCE_ORIGIN, pointedAt } from './localExchange/pointed';
import { createCcxtClient } from '../src/engine/venues/ccxtClient';
import { createExchangePauses } from '../src/engine/venues/exchangePauses';
import { newClientOrderId } from '../src/engine/runner/context';

/**
 * The database backstop against placing an order twice: the orders' client
 * order id is unique (per exchange account too), and an intent the database
 * already holds is taken as "may be placed": the engine does not send it
 * again, it looks it up on the exchange and books what it finds, once.
 */

/** The client order id the engine's next order takes, when a test sets one (else a random one, as the engine's own). */
let forced: string | undefined;
const clientOrderIds = () => {
  const id = forced ?? newClientOrderId();
  forced = undefined;
  return id;
};

const KEY = { apiKey: 'Pq3Wd8Lm1Ty6Hv0Ks5Rb9Nx2Gc7Fz4Ju1Ae6Io3Pl8Kn0Mh5Sr2Bw7Cf4Dv9Ty1E', secret: 'kL3mN7pQ1rS5tU9vW3xY7zA1bC5dE9fG3hI7jK1lM5nO9pQ3rS7tU1vW5xY9zA3b' };

describe.each(BACKENDS)('an order whose intent is stored already (%s)', (backend) => {
  let server: TestServer;
  let local: LocalBinance;

  beforeEach(async () => {
    local = await startLocalBinance({ levelQty: { BTCUSDT: '0.0001' } });
    server = await startServer(backend, {}, { exchangeFactory: pointedAt({ [BINANCE_ORIGIN]: local.origin }), clientOrderIds });
  });
  afterEach(async () => {
    forced = undefined;
    await server.close();
    await local.close();
  });

  it('is looked up on the exchange and booked once, never sent again', async () => {
    const token = (await registerUser(server, { email: 'backstop@example.com', activated: true })).accessToken;
    const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token });
    local.addAccount(KEY.apiKey, KEY.secret, { USDT: '1000', BNB: '0' });
    const accountId = (await call('POST', '/api/exchange/add', { exchange: 'binance', name: 'Binance', ...KEY })).body.data.id as string;
    const strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id as string;
    const created = await call('POST', '/api/trade/add', taskPayload(accountId, strategyId));
    expect(created.body.code).toBe(0);
    const taskId = created.body.data[0].id as string;
    const owner = await server.db.selectFrom('trade_tasks').select(['user_id', 'symbol']).where('id', '=', taskId).executeTakeFirstOrThrow();

    // Another writer (a process that took the task over, a commit whose answer was lost) stored this first order and sent it.
    const clientOrderId = 'qtbackstop1';
    await server.db
      .insertInto('orders')
      .values({ task_id: taskId, user_id: owner.user_id, exchange_account_id: accountId, client_order_id: clientOrderId, symbol: owner.symbol, cycle: 1, level: 0, side: 'buy', reason: 'first', status: 'intent', requested: '10' } as never)
      .execute();
    const elsewhere = createCcxtClient({ exchangeId: 'binance', credentials: KEY, createExchange: pointedAt({ [BINANCE_ORIGIN]: local.origin }), pauses: createExchangePauses() });
    await elsewhere.createMarketOrder({ symbol: owner.symbol, side: 'buy', cost: '10', clientOrderId });
    expect(local.orders).toHaveLength(1);

    // The engine decides the same first order under the same client order id: its intent meets the unique key.
    forced = clientOrderId;
    await server.app.engine.tick();
    await server.app.engine.idle();
    await server.app.engine.tick();
    await server.app.engine.idle();

    // Sent once in all (by the other writer); the engine asked the exchange about it and booked its fill.
    expect(local.count('POST /order')).toBe(1);
    expect(local.requests.some((request) => request.endpoint === 'GET /order' && request.query.get('origClientOrderId') === clientOrderId)).toBe(true);
    const rows = await server.db.selectFrom('orders').select(['client_order_id', 'status', 'filled']).where('task_id', '=', taskId).execute();
    expect(rows.map((row) => [row.client_order_id, row.status, new Big(row.filled).toFixed()])).toEqual([[clientOrderId, 'closed', local.orders[0]!.executedQty.toFixed()]]);
    const task = server.app.engine.tasks.get(taskId)!;
    expect(new Big(task.state.quantity).eq(local.balance(KEY.apiKey, 'BTC').free)).toBe(true);
    expect(new Big(task.state.quantity).gt(0)).toBe(true);
    expect(task.attention).toBeNull();
  });
});
