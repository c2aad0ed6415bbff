/**
 * Backtests: what a strategy template would have done on recorded candles
 * (`POST /api/strategy/backtest`, the `npm run backtest` command). Shared by
 * the dashboard's panel and the server, so both name the same figures.
 *
 * Money and prices are decimal strings; times are epoch milliseconds.
 */
import type { AlertAction } from './conditions';
import Big from 'big.js';
import { stepScaleDrops, type StrategySettings } from './strategy';
import type { DecimalString } from './types';

/**
 * How a candle becomes prices:
 * - `close`: one tick per candle at its close, as the paper market replays candles;
 * - `ohlc`: open, then low, high, close when the candle closed up (close >= open),
 *   or high, low, close when it closed down; an order fills at the first price on
 *   that path where the strategy acts (a level's trigger, the take-profit price).
 */
export type FillModel = 'close' | 'ohlc';
export const FILL_MODELS: readonly FillModel[] = ['close', 'ohlc'];

/** Where the fee is charged: in the asset an order receives (the paper exchange, Binance) or always in the quote. */
export type FeeAsset = 'received' | 'quote';
export const FEE_ASSETS: readonly FeeAsset[] = ['received', 'quote'];

/** The exchange's rules a backtest trades under; by default the pair's market. */
export interface MarketRules {
  /** Taker fee, a fraction ('0.001' is 0.1 %). */
  feeRate: DecimalString;
  feeAsset: FeeAsset;
  /** Order amounts are rounded down to multiples of this (base asset). */
  amountStep: DecimalString;
  minAmount: DecimalString;
  /** Smallest order value, in the quote. */
  minCost: DecimalString;
}

/** Rules when the pair is no known market: the standard taker fee, amounts to 8 decimals, no minimums. */
export const GENERIC_MARKET_RULES: MarketRules = { feeRate: '0.001', feeAsset: 'received', amountStep: '0.00000001', minAmount: '0', minCost: '0' };

/** Up to a year of minutes in one backtest. */
export const MAX_BACKTEST_CANDLES = 525_600;
export const MAX_VARIANTS = 50;
/** TradingView alerts one backtest may replay. */
export const MAX_BACKTEST_ALERTS = 10_000;

/** A TradingView alert a backtest replays (issue 29): its time (ISO-8601 or epoch ms) and what it does. */
export interface BacktestAlertInput {
  time: string;
  action: AlertAction;
}
/** Candles times variants one request may compute (50 variants of 200,000 candles). */
export const MAX_BACKTEST_WORK = 10_000_000;

/** Candle intervals exchange history is fetched in. */
export const HISTORY_INTERVALS = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
export type HistoryInterval = (typeof HISTORY_INTERVALS)[number];
export const INTERVAL_MS: Record<HistoryInterval, number> = { '1m': 60_000, '5m': 300_000, '15m': 900_000, '1h': 3_600_000, '4h': 14_400_000, '1d': 86_400_000 };

/** The bundled sample: three weeks of BTC/USDT minutes, 1 to 21 March 2023 (UTC). */
export const SAMPLE_SYMBOL = 'BTC/USDT';
export const SAMPLE_FROM = Date.UTC(2023, 2, 1);
export const SAMPLE_TO = Date.UTC(2023, 2, 22);
/** An exchange's history when no range is given: the last 30 days. */
export const DEFAULT_HISTORY_DAYS = 30;

export type CandleSource =
  | { kind: 'sample' }
  /** A CSV the user uploaded (`POST /api/strategy/backtest/candles`). */
  | { kind: 'upload'; id: string }
  /** An exchange's public history through ccxt, cached by the server. */
  | { kind: 'exchange'; exchange: string; interval: HistoryInterval };

/** A variant: the template with some settings changed. */
export interface BacktestVariant extends Partial<StrategySettings> {
  label?: string;
}

export type RankBy = 'returnPercent' | 'realizedProfit' | 'maxDrawdown' | 'cycles' | 'maxFundsInUse';
export const RANK_BY: readonly RankBy[] = ['returnPercent', 'realizedProfit', 'maxDrawdown', 'cycles', 'maxFundsInUse'];
/** Figures where less is better. */
export const LOWER_IS_BETTER: readonly RankBy[] = ['maxDrawdown', 'maxFundsInUse'];

export interface BacktestRequest {
  /** A stored template (own or system), or `settings` inline (an editor's unsaved draft). */
  strategyId?: string;
  settings?: StrategySettings;
  symbol: string;
  source: CandleSource;
  /** ISO-8601 or epoch ms; default: the whole file, or the last 30 days of an exchange. */
  from?: string;
  to?: string;
  firstOrderAmount: DecimalString;
  firstOrderMultiple?: boolean;
  /** 1..9999; 9999 runs until the candles end. */
  cycleCount?: number;
  fill?: FillModel;
  /** Overrides of the pair's market rules. */
  market?: Partial<MarketRules>;
  variants?: BacktestVariant[];
  rankBy?: RankBy;
  /** Alerts replayed against the template and every variant: each forces its action at the first price at or after its time. */
  alerts?: BacktestAlertInput[];
}

export interface OpenPosition {
  /** Base held at the end and its cost basis (fees included). */
  quantity: DecimalString;
  cost: DecimalString;
  averagePrice: DecimalString;
  /** The last close. */
  price: DecimalString;
  value: DecimalString;
  floatingProfit: DecimalString;
  levelsFilled: number;
  /** False when only a remainder below the amount step is left between cycles. */
  inCycle: boolean;
  openedAt: number | null;
}

/** Why trading stopped before the candles ended. */
export interface BacktestStop {
  reason: 'below_min_amount' | 'below_min_cost' | 'insufficient_funds' | 'order_refused';
  side: 'buy' | 'sell';
  level: number;
  time: number;
  price: DecimalString;
}

export interface BacktestFigures {
  cycles: number;
  realizedProfit: DecimalString;
  /** Quote value of every fee paid. */
  fees: DecimalString;
  buys: number;
  sells: number;
  /** The most quote the position ever held at cost. */
  maxFundsInUse: DecimalString;
  /** Largest fall of the marked-to-market profit (realized + floating) from its high, in the quote. */
  maxDrawdown: DecimalString;
  /** maxDrawdown over maxFundsInUse, percent. */
  maxDrawdownPercent: DecimalString;
  /** Share of the time a cycle was open, percent. */
  timeInPositionPercent: DecimalString;
  openPosition: OpenPosition | null;
  /** Realized plus the open position's floating profit over maxFundsInUse, percent. */
  returnPercent: DecimalString;
  realizedReturnPercent: DecimalString;
  /**
   * returnPercent spread over a year (365 days / the candles' range, not
   * compounded). Absent in runs stored before it was kept, as are the two below.
   */
  annualizedReturnPercent?: DecimalString;
  /** The same money simply held: the coin's change from the first candle's open to the last close, percent. */
  holdReturnPercent?: DecimalString;
  /** What maxFundsInUse spent on the coin at the first open and held to the last close would have made, in the quote. */
  holdProfit?: DecimalString;
  /** How the cycles ended: sales per take-profit target and the stops. Absent in runs stored before it was kept. */
  exits?: BacktestExits;
  stopped: BacktestStop | null;
}

/** The exits of a run (issue 28). */
export interface BacktestExits {
  /** Sales per take-profit target, target 1 first (the single take profit is target 1); partial sales count too. */
  targetSales: number[];
  /** Cycles ended by the stop loss, by the time stop, and at the break-even after a target. */
  stopLoss: number;
  timeStop: number;
  breakEven: number;
  /** What the cycles ended by a stop booked in all (usually a loss: below 0). */
  stopProfit: DecimalString;
}

/** Which stop ended a cycle, or sold: the stop loss, the time stop, the break-even after a target. */
export type BacktestStopKind = 'loss' | 'time' | 'break_even';

export interface BacktestCycle {
  cycle: number;
  openedAt: number | null;
  closedAt: number;
  levelsFilled: number;
  /** The first order's fill price: the ladder's base. */
  firstPrice: DecimalString | null;
  buyCost: DecimalString;
  proceeds: DecimalString;
  profit: DecimalString;
  fees: DecimalString;
  exitReason: 'take_profit' | 'stop_loss' | 'close' | 'signal';
  /** A stop's kind when a stop ended it. */
  stop?: BacktestStopKind;
}

export interface BacktestTrade {
  time: number;
  side: 'buy' | 'sell';
  reason: 'first' | 'replenish' | 'take_profit' | 'stop_loss' | 'signal';
  cycle: number;
  level: number;
  price: DecimalString;
  /** Base filled and its quote value. */
  amount: DecimalString;
  cost: DecimalString;
  fee: DecimalString;
  feeCurrency: string;
  /** A take-profit sale: its 1-based target, when the template has several. */
  target?: number;
  /** A target's partial sale: the cycle went on with the rest. */
  partial?: boolean;
  /** A stop's sale: which stop. */
  stop?: BacktestStopKind;
}

/** [time, open, high, low, close]: the chart's candles, merged to at most ~1500. */
export type ChartCandle = [number, DecimalString, DecimalString, DecimalString, DecimalString];

export interface BacktestChart {
  /** Milliseconds per chart candle. */
  interval: number;
  candles: ChartCandle[];
  /** [time, realized + floating profit] at each chart candle's close. */
  equity: [number, DecimalString][];
}

export interface VariantResult {
  /** 0 is the template itself, 1.. the request's variants in order. */
  index: number;
  label: string;
  settings: StrategySettings;
  figures: BacktestFigures;
}

export interface BacktestReport {
  symbol: string;
  /**
   * The price step the run's prices are on: the market's tick (or the
   * candles' own grid when it is finer); prices show its decimals. Absent in
   * runs stored before it was kept.
   */
  tickSize?: DecimalString;
  /** Milliseconds per candle of the data. */
  interval: number;
  /** Open time of the first candle and close time of the last. */
  from: number;
  to: number;
  candles: number;
  fill: FillModel;
  market: MarketRules;
  settings: StrategySettings;
  firstOrderAmount: DecimalString;
  firstOrderMultiple: boolean;
  cycleCount: number;
  figures: BacktestFigures;
  cycles: BacktestCycle[];
  trades: BacktestTrade[];
  chart: BacktestChart;
  /** With variants: every run (the template first), best first by `rankBy`. */
  variants: VariantResult[] | null;
  rankBy: RankBy;
}

export type BacktestStatus = 'queued' | 'loading' | 'running' | 'done' | 'failed' | 'canceled';

export interface BacktestJob {
  id: string;
  status: BacktestStatus;
  /** Work done out of total: candles fetched while loading, candles computed while running. */
  progress: { done: number; total: number };
  createdAt: string;
  result: BacktestReport | null;
  /** Why it failed: an error of the catalogue. */
  error: { code: number; message: string; data: unknown } | null;
}

/** The first order the presets' figures are computed with (their percentages hardly depend on it). */
export const PRESET_FIRST_ORDER = '10';
/** Days of history the presets' figures may cover, and the default. */
export const PRESET_MAX_DAYS = 365;
export const PRESET_DEFAULT_DAYS = 30;

/** Where the presets' figures come from: the bundled minute history offline, or an exchange's history. */
export type PresetSource = 'sample' | 'exchange';

/** One system template's backtested figures. */
export interface PresetFigures {
  strategyId: string;
  /** The system template's name key (conservative, balanced, aggressive). */
  name: string;
  settings: StrategySettings;
  figures: BacktestFigures;
}

/** The system templates backtested on one pair and period (GET /api/strategy/backtest/presets), computed once a day. */
export interface PresetFiguresAnswer {
  symbol: string;
  source: PresetSource;
  exchange: string | null;
  /** The candles' interval (ms) and the period they cover: open times in [from, to). */
  interval: number;
  from: number;
  to: number;
  candles: number;
  firstOrderAmount: DecimalString;
  /** When the figures were computed (ISO); the same all day for every user. */
  computedAt: string;
  presets: PresetFigures[];
}

/** A candle file the user uploaded. */
export interface CandleUpload {
  id: string;
  name: string;
  candles: number;
  interval: number;
  from: number;
  to: number;
  createdAt: string;
}

/** Ranks results best first by a figure; ties keep their order. */
export const rankResults = <T extends { figures: BacktestFigures }>(results: readonly T[], by: RankBy): T[] => {
  const value = (result: T) => new Big(by === 'cycles' ? result.figures.cycles : result.figures[by]);
  const sign = LOWER_IS_BETTER.includes(by) ? 1 : -1;
  return [...results].sort((a, b) => sign * value(a).cmp(value(b)));
};

/** Values a variant sweep tries per setting; the step scale and the amount scale rebuild the ladder. */
export interface VariantSweep {
  takeProfitPercent?: DecimalString[];
  takeProfitCallbackPercent?: DecimalString[];
  replenishCallbackPercent?: DecimalString[];
  /** Drops d*(S^n-1)/(S-1) from the template's first drop, for the template's number of levels. */
  stepScale?: DecimalString[];
  /** Multiples m*V^(n-1) from the template's first multiple. */
  amountScale?: DecimalString[];
}

const SWEEP_KEYS = ['takeProfitPercent', 'takeProfitCallbackPercent', 'replenishCallbackPercent', 'stepScale', 'amountScale'] as const;

/** How many variants a sweep makes (every combination). */
export const sweepSize = (sweep: VariantSweep): number => SWEEP_KEYS.reduce((n, key) => n * Math.max(1, sweep[key]?.length ?? 0), 1);

/** How labels name each swept setting (a page passes its own language's words). */
export type SweepNames = Record<(typeof SWEEP_KEYS)[number], string>;

/** Every combination of a sweep's values as variants of `base`, labelled by what changed. */
export const sweepVariants = (base: StrategySettings, sweep: VariantSweep, names: SweepNames = SHORT): BacktestVariant[] => {
  let variants: BacktestVariant[] = [{}];
  for (const key of SWEEP_KEYS) {
    const values = sweep[key];
    if (!values || values.length === 0) continue;
    variants = variants.flatMap((variant) =>
      values.map((value) => ({ ...variant, ...sweepValue({ ...base, ...variant }, key, value), label: `${variant.label ? `${variant.label} ` : ''}${names[key]} ${value}` })),
    );
  }
  return variants.filter((variant) => variant.label !== undefined);
};

const SHORT: SweepNames = {
  takeProfitPercent: 'TP',
  takeProfitCallbackPercent: 'TPCB',
  replenishCallbackPercent: 'RCB',
  stepScale: 'SS',
  amountScale: 'AS',
};

const sweepValue = (base: StrategySettings, key: (typeof SWEEP_KEYS)[number], value: DecimalString): Partial<StrategySettings> => {
  const first = base.levels[0];
  if (key === 'stepScale') {
    if (!first) return {};
    const drops = stepScaleDrops(first.dropPercent, value, base.levels.length);
    return { levels: base.levels.map((level, i) => ({ ...level, dropPercent: drops[i]! })) };
  }
  if (key === 'amountScale') {
    if (!first) return {};
    return { levels: base.levels.map((level, i) => ({ ...level, multiple: new Big(first.multiple).times(new Big(value).pow(i)).round(4).toFixed() })) };
  }
  return { [key]: value };
};
