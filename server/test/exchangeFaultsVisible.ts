import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processPauses } from '../src/engine/venues/exchangePauses';
import { eventLine } from '../src/notify/texts';
import { quickStrategy, registerUser, startServer, taskPayload, type TestServer } from './harness';
import { startLocalBinance, type LocalBinance } from './localExchange/binance';

/**
 * Every exchange fault is visible where the user looks: the task's log, its
 * attention state, and the notifications. A testnet account is pointed at
 * the local Binance the way the product allows it (EXCHANGE_TESTNET_URLS),
 * so these also hold that setting to its word. A shared outage (a ban) is a
 * line when it starts and one when it ends, and stops nothing; a task's own
 * permanent fault stops that task with a reason whose remedy the
 * notification carries.
 */

const TESTNET = 'binance-testnet';
const KEY = { apiKey: 'Tn4Rq8Wm4Yp0Ls6Hd1Vb7Nc3Gx9Fz5Ja2Ue8Io4Pl0Kn6Mh1Sr7Bw3Cf9Dv5Ty0E', secret: 'tN4kL8mN2pQ6rS0tU4vW8xY2zA6bC0dE4fG8hI2jK6lM0nO4pQ8rS2tU6vW0xY4z' };

export const describeAttentionTexts = () =>
  it('a stopped task is notified with its reason and remedy in the three languages', () => {
  const payload = { symbol: 'BTC/USDT', reason: 'insufficient_funds' };
  expect(eventLine('zh-CN', 'trade.attention', payload)).toContain('余额不足：请向交易所账户充值后恢复任务');
  expect(eventLine('zh-TW', 'trade.attention', payload)).toContain('餘額不足：請向交易所帳戶入金後恢復任務');
  expect(eventLine('en-US', 'trade.attention', { ...payload, reason: 'above_max_order' })).toContain('above the exchange maximum: lower the first order');
  // A reason the table does not know is named as it is, not dropped.
  expect(eventLine('en-US', 'trade.attention', { ...payload, reason: 'something_new' })).toContain('(something_new)');
  });

export const describeExchangeFaults = (backend: 'pglite' | 'postgres') =>
  describe(`exchange faults in the task log, attention and notifications (${backend})`, () => {
  let server: TestServer;
  let local: LocalBinance;

  beforeAll(async () => {
    local = await startLocalBinance({ levelQty: { BTCUSDT: '0.0001' }, maxQty: { DOGEUSDT: '50' } });
    server = await startServer(backend, { exchangeTestnetUrls: { [TESTNET]: local.origin } });
  });
  afterAll(async () => {
    await server?.close();
    await local?.close();
  });

  const tick = async () => {
    await server.app.engine.tick();
    await server.app.engine.idle();
  };
  /** A user with a testnet account (its own key on the local exchange) and a running task on `pair`. */
  const userWithTask = async (name: string, pair = 'BTC/USDT') => {
    const { accessToken: token } = await registerUser(server, { email: `${name}@example.com` });
    const key = { apiKey: `${KEY.apiKey.slice(0, -name.length)}${name}`, secret: KEY.secret };
    local.addAccount(key.apiKey, key.secret, { USDT: '1000' });
    const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token });
    const added = await call('POST', '/api/exchange/add', { exchange: TESTNET, name: 'Testnet', ...key });
    expect(added.body.code).toBe(0);
    const strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id;
    const created = await call('POST', '/api/trade/add', taskPayload(added.body.data.id, strategyId, { coinIdList: [pair] }));
    expect(created.body.code).toBe(0);
    return { taskId: created.body.data[0].id as string, call, key };
  };
  const eventsOf = async (taskId: string) =>
    (await server.db.selectFrom('task_events').select(['kind', 'data']).where('task_id', '=', taskId).orderBy('id').execute()).map((e) => ({ kind: e.kind, data: e.data as Record<string, unknown> }));
  const noticesOf = async (taskId: string) =>
    (await server.db.selectFrom('notification_events').select(['kind', 'payload']).where('task_id', '=', taskId).orderBy('id').execute()).map((n) => ({ kind: n.kind, payload: n.payload as Record<string, unknown> }));
  const detail = async (call: (method: string, path: string) => Promise<{ body: { data: any } }>, taskId: string) => (await call('GET', `/api/trade/detail/${taskId}`)).body.data;

  it('an order the exchange cancels is said in the log and placed again; three in a row stop the task with a remedy', async () => {
    const { taskId, call } = await userWithTask('cancels');
    local.fault('POST /order', { kind: 'cancel_by_exchange' });
    await tick();
    let events = await eventsOf(taskId);
    expect(events.filter((e) => e.kind === 'exchange_canceled')).toEqual([{ kind: 'exchange_canceled', data: expect.objectContaining({ side: 'buy', filled: '0', times: 1 }) }]);
    expect((await detail(call, taskId)).attention).toBeNull();
    // The next tick places the first order again, under the usual rules: it fills.
    await tick();
    const orders = await server.db.selectFrom('orders').select(['status', 'error']).where('task_id', '=', taskId).orderBy('created_at').execute();
    expect(orders).toEqual([
      { status: 'failed', error: 'canceled_by_exchange' },
      { status: 'closed', error: null },
    ]);
    const state = server.app.engine.tasks.get(taskId)!.state;
    expect(new Big(state.quantity).gt(0)).toBe(true);

    // Sold at a profit, then the next cycle's first order is cancelled three times in a row: the task stops.
    local.setPrice('BTCUSDT', new Big(local.price('BTCUSDT')).times('1.01').round(2).toFixed());
    await tick();
    expect(server.app.engine.tasks.get(taskId)!.state.cyclesDone).toBe(1);
    server.app.engine.tasks.get(taskId)!.state = { ...server.app.engine.tasks.get(taskId)!.state, cooldownUntil: 0 };
    local.fault('POST /order', { kind: 'cancel_by_exchange' }, { kind: 'cancel_by_exchange' }, { kind: 'cancel_by_exchange' });
    for (let i = 0; i < 4; i += 1) await tick();
    events = await eventsOf(taskId);
    expect(events.filter((e) => e.kind === 'exchange_canceled').map((e) => e.data.times)).toEqual([1, 1, 2, 3]);
    const task = await detail(call, taskId);
    expect(task.attention).toMatchObject({ reason: 'exchange_canceled', retrying: false, side: 'buy' });
    expect(events.at(-1)).toMatchObject({ kind: 'error', data: { reason: 'canceled_by_exchange', attention: 'exchange_canceled' } });
    // No fourth order went out.
    expect(local.orders.filter((o) => o.status === 'EXPIRED')).toHaveLength(4);
    expect(await noticesOf(taskId)).toContainEqual({ kind: 'trade.attention', payload: expect.objectContaining({ reason: 'exchange_canceled' }) });
  });

  it('an order above the exchange maximum (LOT_SIZE maxQty) stops the task with its own reason, not "below minimum"', async () => {
    const { taskId, call } = await userWithTask('maxqty', 'DOGE/USDT');
    await tick();
    const [order] = await server.db.selectFrom('orders').select(['status', 'error']).where('task_id', '=', taskId).execute();
    expect(order).toEqual({ status: 'failed', error: 'above_max_amount' });
    expect((await detail(call, taskId)).attention).toMatchObject({ reason: 'above_max_order', retrying: false });
    expect((await eventsOf(taskId)).at(-1)).toMatchObject({ kind: 'error', data: { reason: 'above_max_amount', attention: 'above_max_order' } });
    expect(await noticesOf(taskId)).toContainEqual({ kind: 'trade.attention', payload: expect.objectContaining({ reason: 'above_max_order', symbol: 'DOGE/USDT' }) });
  });

  it('a ban is one line on each task when it starts and one when it ends; nothing stops, nothing is notified; a key check meanwhile says until when', async () => {
    const { taskId, call } = await userWithTask('banned');
    await tick();
    expect(await server.db.selectFrom('orders').select('status').where('task_id', '=', taskId).execute()).toEqual([{ status: 'closed' }]);
    const noticesBefore = (await noticesOf(taskId)).length;
    // Longer than a read waits out: the exchange is down for every task on it.
    local.fault('GET /ticker/24hr', { kind: 'ban', seconds: 6 });
    await tick();
    await tick();
    let events = await eventsOf(taskId);
    const down = events.filter((e) => e.kind === 'exchange_down');
    expect(down).toEqual([{ kind: 'exchange_down', data: { exchange: TESTNET, cause: 'banned', until: expect.any(String) } }]);
    expect(Date.parse(down[0]!.data.until as string) - Date.now()).toBeGreaterThan(3_000);
    expect((await server.app.engine.status()).outages).toEqual([expect.objectContaining({ dependency: 'exchange', exchange: TESTNET })]);

    // A key check now is not sent (asking during a ban makes it longer) and says when to try again.
    const asked = local.requests.length;
    const check = await call('POST', '/api/exchange/add', { exchange: TESTNET, name: 'Second', ...KEY });
    expect(check.body).toMatchObject({ code: 20002, data: { reason: 'exchange_busy', until: down[0]!.data.until } });
    expect(local.requests.length).toBe(asked);

    // The ban ends: one line says so, the task was never stopped and trades on.
    const deadline = Date.now() + 15_000;
    while (!events.some((e) => e.kind === 'exchange_up') && Date.now() < deadline) {
      await tick();
      events = await eventsOf(taskId);
    }
    expect(events.filter((e) => e.kind === 'exchange_down' || e.kind === 'exchange_up').map((e) => e.kind)).toEqual(['exchange_down', 'exchange_up']);
    const task = await detail(call, taskId);
    expect(task).toMatchObject({ running: true, attention: null });
    expect((await noticesOf(taskId)).length).toBe(noticesBefore);
    expect(processPauses.until(TESTNET)).toBeUndefined();
    // The live exchange was never paused by its testnet's ban.
    expect(processPauses.until('binance')).toBeUndefined();
  });
});
