import { UNTIL_STOPPED, applyOrderFailed, decide, type MarketLimits } from '../core/decide';
import { applyFill, type Fill } from '../core/fills';
import { emptyWrites, type PaperPriceNotice, type Writes } from '../store/journal';
import { FencedError } from '../store/shards';
import { ExchangeClientError, type ExchangeFailure } from '../venues/exchangeClient';
import { reportDown } from './episodes';
import { paperClient } from '../venues/paperClient';
import type { PaperVenue } from '../venues/paperVenues';
import type { Signals } from './signals';
import {
  attentionOf,
  contextOf,
  FUEL_RECHECK_MS,
  FUNDS_RETRY_MS,
  MAX_BACKOFF_TICKS,
  messageOf,
  orderRow,
  PAUSE_AFTER_FAILURES,
  requestOf,
  stateWrite,
  storedFee,
  type EngineContext,
  type LiveTask,
  type OrderContext,
  type OrderRequest,
} from './context';

/**
 * One task's turn: decide at a price, place the order, apply what the venue
 * answered. Paper tasks take their turns together: their orders fill in
 * memory on their paper venue and the whole turn is written in the tick's one
 * transaction (store/journal.ts); the real exchanges' lanes (lanes.ts) place
 * theirs through an intent and apply the answer with the same writes.
 */
/** The paper price notices a tick commits with its turn (priceNotices.ts), the tasks of their accounts (fenced), and what to do once committed. */
export interface PaperPriceNotices {
  notices: PaperPriceNotice[];
  tasks: LiveTask[];
  told: () => void;
}

export const createTurn = (engine: EngineContext, signals: Signals) => {
  /** A task's prices in this tick's map and in the index: by venue and symbol. */
  const priceKeyOf = (task: LiveTask) => `${engine.venues.venueFor(task).key}|${task.symbol}`;

  interface PaperOrderPlan {
    task: LiveTask;
    action: OrderRequest;
    ctx: OrderContext;
    venue: PaperVenue;
  }

  /** A fill's effects on the task, as writes: its position and cycle, events, the closed cycle; clears a need for attention. */
  const fillWrites = (writes: Writes, task: LiveTask, ctx: OrderContext, fill: Fill) => {
    const outcome = applyFill(
      { symbol: task.symbol, side: ctx.side, reason: ctx.reason, level: ctx.level, cycle: ctx.cycle, before: ctx.before, strategy: task.strategy, at: engine.now(), partial: ctx.partial, target: ctx.target, stop: ctx.stop },
      fill,
    );
    task.state = outcome.state;
    for (const event of outcome.events) writes.events.push({ taskId: task.id, ...event });
    if (outcome.closed) {
      const seconds = outcome.closed.openedAt === null ? null : Math.max(0, Math.round((engine.now() - outcome.closed.openedAt) / 1000));
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
    task.retryAfter = meaning.retrying ? engine.now() + FUNDS_RETRY_MS : Number.POSITIVE_INFINITY;
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
      touchedAccounts.add(task.accountId);
      const row = orderRow(task, action, ctx);
      try {
        const order = paperClient(venue, task.accountId).placeInTick(requestOf(task, action, ctx));
        const fill: Fill = { id: order.id, average: order.average, filled: order.filled, cost: order.cost, fees: order.fee ? [order.fee] : [] };
        writes.orders.push({ ...row, status: 'closed', exchangeOrderId: order.id, price: order.average, filled: order.filled, cost: order.cost, ...storedFee(task.symbol, fill) });
        fillWrites(writes, task, ctx, fill);
      } catch (error) {
        if (!(error instanceof ExchangeClientError)) throw error;
        const reason = refusalWrites(writes, task, ctx, error.failure);
        writes.orders.push({ ...row, status: 'failed', error: reason });
      }
    }
    for (const accountId of touchedAccounts) {
      const balance = engine.venues.paperOf(accountId).fetchBalance(accountId);
      for (const asset of Object.keys(balance.total)) writes.balances.push({ accountId, asset, free: balance.free[asset] ?? '0', used: balance.used[asset] ?? '0' });
    }
  };

  const betweenCycles = (task: LiveTask) => {
    const { state } = task;
    return !state.pendingOrder && (state.phase === 'ready' || (state.phase === 'cooldown' && (state.cooldownUntil === null || engine.now() >= state.cooldownUntil)));
  };
  const wantsCycle = (task: LiveTask) =>
    betweenCycles(task) && task.params.running && !task.finished && (task.params.cycleCount === UNTIL_STOPPED || task.state.cyclesDone < task.params.cycleCount);

  /**
   * Decides for a task at a price; the decision's events go to `writes`. A
   * task that would open a cycle without fuel waits (one 'fuel_empty' event)
   * and asks again every FUEL_RECHECK_MS. A task whose strategy has
   * conditions decides with its gates (signals.ts) and a TradingView alert
   * waiting for it forces its action once (issue 29); any other task takes
   * the old path. Answers the order to place, if any.
   */
  const decideFor = (task: LiveTask, price: string, feeRate: string, fuelled: boolean, writes: Writes, limits?: MarketLimits): OrderRequest | null => {
    const mayOpen = !wantsCycle(task) || fuelled;
    const gates = signals.gatesOf(task);
    // An alert waits while an order is out: it acts on the outcome.
    const alert = task.alert && !task.state.pendingOrder ? task.alert : null;
    const forced = alert ? { ...(gates ?? { start: true, replenish: true, close: false }), force: alert.action } : gates;
    const params = { ...task.params, feeRate, limits };
    const decision = forced ? decide(params, task.strategy, task.state, price, engine.now(), mayOpen, forced) : decide(params, task.strategy, task.state, price, engine.now(), mayOpen);
    if (wantsCycle(task)) {
      if (!fuelled && task.fuelWaitUntil === null) writes.events.push({ taskId: task.id, kind: 'fuel_empty', data: { cycle: task.state.cyclesDone + 1 } });
      task.fuelWaitUntil = fuelled ? null : engine.now() + FUEL_RECHECK_MS;
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
    if (alert) alertWrites(task, alert, order, mayOpen, writes);
    if (decision.state !== task.state) {
      task.state = decision.state;
      task.dirty = true;
    }
    if (gates) signals.updateWaiting(task);
    return order;
  };

  /** What a TradingView alert did: the order it placed, or why it placed none. The alert is consumed either way. */
  const alertWrites = (task: LiveTask, alert: NonNullable<LiveTask['alert']>, order: OrderRequest | null, mayOpen: boolean, writes: Writes) => {
    task.alert = null;
    const acted =
      order !== null &&
      (alert.action === 'start_cycle' ? order.kind === 'buy' && order.reason === 'first' : alert.action === 'buy_level' ? order.kind === 'buy' && order.reason === 'replenish' : order.kind === 'sell');
    if (acted) {
      writes.events.push({ taskId: task.id, kind: 'alert_acted', data: { alert: alert.id, action: alert.action, side: order.kind, level: order.kind === 'buy' ? order.level : task.state.levelsFilled } });
      return;
    }
    writes.events.push({ taskId: task.id, kind: 'alert_ignored', data: { alert: alert.id, action: alert.action, reason: alertRefusal(task, alert.action, mayOpen) } });
  };

  /** Why an alert's action could not be taken now. */
  const alertRefusal = (task: LiveTask, action: NonNullable<LiveTask['alert']>['action'], mayOpen = true): string => {
    const { state } = task;
    if (task.finished || state.phase === 'finished') return 'finished';
    if (!task.params.running) return 'stopped';
    if (action === 'start_cycle') return state.phase === 'open' ? 'cycle_open' : mayOpen ? 'not_now' : 'fuel_empty';
    if (state.phase !== 'open') return 'no_cycle';
    if (action === 'buy_level') return state.levelsFilled >= task.strategy.levels.length ? 'no_level_left' : (state.targetsDone ?? 0) > 0 ? 'target_sold' : 'not_now';
    return 'not_now';
  };

  /** A stopped or finished real task's alert: consumed with the reason, without a decision (its lane does not decide for it). */
  const dropAlert = (task: LiveTask, writes: Writes) => {
    if (!task.alert) return;
    writes.events.push({ taskId: task.id, kind: 'alert_ignored', data: { alert: task.alert.id, action: task.alert.action, reason: alertRefusal(task, task.alert.action) } });
    task.alert = null;
  };

  /**
   * The engine failed on a task: an error event, a backoff, and after
   * PAUSE_AFTER_FAILURES in a row a pause with the error on its page. Writing
   * that may fail too: then it is only logged. A failure of what every task
   * shares (the database down, the exchange down for everyone) is not the
   * task's: it counts nothing and pauses nothing (outages.ts).
   */
  const onTaskFailure = async (task: LiveTask, error: unknown) => {
    if (error instanceof FencedError) return;
    const shared = engine.outages.sharedCause(error, task.real ? engine.clients.exchangeOf(task.accountId) : engine.venues.venueFor(task).key);
    if (shared) {
      // Nobody's own failure: reported once as an outage; the task tries again at its next turn.
      await reportDown(engine, shared, error);
      return;
    }
    task.failures += 1;
    const message = messageOf(error);
    task.backoffUntilTick = engine.run.ticks + Math.min(MAX_BACKOFF_TICKS, 2 ** (task.failures - 1));
    const pause = task.failures >= PAUSE_AFTER_FAILURES && task.params.running;
    engine.log.error({ err: error, taskId: task.id, failures: task.failures }, pause ? 'task keeps failing; paused' : 'task failed; backing off');
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
      await engine.journal(writes, engine.fenceFor([task]));
      if (pause) task.dirty = false;
    } catch (recordError) {
      if (pause) task.dirty = true;
      engine.log.error({ err: recordError, taskId: task.id }, 'the task failure could not be recorded');
    }
  };

  /**
   * One turn of paper tasks at this tick's prices: decisions, orders in
   * memory, one commit. When the commit fails, everything is put back and,
   * if there were several tasks, each is tried again on its own.
   */
  const runPaper = async (due: LiveTask[], prices: ReadonlyMap<string, string>, notices?: PaperPriceNotices): Promise<void> => {
    const writes = emptyWrites();
    if (notices) writes.prices.push(...notices.notices);
    const before = new Map(due.map((task) => [task.id, { state: task.state, attention: task.attention, finished: task.finished, fuelWaitUntil: task.fuelWaitUntil, retryAfter: task.retryAfter, dirty: task.dirty, alert: task.alert, waiting: task.waiting }]));
    const failed: { task: LiveTask; error: unknown }[] = [];
    const plans: PaperOrderPlan[] = [];
    const fuelled = await engine.store.fuelOf(due.filter((task) => wantsCycle(task) && (task.fuelWaitUntil === null || task.fuelWaitUntil <= engine.now())).map((task) => task.userId));
    for (const task of due) {
      const price = prices.get(priceKeyOf(task));
      if (price === undefined) continue;
      try {
        if (task.fuelWaitUntil !== null && task.fuelWaitUntil > engine.now() && wantsCycle(task)) continue;
        const start = task.state;
        const spec = engine.venues.venueFor(task).feed.market(task.symbol);
        const limits = spec && { amountStep: spec.amountStep, minAmount: spec.minAmount, minCost: spec.minCost };
        const order = decideFor(task, price, engine.paperFeeRate, fuelled.has(task.userId), writes, limits);
        if (order) {
          const venue = engine.venues.venueFor(task);
          await engine.venues.ensureAccount(task.accountId, venue);
          plans.push({ task, action: order, ctx: contextOf(engine, order, start), venue });
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
      await engine.journal(writes, engine.fenceFor(notices ? [...due, ...notices.tasks] : due));
      notices?.told();
      for (const task of due) {
        task.dirty = false;
        if (!failed.some((f) => f.task === task)) task.failures = 0;
      }
    } catch (error) {
      // Put everything back: the paper accounts as they were, the tasks as they were.
      for (const [accountId, balances] of snapshots) engine.venues.paperOf(accountId).restoreBalances(accountId, balances);
      for (const task of due) Object.assign(task, before.get(task.id)!);
      if (error instanceof FencedError) {
        engine.log.warn({ err: error }, 'a tick was fenced off: its shards are held by another process now');
        return;
      }
      if (engine.outages.sharedCause(error) === 'database') {
        // The database takes no writes now: no task is to blame, and each decides again at the next tick from where it was.
        for (const { task, error: own } of failed) await onTaskFailure(task, own);
        return;
      }
      if (due.length === 0) {
        // Only price notices: told at a later tick.
        engine.log.warn({ err: error }, 'the paper price notices could not be written; trying again at the next tick');
        return;
      }
      if (due.length > 1 || notices) {
        engine.log.warn({ err: error, tasks: due.length }, 'the tick could not be written; each task is tried on its own');
        for (const task of due) await runPaper([task], prices);
        return;
      }
      failed.push({ task: due[0]!, error });
    }
    for (const { task, error } of failed) await onTaskFailure(task, error);
  };

  return { priceKeyOf, fillWrites, refusalWrites, executePaper, wantsCycle, decideFor, dropAlert, onTaskFailure, runPaper };
};

export type Turn = ReturnType<typeof createTurn>;
