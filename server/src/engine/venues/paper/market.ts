/**
 * The paper exchange's simulated market: about twenty USDT spot pairs whose
 * prices move as a seeded geometric random walk, one tick per simulated
 * second. Everything is a function of the seed, so a test (or an engine
 * replay) that uses the same seed sees the very same prices.
 *
 * The walk itself runs on floats: it is a simulation, not money. Every price
 * that leaves this module is a decimal string on its market's tick grid.
 *
 * Replay mode (`replay` option, PAPER_REPLAY): one symbol follows recorded
 * candles instead of the walk, one candle per tick at its close, with no
 * spread (bid = ask = close: candles carry no book). The market's clock
 * follows the candles: it waits at the first candle until `replay.start()`
 * (the engine calls it when a task on that symbol runs); the tick that starts
 * it stays on that candle (so the first decision trades the file's first
 * candle), then each tick moves to the next candle and the other symbols walk the candle's interval. After
 * the last candle every price holds and `replay.done` is true.
 */
import Big from 'big.js';
import type { DecimalString } from '../../../../../src/api/types';
import type { Candle } from '../../core/candles';
import { atStep, decimalsOf } from '../../core/decimal';

export interface PaperMarket {
  /** Unified symbol, 'BTC/USDT'. */
  symbol: string;
  base: string;
  quote: string;
  /** Price at the start of every simulation, on the tick grid. */
  startPrice: DecimalString;
  /** Price precision: prices are multiples of this. */
  tickSize: DecimalString;
  /** Amount precision: order amounts are rounded down to multiples of this. */
  amountStep: DecimalString;
  /** Smallest order amount in the base asset. */
  minAmount: DecimalString;
  /** Smallest order value in the quote asset (Binance's NOTIONAL filter). */
  minCost: DecimalString;
  /** Annualized volatility of the random walk (0.55 = 55 % a year). A simulation parameter, not money. */
  annualVolatility: number;
  /** Average traded value per day in the quote asset, for the simulated volume. */
  dailyQuoteVolume: number;
}

const usdt = (
  base: string,
  startPrice: DecimalString,
  tickSize: DecimalString,
  amountStep: DecimalString,
  annualVolatility: number,
  dailyQuoteVolume: number,
): PaperMarket => ({
  symbol: `${base}/USDT`,
  base,
  quote: 'USDT',
  startPrice,
  tickSize,
  amountStep,
  // Binance's LOT_SIZE minimum equals its step on these pairs, and NOTIONAL is 5 USDT.
  minAmount: amountStep,
  minCost: '5',
  annualVolatility,
  dailyQuoteVolume,
});

/**
 * Twenty common pairs with plausible late-2026 prices, Binance-like
 * precisions and realized volatilities (BTC the calmest, small caps wilder).
 * Each tick size times step has at most 8 decimals, so an order's cost is
 * exact at the 8 decimals exchanges keep balances in.
 */
export const PAPER_MARKETS: readonly PaperMarket[] = [
  usdt('BTC', '90000.00', '0.01', '0.00001', 0.55, 1_500_000_000),
  usdt('ETH', '3200.00', '0.01', '0.0001', 0.7, 800_000_000),
  usdt('SOL', '140.00', '0.01', '0.001', 0.85, 400_000_000),
  usdt('BNB', '850.00', '0.01', '0.001', 0.55, 150_000_000),
  usdt('XRP', '2.1000', '0.0001', '0.1', 0.85, 300_000_000),
  usdt('DOGE', '0.15000', '0.00001', '1', 1.0, 200_000_000),
  usdt('ADA', '0.4500', '0.0001', '0.1', 0.9, 60_000_000),
  usdt('TRX', '0.2900', '0.0001', '0.1', 0.55, 50_000_000),
  usdt('AVAX', '14.00', '0.01', '0.01', 0.95, 50_000_000),
  usdt('LINK', '14.00', '0.01', '0.01', 0.9, 60_000_000),
  usdt('DOT', '2.200', '0.001', '0.01', 0.9, 20_000_000),
  usdt('LTC', '85.00', '0.01', '0.001', 0.75, 40_000_000),
  usdt('BCH', '520.0', '0.1', '0.001', 0.75, 30_000_000),
  usdt('TON', '1.600', '0.001', '0.01', 0.85, 15_000_000),
  usdt('SHIB', '0.00000850', '0.00000001', '1', 1.0, 20_000_000),
  usdt('UNI', '6.000', '0.001', '0.01', 0.95, 20_000_000),
  usdt('ATOM', '2.600', '0.001', '0.01', 0.9, 15_000_000),
  usdt('NEAR', '1.800', '0.001', '0.1', 1.0, 20_000_000),
  usdt('APT', '1.9000', '0.0001', '0.01', 1.05, 15_000_000),
  usdt('ARB', '0.2200', '0.0001', '0.1', 1.05, 20_000_000),
];

export const SECONDS_PER_YEAR = 365 * 24 * 60 * 60;

/** Per-second standard deviation of log returns for an annualized volatility. */
export const perSecondSigma = (annualVolatility: number): number => annualVolatility / Math.sqrt(SECONDS_PER_YEAR);

/** Where the clock starts when the caller gives no time: fixed, so timestamps replay too. */
export const DEFAULT_START_MS = Date.UTC(2026, 10, 1);

/** Bid and ask sit this fraction of the price either side of the last price (1 bp spread in all), at least one tick. */
export const HALF_SPREAD = 0.00005;

/** The ticker's rolling window: 24 hours of one-minute buckets. */
const WINDOW_MINUTES = 24 * 60;

// ---------------------------------------------------------------------------
// Seeded randomness (no Math.random anywhere: the seed must decide everything)

/** mulberry32: a tiny 32-bit PRNG with good statistical quality; returns uniforms in [0, 1). */
export const mulberry32 = (seed: number): (() => number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** Standard normals by Box-Muller; the second value of each pair is kept for the next call. */
export const normals = (uniform: () => number): (() => number) => {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const value = spare;
      spare = null;
      return value;
    }
    const u1 = 1 - uniform(); // (0, 1]: log(0) must never happen
    const u2 = uniform();
    const radius = Math.sqrt(-2 * Math.log(u1));
    spare = radius * Math.sin(2 * Math.PI * u2);
    return radius * Math.cos(2 * Math.PI * u2);
  };
};

/** FNV-1a: turns a symbol into 32 bits so every market has its own stream. */
const hashString = (text: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
};

/**
 * One independent stream per symbol, so adding or removing a market never
 * changes the prices of the others for the same seed.
 */
const streamSeed = (seed: number, symbol: string): number => {
  const low = seed >>> 0;
  const high = Math.floor(seed / 4294967296) >>> 0;
  return (hashString(symbol) ^ Math.imul(low, 0x9e3779b1) ^ Math.imul(high, 0x85ebca6b)) >>> 0;
};

// ---------------------------------------------------------------------------
// The market

export interface PaperTicker {
  symbol: string;
  timestamp: number;
  datetime: string;
  last: DecimalString;
  close: DecimalString;
  bid: DecimalString;
  ask: DecimalString;
  /** Price at the start of the rolling window (24 h, or since the simulation began). */
  open: DecimalString;
  high: DecimalString;
  low: DecimalString;
  /** last - open */
  change: DecimalString;
  /** change / open in percent, 2 decimals. */
  percentage: DecimalString;
  baseVolume: DecimalString;
  quoteVolume: DecimalString;
}

export interface BestPrices {
  last: DecimalString;
  bid: DecimalString;
  ask: DecimalString;
}

/** Where a replay stands: what the engine status reports. */
export interface ReplayStatus {
  symbol: string;
  /** Candles in the file, and how many were played (the current one included). */
  total: number;
  played: number;
  /** Open time of the current candle, epoch ms. */
  candleTime: number;
  /** False while waiting for a task on the symbol to run. */
  started: boolean;
  /** The last candle was reached: prices hold. */
  done: boolean;
}

export interface ReplayControl {
  readonly symbol: string;
  status(): ReplayStatus;
  /** Leaves the first candle: from now on each tick plays the next one. */
  start(): void;
}

export interface ReplayOptions {
  symbol: string;
  candles: readonly Candle[];
  /** Milliseconds per candle (60 000 for minutes). */
  interval: number;
  /** Resume at this candle (another process played the ones before), already started or not. */
  resume?: { index: number; started: boolean };
}

export interface SimulatedMarket {
  readonly markets: readonly PaperMarket[];
  /** Set in replay mode. */
  readonly replay: ReplayControl | null;
  /** The market of a symbol, undefined when it is not listed. */
  market(symbol: string): PaperMarket | undefined;
  /** Advances the clock `seconds` seconds (default 1), one random step per second for every symbol. */
  tick(seconds?: number): void;
  /** Simulated time in epoch milliseconds. */
  now(): number;
  /** Last price on the tick grid, always > 0. Throws on an unknown symbol. */
  price(symbol: string): DecimalString;
  prices(): Record<string, DecimalString>;
  /** Last, bid and ask: the cheap part of the ticker, for order matching. */
  bestPrices(symbol: string): BestPrices;
  ticker(symbol: string): PaperTicker;
  /** The current minute's candle of a symbol (its open time, and prices on the tick grid). */
  candle(symbol: string): MinuteCandle;
}

/** One simulated minute (its base volume is simulated: shown, never money). */
export type MinuteCandle = Candle;

/** One minute of history, prices in whole ticks. */
interface Bucket {
  minute: number;
  open: number;
  high: number;
  low: number;
  quoteVolume: number;
  baseVolume: number;
}

interface SymbolState {
  spec: PaperMarket;
  tickSize: number;
  sigma: number;
  /** Mean traded value per second in the quote asset. */
  volumePerSecond: number;
  uniform: () => number;
  normal: () => number;
  /** log of the unrounded price: the walk lives here so rounding never accumulates. */
  logPrice: number;
  /** Exposed price in whole ticks (>= 1, so the price is never <= 0). */
  ticks: number;
  /** The last price shown and the ticks it was shown for: the same price is read again and again between moves. */
  shown?: { ticks: number; price: DecimalString };
  buckets: Bucket[];
}

const minuteOf = (ms: number): number => Math.floor(ms / 60_000);

const toTicks = (price: number, tickSize: number): number => Math.max(1, Math.round(price / tickSize));

/** Decimal string of a whole number of ticks; the multiplication is exact in big.js. */
const tickPrice = (ticks: number, tickSize: DecimalString): DecimalString => atStep(new Big(ticks).times(tickSize), tickSize);

const record = (state: SymbolState, minute: number, quoteVolume: number, baseVolume: number): void => {
  const last = state.buckets[state.buckets.length - 1];
  if (last && last.minute === minute) {
    last.high = Math.max(last.high, state.ticks);
    last.low = Math.min(last.low, state.ticks);
    last.quoteVolume += quoteVolume;
    last.baseVolume += baseVolume;
  } else {
    state.buckets.push({ minute, open: state.ticks, high: state.ticks, low: state.ticks, quoteVolume, baseVolume });
  }
  // Keep exactly the last 24 hours of minutes (the current one included).
  while (state.buckets.length > 0 && state.buckets[0]!.minute <= minute - WINDOW_MINUTES) state.buckets.shift();
};

const halfSpreadTicks = (ticks: number): number => Math.max(1, Math.ceil(ticks * HALF_SPREAD));

/**
 * A market for `seed` starting at `startMs`. `markets` defaults to
 * PAPER_MARKETS; tests pass their own lists (a very volatile pair, say).
 */
export const createMarket = (
  seed: number,
  startMs: number = DEFAULT_START_MS,
  markets: readonly PaperMarket[] = PAPER_MARKETS,
  options: {
    replay?: ReplayOptions;
    /** Where each symbol's walk starts instead of its start price (a process taking over the market from another). */
    startPrices?: Readonly<Record<string, DecimalString>>;
  } = {},
): SimulatedMarket => {
  if (!Number.isSafeInteger(seed)) throw new RangeError('seed must be a safe integer');
  if (!Number.isSafeInteger(startMs)) throw new RangeError('startMs must be whole milliseconds');
  const replay = options.replay;
  if (replay) {
    if (!markets.some((spec) => spec.symbol === replay.symbol)) throw new RangeError(`the replayed symbol ${replay.symbol} is not a market`);
    if (replay.candles.length === 0) throw new RangeError('a replay needs candles');
  }

  // A replay's clock is the candles': it starts at the first candle's close.
  const resumeAt = replay?.resume ? Math.min(Math.max(0, replay.resume.index), replay.candles.length - 1) : 0;
  let now = replay ? replay.candles[resumeAt]!.time + replay.interval : startMs;
  const states = new Map<string, SymbolState>();
  for (const spec of markets) {
    const uniform = mulberry32(streamSeed(seed, spec.symbol));
    const tickSize = Number(spec.tickSize);
    const start = Number(options.startPrices?.[spec.symbol] ?? spec.startPrice);
    const state: SymbolState = {
      spec,
      tickSize,
      sigma: perSecondSigma(spec.annualVolatility),
      volumePerSecond: spec.dailyQuoteVolume / 86_400,
      uniform,
      normal: normals(uniform),
      logPrice: Math.log(start),
      ticks: toTicks(start, tickSize),
      buckets: [],
    };
    record(state, minuteOf(now), 0, 0);
    states.set(spec.symbol, state);
  }

  /** The replayed symbol's state, its current candle and whether it moves yet. */
  const played = replay ? { state: states.get(replay.symbol)!, index: resumeAt, started: replay.resume?.started ?? false, holding: false } : null;
  const showCandle = (index: number) => {
    const { state } = played!;
    const candle = replay!.candles[index]!;
    state.ticks = toTicks(Number(candle.close), state.tickSize);
    const baseVolume = Number(candle.volume);
    record(state, minuteOf(now), baseVolume * state.ticks * state.tickSize, baseVolume);
  };
  if (played) {
    played.state.buckets = [];
    showCandle(resumeAt);
  }

  const stateOf = (symbol: string): SymbolState => {
    const state = states.get(symbol);
    if (!state) throw new RangeError(`unknown symbol ${symbol}`);
    return state;
  };

  const step = (state: SymbolState, minute: number): void => {
    const z = state.normal();
    // Driftless walk in log price: the median price stays put, volatility is as configured.
    state.logPrice += state.sigma * z;
    state.ticks = toTicks(Math.exp(state.logPrice), state.tickSize);
    // Volume: noisy around the daily mean and larger on bigger moves, as real flow is.
    // E[(0.5 + u)] = 1 and E[0.6 + 0.5|z|] ~ 1, so the day's total is about dailyQuoteVolume.
    const quoteVolume = state.volumePerSecond * (0.5 + state.uniform()) * (0.6 + 0.5 * Math.abs(z));
    record(state, minute, quoteVolume, quoteVolume / (state.ticks * state.tickSize));
  };

  const bestPrices = (symbol: string): BestPrices => {
    const { spec, ticks } = stateOf(symbol);
    // Candles carry no book: a replayed symbol trades at its close.
    const half = played && symbol === replay!.symbol ? 0 : halfSpreadTicks(ticks);
    return {
      last: tickPrice(ticks, spec.tickSize),
      // The bid never drops to zero: on a one-tick price it sits at the last price.
      bid: tickPrice(Math.max(1, ticks - half), spec.tickSize),
      ask: tickPrice(ticks + half, spec.tickSize),
    };
  };

  const walk = (seconds: number, skip?: SymbolState) => {
    for (let s = 0; s < seconds; s += 1) {
      const minute = minuteOf(now);
      for (const state of states.values()) if (state !== skip) step(state, minute);
    }
  };

  return {
    markets,
    replay: played
      ? {
          symbol: replay!.symbol,
          status: () => ({
            symbol: replay!.symbol,
            total: replay!.candles.length,
            played: played.index + 1,
            candleTime: replay!.candles[played.index]!.time,
            started: played.started,
            done: played.index === replay!.candles.length - 1,
          }),
          start: () => {
            // The tick that starts the replay shows the candle it waited at: the first decision sees the file's first candle.
            if (!played.started) played.holding = true;
            played.started = true;
          },
        }
      : null,
    market: (symbol) => states.get(symbol)?.spec,
    tick(seconds = 1) {
      if (!Number.isInteger(seconds) || seconds < 0) throw new RangeError('seconds must be a whole number >= 0');
      if (played) {
        // One candle per tick; nothing moves before the start or after the last candle.
        for (let s = 0; s < seconds; s += 1) {
          if (!played.started || played.index === replay!.candles.length - 1) return;
          if (played.holding) {
            played.holding = false;
            continue;
          }
          played.index += 1;
          const next = replay!.candles[played.index]!.time + replay!.interval;
          const elapsed = Math.max(0, Math.round((next - now) / 1000));
          now = next;
          walk(elapsed, played.state);
          showCandle(played.index);
        }
        return;
      }
      for (let s = 0; s < seconds; s += 1) {
        now += 1000;
        const minute = minuteOf(now);
        // Map order is insertion order, and each symbol draws from its own stream anyway.
        for (const state of states.values()) step(state, minute);
      }
    },
    now: () => now,
    price: (symbol) => {
      const state = stateOf(symbol);
      if (state.shown?.ticks !== state.ticks) state.shown = { ticks: state.ticks, price: tickPrice(state.ticks, state.spec.tickSize) };
      return state.shown.price;
    },
    prices: () => {
      const result: Record<string, DecimalString> = {};
      for (const { spec, ticks } of states.values()) result[spec.symbol] = tickPrice(ticks, spec.tickSize);
      return result;
    },
    bestPrices,
    candle: (symbol) => {
      const state = stateOf(symbol);
      const bucket = state.buckets[state.buckets.length - 1] ?? { minute: minuteOf(now), open: state.ticks, high: state.ticks, low: state.ticks, baseVolume: 0 };
      const price = (ticks: number) => tickPrice(ticks, state.spec.tickSize);
      return {
        time: bucket.minute * 60_000,
        open: price(bucket.open),
        high: price(Math.max(bucket.high, state.ticks)),
        low: price(Math.min(bucket.low, state.ticks)),
        close: price(state.ticks),
        volume: bucket.baseVolume.toFixed(decimalsOf(state.spec.amountStep)),
      };
    },
    ticker: (symbol) => {
      const state = stateOf(symbol);
      const { spec, buckets } = state;
      let high = state.ticks;
      let low = state.ticks;
      let quoteVolume = 0;
      let baseVolume = 0;
      for (const bucket of buckets) {
        high = Math.max(high, bucket.high);
        low = Math.min(low, bucket.low);
        quoteVolume += bucket.quoteVolume;
        baseVolume += bucket.baseVolume;
      }
      const { last, bid, ask } = bestPrices(symbol);
      const open = tickPrice(buckets[0]?.open ?? state.ticks, spec.tickSize);
      const change = new Big(last).minus(open);
      return {
        symbol,
        timestamp: now,
        datetime: new Date(now).toISOString(),
        last,
        close: last,
        bid,
        ask,
        open,
        high: tickPrice(high, spec.tickSize),
        low: tickPrice(low, spec.tickSize),
        change: atStep(change, spec.tickSize),
        percentage: change.div(open).times(100).toFixed(2),
        // Volumes are simulated floats; they are shown, never used as money.
        baseVolume: baseVolume.toFixed(decimalsOf(spec.amountStep)),
        quoteVolume: quoteVolume.toFixed(2),
      };
    },
  };
};
