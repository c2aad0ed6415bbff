import type { Candle } from '../src/engine/core/candles';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKENDS, registerUser, startServer, taskPayload, type TestServer } from './harness';

/** Three minutes whose closes are far apart, so a fill's price names the candle it traded on. */
const CANDLES: Candle[] = ['25000.00', '26000.00', '27000.00'].map((close, i) => ({ time: Date.UTC(2023, 2, 1, 0, i), open: close, high: close, low: close, close, volume: '1' }));

const strategy = {
  name: 'One level',
  levels: [{ dropPercent: '3', multiple: '1' }],
  takeProfitPercent: '20',
  takeProfitCallbackPercent: '0',
  replenishCallbackPercent: '0',
  stopLossPercent: null,
  cooldownSeconds: 0,
};

describe.each(BACKENDS)('a PAPER_REPLAY task sees the whole file (%s)', (backend) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('buys its first order at the first candle, and the replay plays every candle once', async () => {
    server = await startServer(backend, { paperReplay: { file: 'test', symbol: 'BTC/USDT', speed: 'max', candles: CANDLES, interval: 60_000 } });
    const me = await registerUser(server, { email: 'first-candle@example.com', activated: true });
    const call = (method: string, path: string, body?: unknown) => server!.call(method, path, body, { token: me.accessToken });
    const exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper' })).body.data.id;
    const strategyId = (await call('POST', '/api/strategy/add', strategy)).body.data.id;
    const created = await call('POST', '/api/trade/add', taskPayload(exchangeId, strategyId, { firstOrderAmount: '10' }));
    expect(created.body.code).toBe(0);
    const taskId = created.body.data[0].id as string;

    const engine = server.app.engine;
    const replay = engine.market.replay!;
    await engine.tick();
    expect(replay.status()).toMatchObject({ started: true, played: 1, done: false });
    const orders = await server.db.selectFrom('orders').select(['side', 'level', 'price']).where('task_id', '=', taskId).execute();
    expect(orders).toEqual([{ side: 'buy', level: 0, price: expect.anything() }]);
    expect(Number(orders[0]!.price)).toBe(25000);

    await engine.tick();
    expect(engine.market.price('BTC/USDT')).toBe('26000.00');
    await engine.tick();
    expect(replay.status()).toMatchObject({ played: 3, done: true });
    expect(engine.market.price('BTC/USDT')).toBe('27000.00');
    // Starting a server (migrations) takes a while on a busy machine.
  }, 120_000);
});
