import type { UTCTimestamp } from 'lightweight-charts';
import { describe, expect, it } from 'vitest';
import type { OhlcvCandle, TradeOrder } from '../../api/trade';
import { tradeOrder } from '../../testing/tasks';
import { barsChange, candleAt, candleBars, fillMarkers, ladderLines, mergeCandles, priceLines, type ChartColors, type ChartLabels } from './candleChartData';
import { pricePrecision, priceScale } from '../kit/priceScale';

const MINUTE = 60_000;
const T0 = Date.parse('2026-03-01T08:00:00.000Z');

const candle = (time: number, close: string, over: Partial<OhlcvCandle> = {}): OhlcvCandle => ({
  time,
  open: close,
  high: close,
  low: close,
  close,
  volume: '1.5',
  ...over,
});

const labels: ChartLabels = {
  first: 'First',
  level: (level) => `L${level}`,
  average: 'Avg',
  takeProfit: 'TP',
  sell: 'Sell',
};
const colors: ChartColors = {
  buy: 'green',
  sell: 'red',
  first: 'purple',
  level: 'grey',
  levelFilled: 'blue',
  average: 'orange',
  takeProfit: 'darkgreen',
};

const task = {
  firstFillPrice: '200',
  averagePrice: '195.5',
  firstOrderAmount: '10',
  firstOrderMultiple: false,
  levelsFilled: 1,
  strategy: {
    levels: [
      { dropPercent: '2', multiple: '1' },
      { dropPercent: '5', multiple: '2' },
      { dropPercent: '20', multiple: '4' },
    ],
    takeProfitPercent: '1.5',
  },
};

const order = (over: Partial<TradeOrder>): TradeOrder =>
  tradeOrder({ id: 'o', taskId: 't-1', fee: '0.0001', feeCurrency: 'BTC', tickSize: null, amountStep: null, createdAt: new Date(T0).toISOString(), ...over });

describe('candles as bars', () => {
  it('turns open times in milliseconds into UTC seconds and decimal strings into numbers, oldest first', () => {
    const bars = candleBars([
      candle(T0 + MINUTE, '101.25', { open: '100.5', high: '101.75', low: '100.25' }),
      candle(T0, '100.5', { open: '100', high: '100.75', low: '99.5' }),
    ]);
    expect(bars).toEqual([
      { time: T0 / 1000, open: 100, high: 100.75, low: 99.5, close: 100.5 },
      { time: T0 / 1000 + 60, open: 100.5, high: 101.75, low: 100.25, close: 101.25 },
    ]);
  });

  it('lets a refreshed candle replace the one of the same time and appends newer ones', () => {
    const merged = mergeCandles([candle(T0, '1'), candle(T0 + MINUTE, '2')], [candle(T0 + MINUTE, '2.5'), candle(T0 + 2 * MINUTE, '3')]);
    expect(merged.map((c) => [c.time - T0, c.close])).toEqual([
      [0, '1'],
      [MINUTE, '2.5'],
      [2 * MINUTE, '3'],
    ]);
  });

  it('shows as many decimals on the axis as the prices have, 2 to 8', () => {
    expect(pricePrecision([candle(T0, '64000')])).toBe(2);
    expect(pricePrecision([candle(T0, '0.5', { high: '0.51234' })])).toBe(5);
    expect(pricePrecision([candle(T0, '0.000012345678912')])).toBe(8);
    // Trailing zeros are not decimals.
    expect(pricePrecision([candle(T0, '1.2300000')])).toBe(2);
    expect(pricePrecision([])).toBe(2);
  });

  it("scales the price axis to the market's tick when known, else to the candles' decimals", () => {
    const candles = [candle(T0, '64000.123')];
    expect(priceScale('0.01', candles)).toEqual({ precision: 2, minMove: 0.01, tick: '0.01' });
    expect(priceScale('0.00000001', [candle(T0, '0.0000123')])).toEqual({ precision: 8, minMove: 1e-8, tick: '0.00000001' });
    expect(priceScale('0.5', candles)).toEqual({ precision: 1, minMove: 0.5, tick: '0.5' });
    expect(priceScale('10', candles)).toEqual({ precision: 0, minMove: 10, tick: '10' });
    // Not known (or not a usable tick): the candles' own decimals.
    expect(priceScale(null, candles)).toEqual({ precision: 3, minMove: 0.001, tick: null });
    expect(priceScale('0', candles)).toEqual({ precision: 3, minMove: 0.001, tick: null });
  });

  it('redraws on the first bars and on another timeframe, and otherwise only updates from the last bar shown', () => {
    const bars = [0, 60, 120].map((s) => ({ time: (T0 / 1000 + s) as UTCTimestamp }));
    expect(barsChange(null, '1m', bars)).toEqual({ reset: true, bars });
    expect(barsChange({ key: '15m', last: T0 / 1000 }, '1m', bars)).toEqual({ reset: true, bars });
    expect(barsChange({ key: '1m', last: T0 / 1000 + 60 }, '1m', bars)).toEqual({ reset: false, bars: bars.slice(1) });
    expect(barsChange({ key: '1m', last: T0 / 1000 + 60 }, '1m', [])).toEqual({ reset: true, bars: [] });
  });
});

describe('ladder, average and take profit', () => {
  it('puts each level where its drop from the first fill is, and the take profit over the average, as decimal strings', () => {
    expect(ladderLines(task)).toEqual([
      { kind: 'first', level: 0, price: '200', filled: true },
      { kind: 'level', level: 1, price: '196', filled: true },
      { kind: 'level', level: 2, price: '190', filled: false },
      { kind: 'level', level: 3, price: '160', filled: false },
      { kind: 'average', level: -1, price: '195.5', filled: false },
      // 195.5 * 1.015, exact
      { kind: 'takeProfit', level: -1, price: '198.4325', filled: false },
    ]);
  });

  it('has no lines before the first fill, and no average or take profit without a position', () => {
    expect(ladderLines({ ...task, firstFillPrice: null })).toEqual([]);
    expect(ladderLines({ ...task, firstFillPrice: '0' })).toEqual([]);
    expect(ladderLines({ ...task, averagePrice: null }).map((line) => line.kind)).toEqual(['first', 'level', 'level', 'level']);
  });

  it('labels every line on the axis (the library draws a title only beside its axis label) and converts its price for the chart', () => {
    const options = priceLines(ladderLines(task), labels, colors);
    expect(options.map((o) => [o.title, o.price, o.color, o.axisLabelVisible])).toEqual([
      ['First', 200, 'purple', true],
      ['L1', 196, 'blue', true],
      ['L2', 190, 'grey', true],
      ['L3', 160, 'grey', true],
      ['Avg', 195.5, 'orange', true],
      ['TP', 198.4325, 'darkgreen', true],
    ]);
    // Filled levels dashed, levels to come dotted, the average solid, the take profit dashed (lightweight-charts' LineStyle).
    expect(options.map((o) => o.lineStyle)).toEqual([0, 2, 1, 1, 0, 2]);
  });
});

describe('fills as markers', () => {
  const candles = [candle(T0, '100'), candle(T0 + 15 * MINUTE, '99'), candle(T0 + 30 * MINUTE, '101')];

  it('finds the candle a moment falls in, and none outside the candles', () => {
    expect(candleAt(candles, '15m', T0)).toBe(T0);
    expect(candleAt(candles, '15m', T0 + 29 * MINUTE + 59_999)).toBe(T0 + 15 * MINUTE);
    expect(candleAt(candles, '15m', T0 + 44 * MINUTE)).toBe(T0 + 30 * MINUTE);
    expect(candleAt(candles, '15m', T0 + 45 * MINUTE)).toBeNull();
    expect(candleAt(candles, '15m', T0 - 1)).toBeNull();
    // A gap in the candles holds no fill.
    expect(candleAt([candle(T0, '1'), candle(T0 + 3 * MINUTE, '1')], '1m', T0 + 90_000)).toBeNull();
    expect(candleAt([], '1m', T0)).toBeNull();
  });

  it('puts buys below the bar and sells above it, on the candle of each fill, in time order', () => {
    const at = (minutes: number) => new Date(T0 + minutes * MINUTE).toISOString();
    const markers = fillMarkers(
      [
        order({ id: 'sell', side: 'sell', reason: 'take_profit', level: 1, createdAt: at(40) }),
        order({ id: 'level', level: 1, reason: 'replenish', createdAt: at(17) }),
        order({ id: 'first', createdAt: at(3) }),
        order({ id: 'failed', status: 'failed', price: null, createdAt: at(5) }),
        order({ id: 'open', status: 'open', createdAt: at(6) }),
        order({ id: 'before', createdAt: at(-20) }),
        order({ id: 'after', createdAt: at(50) }),
      ],
      candles,
      '15m',
      labels,
      colors,
    );
    expect(markers).toEqual([
      { id: 'first', time: T0 / 1000, position: 'belowBar', shape: 'arrowUp', color: 'green', text: 'First' },
      { id: 'level', time: T0 / 1000 + 900, position: 'belowBar', shape: 'arrowUp', color: 'green', text: 'L1' },
      { id: 'sell', time: T0 / 1000 + 1800, position: 'aboveBar', shape: 'arrowDown', color: 'red', text: 'Sell' },
    ]);
  });
});
