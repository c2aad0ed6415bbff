import Big from 'big.js';
import type { OhlcvCandle } from '../../api/trade';
import type { DecimalString } from '../../api/types';
import { decimalsOf } from '../../api/format';

/**
 * The price axis of a chart (a task's candles, a backtest's run): its decimals
 * and smallest move, from the market's tick or the prices themselves.
 */

const decimals = (value: DecimalString) => {
  const fraction = new Big(value).toFixed().split('.')[1];
  return fraction ? fraction.length : 0;
};

/** Decimals the price axis shows: as many as the candles' prices have, 2 to 8. */
export const pricePrecision = (candles: readonly OhlcvCandle[]): number => {
  let most = 2;
  for (const candle of candles) for (const value of [candle.open, candle.high, candle.low, candle.close]) most = Math.max(most, decimals(value));
  return Math.min(most, 8);
};

/** The chart's price scale: the decimals and smallest move of its axis and crosshair, and the tick its labels format to. */
export interface PriceScale {
  precision: number;
  minMove: number;
  tick: DecimalString | null;
}

/**
 * The market's tick when it is known (a price axis in its steps: '0.01' gives
 * 2 decimals and moves of 0.01, '0.5' one decimal and moves of 0.5); else as
 * many decimals as the candles' prices have (pricePrecision).
 */
export const priceScale = (tick: DecimalString | null | undefined, candles: readonly OhlcvCandle[]): PriceScale => {
  if (tick && new Big(tick).gt(0)) return { precision: decimalsOf(tick), minMove: Number(tick), tick };
  const precision = pricePrecision(candles);
  return { precision, minMove: 10 ** -precision, tick: null };
};
