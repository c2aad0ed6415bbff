import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import type { StrategyConditions } from '../../../../src/api/conditions';
import { indicatorKeysOf, SymbolIndicators } from './indicators';

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** Closes fed as consecutive closed 1-minute candles from an hour's start. */
const minutes = (closes: readonly number[], start = 1_700_000_000_000 - (1_700_000_000_000 % HOUR)) =>
  closes.map((close, i) => ({ time: start + i * MINUTE, close: String(close) }));

/** The values after each candle (null while warming up). */
const series = (key: string, closes: readonly number[]): Array<string | null> => {
  const indicators = new SymbolIndicators([key]);
  return minutes(closes).map((candle) => {
    indicators.push(candle);
    return indicators.value(key);
  });
};

/**
 * The series warms up for `warmup` candles, then matches the published
 * values to their last printed digit: the spreadsheets compute from closes
 * with more decimals than they print, so a value may differ by 0.01.
 */
const expectPublished = (values: Array<string | null>, warmup: number, published: readonly number[]) => {
  expect(values.length).toBe(warmup + published.length);
  expect(values.slice(0, warmup).every((value) => value === null)).toBe(true);
  const off = values.slice(warmup).map((value, i) => (value === null ? Infinity : new Big(value).minus(published[i]!).abs().toNumber()));
  expect(off.filter((distance) => distance > 0.0101)).toEqual([]);
};

// StockCharts' RSI worked example (cs-rsi.xls): 14 periods, Wilder's smoothing.
const RSI_CLOSES = [
  44.34, 44.09, 44.15, 43.61, 44.33, 44.83, 45.1, 45.42, 45.84, 46.08, 45.89, 46.03, 45.61, 46.28, 46.28, 46.0, 46.03, 46.41, 46.22, 45.64, 46.21, 46.25, 45.71, 46.45, 45.78,
  45.35, 44.03, 44.18, 44.22, 44.57, 43.42, 42.66, 43.13,
];
const RSI_14 = [70.46, 66.25, 66.48, 69.35, 66.29, 57.92, 62.88, 63.21, 56.01, 62.34, 54.67, 50.39, 40.02, 41.49, 41.9, 45.5, 37.32, 33.09, 37.79];

// StockCharts' moving averages example (cs-movavg.xls): 10-day SMA and EMA (the EMA seeded with the first SMA).
const MA_CLOSES = [
  22.27, 22.19, 22.08, 22.17, 22.18, 22.13, 22.23, 22.43, 22.24, 22.29, 22.15, 22.39, 22.38, 22.61, 23.36, 24.05, 23.75, 23.83, 23.95, 23.63, 23.82, 23.87, 23.65, 23.19, 23.1,
  23.33, 22.68, 23.1, 22.4, 22.17,
];
const SMA_10 = [22.22, 22.21, 22.23, 22.26, 22.31, 22.42, 22.61, 22.77, 22.91, 23.08, 23.21, 23.38, 23.53, 23.65, 23.71, 23.69, 23.61, 23.51, 23.43, 23.28, 23.13];
const EMA_10 = [22.22, 22.21, 22.24, 22.27, 22.33, 22.52, 22.8, 22.97, 23.13, 23.28, 23.34, 23.43, 23.51, 23.54, 23.47, 23.4, 23.39, 23.26, 23.23, 23.08, 22.92];

// StockCharts' Bollinger bands example (cs-bollinger.xls): 20 periods, 2 standard deviations (population).
const BB_CLOSES = [
  86.16, 89.09, 88.78, 90.32, 89.07, 91.15, 89.44, 89.18, 86.93, 87.68, 86.96, 89.43, 89.32, 88.72, 87.45, 87.26, 89.5, 87.9, 89.13, 90.7, 92.9, 92.98, 91.8, 92.66, 92.68,
  92.3, 92.77, 92.54, 92.95, 93.2, 91.07, 89.83, 89.74, 90.4, 90.74, 88.02, 88.09, 88.84, 90.78, 90.54, 91.39, 90.65,
];
const BB_UPPER = [91.29, 91.95, 92.61, 92.93, 93.31, 93.73, 93.9, 94.27, 94.57, 94.79, 95.04, 94.91, 94.9, 94.9, 94.86, 94.67, 94.56, 94.68, 94.58, 94.53, 94.53, 94.37, 94.15];
const BB_LOWER = [86.13, 86.14, 85.87, 85.85, 85.7, 85.65, 85.59, 85.56, 85.6, 85.98, 86.27, 86.82, 86.87, 86.91, 87.12, 87.63, 87.83, 87.56, 87.76, 87.97, 87.95, 87.96, 87.95];

describe('indicators against published reference series', () => {
  it('RSI(14) is Wilder\'s, as StockCharts publishes it', () => {
    expectPublished(series('rsi:14:1m', RSI_CLOSES), 14, RSI_14);
  });

  it('SMA(10) and EMA(10) as StockCharts publishes them', () => {
    expectPublished(series('sma:10:1m', MA_CLOSES), 9, SMA_10);
    expectPublished(series('ema:10:1m', MA_CLOSES), 9, EMA_10);
  });

  it('Bollinger(20, 2) bands as StockCharts publishes them', () => {
    expectPublished(series('bb:20:2:1m:upper', BB_CLOSES), 19, BB_UPPER);
    expectPublished(series('bb:20:2:1m:lower', BB_CLOSES), 19, BB_LOWER);
  });
});

describe('SymbolIndicators', () => {
  it('rolls minutes into the timeframe and updates once per closed candle, at its last minute', () => {
    // Five-minute candles of closes 1..5, 6..10, ...: SMA(2) of 5m closes.
    const indicators = new SymbolIndicators(['sma:2:5m']);
    const seen: Array<string | null> = [];
    for (const candle of minutes(Array.from({ length: 15 }, (_, i) => i + 1))) {
      indicators.push(candle);
      seen.push(indicators.value('sma:2:5m'));
    }
    // The first 5m candle closes at minute 5 (close 5), the second at minute 10 (close 10): SMA = 7.5 from minute 10.
    expect(seen).toEqual([null, null, null, null, null, null, null, null, null, '7.5', '7.5', '7.5', '7.5', '7.5', '12.5']);
    expect(indicators.close).toBe('15');
  });

  it('closes a timeframe candle whose last minute is missing when a later candle starts', () => {
    const indicators = new SymbolIndicators(['sma:2:5m']);
    const [a, b, c] = [minutes([1, 2, 3])[0]!, minutes([1, 2, 3])[1]!, minutes([1, 2, 3])[2]!];
    indicators.push(a);
    indicators.push(b);
    indicators.push(c);
    // Minutes 4 and 5 missing; the next 5m candle's first minutes arrive, then its last.
    const next = a.time + 5 * MINUTE;
    indicators.push({ time: next, close: '10' });
    expect(indicators.value('sma:2:5m')).toBeNull();
    indicators.push({ time: next + 4 * MINUTE, close: '20' });
    // First candle closed at 3 (its last minute seen), the second at 20.
    expect(indicators.value('sma:2:5m')).toBe('11.5');
  });

  it('ignores a minute not later than the last one', () => {
    const indicators = new SymbolIndicators(['sma:2:1m']);
    const [a, b] = minutes([1, 3]);
    indicators.push(a!);
    indicators.push(b!);
    indicators.push({ ...a!, close: '100' });
    expect(indicators.value('sma:2:1m')).toBe('2');
    expect(indicators.close).toBe('3');
  });

  it('knows the side of the close against an average at the last and the previous minute', () => {
    const indicators = new SymbolIndicators(['sma:2:1m']);
    const sides: Array<[string | null, string | null]> = [];
    for (const candle of minutes([10, 10, 8, 12, 13])) {
      indicators.push(candle);
      sides.push([indicators.previousSide('sma:2:1m'), indicators.side('sma:2:1m')]);
    }
    // SMA(2): -, 10, 9, 10, 12.5; closes 10, 10, 8, 12, 13.
    expect(sides).toEqual([
      [null, null],
      [null, 'on'],
      ['on', 'below'],
      ['below', 'above'],
      ['above', 'above'],
    ]);
  });

  it('derives one key per indicator a strategy reads, shared by both bands and repeated conditions', () => {
    const conditions: StrategyConditions = {
      start: {
        mode: 'all',
        conditions: [
          { kind: 'rsi', period: 14, timeframe: '1h', op: 'below', value: '30' },
          { mode: 'any', conditions: [{ kind: 'bollinger', period: 20, deviations: '2.0', timeframe: '1h', band: 'lower' }, { kind: 'alert' }] },
        ],
      },
      replenish: { mode: 'any', conditions: [{ kind: 'rsi', period: 14, timeframe: '1h', op: 'below', value: '25' }, { kind: 'price_range', min: null, max: '20000' }] },
      close: { mode: 'all', conditions: [{ kind: 'ma_cross', average: 'ema', period: 50, timeframe: '4h', side: 'below' }] },
    };
    expect(indicatorKeysOf(conditions)).toEqual(['rsi:14:1h', 'bb:20:2:1h:lower', 'ema:50:4h']);
    expect(indicatorKeysOf(null)).toEqual([]);
    const indicators = new SymbolIndicators(indicatorKeysOf(conditions));
    indicators.addKeys(['bb:20:2:1h:upper', 'rsi:14:1h']);
    expect(indicators.keys()).toEqual(['rsi:14:1h', 'bb:20:2:1h:lower', 'ema:50:4h', 'bb:20:2:1h:upper']);
    expect(() => indicators.addKeys(['macd:1:1h'])).toThrow(RangeError);
  });
});
