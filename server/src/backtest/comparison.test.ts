import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import type { MarketRules } from '../../../src/api/backtest';
import type { StrategySettings } from '../../../src/api/strategy';
import { candleInterval, parseCandlesCsv, type Candle } from '../engine/core/candles';
import { runBacktest } from './run';

const T0 = Date.UTC(2023, 0, 1);
const MINUTE = 60_000;
const candle = (i: number, open: string, high: string, low: string, close: string): Candle => ({ time: T0 + i * MINUTE, open, high, low, close, volume: '1' });
const RULES: MarketRules = { feeRate: '0.001', feeAsset: 'received', amountStep: '0.001', minAmount: '0.001', minCost: '1' };
const ONE_LEVEL: StrategySettings = {
  levels: [{ dropPercent: '5', multiple: '2' }],
  takeProfitPercent: '2',
  takeProfitCallbackPercent: '0',
  replenishCallbackPercent: '0',
  stopLossPercent: null,
  cooldownSeconds: 0,
};

describe('what a retail user compares a backtest with', () => {
  it('spreads the return over a year and prices the same money simply held', () => {
    // The hand-computed path of run.test.ts: 10 USDT in use, +0.2274426 booked and +0.0021599 floating at the end.
    const path = [candle(0, '100', '100', '100', '100'), candle(1, '100', '100.5', '94', '96'), candle(2, '96', '99', '95.5', '98'), candle(3, '98', '103', '97.5', '102.5')];
    const { figures } = runBacktest({ candles: path, interval: MINUTE, symbol: 'COIN/USDT', settings: ONE_LEVEL, firstOrderAmount: '10', firstOrderMultiple: false, cycleCount: 9999, market: RULES, tickSize: '0.01', fill: 'close', detail: false });
    expect(figures.returnPercent).toBe('2.3');
    // 2.296025 % in 4 minutes; a year is 365 x 1440 / 4 = 131 400 times as long (simple, not compounded).
    expect(figures.annualizedReturnPercent).toBe('301697.69');
    // COIN went from 100 (the first open) to 102.5 (the last close): the 10 USDT held would have made 0.25.
    expect(figures.holdReturnPercent).toBe('2.5');
    expect(figures.holdProfit).toBe('0.25');
  });

  it('on the bundled sample: BTC rose about 21 % over the three weeks', () => {
    const candles = parseCandlesCsv(readFileSync(join(import.meta.dirname, '..', '..', 'market-data', 'BTCUSDT-1m-2023-03-01_2023-03-21.csv'), 'utf8'));
    const { figures } = runBacktest({
      candles,
      interval: candleInterval(candles),
      symbol: 'BTC/USDT',
      settings: { ...ONE_LEVEL, takeProfitPercent: '1.5' },
      firstOrderAmount: '10',
      firstOrderMultiple: false,
      cycleCount: 9999,
      market: { ...RULES, amountStep: '0.00001', minAmount: '0.00001', minCost: '5' },
      tickSize: '0.01',
      fill: 'close',
      detail: false,
    });
    // 23 140.48 on 1 March 00:00 to 28 110.26 on 21 March 23:59.
    expect(figures.holdReturnPercent).toBe('21.48');
    expect(new Big(figures.holdProfit!).eq(new Big(figures.maxFundsInUse).times('28110.26').div('23140.48').minus(figures.maxFundsInUse).round(8))).toBe(true);
    // 21 days: a year is 365 / 21 times as long.
    const exact = new Big(figures.realizedProfit).plus(figures.openPosition?.floatingProfit ?? '0').times(100).div(figures.maxFundsInUse);
    expect(figures.annualizedReturnPercent).toBe(exact.times(365).div(21).round(2).toFixed());
  });
});
