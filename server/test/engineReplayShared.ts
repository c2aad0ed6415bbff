import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { candleInterval, parseCandlesCsv, type Candle } from '../src/engine/core/candles';
import type { ServerConfig } from '../src/config';
import { registerUser, type TestServer } from './harness';
import { SIX_LEVELS } from './ladders';

// What the engine replay tests share (engineReplay.*.test.ts): the recorded history, the ladder, a trader and its tasks.

/** Three weeks of BTC/USDT minutes (server/market-data, with its source note): -15 % then +45 %. */
export const BTC_MARCH_2023 = parseCandlesCsv(readFileSync(join(process.cwd(), 'server', 'market-data', 'BTCUSDT-1m-2023-03-01_2023-03-21.csv'), 'utf8'));

/** The ladder the issue names: six levels, drops 2/4/7/11/16/22 %, multiples x1.5, take profit 1.5 %, no callbacks. */
export const sixLevels = {
  name: 'Six levels',
  levels: SIX_LEVELS,
  takeProfitPercent: '1.5',
  takeProfitCallbackPercent: '0',
  replenishCallbackPercent: '0',
  stopLossPercent: null,
  cooldownSeconds: 0,
};

export const replayConfig = (candles: Candle[]): Partial<ServerConfig> => ({
  paperReplay: { file: 'test', symbol: 'BTC/USDT', speed: 'max', candles, interval: candleInterval(candles) },
});

export interface Trader {
  call: (method: string, path: string, body?: unknown) => Promise<{ body: { code: number; data: any } }>;
  exchangeId: string;
}

export const trader = async (server: TestServer): Promise<Trader> => {
  const { accessToken } = await registerUser(server, { email: 'replay@example.com', activated: true });
  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token: accessToken });
  const exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper' })).body.data.id as string;
  return { call, exchangeId };
};

export const addTask = async ({ call, exchangeId }: Trader, symbol: string, strategy: Record<string, unknown>, firstOrderAmount = '10') => {
  const added = await call('POST', '/api/strategy/add', strategy);
  expect(added.body).toMatchObject({ code: 0 });
  const strategyId = added.body.data.id as string;
  const created = await call('POST', '/api/trade/add', {
    exchangeId,
    coinIdList: [symbol],
    cycleCount: 9999,
    firstOrderAmount,
    firstOrderMultiple: false,
    running: true,
    replenishStatus: 'replenish_open',
    strategyId,
  });
  return created.body;
};

