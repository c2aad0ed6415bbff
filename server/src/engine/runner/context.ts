/**
 * What the runner's parts share: the options, the tasks in memory, the
 * journal, the venues, and the helpers that turn a decision or an exchange's
 * answer into writes. runner.ts builds one context; the turn (turn.ts), the
 * real exchanges' lanes (lanes.ts), the intents (intents.ts) and the user's
 * commands (commands.ts) work on it.
 */
import type { AlertAction } from '../../../../src/api/conditions';
import { randomBytes } from 'node:crypto';
import Big from 'big.js';
import type { FastifyBaseLogger } from 'fastify';
import type { AttentionReason, TaskAttention } from '../../../../src/api/trade';
import type { Db } from '../../db/database';
import { isDecimalString } from '../core/decimal';
import type { Action, CycleState } from '../core/decide';
import type { TaskStop } from '../../../../src/api/trade';
import { feeParts, quoteOf, stopOf, type Fill, type SellReason } from '../core/fills';
import type { TaskIndex } from '../core/taskIndex';
import type { EngineDomains, EngineStore, StoredTask, Writes } from '../store/journal';
import type { Leases } from '../store/shards';
import type { ExchangeFactory } from '../venues/exchangeAccess';
import type { ExchangeFailure, MarketOrderRequest } from '../venues/exchangeClient';
import type { ExchangeClients } from '../venues/exchangeClients';
import type { ExchangeShared } from '../venues/exchangeShared';
import type { ReplayOptions, SimulatedMarket } from '../venues/paper/market';
import type { PriceSources } from '../venues/paper/priceSources';
import type { PaperVenues } from '../venues/paperVenues';
import type { TickerFeed } from '../venues/tickerFeed';
import type { Outages } from './outages';

/** An order the runner places: the decision's buys and sells, and the user's "close position". */
export type OrderRequest =
  | Extract<Action, { kind: 'buy' }>
  | ({ kind: 'sell'; reason: SellReason; quantity: string; target?: number; partial?: boolean } & Partial<Pick<Extract<Action, { kind: 'sell' }>, 'stop' | 'fromLastLevel'>>);

/** A task as the engine keeps it in memory between ticks (the database is its journal). */
export interface LiveTask extends StoredTask {
  /** Its exchange is a real one (orders through ccxt), not the paper exchange. */
  real: boolean;
  /** The state changed since it was last written. */
  dirty: boolean;
  /** No new decision before this market time (ms): after a refusal by the exchange. */
  retryAfter: number;
  /** No new decision before this tick: backing off after the engine failed on the task. */
  backoffUntilTick: number;
  /** Failures of the engine on this task in a row (not refusals by the exchange). */
  failures: number;
  /** Its orders the exchange cancelled in a row (not at our request); EXCHANGE_CANCELS_LIMIT of them stop the task. */
  exchangeCancels: number;
  /** Waiting for fuel to open its next cycle ('fuel_empty' written once), checked again at this market time. */
  fuelWaitUntil: number | null;
  /** A TradingView alert (issue 29) the engine has not acted on yet: set by the webhook's command, consumed by the next decision. */
  alert?: TaskAlert | null;
}

/** A TradingView alert as the engine keeps it on its task: the alert's own id, what it asks, when it arrived (ms). */
export interface TaskAlert {
  id: string;
  action: AlertAction;
  receivedAt: number;
}

export interface EngineOptions {
  db: Db;
  log: FastifyBaseLogger;
  /** What the engine needs from other domains (the fuel charge, the strategy settings): see engineDomains.ts. */
  domains: EngineDomains;
  /** Seed of the simulated market; the same seed replays the same prices. */
  seed: number;
  /** Milliseconds between ticks; 0: ticks only when `tick()` is called (tests, replays). */
  tickMs: number;
  /** Tick again as soon as a tick ends (a replay at full speed); `tickMs` applies once a replay is done. */
  continuous?: boolean;
  feeRate?: string;
  /** The market to run (tests inject faults into it); default: the seeded walk, or the replay. */
  market?: SimulatedMarket;
  /** Recorded candles the market replays for one pair (PAPER_REPLAY). */
  replay?: Omit<ReplayOptions, 'resume'>;
  /** Opens the stored credentials of real exchange accounts; without it only paper accounts trade. */
  exchangeMasterKey?: string;
  /** Builds the ccxt instances of real accounts (tests replay recorded exchange answers). */
  createExchange?: ExchangeFactory;
  /** The exchanges' request budgets, pauses and market lists, shared with the server's price reads; default: the engine's own. */
  exchangeShared?: ExchangeShared;
  /** The client order id of each new order; default: newClientOrderId (a test names one to meet an intent stored already). */
  clientOrderIds?: () => string;
  /** Live prices of real exchanges over websockets; without it (or while a stream is stale) prices come from REST tickers. */
  tickerFeed?: TickerFeed | null;
  /** The live public markets paper accounts may trade on; without it every paper account trades on the simulator. */
  priceSources?: PriceSources | null;
  /**
   * Several processes share the database (PostgreSQL): the engine drives only
   * the shards it leases, runs or mirrors the shared market, and carries out
   * the commands the API leaves for its tasks (store/shards.ts).
   */
  cluster?: boolean;
  /** Cluster mode: how long a shard lease lasts unrenewed (default store/shards.ts's TTL_MS); renewed every quarter of it. */
  leaseMs?: number;
  /** Drive only these tasks (a history played for them, e.g. the demo's bots); default: every active task. */
  taskIds?: readonly string[];
  /**
   * Stamp the journal (orders, events, closed cycles) with the market's time
   * instead of the database's: for history played faster than it happened.
   */
  journalMarketTime?: boolean;
  /** Keep the simulator's minute candles in `paper_candles` every tick (default); off when the caller writes them at once. */
  recordCandles?: boolean;
}

/** One order as the runner carries it from its intent to its outcome. */
export interface OrderContext {
  clientOrderId: string;
  side: 'buy' | 'sell';
  reason: OrderRequest['reason'];
  level: number;
  cycle: number;
  /** The task's state when the order was placed. */
  before: CycleState;
  /** A take-profit target's partial sale (the cycle stays open), and the target a sale is for. */
  partial?: boolean;
  target?: number;
  /** A stop's sale: which stop fired. */
  stop?: TaskStop;
}

/** What the user's actions on a task come to (the API turns them into answers). */
export type CommandResult =
  | { kind: 'ok'; sold?: string; remainder?: string }
  | { kind: 'not_loaded' }
  | { kind: 'no_position' }
  | { kind: 'all_filled' }
  | { kind: 'below_min'; quantity: string; sellable: string; value: string; minAmount: string; minCost: string }
  | { kind: 'refused'; attention: TaskAttention | null };

/** The user's actions on a task, and a webhook's alert for it (issue 29), which carries the alert. */
export type CommandKind = 'reload' | 'replenish' | 'close' | 'alert';

/** A refused buy for want of funds is tried again this often, quietly, until it passes or the user acts. */
export const FUNDS_RETRY_MS = 5 * 60_000;
/** A task waiting for fuel asks again this often (market time). */
export const FUEL_RECHECK_MS = 30_000;
/** Backoff after the engine fails on a task, in ticks (seconds at the usual pace): 1, 2, 4 ... at most this. */
export const MAX_BACKOFF_TICKS = 300;
/** After this many failures in a row the task is paused with the error on its page. */
export const PAUSE_AFTER_FAILURES = 8;
export const FLUSH_EVERY_TICKS = 10;
/** A real order whose intent is younger than this is not declared unsent when the exchange does not know it yet (another process may be sending it). */
export const INTENT_GRACE_MS = 60_000;
/** A real market order still open this long after it was placed is stuck: the engine cancels its rest (lanes.ts). */
export const STUCK_ORDER_MS = 5_000;
/**
 * An order the exchange cancels (self-trade prevention, a market it halts, a
 * market order the book could not fill) is decided again on the next tick;
 * this many in a row without a fill between them stop the task with a remedy.
 */
export const EXCHANGE_CANCELS_LIMIT = 3;
/** Error texts kept in events and on the task page. */
export const MESSAGE_LENGTH = 300;

/** Our own client order id: unique, and valid on every exchange ccxt offers. */
export const newClientOrderId = () => `qt${Date.now().toString(36)}${randomBytes(6).toString('hex')}`;

/** A price the decision can use: a plain decimal above 0. */
export const isUsablePrice = (price: unknown): price is string => isDecimalString(price) && new Big(price).gt(0);

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, MESSAGE_LENGTH);

/** What an exchange's refusal means for the task. */
export const attentionOf = (failure: ExchangeFailure): { reason: AttentionReason; detail: Record<string, string>; retrying: boolean; error: string } => {
  switch (failure.kind) {
    case 'insufficient_funds': {
      const detail: Record<string, string> = {};
      if (failure.asset) detail.asset = failure.asset;
      if (failure.required) detail.required = failure.required;
      if (failure.available) detail.available = failure.available;
      return { reason: 'insufficient_funds', detail, retrying: true, error: 'insufficient_funds' };
    }
    case 'invalid_order':
      if (failure.reason === 'below_min_amount' || failure.reason === 'below_min_cost') return { reason: 'below_min_order', detail: {}, retrying: false, error: failure.reason };
      if (failure.reason === 'above_max_amount') return { reason: 'above_max_order', detail: {}, retrying: false, error: failure.reason };
      if (failure.reason === 'canceled_by_exchange') return { reason: 'exchange_canceled', detail: {}, retrying: false, error: failure.reason };
      return { reason: 'order_refused', detail: { refusal: failure.reason }, retrying: false, error: failure.reason };
    case 'permission':
      return { reason: 'permission_denied', detail: { refusal: failure.reason }, retrying: false, error: failure.reason };
    default:
      return { reason: 'order_refused', detail: { refusal: failure.kind }, retrying: false, error: failure.kind };
  }
};

/** One fee asset is stored as it is; several are stored as their quote value. */
export const storedFee = (symbol: string, fill: Fill) => {
  const currencies = new Set(fill.fees.map((fee) => fee.currency));
  const [single] = fill.fees;
  return currencies.size === 1 && single
    ? { fee: fill.fees.reduce((sum, f) => sum.plus(f.cost), new Big(0)).toFixed(), feeCurrency: single.currency }
    : { fee: feeParts(symbol, fill).value.round(8, Big.roundUp).toFixed(), feeCurrency: quoteOf(symbol) };
};

/** A real order whose outcome is not known yet, as the runner keeps it. */
export type PendingIntent = OrderContext & { createdAt: number };

/** The runner's shared state and plumbing (built by createRunner). */
export interface EngineContext {
  options: EngineOptions;
  db: Db;
  log: FastifyBaseLogger;
  store: EngineStore;
  market: SimulatedMarket;
  paperFeeRate: string;
  venues: PaperVenues;
  clients: ExchangeClients;
  index: TaskIndex;
  tasks: Map<string, LiveTask>;
  /** Real orders whose outcome the exchange has not told yet, by task. */
  pendingIntents: Map<string, PendingIntent>;
  /** Symbols whose price was unusable, logged once until it is usable again. */
  badPrices: Set<string>;
  /** Shared dependencies down now (the database, an exchange): nobody's own failure. */
  outages: Outages;
  /** The tick count and the shard leases (cluster mode); the runner moves them. */
  run: { ticks: number; leases: Leases | null };
  /** The market's time (ms). */
  now(): number;
  /** Writes through the journal, stamped with the market's time when the options say so. */
  journal(writes: Writes, fence?: Parameters<EngineStore['commit']>[1]): Promise<void>;
  /** The fence of the shards a write touches (cluster mode). */
  fenceFor(touched: Iterable<LiveTask>): Parameters<EngineStore['commit']>[1];
  /** Files a task in the index again, from its state. */
  place(task: LiveTask): void;
}

export const stateWrite = (task: LiveTask) => ({ id: task.id, state: task.state, finished: task.finished, running: task.params.running, attention: task.attention, waiting: task.waiting ?? null });

export const contextOf = (engine: Pick<EngineContext, 'options'>, action: OrderRequest, before: CycleState): OrderContext => ({
  clientOrderId: (engine.options.clientOrderIds ?? newClientOrderId)(),
  side: action.kind,
  reason: action.reason,
  level: action.kind === 'buy' ? action.level : before.levelsFilled,
  cycle: before.cyclesDone + 1,
  before,
  ...(action.kind === 'sell' && action.partial ? { partial: true } : {}),
  ...(action.kind === 'sell' && action.target !== undefined ? { target: action.target } : {}),
  ...(action.kind === 'sell' && action.reason === 'stop_loss' ? { stop: stopOf(action) } : {}),
});

/** The market order a decision or a command comes to, as any venue takes it. */
export const requestOf = (task: LiveTask, action: OrderRequest, ctx: OrderContext): MarketOrderRequest =>
  action.kind === 'buy'
    ? { symbol: task.symbol, side: 'buy', cost: action.quoteAmount, clientOrderId: ctx.clientOrderId }
    : { symbol: task.symbol, side: 'sell', amount: action.quantity, clientOrderId: ctx.clientOrderId };

export const orderRow = (task: LiveTask, action: OrderRequest, ctx: OrderContext) => ({
  taskId: task.id,
  userId: task.userId,
  accountId: task.accountId,
  clientOrderId: ctx.clientOrderId,
  symbol: task.symbol,
  cycle: ctx.cycle,
  level: ctx.level,
  side: ctx.side,
  reason: ctx.reason,
  requested: action.kind === 'buy' ? action.quoteAmount : action.quantity,
});
