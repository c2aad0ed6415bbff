/** Trading tasks, orders and market data as the /api/trade/* calls answer them. */
import type { Gate } from './conditions';
import type { StrategySettings } from './strategy';
import type { DecimalString, ReplenishStatus } from './types';

export type CyclePhase = 'ready' | 'open' | 'cooldown' | 'finished';

/**
 * Why the engine stopped trading a task as usual:
 * - insufficient_funds: the exchange refused an order for want of funds (the
 *   engine tries again every five minutes);
 * - below_min_order: an order (a sell of the position) is below the
 *   exchange's minimum amount or value;
 * - above_max_order: an order is above the exchange's largest amount (Binance's LOT_SIZE maxQty);
 * - exchange_canceled: the exchange cancelled the task's orders again and again (not at our request);
 * - order_refused / permission_denied: the exchange refused the order or the key;
 * - engine_error: the engine failed on the task again and again and paused it.
 * The user resumes it (start), edits it or closes the position.
 */
export type AttentionReason = 'insufficient_funds' | 'below_min_order' | 'above_max_order' | 'exchange_canceled' | 'order_refused' | 'permission_denied' | 'engine_error';

/** Why an exchange stopped answering every task on it for a while (an `exchange_down` event of the task log). */
export type ExchangeDownCause = 'banned' | 'rate_limited' | 'maintenance' | 'unreachable';

export interface TaskAttention {
  reason: AttentionReason;
  /** When it began, ISO-8601. */
  since: string;
  side?: 'buy' | 'sell';
  level?: number;
  /** The figures: asset, required, available; the exchange's refusal; an engine error's message. */
  detail: Record<string, string>;
  /** The engine tries again by itself. */
  retrying: boolean;
}

/** One condition's reading while a task waits (issue 29): its place in the gate's group, the value now, whether it holds. */
export interface ConditionReading {
  /** Indexes into the gate's group (a nested group's condition has two). */
  path: number[];
  /** The indicator's value (the price for a price range) at the last closed minute; null while it has too few candles. */
  current: DecimalString | null;
  holds: boolean;
}

/**
 * What a running task waits for while a condition of its strategy does not
 * hold: a cycle's start, a level's buy or a signal close ("等待条件：RSI(14,1h) <
 * 30，当前 41.2").
 */
export interface TaskWaiting {
  gate: Gate;
  /** Since when it waits, ISO-8601 (market time). */
  since: string;
  readings: ConditionReading[];
  /** The gate's conditions as text: "RSI(14,1h) < 30". */
  text: string;
}

export interface TradeTask {
  id: string;
  exchangeId: string;
  exchangeName: string;
  symbol: string;
  strategyId: string;
  strategyName: string;
  strategySystem: boolean;
  firstOrderAmount: DecimalString;
  firstOrderMultiple: boolean;
  cycleCount: number;
  cyclesDone: number;
  running: boolean;
  status: ReplenishStatus;
  finished: boolean;
  phase: CyclePhase;
  /**
   * Base held: the open cycle's position, or between cycles what the last
   * sell could not sell (below the exchange's step), carried into the next.
   */
  quantity: DecimalString;
  /** Cost basis of `quantity`, fees included. */
  cost: DecimalString;
  averagePrice: DecimalString | null;
  lastPrice: DecimalString | null;
  /** Value of the position at the last price minus its cost. */
  floatingProfit: DecimalString;
  /** Sum of the closed cycles' profit. */
  realizedProfit: DecimalString;
  levelsFilled: number;
  levelsTotal: number;
  /** The market's price tick and amount step ('0.01', '0.00001'); null when its market is not known now. */
  tickSize: DecimalString | null;
  amountStep: DecimalString | null;
  /** Set while the task needs the user (see AttentionReason). */
  attention: TaskAttention | null;
  /** Set while a condition of its strategy holds it back (issue 29). */
  waiting: TaskWaiting | null;
  /**
   * The prices it trades on: a real account's exchange (live), or a paper
   * account's source ('simulator', or an exchange's public market: live, or
   * the simulator standing in while the exchange cannot be reached).
   */
  prices: { source: string; live: boolean };
  createdAt: string;
}

/**
 * Which stop sold a position (the `stop` of a `stop_loss` event and of a
 * `trade.stop_loss` notification): the stop loss measured from the average
 * cost or from the last level's trigger price, the break-even stop after a
 * take-profit target, the time stop.
 */
export const TASK_STOPS = ['loss_average', 'loss_last_level', 'break_even', 'time'] as const;
export type TaskStop = (typeof TASK_STOPS)[number];
export const isTaskStop = (value: unknown): value is TaskStop => (TASK_STOPS as readonly unknown[]).includes(value);

export interface TaskEvent {
  id: string;
  kind: string;
  data: Record<string, unknown>;
  createdAt: string;
}

export interface TradeTaskDetail extends TradeTask {
  strategy: StrategySettings;
  firstFillPrice: DecimalString | null;
  takeProfitArmed: boolean;
  events: TaskEvent[];
}

export interface TradeOrder {
  id: string;
  taskId: string;
  symbol: string;
  cycle: number;
  level: number;
  side: 'buy' | 'sell';
  reason: string;
  status: 'intent' | 'open' | 'closed' | 'canceled' | 'failed';
  price: DecimalString | null;
  amount: DecimalString;
  cost: DecimalString;
  fee: DecimalString;
  feeCurrency: string | null;
  error: string | null;
  /** The market's price tick and amount step ('0.01', '0.00001'); null when its market is not known now. */
  tickSize: DecimalString | null;
  amountStep: DecimalString | null;
  createdAt: string;
}

export interface TradePair {
  id: string;
  symbol: string;
  base: string;
  quote: string;
  price: DecimalString;
  change24h: DecimalString;
  quoteVolume24h: DecimalString;
  minCost: DecimalString;
  /** The market's price tick and amount step ('0.01', '0.00001'): prices and amounts show their decimals. */
  tickSize: DecimalString;
  amountStep: DecimalString;
}

export type TradeAction = 'start' | 'stop' | 'replenish';

/** Candle sizes of GET /api/trade/ohlcv. */
export const CANDLE_TIMEFRAMES = ['1m', '15m', '1h', '1d'] as const;
export type CandleTimeframe = (typeof CANDLE_TIMEFRAMES)[number];

/** The length of one candle of each timeframe, in milliseconds. */
export const TIMEFRAME_MS: Record<CandleTimeframe, number> = {
  '1m': 60_000,
  '15m': 15 * 60_000,
  '1h': 60 * 60_000,
  '1d': 24 * 60 * 60_000,
};

export interface OhlcvCandle {
  /** Open time, epoch milliseconds (UTC). */
  time: number;
  open: DecimalString;
  high: DecimalString;
  low: DecimalString;
  close: DecimalString;
  /** Base volume. */
  volume: DecimalString;
}

/**
 * GET /api/trade/ohlcv?taskId&timeframe&limit (limit 1-500, default 200):
 * the candles of a task's pair on the prices it trades on, oldest first
 * (the simulator keeps candles of its own ticks; exchanges answer through
 * ccxt fetchOHLCV).
 */
export interface OhlcvAnswer {
  symbol: string;
  timeframe: CandleTimeframe;
  prices: { source: string; live: boolean };
  candles: OhlcvCandle[];
}

/** What closing a position did: base sold, and what stayed below the exchange's step (kept with the task). */
export interface CloseResult {
  symbol: string;
  sold: DecimalString;
  remainder: DecimalString;
}

/** The engine's health, for operators (GET /api/engine/status). */
/** A shared dependency down now: the database, or an exchange for every task on it. No task is paused for it. */
export interface EngineOutage {
  dependency: 'database' | 'exchange';
  /** The exchange's ccxt id (or the paper venue's key) when the dependency is an exchange; null for the database. */
  exchange: string | null;
  /** When it went down (ISO time). */
  since: string;
  /** Ticks whose writes failed while it was down (the database's). */
  failedTicks: number;
  /** What it said when it went down. */
  message: string;
}

export interface EngineStatus {
  running: boolean;
  startedAt: string | null;
  ticks: number;
  /** Milliseconds between ticks; 0: ticks on demand only. */
  tickMs: number;
  lastTickAt: string | null;
  /** How long the last tick took, and the longest since the start. */
  lastTickMs: number;
  maxTickMs: number;
  /** How far the next tick is overdue. */
  lagMs: number;
  /** Ticks that failed as a whole or whose writes did not land (each task's own failures are counted on the task). */
  failedTicks: number;
  /** Shared dependencies down now, each reported once; empty while all answer. */
  outages: EngineOutage[];
  /** The market's clock (a replay's is the candles'). */
  marketTime: string;
  tasks: { loaded: number; running: number; attention: number; failing: number };
  /** Symbols whose last price was refused (0, negative, not a number). */
  unusablePrices: string[];
  /** Set when the paper market replays recorded candles (PAPER_REPLAY). */
  replay: { symbol: string; total: number; played: number; candleTime: string; started: boolean; done: boolean } | null;
}

export interface ProfitSummary {
  /** Today in the asked time zone, YYYY-MM-DD. */
  date: string;
  realizedTotal: DecimalString;
  realizedToday: DecimalString;
  cyclesToday: number;
}
