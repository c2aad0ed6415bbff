/**
 * Recorded candles in the Binance klines layout, the form exchanges publish
 * history in: `open_time, open, high, low, close, volume`, one row per
 * candle. Used by the paper market's replay mode and by backtests.
 *
 * - A header line is optional (a first line whose time is not a time).
 * - `open_time` is Unix milliseconds, Unix seconds, Unix microseconds (as
 *   Binance's newer spot files are), or ISO-8601 (`2023-03-01T00:00:00Z`,
 *   `2023-03-01 00:00:00+00:00`; no zone means UTC).
 * - Columns after the sixth are ignored; empty lines are skipped.
 * - Times must rise strictly; gaps (missing minutes) are allowed.
 * - Prices are decimals above 0 with low <= open, close <= high; the volume
 *   is a decimal of 0 or more (exponents such as `9e-05` are written out).
 * Anything else is refused with the line number, so a bad file never
 * replays half-way.
 */
import Big from 'big.js';
import type { DecimalString } from '../../../../src/api/types';
import type { OhlcvCandle } from '../../../../src/api/trade';

/** A candle as the contract answers it (open time in epoch milliseconds, decimals as strings). */
export type Candle = OhlcvCandle;

export class CandleFormatError extends Error {
  /** 1-based line of the file. */
  readonly line: number;
  readonly reason: string;
  constructor(line: number, reason: string) {
    super(`line ${line}: ${reason}`);
    this.name = 'CandleFormatError';
    this.line = line;
    this.reason = reason;
  }
}

/** An unsigned decimal, exponent allowed (files written by data tools have "9e-05"). */
const NUMBER = /^\d+(\.\d+)?(e[+-]?\d+)?$/i;

/** The plain decimal form of a field (exponents written out), or null when it is not a number. */
const decimalOf = (text: string): DecimalString | null => {
  if (!NUMBER.test(text)) return null;
  return /e/i.test(text) ? new Big(text).toFixed() : text;
};
const INTEGER = /^\d{1,17}$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/** Epoch milliseconds of a time field, or null when it is not a time. */
export const parseTime = (text: string): number | null => {
  if (INTEGER.test(text)) {
    const value = Number(text);
    // Seconds until the year 5138, milliseconds until 5138, microseconds beyond.
    if (value < 1e11) return value * 1000;
    if (value < 1e14) return value;
    return Math.floor(value / 1000);
  }
  const match = ISO.exec(text);
  if (!match) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone = 'Z'] = match;
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${fraction.slice(0, 4)}${offset}`);
  return Number.isNaN(ms) ? null : ms;
};

export interface ParseOptions {
  /** Refuse files with more candles than this (uploads). */
  maxRows?: number;
}

/** Parses a klines CSV; throws CandleFormatError naming the first bad line. */
export const parseCandlesCsv = (text: string, options: ParseOptions = {}): Candle[] => {
  const candles: Candle[] = [];
  const lines = text.split('\n');
  let previous = -Infinity;
  let seenFirst = false;
  for (let index = 0; index < lines.length; index += 1) {
    const line = index + 1;
    const raw = lines[index]!.trim();
    if (raw === '') continue;
    const fields = raw.split(',').map((field) => field.trim().replace(/^"(.*)"$/, '$1'));
    const time = parseTime(fields[0] ?? '');
    if (!seenFirst) {
      seenFirst = true;
      // A first line that does not start with a time is the header.
      if (time === null && !/^\d/.test(fields[0] ?? '')) continue;
    }
    if (time === null) throw new CandleFormatError(line, `open_time is not a time ("${fields[0] ?? ''}")`);
    if (fields.length < 6) throw new CandleFormatError(line, `expected 6 columns (open_time, open, high, low, close, volume), found ${fields.length}`);
    const names = ['open', 'high', 'low', 'close'] as const;
    const [open, high, low, close] = names.map((name, i) => {
      const value = decimalOf(fields[i + 1]!);
      if (value === null || Number(value) <= 0) throw new CandleFormatError(line, `${name} is not a price above 0 ("${fields[i + 1]}")`);
      return value;
    }) as [DecimalString, DecimalString, DecimalString, DecimalString];
    const volume = decimalOf(fields[5]!);
    if (volume === null) throw new CandleFormatError(line, `volume is not a decimal of 0 or more ("${fields[5]}")`);
    const [o, h, l, c] = [Number(open), Number(high), Number(low), Number(close)];
    if (l > o || l > c || h < o || h < c) throw new CandleFormatError(line, 'low must be at most open and close, and high at least both');
    if (time <= previous) throw new CandleFormatError(line, 'open_time must be later than the line before');
    previous = time;
    if (options.maxRows !== undefined && candles.length >= options.maxRows) {
      throw new CandleFormatError(line, `more than ${options.maxRows} candles`);
    }
    candles.push({ time, open, high, low, close, volume });
  }
  if (candles.length === 0) throw new CandleFormatError(Math.max(1, lines.length), 'no candles in the file');
  return candles;
};

/** The candles' interval: the smallest gap between two of the first hundred, 60 s for a single candle. */
export const candleInterval = (candles: readonly Candle[]): number => {
  let interval = Infinity;
  for (let i = 1; i < Math.min(candles.length, 100); i += 1) interval = Math.min(interval, candles[i]!.time - candles[i - 1]!.time);
  return Number.isFinite(interval) ? interval : 60_000;
};
