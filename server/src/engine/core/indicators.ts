/**
 * The indicators of signal conditions (issue 29), per symbol: fed closed
 * 1-minute candles, rolled into each timeframe the conditions need (candles
 * aligned to epoch multiples of TIMEFRAME_MS), each indicator updated once
 * per closed timeframe candle. One object serves every task on the symbol:
 * it computes the union of their indicatorKeysOf().
 *
 * Library: `trading-signals` (MIT). Of the three kept candidates it is the
 * one built for streaming: every indicator takes one value at a time
 * (`update`), which is what a live engine needs; it is written in TypeScript,
 * published with types, and released often. `technicalindicators` has a
 * streaming `nextValue` too but has not been released for years and bundles
 * an old @types/node; `indicatorts` computes whole arrays only, so each new
 * candle would recompute the series. RSI is Wilder's (smoothed averages
 * seeded by the simple mean), Bollinger bands use the population deviation,
 * both as StockCharts publishes them (indicators.test.ts checks the
 * published series). Its EMA seeds with the first value; we seed it with the
 * SMA of the first `period` closes, as the published tables do.
 *
 * The library computes in floats. Values leave this module as decimals
 * (12 significant digits), and conditions compare those decimals against the
 * user's decimal thresholds with big.js, so a comparison never depends on
 * float rounding at the threshold; the engine and the backtest feed the same
 * candles in the same order and therefore read the same decimals.
 *
 * When a timeframe candle closes: with its last minute (the minute whose end
 * is a multiple of the timeframe), or, when that minute is missing, when the
 * first minute of a later candle arrives. Values so hold from the end of
 * minute m for the prices of minute m+1.
 */
import Big from 'big.js';
import { BollingerBands, EMA, RSI, SMA } from 'trading-signals';
import { TIMEFRAME_MS, TIMEFRAMES, type Condition, type ConditionGroup, type StrategyConditions, type Timeframe } from '../../../../src/api/conditions';
import type { DecimalString } from '../../../../src/api/types';
import type { Candle } from './candles';

/**
 * What a condition reads: `rsi:14:1h`, `sma:20:1h`, `ema:50:4h`,
 * `bb:20:2:1h:lower` (the band of Bollinger(20, 2) on 1h). `price_range` and
 * `alert` read no indicator.
 */
export type IndicatorKey = string;

/** The indicator key a condition reads, or null when it reads only the price (or nothing). */
export const indicatorKeyOf = (condition: Condition): IndicatorKey | null => {
  switch (condition.kind) {
    case 'rsi':
      return `rsi:${condition.period}:${condition.timeframe}`;
    case 'ma_cross':
      return `${condition.average}:${condition.period}:${condition.timeframe}`;
    case 'bollinger':
      return `bb:${condition.period}:${new Big(condition.deviations).toString()}:${condition.timeframe}:${condition.band}`;
    default:
      return null;
  }
};

const isGroup = (item: Condition | ConditionGroup): item is ConditionGroup => 'mode' in item;

/** Every plain condition of a group, nested ones included, with its path of indexes. */
export const plainConditions = (group: ConditionGroup, path: number[] = []): Array<{ path: number[]; condition: Condition }> =>
  group.conditions.flatMap((item, i) => (isGroup(item) ? plainConditions(item, [...path, i]) : [{ path: [...path, i], condition: item }]));

const GATES = ['start', 'replenish', 'close'] as const;

/** The indicator keys a strategy's conditions read, without repeats (empty without conditions). */
export const indicatorKeysOf = (conditions: StrategyConditions | null | undefined): IndicatorKey[] => {
  const keys = new Set<IndicatorKey>();
  for (const gate of GATES) {
    const group = conditions?.[gate];
    if (!group) continue;
    for (const { condition } of plainConditions(group)) {
      const key = indicatorKeyOf(condition);
      if (key) keys.add(key);
    }
  }
  return [...keys];
};

/** A float as the decimal the conditions compare: 12 significant digits, deterministic for a given float. */
export const decimalOfFloat = (value: number): DecimalString => new Big(value.toPrecision(12)).toFixed();

/** Where a price lies against a line. */
export type Side = 'above' | 'below' | 'on';

/** What conditions read of a symbol's market: the decimals of its last closed minute. */
export interface IndicatorReadings {
  /** Open time of the last closed minute fed, or null before the first. */
  readonly minute: number | null;
  /** Close of the last closed minute (the price conditions compare), or null before the first. */
  readonly close: DecimalString | null;
  /** An indicator's value as of the last closed minute; null while it warms up (or for a key it does not compute). */
  value(key: IndicatorKey): DecimalString | null;
  /** ma_cross: the side of the close against the average at the minute before the last one; null when unknown. */
  previousSide(key: IndicatorKey): Side | null;
  /** ma_cross: the side of the last close against the average; null while the average warms up. */
  side(key: IndicatorKey): Side | null;
}

type Series =
  | { kind: 'rsi'; indicator: RSI }
  | { kind: 'sma'; indicator: SMA }
  | { kind: 'ema'; indicator: EMA; period: number; seed: SMA; seeded: boolean }
  | { kind: 'bb'; indicator: BollingerBands };

interface SeriesEntry {
  series: Series;
  /** The decimal values it publishes: one for an average or RSI, lower and upper for bands. */
  value: DecimalString | null;
  lower: DecimalString | null;
  upper: DecimalString | null;
}

interface Frame {
  ms: number;
  /** Open time of the candle being built; null when none is. */
  bucket: number | null;
  /** Close of the candle being built (its last minute's close so far). */
  close: number;
  series: SeriesEntry[];
}

/** A parsed key: the series it reads (shared by both bands) and which of its values. */
const parseKey = (key: IndicatorKey): { series: string; timeframe: Timeframe; part: 'value' | 'lower' | 'upper' } | null => {
  const parts = key.split(':');
  const timeframe = (parts[0] === 'bb' ? parts[3] : parts[2]) as Timeframe;
  if (!(TIMEFRAMES as readonly string[]).includes(timeframe)) return null;
  if (parts[0] === 'bb' && parts.length === 5 && (parts[4] === 'lower' || parts[4] === 'upper')) return { series: parts.slice(0, 4).join(':'), timeframe, part: parts[4] };
  if ((parts[0] === 'rsi' || parts[0] === 'sma' || parts[0] === 'ema') && parts.length === 3) return { series: key, timeframe, part: 'value' };
  return null;
};

const createSeries = (seriesKey: string): Series => {
  const parts = seriesKey.split(':');
  const period = Number(parts[1]);
  if (!Number.isInteger(period) || period < 1) throw new RangeError(`bad indicator period: ${seriesKey}`);
  switch (parts[0]) {
    case 'rsi':
      return { kind: 'rsi', indicator: new RSI(period) };
    case 'sma':
      return { kind: 'sma', indicator: new SMA(period) };
    case 'ema':
      return { kind: 'ema', indicator: new EMA(period), period, seed: new SMA(period), seeded: false };
    default:
      return { kind: 'bb', indicator: new BollingerBands(period, Number(parts[2])) };
  }
};

/** Feeds one closed timeframe close to a series and refreshes its published decimals. */
const updateSeries = (entry: SeriesEntry, close: number) => {
  const series = entry.series;
  switch (series.kind) {
    case 'rsi':
    case 'sma': {
      const result = series.indicator.add(close);
      entry.value = result === null ? null : decimalOfFloat(result);
      return;
    }
    case 'ema': {
      if (!series.seeded) {
        const mean = series.seed.add(close);
        if (mean === null) return;
        // The SMA of the first `period` closes is the EMA's first value.
        series.seeded = true;
        entry.value = decimalOfFloat(series.indicator.add(mean) ?? mean);
        return;
      }
      const next = series.indicator.add(close);
      if (next !== null) entry.value = decimalOfFloat(next);
      return;
    }
    case 'bb': {
      const bands = series.indicator.add(close);
      entry.lower = bands ? decimalOfFloat(bands.lower) : null;
      entry.upper = bands ? decimalOfFloat(bands.upper) : null;
    }
  }
};

const sideOf = (close: DecimalString, line: DecimalString): Side => {
  const order = new Big(close).cmp(line);
  return order > 0 ? 'above' : order < 0 ? 'below' : 'on';
};

/**
 * A symbol's indicators, fed closed 1-minute candles in rising time. Keys
 * added later start warming up from the next candle (the engine may feed a
 * new key's history first: see `warm`).
 */
export class SymbolIndicators implements IndicatorReadings {
  #frames = new Map<Timeframe, Frame>();
  #entries = new Map<string, SeriesEntry>();
  /** Per key: its series and which of its values (a key is read per task per tick: parsed once). */
  #lookup = new Map<IndicatorKey, { entry: SeriesEntry; part: 'value' | 'lower' | 'upper' }>();
  /** Per average key: the side at the last minute and the one before. */
  #sides = new Map<IndicatorKey, { last: Side | null; previous: Side | null }>();
  #minute: number | null = null;
  #close: DecimalString | null = null;

  constructor(keys: Iterable<IndicatorKey> = []) {
    this.addKeys(keys);
  }

  get minute(): number | null {
    return this.#minute;
  }

  get close(): DecimalString | null {
    return this.#close;
  }

  /** The keys it computes. */
  keys(): IndicatorKey[] {
    return [...this.#lookup.keys()];
  }

  /** Starts computing these keys too (unknown keys are refused with a RangeError). */
  addKeys(keys: Iterable<IndicatorKey>): void {
    for (const key of keys) {
      if (this.#lookup.has(key)) continue;
      const parsed = parseKey(key);
      if (!parsed) throw new RangeError(`unknown indicator key: ${key}`);
      const known = this.#entries.get(parsed.series);
      const entry: SeriesEntry = known ?? { series: createSeries(parsed.series), value: null, lower: null, upper: null };
      this.#lookup.set(key, { entry, part: parsed.part });
      if (parsed.part === 'value' && !key.startsWith('rsi:')) this.#sides.set(key, { last: null, previous: null });
      if (known) continue;
      this.#entries.set(parsed.series, entry);
      let frame = this.#frames.get(parsed.timeframe);
      if (!frame) {
        frame = { ms: TIMEFRAME_MS[parsed.timeframe], bucket: null, close: 0, series: [] };
        this.#frames.set(parsed.timeframe, frame);
      }
      frame.series.push(entry);
    }
  }

  /**
   * A closed 1-minute candle (open time `candle.time`); a candle not later
   * than the last one is ignored. A backtest over longer candles gives their
   * length (`durationMs`, a whole number of minutes): a timeframe candle then
   * closes with the candle that ends it.
   */
  push(candle: Pick<Candle, 'time' | 'close'>, durationMs = 60_000): void {
    if (this.#minute !== null && candle.time <= this.#minute) return;
    const close = Number(candle.close);
    for (const frame of this.#frames.values()) {
      const bucket = candle.time - (candle.time % frame.ms);
      // The candle being built lost its last minute: it closes as it is.
      if (frame.bucket !== null && frame.bucket !== bucket) this.#closeFrame(frame);
      frame.bucket = bucket;
      frame.close = close;
      if ((candle.time + durationMs) % frame.ms === 0) this.#closeFrame(frame);
    }
    this.#minute = candle.time;
    this.#close = candle.close;
    for (const [key, sides] of this.#sides) {
      const line = this.value(key);
      sides.previous = sides.last;
      sides.last = line === null ? null : sideOf(candle.close, line);
    }
  }

  /** Feeds history (closed minutes, oldest first), as `push` each. */
  warm(candles: Iterable<Pick<Candle, 'time' | 'close'>>): void {
    for (const candle of candles) this.push(candle);
  }

  #closeFrame(frame: Frame): void {
    for (const entry of frame.series) updateSeries(entry, frame.close);
    frame.bucket = null;
  }

  value(key: IndicatorKey): DecimalString | null {
    const found = this.#lookup.get(key);
    if (!found) return null;
    return found.part === 'value' ? found.entry.value : found.part === 'lower' ? found.entry.lower : found.entry.upper;
  }

  side(key: IndicatorKey): Side | null {
    return this.#sides.get(key)?.last ?? null;
  }

  previousSide(key: IndicatorKey): Side | null {
    return this.#sides.get(key)?.previous ?? null;
  }
}
