import { isTestnetExchange } from '../../../../src/api/exchange';
import Big from 'big.js';
import { applyOrderFailed } from '../core/decide';
import { baseOf, quoteOf, type Fill, type FillFee } from '../core/fills';
import { emptyWrites, isOrderStoredAlready, type Writes } from '../store/journal';
import { ExchangeClientError, type ExchangeClient, type Order, type Ticker } from '../venues/exchangeClient';
import { contextOf, EXCHANGE_CANCELS_LIMIT, INTENT_GRACE_MS, STUCK_ORDER_MS, isUsablePrice, orderRow, requestOf, stateWrite, storedFee, type EngineContext, type LiveTask, type OrderContext, type OrderRequest } from './context';
import { reportDown, reportUp } from './episodes';
import type { Signals } from './signals';
import type { Turn } from './turn';

/**
 * Real exchanges (ccxt) trade in lanes of their own, one per account, off
 * the tick: intent committed, order sent, outcome applied (crash-safe, never
 * sent twice). A task's turn in its lane reconciles its pending order first.
 */
export const createLanes = (engine: EngineContext, turn: Turn, signals: Signals) => {
  const { fillWrites, refusalWrites, decideFor, dropAlert, wantsCycle, onTaskFailure } = turn;
  /** Real accounts' lanes: one chain of work per account, off the tick. */
  const lanes = new Map<string, Promise<void>>();
  /** The last price seen per (account, symbol) of a real account. */
  const lastPrices = new Map<string, string>();
  const priceKey = (accountId: string, symbol: string) => `${accountId}|${symbol}`;
  /** This tick's price read per (exchange, symbol), shared by the tasks of every account on it. */
  const tickPrices = new Map<string, { tick: number; read: Promise<Ticker> }>();
  /** The tick in which a task last asked each exchange for a price. */
  const askedAt = new Map<string, number>();
  /** Taker fees of real accounts' markets, read once per (account, symbol). */
  const takerFees = new Map<string, string>();

  /**
   * A read the exchange could not answer: an exchange-wide failure starts its
   * outage (logged once for all its tasks), anything else is logged here.
   */
  const readFailed = async (task: LiveTask, error: unknown, message: string, detail: Record<string, unknown>) => {
    const shared = engine.outages.sharedCause(error, engine.clients.exchangeOf(task.accountId));
    if (shared) await reportDown(engine, shared, error);
    else engine.log.warn({ err: error, taskId: task.id, ...detail }, message);
  };
  /** The exchange answered: an outage of it has ended. */
  const answered = async (task: LiveTask) => {
    const exchangeId = engine.clients.exchangeOf(task.accountId);
    if (exchangeId) await reportUp(engine, exchangeId);
  };

  const realPrice = async (client: ExchangeClient, task: LiveTask): Promise<string | null> => {
    const exchangeId = engine.clients.exchangeOf(task.accountId);
    // A testnet's prices are its own (REST): the live exchange's stream is another market.
    let price = exchangeId && !isTestnetExchange(exchangeId) && engine.options.tickerFeed ? engine.options.tickerFeed.price(exchangeId, task.symbol) : null;
    if (price === null) {
      try {
        // One read per exchange and symbol a tick, shared by all its tasks: Binance counts weight per server address.
        const key = `${exchangeId ?? task.accountId}|${task.symbol}`;
        let shared = tickPrices.get(key);
        if (!shared || shared.tick !== engine.run.ticks) {
          shared = { tick: engine.run.ticks, read: client.fetchTicker(task.symbol) };
          tickPrices.set(key, shared);
        }
        const ticker = await shared.read;
        price = ticker.last ?? ticker.bid ?? ticker.ask;
      } catch (error) {
        await readFailed(task, error, 'price could not be fetched; the task skips this tick', { accountId: task.accountId, symbol: task.symbol });
        return null;
      }
      await answered(task);
    }
    if (!isUsablePrice(price)) {
      if (price !== null && !engine.badPrices.has(task.symbol)) engine.log.error({ symbol: task.symbol, price }, 'unusable price refused; its tasks wait for a valid one');
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
      engine.log.warn({ err: error, taskId: task.id, feeCurrency: fee.currency }, 'fee asset has no price; the fee is not counted in the cost');
    }
    return '0';
  };

  /**
   * Applies what the exchange says about a real order: its fill, a refusal
   * without fill, or (open) nothing yet. A failure to record it keeps the
   * intent, so the next turn asks again, and is thrown to count as a failure.
   */
  const settle = async (
    task: LiveTask,
    client: ExchangeClient,
    ctx: OrderContext & { createdAt?: number },
    order: Order,
    extra?: (writes: Writes) => void,
    cancelledByUs = false,
  ): Promise<void> => {
    if (order.status === 'open') {
      const createdAt = ctx.createdAt ?? Date.now();
      engine.pendingIntents.set(task.id, { ...ctx, createdAt });
      // A market order fills at once or the exchange expires its rest; one still open is stuck (a partial fill that
      // never completes): its rest is cancelled and what it filled is booked, so the task trades on.
      if (!client.cancelOrder || Date.now() - createdAt < STUCK_ORDER_MS) return;
      engine.log.warn({ taskId: task.id, clientOrderId: ctx.clientOrderId, filled: order.filled }, 'market order still open; cancelling its rest');
      try {
        await client.cancelOrder(task.symbol, order.id);
      } catch (error) {
        engine.log.warn({ err: error, taskId: task.id, clientOrderId: ctx.clientOrderId }, 'cancelling a stuck order failed; asking again next turn');
      }
      const after = await client.fetchOrderByClientOrderId(task.symbol, ctx.clientOrderId);
      if (after && after.status !== 'open') await settle(task, client, { ...ctx, createdAt }, after, extra, true);
      return;
    }
    const writes = emptyWrites();
    const before = { state: task.state, exchangeCancels: task.exchangeCancels, attention: task.attention, retryAfter: task.retryAfter };
    // Cancelled by the exchange, not by us (our only cancel is a stuck order's rest): said in the task log, with what filled.
    const cancelledByExchange = order.status === 'canceled' && !cancelledByUs;
    const nothingFilled = order.average === null || new Big(order.filled).lte(0);
    if (cancelledByExchange) {
      task.exchangeCancels = nothingFilled ? task.exchangeCancels + 1 : 0;
      writes.events.push({ taskId: task.id, kind: 'exchange_canceled', data: { side: ctx.side, level: ctx.level, filled: order.filled, times: task.exchangeCancels } });
    }
    try {
      if (nothingFilled && cancelledByExchange && task.exchangeCancels < EXCHANGE_CANCELS_LIMIT) {
        // Nothing happened to the money: decided again on the next tick, under the usual rules.
        task.state = applyOrderFailed(ctx.before);
        writes.outcomes.push({ clientOrderId: ctx.clientOrderId, status: 'failed', error: 'canceled_by_exchange' });
      } else if (nothingFilled) {
        // Refused, or cancelled by the exchange again and again: the task stops with the reason and its remedy.
        const reason = refusalWrites(writes, task, ctx, cancelledByExchange ? { kind: 'invalid_order', reason: 'canceled_by_exchange' } : { kind: 'refused' });
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
        task.exchangeCancels = 0;
        const fill: Fill = { id: order.id, average: order.average, filled: order.filled, cost: order.cost, fees };
        writes.outcomes.push({ clientOrderId: ctx.clientOrderId, status: 'closed', exchangeOrderId: order.id, price: order.average, filled: order.filled, cost: order.cost, ...storedFee(task.symbol, fill) });
        fillWrites(writes, task, ctx, fill);
      }
      extra?.(writes);
      writes.states.push(stateWrite(task));
      await engine.journal(writes, engine.fenceFor([task]));
      engine.pendingIntents.delete(task.id);
      task.dirty = false;
    } catch (error) {
      // The order exists on the exchange but its outcome is not recorded: keep the intent and ask again next turn.
      Object.assign(task, before);
      task.state = ctx.before;
      engine.pendingIntents.set(task.id, { ...ctx, createdAt: ctx.createdAt ?? Date.now() });
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
    const ctx = contextOf(engine, action, task.state);
    const intent = emptyWrites();
    intent.orders.push({ ...orderRow(task, action, ctx), status: 'intent' });
    task.state = { ...task.state, pendingOrder: true };
    try {
      await engine.journal(intent, engine.fenceFor([task]));
    } catch (error) {
      if (isOrderStoredAlready(error)) {
        // The database backstop: this client order id is stored already, so the order may be on the exchange. Never sent
        // again: the task waits, as after a lost answer, until the exchange says whether it was placed (reconcileIntent).
        engine.pendingIntents.set(task.id, { ...ctx, createdAt: Date.now() });
        task.dirty = true;
        engine.log.warn({ taskId: task.id, clientOrderId: ctx.clientOrderId }, 'order already stored; looking it up instead of sending it');
        return;
      }
      task.state = applyOrderFailed(ctx.before);
      throw error;
    }
    engine.pendingIntents.set(task.id, { ...ctx, createdAt: Date.now() });
    let order: Order;
    try {
      order = await client.createMarketOrder(requestOf(task, action, ctx));
    } catch (error) {
      const failure = error instanceof ExchangeClientError ? error.failure : undefined;
      if (!failure || failure.kind === 'unknown_outcome' || failure.kind === 'transient') {
        // The order may exist: the intent stays and the task keeps its pending order until reconciled.
        task.dirty = true;
        engine.log.warn({ err: error, taskId: task.id, clientOrderId: ctx.clientOrderId }, 'order outcome unknown; reconciling on the next tick');
        return;
      }
      engine.pendingIntents.delete(task.id);
      const writes = emptyWrites();
      const reason = refusalWrites(writes, task, ctx, failure);
      writes.outcomes.push({ clientOrderId: ctx.clientOrderId, status: 'failed', error: reason });
      extra?.(writes);
      writes.states.push(stateWrite(task));
      try {
        await engine.journal(writes, engine.fenceFor([task]));
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
      await readFailed(task, error, 'order query failed; trying again next tick', { clientOrderId: ctx.clientOrderId });
      return;
    }
    await answered(task);
    if (order) {
      await settle(task, client, ctx, order);
      return;
    }
    // Not (yet) known to the exchange. A young intent may still be on its way from another process.
    if (engine.run.leases && Date.now() - ctx.createdAt < INTENT_GRACE_MS) return;
    await engine.store.markNotSent([ctx.clientOrderId]);
    engine.pendingIntents.delete(task.id);
    task.state = applyOrderFailed(ctx.before);
    task.dirty = true;
  };

  /** A real task's turn: reconcile its pending order, or decide at the exchange's price and trade. */
  const realStep = async (task: LiveTask) => {
    const client = await engine.clients.clientFor(task.accountId);
    if (!client) return;
    const intent = engine.pendingIntents.get(task.id);
    if (intent) {
      await reconcileIntent(task, client, intent);
      return;
    }
    if (task.finished || !task.params.running) {
      const writes = emptyWrites();
      dropAlert(task, writes);
      if (writes.events.length > 0) await engine.journal(writes, engine.fenceFor([task]));
      return;
    }
    if (engine.now() < task.retryAfter) return;
    // While its exchange is down for everyone, one task a tick asks whether it is back; the others wait their turn.
    const exchangeId = engine.clients.exchangeOf(task.accountId);
    if (exchangeId) {
      if (engine.outages.isDown(`exchange:${exchangeId}`) && askedAt.get(exchangeId) === engine.run.ticks) return;
      askedAt.set(exchangeId, engine.run.ticks);
    }
    const price = await realPrice(client, task);
    if (price === null) return;
    const fee = await takerFee(client, task);
    const fuelled = wantsCycle(task) ? (await engine.store.fuelOf([task.userId])).has(task.userId) : true;
    const writes = emptyWrites();
    // The market's limits, for a target's partial sale (loaded once by the client).
    const market = (task.strategy.takeProfitTargets?.length ?? 0) > 1 ? (await client.loadMarkets()).find((m) => m.symbol === task.symbol) : undefined;
    const limits = market && { amountStep: market.precision.amount, minAmount: market.limits.amount.min, minCost: market.limits.cost.min };
    await signals.prepareReal(task, client);
    const order = decideFor(task, price, fee, fuelled, writes, limits);
    if (writes.events.length > 0) await engine.journal(writes, engine.fenceFor([task]));
    if (order) await placeReal(task, order, client);
  };

  /** Starts the lanes of real accounts with due tasks (one lane per account at a time; a busy lane skips this tick). */
  const startLanes = (due: LiveTask[]) => {
    const byAccount = new Map<string, LiveTask[]>();
    for (const task of due) byAccount.set(task.accountId, [...(byAccount.get(task.accountId) ?? []), task]);
    for (const [accountId, accountTasks] of byAccount) {
      if (lanes.has(accountId)) {
        for (const task of accountTasks) engine.place(task);
        continue;
      }
      const lane = (async () => {
        for (const task of accountTasks) {
          if (!engine.tasks.has(task.id)) continue;
          try {
            if (engine.run.ticks >= task.backoffUntilTick) {
              await realStep(task);
              task.failures = 0;
            }
          } catch (error) {
            await onTaskFailure(task, error);
          } finally {
            if (engine.tasks.has(task.id)) engine.place(task);
          }
        }
      })().finally(() => lanes.delete(accountId));
      lanes.set(accountId, lane);
    }
  };

  return {
    placeReal,
    startLanes,
    /** The account's lane now, if one runs (a command waits for it). */
    laneOf: (accountId: string) => lanes.get(accountId),
    /** Every lane now running. */
    running: () => [...lanes.values()],
    /** The last price of a real account's pair seen by the engine, if any. */
    lastPrice: (accountId: string, symbol: string) => lastPrices.get(priceKey(accountId, symbol)) ?? null,
    /** Drops the taker fees read for an account (its keys changed). */
    forgetFees: (accountId: string) => {
      for (const key of takerFees.keys()) if (key.startsWith(`${accountId}|`)) takerFees.delete(key);
    },
  };
};

export type Lanes = ReturnType<typeof createLanes>;
