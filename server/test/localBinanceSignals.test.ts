import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StrategyConditions } from '../../src/api/conditions';
import { quickStrategy, registerUser, startServer, taskPayload, type TestServer } from './harness';
import { startLocalBinance, type LocalBinance } from './localExchange/binance';
import { BINANCE_ORIGIN, pointedAt } from './localExchange/pointed';

/**
 * Signal conditions (issue 29) on a real exchange's path: the engine reads
 * the candles of a bound Binance account's market through ccxt's own
 * `fetchOHLCV` (the local Binance answers `GET /api/v3/klines`), warms the
 * indicators up from them, and a task whose start gate does not hold waits
 * with the indicator's value, placing nothing, until an alert starts its
 * cycle with a real order.
 */

const KEY = { apiKey: 'Sg7Hk2Lm9Np4Qr1Tu6Vw3Xy8Za5Bc0De7Fg2Hi9Jk4Lm1No6Pq3Rs8Tu5Vw0Xy2Z', secret: 'kM3nP7qR1sT5uV9wX3yZ7aB1cD5eF9gH3iJ7kL1mN5oP9qR3sT7uV1wX5yZ9aB3c' };

describe('signal conditions on the local Binance (pglite)', () => {
  let server: TestServer;
  let local: LocalBinance;
  let token: string;

  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token });
  const tick = async () => {
    await server.app.engine.tick();
    await server.app.engine.idle();
  };

  beforeEach(async () => {
    local = await startLocalBinance({ levelQty: { BTCUSDT: '0.0001' } });
    server = await startServer('pglite', {}, { exchangeFactory: pointedAt({ [BINANCE_ORIGIN]: local.origin }) });
    token = (await registerUser(server, { email: 'signals-binance@example.com', activated: true })).accessToken;
  });
  afterEach(async () => {
    await server.close();
    await local.close();
  });

  it('reads the candles from the exchange, waits for RSI with its value, and an alert opens the cycle', async () => {
    local.addAccount(KEY.apiKey, KEY.secret, { USDT: '1000' });
    const accountId = (await call('POST', '/api/exchange/add', { exchange: 'binance', name: 'Binance', ...KEY })).body.data.id as string;
    // RSI below 0.01: a gate that does not hold on any market.
    const conditions: StrategyConditions = { start: { mode: 'all', conditions: [{ kind: 'rsi', period: 14, timeframe: '1m', op: 'below', value: '0.01' }] } };
    const strategy = await call('POST', '/api/strategy/add', { ...quickStrategy, name: 'RSI start', conditions });
    expect(strategy.body.code).toBe(0);
    const created = await call('POST', '/api/trade/add', taskPayload(accountId, strategy.body.data.id));
    expect(created.body.code).toBe(0);
    const taskId = created.body.data[0].id as string;

    await tick();
    await tick();
    // The candles came from the exchange, through ccxt's parser, and no order left.
    expect(local.count('GET /klines')).toBeGreaterThan(0);
    expect(local.count('POST /order')).toBe(0);
    const waiting = (await call('GET', `/api/trade/detail/${taskId}`)).body.data.waiting;
    expect(waiting).toMatchObject({ gate: 'start', text: 'RSI(14,1m) < 0.01', readings: [{ path: [0], holds: false }] });
    // Warmed up from the exchange's history: the value is there at once, a number between 0 and 100.
    const rsi = Number(waiting.readings[0].current);
    expect(rsi).toBeGreaterThanOrEqual(0.01);
    expect(rsi).toBeLessThanOrEqual(100);

    server.app.engine.tasks.get(taskId)!.alert = { id: 'tv-binance', action: 'start_cycle', receivedAt: Date.now() };
    await tick();
    expect(local.count('POST /order')).toBe(1);
    expect(local.orders[0]).toMatchObject({ side: 'BUY', status: 'FILLED' });
    expect(server.app.engine.tasks.get(taskId)!.alert ?? null).toBeNull();
    expect(server.app.engine.tasks.get(taskId)!.state.phase).toBe('open');
  }, 60_000);
});
