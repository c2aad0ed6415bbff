/**
 * Signals (issue 29): indicator conditions that gate a strategy's cycle start,
 * its level buys and a signal close, and TradingView alerts that start a
 * cycle, buy the next level or close the position. Shared by the editor, the
 * engine and the backtest, so all three read the same settings.
 *
 * Conditions are evaluated on candles of a chosen timeframe, once per closed
 * minute: an indicator's value is the one of the last closed candle of its
 * timeframe, the price is the last closed minute's close. The engine and the
 * backtest evaluate them alike, so the backtest equals the engine's replay.
 */
import type { DecimalString } from './types';

/** The candle timeframes a condition may use. */
export const TIMEFRAMES = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];

/** Milliseconds of a timeframe's candle. */
export const TIMEFRAME_MS: Record<Timeframe, number> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
};

export type Condition =
  /** RSI(period) on the timeframe below or above `value` (0-100). */
  | { kind: 'rsi'; period: number; timeframe: Timeframe; op: 'below' | 'above'; value: DecimalString }
  /** The price crossed the moving average: it is now on `side` of it, and the previous evaluation was not. */
  | { kind: 'ma_cross'; average: 'sma' | 'ema'; period: number; timeframe: Timeframe; side: 'above' | 'below' }
  /** The price touched (reached or passed) the lower or upper Bollinger band. */
  | { kind: 'bollinger'; period: number; deviations: DecimalString; timeframe: Timeframe; band: 'lower' | 'upper' }
  /** The price lies within [min, max]; a null bound is open. */
  | { kind: 'price_range'; min: DecimalString | null; max: DecimalString | null }
  /** A TradingView alert for this gate arrived (consumed when it acts). */
  | { kind: 'alert' };

export type ConditionKind = Condition['kind'];

/** "All of" or "any of" the conditions (one level of nesting: a group may hold groups of plain conditions). */
export interface ConditionGroup {
  mode: 'all' | 'any';
  conditions: Array<Condition | ConditionGroup>;
}

/**
 * A strategy's gates; an absent or null gate always holds.
 * - `start`: a cycle's first order waits until it holds;
 * - `replenish`: a triggered level waits until it holds;
 * - `close`: sells the whole position when it holds and the sale covers the
 *   position's cost after the taker fee (a signal close never books a loss).
 */
export interface StrategyConditions {
  start?: ConditionGroup | null;
  replenish?: ConditionGroup | null;
  close?: ConditionGroup | null;
}

export type Gate = keyof StrategyConditions;

/** What a TradingView alert to a task's webhook does. */
export const ALERT_ACTIONS = ['start_cycle', 'buy_level', 'close_position'] as const;
export type AlertAction = (typeof ALERT_ACTIONS)[number];

export const MAX_CONDITIONS = 8;
export const MAX_INDICATOR_PERIOD = 200;

/** Whether an item of a group is a nested group rather than a plain condition. */
export const isConditionGroup = (item: Condition | ConditionGroup): item is ConditionGroup => typeof item === 'object' && item !== null && 'mode' in item;
