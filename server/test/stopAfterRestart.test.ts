import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKENDS, quickStrategy, registerUser, startServer, taskPayload, type TestServer } from './harness';
import { startLocalBinance, type LocalBinance } from './localExchange/binance';
import { BINANCE_ORIGIN, pointedAt } from './localExchange/pointed';

/**
 * Issue 28: a stop's sale on a real exchange whose answer was lost, and the
 * engine reloading the task before it learns the outcome (a restart, a shard
 * handed over): the stop is stored with the order's intent, so the event and
 * the notification booked after the reload still name the stop that fired.
 */
const KEY = { apiKey: 'Xk7Tq2Wm9Yp4Ls1Hd6Vb2Nc8Gx3Fz0Ja7Ue3Io9Pl5Kn1Mh6Sr2Bw8Cf4Dv0Ty5E', secret: 'aJ9kL3mN7pQ1rS5tU9vW3xY7zA1bC5dE9fG3hI7jK1lM5nO9pQ3rS7tU1vW5xY9z' };

describe.each(BACKENDS)('a stop sale pending over an engine reload (%s)', (backend) => {
  let server: TestServer;
  let local: LocalBinance;

  beforeEach(async () => {
    local = await startLocalBinance({ levelQty: { BTCUSDT: '0.0001' } });
    server = await startServer(backend, {}, { exchangeFactory: pointedAt({ [BINANCE_ORIGIN]: local.origin }) });
  });
  afterEach(async () => {
    await server.close();
    await local.close();
  });

  it('names the same stop in the event and the notification once the exchange tells the fill', async () => {
    const tick = async () => {
      await server.app.engine.tick();
      await server.app.engine.idle();
    };
    const token = (await registerUser(server, { email: 'stop-restart@example.com', activated: true })).accessToken;
    const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token });
    local.addAccount(KEY.apiKey, KEY.secret, { USDT: '1000', BNB: '0' });
    const accountId = (await call('POST', '/api/exchange/add', { exchange: 'binance', name: 'Binance', ...KEY })).body.data.id as string;
    const strategy = { ...quickStrategy, name: 'Stop from the last level', levels: [{ dropPercent: '30', multiple: '1' }], stopLossPercent: '5', stopLossBase: 'last_level' };
    const added = await call('POST', '/api/strategy/add', strategy);
    expect(added.body.code).toBe(0);
    const created = await call('POST', '/api/trade/add', taskPayload(accountId, added.body.data.id as string, { replenishStatus: 'replenish_closed' }));
    expect(created.body.code).toBe(0);
    const taskId = created.body.data[0].id as string;
    await tick();
    expect(local.orders.map((order) => order.side)).toEqual(['BUY']);

    // Far under the last level's trigger: the stop sells, and its answer is lost on the way.
    local.setPrice('BTCUSDT', '40000.00');
    local.fault('POST /order', { kind: 'drop_answer' });
    await tick();
    const intents = await server.db.selectFrom('orders').select(['side', 'reason', 'status']).where('task_id', '=', taskId).where('status', '=', 'intent').execute();
    expect(intents).toEqual([{ side: 'sell', reason: 'stop_loss', status: 'intent' }]);

    // The engine forgets what it kept in memory and reads the task again; the next tick asks the exchange.
    await server.app.engine.reload(taskId);
    await tick();
    expect(local.count('POST /order')).toBe(2);
    const stops = await server.db.selectFrom('task_events').select('data').where('task_id', '=', taskId).where('kind', '=', 'stop_loss').execute();
    expect(stops.map((event) => (event.data as Record<string, unknown>).stop)).toEqual(['loss_last_level']);
    const notices = await server.db.selectFrom('notification_events').select('payload').where('task_id', '=', taskId).where('kind', '=', 'trade.stop_loss').execute();
    expect(notices.map((notice) => (notice.payload as Record<string, unknown>).stop)).toEqual(['loss_last_level']);
  });
});
