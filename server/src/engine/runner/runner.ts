import { randomBytes } from 'node:crypto';
import Big from 'big.js';
import type { FastifyBaseLogger } from 'fastify';
import { PAPER_EXCHANGE, SIMULATOR } from '../../../../src/api/exchange';
import type { AttentionReason, EngineStatus, TaskAttention } from '../../../../src/api/trade';
import type { Db } from '../../db/database';
import type { ExchangeFactory } from '../venues/exchangeAccess';
import { applyOrderFailed, decide, quietBounds, type Action, type CycleState, UNTIL_STOPPED } from '../core/decide';
import { ExchangeClientError, fromPaperFailure, type ExchangeClient, type ExchangeFailure, type Order } from '../venues/exchangeClient';
import { createExchangeClients } from '../venues/exchangeClients';
import { applyFill, baseOf, feeParts, quoteOf, type Fill, type FillFee, type SellReason } from '../core/fills';
import { createPaperExchange, PaperExchangeError, type PaperExchange, type PaperPriceFeed } from '../venues/paper/exchange';
import type { LiveMarket } from '../venues/paper/liveMarket';
import type { PriceSources } from '../venues/paper/priceSources';
import { isDecimalString } from '../core/decimal';
import { PAPER_MARKETS, type ReplayOptions, type SimulatedMarket } from '../venues/paper/market';
import { createSharedMarket } from '../venues/paper/sharedMarket';
import { createLeases, FencedError, type Leases } from '../store/shards';
import { createEngineStore, emptyWrites, type EngineDomains, type StoredTask, type Writes } from '../store/journal';
import { createTaskIndex, type Placement } from '../core/taskIndex';
import type { TickerFeed } from '../venues/tickerFeed';

/** An order the runner places: the decision's buys and sells, and the user's "close position". */
export type OrderRequest = Extract<Action, { kind: 'buy' }> | { kind: 'sell'; reason: SellReason; quantity: string };

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
  /** Waiting for fuel to open its next cycle ('fuel_empty' written once), checked again at this market time. */
  fuelWaitUntil: number | null;
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
interface OrderContext {
  clientOrderId: string;
  side: 'buy' | 'sell';
  reason: OrderRequest['reason'];
  level: number;
  cycle: number;
  /** The task's state when the order was placed. */
  before: CycleState;
}

/** What the user's actions on a task come to (the API turns them into answers). */
export type CommandResult =
  | { kind: 'ok'; sold?: string; remainder?: string }
  | { kind: 'not_loaded' }
  | { kind: 'no_position' }
  | { kind: 'all_filled' }
  | { kind: 'below_min'; quantity: string; sellable: string; value: string; minAmount: string; minCost: string }
  | { kind: 'refused'; attention: TaskAttention | null };

export type CommandKind = 'reload' | 'replenish' | 'close';

/** A refused buy for want of funds is tried again this often, quietly, until it passes or the user acts. */
const FUNDS_RETRY_MS = 5 * 60_000;
/** A task waiting for fuel asks again this often (market time). */
const FUEL_RECHECK_MS = 30_000;
/** Backoff after the engine fails on a task, in ticks (seconds at the usual pace): 1, 2, 4 ... at most this. */
const MAX_BACKOFF_TICKS = 300;
/** After this many failures in a row the task is paused with the error on its page. */
export const PAUSE_AFTER_FAILURES = 8;
const FLUSH_EVERY_TICKS = 10;
/** A real order whose intent is younger than this is not declared unsent when the exchange does not know it yet (another process may be sending it). */
const INTENT_GRACE_MS = 60_000;
/** Error texts kept in events and on the task page. */
const MESSAGE_LENGTH = 300;

/** Our own client order id: unique, and valid on every exchange ccxt offers. */
export const newClientOrderId = () => `qt${Date.now().toString(36)}${randomBytes(6).toString('hex')}`;

/** A price the decision can use: a plain decimal above 0. */
export const isUsablePrice = (price: unknown): price is string => isDecimalString(price) && new Big(price).gt(0);

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, MESSAGE_LENGTH);

/** What an exchange's refusal means for the task. */
const attentionOf = (failure: ExchangeFailure): { reason: AttentionReason; detail: Record<string, string>; retrying: boolean; error: string } => {
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
      return { reason: 'order_refused', detail: { refusal: failure.reason }, retrying: false, error: failure.reason };
    case 'permission':
      return { reason: 'permission_denied', detail: { refusal: failure.reason }, retrying: false, error: failure.reason };
    default:
      return { reason: 'order_refused', detail: { refusal: failure.kind }, retrying: false, error: failure.kind };
  }
};

/** One fee asset is stored as it is; several are stored as their quote value. */
const storedFee = (symbol: string, fill: Fill) => {
  const currencies = new Set(fill.fees.map((fee) => fee.currency));
  const [single] = fill.fees;
  return currencies.size === 1 && single
    ? { fee: fill.fees.reduce((sum, f) => sum.plus(f.cost), new Big(0)).toFixed(), feeCurrency: single.currency }
    : { fee: feeParts(symbol, fill).value.round(8, Big.roundUp).toFixed(), feeCurrency: quoteOf(symbol) };
};

/**
 * The runner. Every tick it moves the market, asks the task index which
 * tasks the new prices (or the clock) concern, asks the decision function
 * about those, carries out their orders on the paper exchange in memory and
 * writes the whole tick in one transaction (store/journal.ts): the orders with their
 * fills, the positions, the events, the closed cycles with their fuel and
 * the paper balances. All of it lands or none; if the tick's transaction
 * fails, everything is put back and each task's orders are tried again in a
 * transaction of their own, so one bad order never holds the others back.
 * Real exchanges (ccxt) trade in lanes of their own, one per account, off
 * the tick: intent committed, order sent, outcome applied (crash-safe, never
 * sent twice).
 *
 * One task never stops another: a task whose turn throws gets an error event
 * and backs off (1, 2, 4 ... ticks); after PAUSE_AFTER_FAILURES in a row it is
 * paused with the error on its page. A price that is not a decimal above 0 is
 * never decided on. Every call into the runner is serialized, and a failure
 * never leaves that chain broken.
 */
export const createRunner = (options: EngineOptions) => {
  const { db, log } = options;
  const store = createEngineStore(db, options.domains);
  const shared = createSharedMarket({
    seed: options.seed,
    markets: options.market?.markets ?? PAPER_MARKETS,
    ...(options.replay ? { replay: options.replay } : {}),
    ...(options.market ? { market: options.market } : {}),
  });
  const market = shared.market;
  const paperFeeRate = options.feeRate ?? '0.001';
  const paper: PaperExchange = createPaperExchange({ market, feeRate: paperFeeRate });
  /**
   * Where a paper account trades: the simulator, or a real exchange's live
   * public market (venues/paper/liveMarket.ts), each with its own paper exchange.
   * An account whose exchange cannot be reached trades on the simulator
   * until it is back; its balances move with it (the journal has them after
   * every commit).
   */
  interface Venue {
    key: string;
    paper: PaperExchange;
    feed: PaperPriceFeed;
    live: LiveMarket | null;
  }
  const simulator: Venue = { key: SIMULATOR, paper, feed: market, live: null };
  const venues = new Map<string, Venue>([[SIMULATOR, simulator]]);
  const venueFor = (task: Pick<LiveTask, 'priceSource'>): Venue => {
    const source = task.priceSource ?? SIMULATOR;
    if (source === SIMULATOR || !options.priceSources) return simulator;
    const live = options.priceSources.liveMarket(source);
    if (!live.live()) return simulator;
    let venue = venues.get(source);
    if (!venue) {
      venue = { key: source, paper: createPaperExchange({ market: live.feed, feeRate: paperFeeRate }), feed: live.feed, live };
      venues.set(source, venue);
    }
    return venue;
  };
  /** Which venue holds each loaded account's balances. */
  const accountVenues = new Map<string, Venue>();
  /** A task's prices in this tick's map and in the index: by venue and symbol. */
  const priceKeyOf = (task: LiveTask) => `${venueFor(task).key}|${task.symbol}`;
  const clients = createExchangeClients({ db, exchangeMasterKey: options.exchangeMasterKey, createExchange: options.createExchange });
  const index = createTaskIndex();
  const tasks = new Map<string, LiveTask>();
  let timer: NodeJS.Timeout | null = null;
  let immediate: NodeJS.Immediate | null = null;
  let running = false;
  let ticks = 0;
  let busy: Promise<unknown> = Promise.resolve();
  const health = { startedAt: null as number | null, lastTickAt: null as number | null, lastTickMs: 0, maxTickMs: 0, failedTicks: 0 };
  /** Symbols whose price was unusable, logged once until it is usable again. */
  const badPrices = new Set<string>();
  let leases: Leases | null = null;

  const now = () => market.now();

  /** Runs `work` after everything queued before it; the queue survives its failure. */
  const serialize = <T>(work: () => Promise<T>): Promise<T> => {
    const result = busy.then(work);
    busy = result.catch(() => undefined);
    return result;
  };

  /** Writes through the journal, stamped with the market's time when the options say so. */
  const journal = (writes: Writes, fence?: Parameters<typeof store.commit>[1]) => store.commit(writes, fence, options.journalMarketTime ? new Date(now()) : undefined);

  /** The fence of the shards a write touches (cluster mode). */
  const fenceFor = (touched: Iterable<LiveTask>) => (leases ? { check: leases.fence, shards: new Set([...touched].map((task) => task.shard)) } : undefined);

  // ------------------------------------------------------------------ tasks

  const toLive = (stored: StoredTask): LiveTask => ({
    ...stored,
    real: stored.exchange !== PAPER_EXCHANGE,
    dirty: false,
    retryAfter: stored.attention && !stored.attention.retrying ? Number.POSITIVE_INFINITY : 0,
    backoffUntilTick: 0,
    failures: 0,
    fuelWaitUntil: null,
  });

  /** Where the index files a task now, from its state (see core/taskIndex.ts). */
  const placementOf = (task: LiveTask): Placement => {
    const { state } = task;
    if (task.finished || !task.params.running) return { by: 'none' };
    if (task.backoffUntilTick > ticks) return { by: 'tick', at: task.backoffUntilTick };
    if (task.retryAfter === Number.POSITIVE_INFINITY) return { by: 'none' };
    if (task.retryAfter > now()) return { by: 'time', at: task.retryAfter };
    if (task.real || state.pendingOrder) return { by: 'every' };
    if (state.phase === 'open') {
      const bounds = quietBounds({ ...task.params, feeRate: paperFeeRate }, task.strategy, state);
      return bounds ? { by: 'price', symbol: priceKeyOf(task), ...bounds } : { by: 'every' };
    }
    if (task.fuelWaitUntil !== null && task.fuelWaitUntil > now()) return { by: 'time', at: task.fuelWaitUntil };
    if (state.phase === 'cooldown' && state.cooldownUntil !== null && state.cooldownUntil > now()) return { by: 'time', at: state.cooldownUntil };
    return { by: 'every' };
  };

  const place = (task: LiveTask) => index.place(task.id, placementOf(task));

  const stateWrite = (task: LiveTask) => ({ id: task.id, state: task.state, finished: task.finished, running: task.params.running, attention: task.attention });

  /** Loads a paper account's balances into its venue's paper exchange (again when it moved to another venue). */
  const ensureAccount = async (accountId: string, venue: Venue = simulator) => {
    if (accountVenues.get(accountId) === venue) return;
    venue.paper.restoreBalances(accountId, await store.paperBalances(accountId));
    accountVenues.set(accountId, venue);
  };
  const paperOf = (accountId: string) => (accountVenues.get(accountId) ?? simulator).paper;

  /**
   * On loading tasks: paper intents left by a crash were never sent (a paper
   * order is sent and filled inside the transaction that stores it, which
   * rolled back), so any found is marked not sent and the task decides again.
   * Real accounts: the order may have reached the exchange, so the intent
   * waits for its task's next turn, which asks the exchange.
   */
  const pendingIntents = new Map<string, OrderContext & { createdAt: number }>();
  const adopt = async (loaded: StoredTask[]) => {
    const live = loaded.map(toLive);
    const intents = await store.intents(live.map((task) => task.id));
    await store.markNotSent(intents.filter((row) => row.exchange === PAPER_EXCHANGE).map((row) => row.client_order_id));
    for (const task of live) {
      tasks.set(task.id, task);
      if (!task.real && !task.finished) await ensureAccount(task.accountId, venueFor(task));
    }
    for (const row of intents) {
      const task = tasks.get(row.task_id);
      if (!task) continue;
      if (row.exchange === PAPER_EXCHANGE) {
        task.state = applyOrderFailed(task.state);
        continue;
      }
      task.state = { ...task.state, pendingOrder: true };
      pendingIntents.set(task.id, {
        clientOrderId: row.client_order_id,
        side: row.side,
        reason: row.reason as OrderRequest['reason'],
        level: row.level,
        cycle: row.cycle,
        before: task.state,
        createdAt: new Date(row.created_at).getTime(),
      });
    }
    for (const task of live) place(task);
  };

  /** (Re)reads one task after the API changed it. */
  const reloadTask = async (taskId: string) => {
    const existing = tasks.get(taskId);
    if (existing?.dirty) await store.flushStates([stateWrite(existing)]);
    tasks.delete(taskId);
    index.remove(taskId);
    pendingIntents.delete(taskId);
    const [stored] = await store.loadTasks({ ids: [taskId] });
    if (stored && (!leases || leases.holdsShard(stored.shard))) {
      if (stored.exchange !== PAPER_EXCHANGE) clients.forget(stored.accountId);
      await adopt([stored]);
    }
  };

  /** Stops driving the tasks of shards given back or lost (their state is written by whoever drives them next). */
  const drop = (shards: readonly number[]) => {
    const gone = new Set(shards);
    for (const task of [...tasks.values()]) {
      if (!gone.has(task.shard)) continue;
      tasks.delete(task.id);
      index.remove(task.id);
      pendingIntents.delete(task.id);
      accountVenues.delete(task.accountId);
    }
  };

  // ------------------------------------------------------------------ orders on the paper exchange

  interface PaperOrderPlan {
    task: LiveTask;
    action: OrderRequest;
    ctx: OrderContext;
    venue: Venue;
  }

  const contextOf = (action: OrderRequest, before: CycleState): OrderContext => ({
    clientOrderId: newClientOrderId(),
    side: action.kind,
    reason: action.reason,
    level: action.kind === 'buy' ? action.level : before.levelsFilled,
    cycle: before.cyclesDone + 1,
    before,
  });

  const orderRow = (task: LiveTask, action: OrderRequest, ctx: OrderContext) => ({
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

  /** A fill's effects on the task, as writes: its position and cycle, events, the closed cycle; clears a need for attention. */
  const fillWrites = (writes: Writes, task: LiveTask, ctx: OrderContext, fill: Fill) => {
    const outcome = applyFill({ symbol: task.symbol, side: ctx.side, reason: ctx.reason, level: ctx.level, cycle: ctx.cycle, before: ctx.before, strategy: task.strategy, at: now() }, fill);
    task.state = outcome.state;
    for (const event of outcome.events) writes.events.push({ taskId: task.id, ...event });
    if (outcome.closed) {
      const seconds = outcome.closed.openedAt === null ? null : Math.max(0, Math.round((now() - outcome.closed.openedAt) / 1000));
      writes.cycles.push({ taskId: task.id, userId: task.userId, closed: outcome.closed, seconds });
    }
    if (task.attention) {
      // An order passed: whatever stood in the way is gone.
      writes.events.push({ taskId: task.id, kind: 'resumed', data: { reason: task.attention.reason } });
      task.attention = null;
      task.retryAfter = 0;
    }
  };

  /**
   * The exchange refused an order: the task needs attention (one event when it
   * starts). Funds may come back (other tasks sell, the user tops up): such a
   * buy is tried again quietly every five minutes; other refusals wait for the
   * user (start, edit, close).
   */
  const refusalWrites = (writes: Writes, task: LiveTask, ctx: OrderContext, failure: ExchangeFailure) => {
    const meaning = attentionOf(failure);
    task.state = applyOrderFailed(ctx.before);
    task.retryAfter = meaning.retrying ? now() + FUNDS_RETRY_MS : Number.POSITIVE_INFINITY;
    const same = task.attention?.reason === meaning.reason && task.attention.side === ctx.side;
    if (!same) {
      task.attention = { reason: meaning.reason, since: new Date().toISOString(), side: ctx.side, level: ctx.level, detail: meaning.detail, retrying: meaning.retrying };
      writes.events.push({ taskId: task.id, kind: 'error', data: { reason: meaning.error, attention: meaning.reason, side: ctx.side, level: ctx.level, ...meaning.detail } });
    }
    return meaning.error;
  };

  /** Carries out paper orders in memory and adds what they did to `writes` (nothing is written yet). */
  const executePaper = (plans: PaperOrderPlan[], writes: Writes, touchedAccounts: Set<string>) => {
    for (const { task, action, ctx, venue } of plans) {
      const { paper } = venue;
      touchedAccounts.add(task.accountId);
      const row = orderRow(task, action, ctx);
      try {
        const order =
          action.kind === 'buy'
            ? paper.createOrder({ accountId: task.accountId, symbol: task.symbol, side: 'buy', type: 'market', cost: action.quoteAmount, clientOrderId: ctx.clientOrderId })
            : paper.createOrder({ accountId: task.accountId, symbol: task.symbol, side: 'sell', type: 'market', amount: action.quantity, clientOrderId: ctx.clientOrderId });
        const fill: Fill = { ...order, fees: [order.fee] };
        writes.orders.push({ ...row, status: 'closed', exchangeOrderId: order.id, price: order.average, filled: order.filled, cost: order.cost, ...storedFee(task.symbol, fill) });
        fillWrites(writes, task, ctx, fill);
      } catch (error) {
        if (!(error instanceof PaperExchangeError)) throw error;
        const reason = refusalWrites(writes, task, ctx, fromPaperFailure(error.failure));
        writes.orders.push({ ...row, status: 'failed', error: reason });
      }
    }
    for (const accountId of touchedAccounts) {
      const balance = paperOf(accountId).fetchBalance(accountId);
      for (const asset of Object.keys(balance.total)) writes.balances.push({ accountId, asset, free: balance.free[asset] ?? '0', used: balance.used[asset] ?? '0' });
    }
  };

  // ------------------------------------------------------------------ decisions

  const betweenCycles = (task: LiveTask) => {
    const { state } = task;
    return !state.pendingOrder && (state.phase === 'ready' || (state.phase === 'cooldown' && (state.cooldownUntil === null || now() >= state.cooldownUntil)));
  };
  const wantsCycle = (task: LiveTask) =>
    betweenCycles(task) && task.params.running && !task.finished && (task.params.cycleCount === UNTIL_STOPPED || task.state.cyclesDone < task.params.cycleCount);

  /**
   * Decides for a task at a price; the decision's events go to `writes`. A
   * task that would open a cycle without fuel waits (one 'fuel_empty' event)
   * and asks again every FUEL_RECHECK_MS. Answers the order to place, if any.
   */
  const decideFor = (task: LiveTask, price: string, feeRate: string, fuelled: boolean, writes: Writes): OrderRequest | null => {
    const mayOpen = !wantsCycle(task) || fuelled;
    const decision = decide({ ...task.params, feeRate }, task.strategy, task.state, price, now(), mayOpen);
    if (wantsCycle(task)) {
      if (!fuelled && task.fuelWaitUntil === null) writes.events.push({ taskId: task.id, kind: 'fuel_empty', data: { cycle: task.state.cyclesDone + 1 } });
      task.fuelWaitUntil = fuelled ? null : now() + FUEL_RECHECK_MS;
    }
    let order: OrderRequest | null = null;
    for (const action of decision.actions) {
      if (action.kind === 'event') {
        writes.events.push({ taskId: task.id, kind: action.event, data: action.level === undefined ? {} : { level: action.level } });
        if (action.event === 'finished') task.finished = true;
      } else {
        order = action;
      }
    }
    if (decision.state !== task.state) {
      task.state = decision.state;
      task.dirty = true;
    }
    return order;
  };

  /**
   * The engine failed on a task: an error event, a backoff, and after
   * PAUSE_AFTER_FAILURES in a row a pause with the error on its page. Writing
   * that may fail too (the database is down): then it is only logged.
   */
  const onTaskFailure = async (task: LiveTask, error: unknown) => {
    if (error instanceof FencedError) return;
    task.failures += 1;
    const message = messageOf(error);
    task.backoffUntilTick = ticks + Math.min(MAX_BACKOFF_TICKS, 2 ** (task.failures - 1));
    const pause = task.failures >= PAUSE_AFTER_FAILURES && task.params.running;
    log.error({ err: error, taskId: task.id, failures: task.failures }, pause ? 'task keeps failing; paused' : 'task failed; backing off');
    if (pause) {
      task.params = { ...task.params, running: false };
      task.attention = { reason: 'engine_error', since: new Date().toISOString(), detail: { message }, retrying: false };
    }
    const writes = emptyWrites();
    writes.events.push({ taskId: task.id, kind: 'error', data: { reason: 'engine_error', message, failures: task.failures } });
    if (pause) {
      writes.events.push({ taskId: task.id, kind: 'paused', data: { reason: 'engine_error', failures: task.failures } });
      writes.states.push(stateWrite(task));
    }
    try {
      await journal(writes, fenceFor([task]));
      if (pause) task.dirty = false;
    } catch (recordError) {
      if (pause) task.dirty = true;
      log.error({ err: recordError, taskId: task.id }, 'the task failure could not be recorded');
    }
  };

  /**
   * One turn of paper tasks at this tick's prices: decisions, orders in
   * memory, one commit. When the commit fails, everything is put back and,
   * if there were several tasks, each is tried again on its own.
   */
  const runPaper = async (due: LiveTask[], prices: ReadonlyMap<string, string>): Promise<void> => {
    const writes = emptyWrites();
    const before = new Map(due.map((task) => [task.id, { state: task.state, attention: task.attention, finished: task.finished, fuelWaitUntil: task.fuelWaitUntil, retryAfter: task.retryAfter, dirty: task.dirty }]));
    const failed: { task: LiveTask; error: unknown }[] = [];
    const plans: PaperOrderPlan[] = [];
    const fuelled = await store.fuelOf(due.filter((task) => wantsCycle(task) && (task.fuelWaitUntil === null || task.fuelWaitUntil <= now())).map((task) => task.userId));
    for (const task of due) {
      const price = prices.get(priceKeyOf(task));
      if (price === undefined) continue;
      try {
        if (task.fuelWaitUntil !== null && task.fuelWaitUntil > now() && wantsCycle(task)) continue;
        const start = task.state;
        const order = decideFor(task, price, paperFeeRate, fuelled.has(task.userId), writes);
        if (order) {
          const venue = venueFor(task);
          await ensureAccount(task.accountId, venue);
          plans.push({ task, action: order, ctx: contextOf(order, start), venue });
        }
      } catch (error) {
        failed.push({ task, error });
      }
    }
    const touched = new Set<string>();
    const snapshots = new Map<string, Record<string, string>>();
    for (const { task, venue } of plans) if (!snapshots.has(task.accountId)) snapshots.set(task.accountId, venue.paper.fetchBalance(task.accountId).total);
    try {
      executePaper(plans, writes, touched);
      for (const task of due) if (task.dirty || plans.some((p) => p.task === task)) writes.states.push(stateWrite(task));
      await journal(writes, fenceFor(due));
      for (const task of due) {
        task.dirty = false;
        if (!failed.some((f) => f.task === task)) task.failures = 0;
      }
    } catch (error) {
      // Put everything back: the paper accounts as they were, the tasks as they were.
      for (const [accountId, balances] of snapshots) paperOf(accountId).restoreBalances(accountId, balances);
      for (const task of due) Object.assign(task, before.get(task.id)!);
      if (error instanceof FencedError) {
        log.warn({ err: error }, 'a tick was fenced off: its shards are held by another process now');
        return;
      }
      if (due.length > 1) {
        log.warn({ err: error, tasks: due.length }, 'the tick could not be written; each task is tried on its own');
        for (const task of due) await runPaper([task], prices);
        return;
      }
      failed.push({ task: due[0]!, error });
    }
    for (const { task, error } of failed) await onTaskFailure(task, error);
  };

  // ------------------------------------------------------------------ real exchanges

  /** Real accounts' lanes: one chain of work per account, off the tick. */
  const lanes = new Map<string, Promise<void>>();
  /** The last price seen per (account, symbol) of a real account. */
  const lastPrices = new Map<string, string>();
  const priceKey = (accountId: string, symbol: string) => `${accountId}|${symbol}`;
  /** Taker fees of real accounts' markets, read once per (account, symbol). */
  const takerFees = new Map<string, string>();

  const realPrice = async (client: ExchangeClient, task: LiveTask): Promise<string | null> => {
    const exchangeId = clients.exchangeOf(task.accountId);
    let price = exchangeId && options.tickerFeed ? options.tickerFeed.price(exchangeId, task.symbol) : null;
    if (price === null) {
      try {
        const ticker = await client.fetchTicker(task.symbol);
        price = ticker.last ?? ticker.bid ?? ticker.ask;
      } catch (error) {
        log.warn({ err: error, accountId: task.accountId, symbol: task.symbol }, 'price could not be fetched; the task skips this tick');
        return null;
      }
    }
    if (!isUsablePrice(price)) {
      if (price !== null && !badPrices.has(task.symbol)) log.error({ symbol: task.symbol, price }, 'unusable price refused; its tasks wait for a valid one');
      return null;
    }
    lastPrices.set(priceKey(task.accountId, task.symbol), price);
    return price;
  };

  const takerFee = async (client: ExchangeClient, task: LiveTask): Promise<string> => {
    const key = priceKey(task.accountId, task.symbol);
    let fee = takerFees.get(key);
    if (fee === undefined) {
      fee = (await client.loadMarkets()).find((m) => m.symbol === task.symbol)?.taker ?? '0.001';
      takerFees.set(key, fee);
    }
    return fee;
  };

  /** The quote value of a fee paid in a third asset, at that asset's last price; '0' (and a warning) when there is none. */
  const feeValueInQuote = async (client: ExchangeClient, task: LiveTask, fee: { currency: string; cost: string }): Promise<string> => {
    try {
      const ticker = await client.fetchTicker(`${fee.currency}/${quoteOf(task.symbol)}`);
      const price = ticker.last ?? ticker.bid;
      if (price !== null) return new Big(fee.cost).times(price).toFixed();
    } catch (error) {
      log.warn({ err: error, taskId: task.id, feeCurrency: fee.currency }, 'fee asset has no price; the fee is not counted in the cost');
    }
    return '0';
  };

  /**
   * Applies what the exchange says about a real order: its fill, a refusal
   * without fill, or (open) nothing yet. A failure to record it keeps the
   * intent, so the next turn asks again, and is thrown to count as a failure.
   */
  const settle = async (task: LiveTask, client: ExchangeClient, ctx: OrderContext, order: Order, extra?: (writes: Writes) => void) => {
    if (order.status === 'open') {
      pendingIntents.set(task.id, { ...ctx, createdAt: Date.now() });
      return;
    }
    const writes = emptyWrites();
    try {
      if (order.average === null || new Big(order.filled).lte(0)) {
        const reason = refusalWrites(writes, task, ctx, { kind: 'refused' });
        writes.outcomes.push({ clientOrderId: ctx.clientOrderId, status: 'failed', error: reason === 'refused' ? order.status : reason });
      } else {
        // An order answer without its fee (Binance's order query carries no fills, or
        // fees in several assets): the fill's trades say what it really paid.
        const reported = order.fee ? [order.fee] : await client.fetchOrderFees(task.symbol, order.id);
        const fees: FillFee[] = [];
        for (const fee of reported) {
          const third = fee.currency !== baseOf(task.symbol) && fee.currency !== quoteOf(task.symbol) && new Big(fee.cost).gt(0);
          fees.push(third ? { ...fee, inQuote: await feeValueInQuote(client, task, fee) } : fee);
        }
        const fill: Fill = { id: order.id, average: order.average, filled: order.filled, cost: order.cost, fees };
        writes.outcomes.push({ clientOrderId: ctx.clientOrderId, status: 'closed', exchangeOrderId: order.id, price: order.average, filled: order.filled, cost: order.cost, ...storedFee(task.symbol, fill) });
        fillWrites(writes, task, ctx, fill);
      }
      extra?.(writes);
      writes.states.push(stateWrite(task));
      await journal(writes, fenceFor([task]));
      pendingIntents.delete(task.id);
      task.dirty = false;
    } catch (error) {
      // The order exists on the exchange but its outcome is not recorded: keep the intent and ask again next turn.
      task.state = ctx.before;
      pendingIntents.set(task.id, { ...ctx, createdAt: Date.now() });
      throw error;
    }
  };

  /**
   * A real order: (1) its intent is committed; (2) it is sent outside any
   * transaction; (3) its outcome is applied in a second transaction. When the
   * answer is lost the intent stays and the task waits (pendingOrder) until
   * `reconcileIntent` finds out from the exchange.
   */
  const placeReal = async (task: LiveTask, action: OrderRequest, client: ExchangeClient, extra?: (writes: Writes) => void) => {
    const ctx = contextOf(action, task.state);
    const intent = emptyWrites();
    intent.orders.push({ ...orderRow(task, action, ctx), status: 'intent' });
    task.state = { ...task.state, pendingOrder: true };
    try {
      await journal(intent, fenceFor([task]));
    } catch (error) {
      task.state = applyOrderFailed(ctx.before);
      throw error;
    }
    pendingIntents.set(task.id, { ...ctx, createdAt: Date.now() });
    let order: Order;
    try {
      order = await client.createMarketOrder(
        action.kind === 'buy'
          ? { symbol: task.symbol, side: 'buy', cost: action.quoteAmount, clientOrderId: ctx.clientOrderId }
          : { symbol: task.symbol, side: 'sell', amount: action.quantity, clientOrderId: ctx.clientOrderId },
      );
    } catch (error) {
      const failure = error instanceof ExchangeClientError ? error.failure : undefined;
      if (!failure || failure.kind === 'unknown_outcome' || failure.kind === 'transient') {
        // The order may exist: the intent stays and the task keeps its pending order until reconciled.
        task.dirty = true;
        log.warn({ err: error, taskId: task.id, clientOrderId: ctx.clientOrderId }, 'order outcome unknown; reconciling on the next tick');
        return;
      }
      pendingIntents.delete(task.id);
      const writes = emptyWrites();
      const reason = refusalWrites(writes, task, ctx, failure);
      writes.outcomes.push({ clientOrderId: ctx.clientOrderId, status: 'failed', error: reason });
      extra?.(writes);
      writes.states.push(stateWrite(task));
      try {
        await journal(writes, fenceFor([task]));
        task.dirty = false;
      } catch (recordError) {
        task.state = applyOrderFailed(ctx.before);
        throw recordError;
      }
      return;
    }
    await settle(task, client, ctx, order, extra);
  };

  /** Asks the exchange about a real order whose outcome is unknown: closed, apply it; open, wait; never placed, failed. */
  const reconcileIntent = async (task: LiveTask, client: ExchangeClient, ctx: OrderContext & { createdAt: number }) => {
    let order: Order | null;
    try {
      order = await client.fetchOrderByClientOrderId(task.symbol, ctx.clientOrderId);
    } catch (error) {
      log.warn({ err: error, taskId: task.id, clientOrderId: ctx.clientOrderId }, 'order query failed; trying again next tick');
      return;
    }
    if (order) {
      await settle(task, client, ctx, order);
      return;
    }
    // Not (yet) known to the exchange. A young intent may still be on its way from another process.
    if (leases && Date.now() - ctx.createdAt < INTENT_GRACE_MS) return;
    await store.markNotSent([ctx.clientOrderId]);
    pendingIntents.delete(task.id);
    task.state = applyOrderFailed(ctx.before);
    task.dirty = true;
  };

  /** A real task's turn: reconcile its pending order, or decide at the exchange's price and trade. */
  const realStep = async (task: LiveTask) => {
    const client = await clients.clientFor(task.accountId);
    if (!client) return;
    const intent = pendingIntents.get(task.id);
    if (intent) {
      await reconcileIntent(task, client, intent);
      return;
    }
    if (task.finished || !task.params.running || now() < task.retryAfter) return;
    const price = await realPrice(client, task);
    if (price === null) return;
    const fee = await takerFee(client, task);
    const fuelled = wantsCycle(task) ? (await store.fuelOf([task.userId])).has(task.userId) : true;
    const writes = emptyWrites();
    const order = decideFor(task, price, fee, fuelled, writes);
    if (writes.events.length > 0) await journal(writes, fenceFor([task]));
    if (order) await placeReal(task, order, client);
  };

  /** Starts the lanes of real accounts with due tasks (one lane per account at a time; a busy lane skips this tick). */
  const startLanes = (due: LiveTask[]) => {
    const byAccount = new Map<string, LiveTask[]>();
    for (const task of due) byAccount.set(task.accountId, [...(byAccount.get(task.accountId) ?? []), task]);
    for (const [accountId, accountTasks] of byAccount) {
      if (lanes.has(accountId)) {
        for (const task of accountTasks) place(task);
        continue;
      }
      const lane = (async () => {
        for (const task of accountTasks) {
          if (!tasks.has(task.id)) continue;
          try {
            if (ticks >= task.backoffUntilTick) {
              await realStep(task);
              task.failures = 0;
            }
          } catch (error) {
            await onTaskFailure(task, error);
          } finally {
            if (tasks.has(task.id)) place(task);
          }
        }
      })().finally(() => lanes.delete(accountId));
      lanes.set(accountId, lane);
    }
  };

  // ------------------------------------------------------------------ the user's actions

  /** The exchange's rules of a task's market and its price now (for closing a position). */
  const marketRules = async (task: LiveTask) => {
    if (task.real) {
      const client = (await clients.clientFor(task.accountId))!;
      const rules = (await client.loadMarkets()).find((m) => m.symbol === task.symbol);
      const ticker = await client.fetchTicker(task.symbol);
      return { rules, price: ticker.bid ?? ticker.last };
    }
    const venue = venueFor(task);
    const rules = venue.paper.fetchMarkets().find((m) => m.symbol === task.symbol);
    return { rules, price: venue.feed.bestPrices(task.symbol).bid };
  };

  /**
   * Places one order the user asked for (replenish now, close) through the
   * same paths as the engine's own orders; `extra` adds to the same
   * transaction (the command's answer).
   */
  const placeOrder = async (task: LiveTask, action: OrderRequest, extra?: (writes: Writes) => void) => {
    if (task.real) {
      await placeReal(task, action, (await clients.clientFor(task.accountId))!, extra);
      return;
    }
    const venue = venueFor(task);
    await ensureAccount(task.accountId, venue);
    const writes = emptyWrites();
    const before = { state: task.state, attention: task.attention, retryAfter: task.retryAfter, params: task.params };
    const snapshot = venue.paper.fetchBalance(task.accountId).total;
    try {
      executePaper([{ task, action, ctx: contextOf(action, task.state), venue }], writes, new Set());
      extra?.(writes);
      writes.states.push(stateWrite(task));
      await journal(writes, fenceFor([task]));
      task.dirty = false;
    } catch (error) {
      venue.paper.restoreBalances(task.accountId, snapshot);
      Object.assign(task, before);
      throw error;
    } finally {
      place(task);
    }
  };

  /**
   * The user's actions on a task the engine drives here: reload (after an
   * edit), replenish now, close the position. `done` adds the command's
   * answer to the same transaction (cluster mode).
   */
  const runCommand = async (taskId: string, kind: CommandKind, done?: (result: CommandResult) => (writes: Writes) => void): Promise<CommandResult> => {
    if (kind === 'reload') {
      await reloadTask(taskId);
      return { kind: 'ok' };
    }
    const task = tasks.get(taskId);
    if (!task) return { kind: 'not_loaded' };
    await lanes.get(task.accountId);
    const state = task.state;
    if (kind === 'replenish') {
      if (state.phase !== 'open' || new Big(state.quantity).lte(0) || state.pendingOrder) return { kind: 'no_position' };
      const level = state.levelsFilled + 1;
      const next = task.strategy.levels[level - 1];
      if (!next) return { kind: 'all_filled' };
      task.state = { ...state, pendingOrder: true, trailingBuy: null };
      const result: CommandResult = { kind: 'ok' };
      try {
        await placeOrder(task, { kind: 'buy', reason: 'replenish', level, quoteAmount: new Big(task.params.firstOrderAmount).times(next.multiple).toFixed() }, done?.(result));
      } catch (error) {
        task.state = state;
        throw error;
      }
      return result;
    }
    if (new Big(state.quantity).lte(0) || state.pendingOrder) return { kind: 'no_position' };
    // What the exchange would take: the position rounded down to its step, at least its minimums.
    const { rules, price } = await marketRules(task);
    if (!rules || price === null) return { kind: 'no_position' };
    const step = rules.precision.amount;
    const sellable = new Big(state.quantity).div(step).round(0, Big.roundDown).times(step);
    if (sellable.lte(0) || sellable.lt(rules.limits.amount.min) || sellable.times(price).lt(rules.limits.cost.min)) {
      return { kind: 'below_min', quantity: state.quantity, sellable: sellable.toFixed(), value: sellable.times(price).round(8).toFixed(), minAmount: rules.limits.amount.min, minCost: rules.limits.cost.min };
    }
    const wasRunning = task.params.running;
    task.params = { ...task.params, running: false };
    task.state = { ...state, pendingOrder: true };
    let answer: CommandResult = { kind: 'ok' };
    const restore = () => {
      task.state = state;
      task.params = { ...task.params, running: wasRunning };
    };
    await placeOrder(task, { kind: 'sell', reason: 'close', quantity: state.quantity }, (writes) => {
      const sold = task.state.cyclesDone !== state.cyclesDone;
      if (sold) {
        answer = { kind: 'ok', sold: new Big(state.quantity).minus(task.state.quantity).toFixed(), remainder: task.state.quantity };
        task.attention = null;
        writes.events.push({ taskId: task.id, kind: 'stopped', data: { by: 'close', sold: answer.sold, remainder: answer.remainder } });
      } else {
        // Refused by the exchange: the task keeps running as it did, and shows why it needs attention.
        task.params = { ...task.params, running: wasRunning };
        answer = { kind: 'refused', attention: task.attention };
      }
      done?.(answer)(writes);
    }).catch((error: unknown) => {
      restore();
      throw error;
    });
    place(task);
    return answer;
  };

  /** Cluster mode: the commands the API left for this process's shards, carried out in the tick. */
  const runCommands = async () => {
    if (!leases) return;
    for (const command of await store.pendingCommands(leases.shards())) {
      const finish = (result: CommandResult) => (writes: Writes) => writes.commands.push({ id: command.id, result });
      try {
        let written = false;
        const result = await runCommand(command.taskId, command.kind as CommandKind, (r) => {
          written = true;
          return finish(r);
        });
        if (!written) await journal({ ...emptyWrites(), commands: [{ id: command.id, result }] }, fenceFor([]));
      } catch (error) {
        log.error({ err: error, command }, 'command failed');
        await journal({ ...emptyWrites(), commands: [{ id: command.id, result: { kind: 'error', message: messageOf(error) } }] }).catch(() => undefined);
      }
    }
  };

  // ------------------------------------------------------------------ ticks

  const flush = async () => {
    const dirty = [...tasks.values()].filter((task) => task.dirty);
    if (dirty.length === 0) return;
    try {
      await journal({ ...emptyWrites(), states: dirty.map(stateWrite) }, fenceFor(dirty));
      for (const task of dirty) task.dirty = false;
    } catch (error) {
      log.error({ err: error, tasks: dirty.length }, 'task states could not be written; trying again at the next flush');
    }
  };

  /** In replay mode the recorded candles start to play once a task on their pair runs (any process's, in cluster mode). */
  let replayCheckedAt = 0;
  const startReplayWhenTraded = async () => {
    const replay = market.replay;
    if (!replay || replay.status().started) return;
    let traded = [...tasks.values()].some((task) => task.symbol === replay.symbol && task.params.running && !task.finished);
    if (!traded && leases && Date.now() - replayCheckedAt > 1000) {
      replayCheckedAt = Date.now();
      traded = !!(await db.selectFrom('trade_tasks').select('id').where('symbol', '=', replay.symbol).where('running', '=', true).where('status', '=', 'active').executeTakeFirst());
    }
    if (traded) {
      replay.start();
      log.info({ symbol: replay.symbol }, 'replay started');
    }
  };

  /** The market's move for this tick: run it (and publish it) or mirror the process that runs it. */
  const moveMarket = async (seconds: number) => {
    if (!leases || shared.leads()) {
      await startReplayWhenTraded();
      market.tick(seconds);
      // The simulator's candles (the charts' history), and in cluster mode its prices for the other processes.
      if (options.recordCandles !== false) await shared.recordCandles(db);
      if (leases) await shared.publish(db);
    } else {
      await shared.refresh(db);
    }
    for (const venue of venues.values()) venue.paper.onTick();
  };

  /**
   * This tick's price (the bid) of every pair with paper tasks, by venue and
   * pair (the simulator's, or a live market's); unusable ones are left out
   * and logged once. Live markets are told which pairs to keep fresh, also
   * while their accounts wait on the simulator for them to come back.
   */
  const tickPrices = () => {
    const prices = new Map<string, string>();
    const wanted = new Map<string, { venue: Venue; symbol: string }>();
    for (const task of tasks.values()) {
      if (task.real || task.finished) continue;
      if (task.priceSource && task.priceSource !== SIMULATOR) options.priceSources?.liveMarket(task.priceSource).want([task.symbol]);
      const venue = venueFor(task);
      wanted.set(`${venue.key}|${task.symbol}`, { venue, symbol: task.symbol });
    }
    for (const [key, { venue, symbol }] of wanted) {
      const name = venue === simulator ? symbol : `${venue.key}:${symbol}`;
      let price: unknown;
      try {
        price = venue.feed.bestPrices(symbol).bid;
      } catch (error) {
        if (!badPrices.has(name)) log.error({ err: error, symbol: name }, 'no price for the symbol; its tasks wait');
        badPrices.add(name);
        continue;
      }
      if (!isUsablePrice(price)) {
        if (!badPrices.has(name)) log.error({ symbol: name, price: String(price) }, 'unusable price refused; its tasks wait for a valid one');
        badPrices.add(name);
        continue;
      }
      if (badPrices.delete(name)) log.info({ symbol: name, price }, 'the price is usable again');
      prices.set(key, price);
    }
    return prices;
  };

  /** One second of market (one candle in replay mode) and the decisions of the tasks it concerns. */
  const tick = (seconds = 1): Promise<void> =>
    serialize(async () => {
      const started = Date.now();
      let due: LiveTask[] = [];
      try {
        await moveMarket(seconds);
        ticks += 1;
        await runCommands();
        const prices = tickPrices();
        const numeric = new Map([...prices].map(([symbol, price]) => [symbol, Number(price)]));
        due = index.due(numeric, now(), ticks).flatMap((id) => tasks.get(id) ?? []);
        const paperDue = due.filter((task) => !task.real && ticks >= task.backoffUntilTick);
        try {
          await runPaper(paperDue, prices);
        } finally {
          for (const task of paperDue) if (tasks.has(task.id)) place(task);
        }
        for (const task of due) if (!task.real && ticks < task.backoffUntilTick) place(task);
        startLanes(due.filter((task) => task.real));
        if (ticks % FLUSH_EVERY_TICKS === 0) await flush();
      } catch (error) {
        health.failedTicks += 1;
        log.error({ err: error }, 'engine tick failed');
        // Nothing may fall out of the index: whatever was due is filed again.
        for (const task of due) if (tasks.has(task.id)) place(task);
      } finally {
        const took = Date.now() - started;
        health.lastTickAt = Date.now();
        health.lastTickMs = took;
        health.maxTickMs = Math.max(health.maxTickMs, took);
      }
    });

  /**
   * Schedules the next tick: every tickMs from the start of the last one (a
   * slow tick delays the next, never stacks them), or back to back while a
   * continuous replay plays.
   */
  const schedule = () => {
    if (!running) return;
    const replay = shared.publishedReplay();
    if (options.continuous === true && (!replay || !replay.done)) {
      immediate = setImmediate(() => {
        immediate = null;
        void tick().then(schedule);
      });
      return;
    }
    if (options.tickMs === 0) return;
    timer = setTimeout(
      () => {
        timer = null;
        void tick().then(schedule);
      },
      Math.max(0, options.tickMs - health.lastTickMs),
    );
    timer.unref();
  };

  const status = (): EngineStatus => {
    let attention = 0;
    let failing = 0;
    let runningTasks = 0;
    for (const task of tasks.values()) {
      if (task.finished) continue;
      if (task.params.running) runningTasks += 1;
      if (task.attention) attention += 1;
      if (task.failures > 0) failing += 1;
    }
    const lastTickAt = health.lastTickAt;
    const interval = options.continuous ? 0 : options.tickMs;
    const replay = shared.publishedReplay();
    return {
      running,
      startedAt: health.startedAt === null ? null : new Date(health.startedAt).toISOString(),
      ticks,
      tickMs: options.tickMs,
      lastTickAt: lastTickAt === null ? null : new Date(lastTickAt).toISOString(),
      lastTickMs: health.lastTickMs,
      maxTickMs: health.maxTickMs,
      // How far the next tick is overdue: 0 while the engine keeps its pace.
      lagMs: running && lastTickAt !== null && interval > 0 ? Math.max(0, Date.now() - lastTickAt - interval) : 0,
      failedTicks: health.failedTicks,
      marketTime: new Date(now()).toISOString(),
      tasks: { loaded: tasks.size, running: runningTasks, attention, failing },
      unusablePrices: [...badPrices].sort(),
      replay: replay ? { ...replay, candleTime: new Date(replay.candleTime).toISOString() } : null,
    };
  };

  return {
    market,
    paper,
    /** The paper exchange holding an account's balances (the simulator's, or a live market's). */
    paperFor: paperOf,
    tasks,
    store,
    tick,
    flush: () => serialize(flush),
    ensureAccount,
    status,
    /** The cluster's nodes and shards (cluster mode). */
    cluster: () => leases?.view() ?? Promise.resolve(null),
    /** The fee a paper fill pays, a fraction. */
    paperFeeRate,
    /** The account's exchange client; null for a paper account. */
    clientFor: clients.clientFor,
    /** Drops the account's cached client after its keys changed or it was removed: the next use builds it from the stored keys. */
    forgetClient: (accountId: string) => {
      clients.forget(accountId);
      for (const key of takerFees.keys()) if (key.startsWith(`${accountId}|`)) takerFees.delete(key);
    },
    /** The last price of a real account's pair seen by the engine, if any. */
    lastPrice: (accountId: string, symbol: string) => lastPrices.get(priceKey(accountId, symbol)) ?? null,
    /** Whether this process drives the task (cluster mode: its shard is leased here). */
    drives: (taskId: string) => tasks.has(taskId),
    /** Whether this process drives the tasks of this shard. */
    holdsShard: (shard: number) => !leases || leases.holdsShard(shard),
    /** Carries out a user's action on a task this process drives, between ticks. */
    command: (taskId: string, kind: CommandKind) => serialize(() => runCommand(taskId, kind)),
    /** (Re)reads one task after the API changed it. */
    reload: (taskId: string) => serialize(() => reloadTask(taskId)),
    /** Runs work between ticks (never in the middle of one). */
    exclusive: <T>(work: () => Promise<T>): Promise<T> => serialize(work),
    /** Resolves once the queued work and every real account's lane are done (tests, a clean stop). */
    idle: async () => {
      await busy;
      while (lanes.size > 0) await Promise.all(lanes.values());
    },
    async start() {
      if (options.cluster) {
        leases = createLeases({
          db,
          log,
          events: {
            acquired: (shards) => serialize(async () => adopt(await store.loadTasks({ shards }))),
            lost: (shards) =>
              serialize(async () => {
                await flush();
                drop(shards);
              }),
            market: async (held) => {
              if (held) {
                await shared.refresh(db);
                shared.lead();
              } else {
                shared.follow();
              }
            },
          },
        });
        await shared.refresh(db);
        await leases.start();
        await busy;
      } else {
        shared.lead();
        await adopt(await store.loadTasks(options.taskIds ? { ids: [...options.taskIds] } : {}));
      }
      running = true;
      health.startedAt = Date.now();
      schedule();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
      timer = null;
      immediate = null;
      await busy;
      await Promise.all(lanes.values());
      await flush();
      await leases?.stop();
      await options.tickerFeed?.close();
    },
  };
};

export type Runner = ReturnType<typeof createRunner>;
