import { randomBytes } from 'node:crypto';
import Big from 'big.js';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { PAPER_EXCHANGE } from '../../../src/api/exchange';
import type { StrategySettings } from '../../../src/api/strategy';
import type { Db } from '../db/database';
import { createSecretBox, type SecretBox } from '../exchange/crypto';
import { sealContext } from '../exchange/routes';
import type { Credentials, ExchangeFactory } from '../exchange/verify';
import { chargeFuel, hasFuel } from '../member/fuel';
import { settingsOf } from '../strategy/routes';
import {
  applyBuyFill,
  applyOrderFailed,
  applySellFill,
  decide,
  initialCycleState,
  type Action,
  type CycleState,
  type TaskParams,
  UNTIL_STOPPED,
} from './decide';
import { createCcxtClient } from './ccxtClient';
import { ExchangeClientError, type ExchangeClient, type Order } from './exchangeClient';
import type { TickerFeed } from './tickerFeed';
import { createPaperExchange, PaperExchangeError, type PaperExchange, type PaperOrder } from './paper/exchange';
import { createMarket, type SimulatedMarket } from './paper/market';

/** An order the runner places: the decision's buys and sells, and the user's "close position". */
export type OrderRequest = Extract<Action, { kind: 'buy' }> | { kind: 'sell'; reason: 'take_profit' | 'stop_loss' | 'close'; quantity: string };

/** A task as the engine keeps it in memory between ticks. */
export interface LiveTask {
  id: string;
  userId: string;
  accountId: string;
  symbol: string;
  params: TaskParams;
  strategy: StrategySettings;
  state: CycleState;
  finished: boolean;
  /** The state changed since it was last written. */
  dirty: boolean;
  /** After a refused order, no new order before this time (ms). */
  retryAfter: number;
}

export interface EngineOptions {
  db: Db;
  log: FastifyBaseLogger;
  /** Seed of the simulated market; the same seed replays the same prices. */
  seed: number;
  /** Milliseconds between ticks; 0: ticks only when `tick()` is called (tests, replays). */
  tickMs: number;
  feeRate?: string;
  market?: SimulatedMarket;
  /** Opens the stored credentials of real exchange accounts; without it only paper accounts trade. */
  exchangeMasterKey?: string;
  /** Builds the ccxt instances of real accounts (tests replay recorded exchange answers). */
  createExchange?: ExchangeFactory;
  /** Live prices of real exchanges over websockets; without it (or while a stream is stale) prices come from REST tickers. */
  tickerFeed?: TickerFeed | null;
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

/** A fill as both the paper exchange and a real one report it. */
interface Fill {
  id: string;
  average: string | null;
  filled: string;
  cost: string;
  fee: { currency: string; cost: string };
  /** A fee paid in a third asset (BNB on Binance), valued in the quote at the fill; 0 when no price was found. */
  feeInQuote?: string;
}

const quoteOf = (symbol: string) => symbol.split('/')[1] ?? '';
const baseOf = (symbol: string) => symbol.split('/')[0] ?? '';

const RETRY_AFTER_REFUSAL_MS = 60_000;
const FLUSH_EVERY_TICKS = 10;

/** Our own client order id: unique, and valid on every exchange ccxt offers. */
export const newClientOrderId = () => `qt${Date.now().toString(36)}${randomBytes(6).toString('hex')}`;

const toParams = (row: {
  first_order_amount: string;
  first_order_multiple: boolean;
  cycle_count: number;
  replenish_status: 'replenish_open' | 'replenish_closed';
  running: boolean;
}): TaskParams => ({
  firstOrderAmount: row.first_order_amount,
  firstOrderMultiple: row.first_order_multiple,
  cycleCount: row.cycle_count,
  replenishStatus: row.replenish_status,
  running: row.running,
});

/**
 * The runner: every tick it moves the simulated market, asks the decision
 * function about every running task and carries out its actions. Each order
 * is recorded with our client order id in the same transaction that applies
 * its fill to the paper account and to the task, so a crash leaves either
 * everything or nothing, never an order without its fill.
 */
export const createRunner = (options: EngineOptions) => {
  const { db, log } = options;
  const market = options.market ?? createMarket(options.seed, Date.now());
  const paper: PaperExchange = createPaperExchange({ market, feeRate: options.feeRate ?? '0.001' });
  const tasks = new Map<string, LiveTask>();
  const loadedAccounts = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let ticks = 0;
  let busy: Promise<void> = Promise.resolve();

  const now = () => market.now();

  /** Loads a paper account's balances into the simulated exchange once; new accounts get their start balances. */
  const ensureAccount = async (accountId: string) => {
    if (loadedAccounts.has(accountId)) return;
    let rows = await db.selectFrom('paper_balances').select(['asset', 'free', 'used']).where('exchange_account_id', '=', accountId).execute();
    if (rows.length === 0) {
      const account = await db.selectFrom('exchange_accounts').select('paper_balances').where('id', '=', accountId).executeTakeFirst();
      const start = account?.paper_balances ?? {};
      rows = Object.entries(start).map(([asset, free]) => ({ asset, free, used: '0' }));
      if (rows.length > 0) {
        await db
          .insertInto('paper_balances')
          .values(rows.map((r) => ({ exchange_account_id: accountId, asset: r.asset, free: r.free, used: '0' })))
          .onConflict((oc) => oc.columns(['exchange_account_id', 'asset']).doNothing())
          .execute();
      }
    }
    paper.restoreBalances(accountId, Object.fromEntries(rows.filter((row) => new Big(row.free).gt(0)).map((row) => [row.asset, row.free])));
    loadedAccounts.add(accountId);
  };

  const saveBalances = async (trx: Db, accountId: string) => {
    const balance = paper.fetchBalance(accountId);
    for (const asset of Object.keys(balance.total)) {
      const values = { exchange_account_id: accountId, asset, free: balance.free[asset] ?? '0', used: balance.used[asset] ?? '0' };
      await trx
        .insertInto('paper_balances')
        .values(values)
        .onConflict((oc) => oc.columns(['exchange_account_id', 'asset']).doUpdateSet({ free: values.free, used: values.used }))
        .execute();
    }
  };

  const event = (trx: Db, taskId: string, kind: string, data: Record<string, unknown> = {}) =>
    trx.insertInto('task_events').values({ task_id: taskId, kind, data: JSON.stringify(data) }).execute();

  const writeState = (trx: Db, task: LiveTask) =>
    trx
      .updateTable('trade_tasks')
      .set({ state: JSON.stringify(task.state), status: task.finished ? 'finished' : 'active', running: task.params.running, updated_at: sql`now()` })
      .where('id', '=', task.id)
      .execute();

  /**
   * Applies a filled order to the order row, the task's position and cycle,
   * and its events, inside the caller's transaction (shared by the paper and
   * the real exchange paths).
   */
  const applyFill = async (trx: Db, task: LiveTask, ctx: OrderContext, order: Fill) => {
    const { clientOrderId, side, level, cycle, before } = ctx;
    const fee = new Big(order.fee.cost);
    // A fee in base comes off the quantity; in quote or a third asset (valued in quote), it adds to the cost or comes off the proceeds.
    const baseFee = order.fee.currency === baseOf(task.symbol);
    const quoteFee = order.fee.currency === quoteOf(task.symbol) ? fee : new Big(order.feeInQuote ?? '0');
    await trx
      .updateTable('orders')
      .set({
        status: 'closed',
        exchange_order_id: order.id,
        price: order.average,
        filled: order.filled,
        cost: order.cost,
        fee: order.fee.cost,
        fee_currency: order.fee.currency,
        updated_at: sql`now()`,
      })
      .where('client_order_id', '=', clientOrderId)
      .execute();
    if (side === 'buy') {
      // Quantity net of a fee paid in base; cost including a fee paid in quote.
      const quantity = baseFee ? new Big(order.filled).minus(fee) : new Big(order.filled);
      const cost = baseFee ? new Big(order.cost) : new Big(order.cost).plus(quoteFee);
      task.state = applyBuyFill(before, { price: order.average!, quantity: quantity.toFixed(), cost: cost.toFixed(), level });
      await event(trx, task.id, level === 0 ? 'cycle_started' : 'replenished', { cycle, level, price: order.average, amount: order.cost });
    } else {
      const proceeds = baseFee ? new Big(order.cost) : new Big(order.cost).minus(quoteFee);
      const profit = proceeds.minus(before.cost);
      task.state = applySellFill(before, task.strategy, now());
      // Fuel pays its share of a profit in the cycle's own transaction (member/fuel.ts).
      const fuelCharged = await chargeFuel(trx, { userId: task.userId, taskId: task.id, cycle, profit: profit.toFixed() });
      await trx
        .insertInto('cycles')
        .values({
          task_id: task.id,
          user_id: task.userId,
          cycle,
          buy_cost: before.cost,
          sell_proceeds: proceeds.toFixed(),
          realized_profit: profit.toFixed(),
          fuel_charged: fuelCharged,
        })
        .execute();
      await event(trx, task.id, ctx.reason === 'stop_loss' ? 'stop_loss' : 'sold', { cycle, price: order.average, proceeds: proceeds.toFixed(), profit: profit.toFixed() });
      await event(trx, task.id, 'cycle_complete', { cycle, profit: profit.toFixed() });
    }
  };

  /** A refused order: the row failed, an 'error' event, and no new order before the retry time. */
  const recordFailure = async (trx: Db, task: LiveTask, ctx: OrderContext, reason: string, detail: Record<string, unknown> = {}) => {
    await trx.updateTable('orders').set({ status: 'failed', error: reason, updated_at: sql`now()` }).where('client_order_id', '=', ctx.clientOrderId).execute();
    task.state = applyOrderFailed(ctx.before);
    task.retryAfter = now() + RETRY_AFTER_REFUSAL_MS;
    await event(trx, task.id, 'error', { reason, side: ctx.side, level: ctx.level, ...detail });
    await writeState(trx, task);
  };

  const intentRow = (task: LiveTask, action: OrderRequest, ctx: OrderContext) => ({
    task_id: task.id,
    user_id: task.userId,
    exchange_account_id: task.accountId,
    client_order_id: ctx.clientOrderId,
    symbol: task.symbol,
    cycle: ctx.cycle,
    level: ctx.level,
    side: ctx.side,
    reason: ctx.reason,
    status: 'intent' as const,
    requested: action.kind === 'buy' ? action.quoteAmount : action.quantity,
  });

  /** Real accounts' clients, built once per account from the stored credentials; null for paper accounts. */
  const box: SecretBox | null = options.exchangeMasterKey ? createSecretBox(options.exchangeMasterKey) : null;
  const clients = new Map<string, Promise<ExchangeClient | null>>();
  /** Exchange (ccxt id) of each real account whose client was built: the key of its price streams. */
  const accountExchanges = new Map<string, string>();

  const openClient = async (accountId: string): Promise<ExchangeClient | null> => {
    const row = await db
      .selectFrom('exchange_accounts')
      .select(['exchange', 'user_id', 'api_key_ciphertext', 'secret_ciphertext', 'password_ciphertext', 'uid_ciphertext'])
      .where('id', '=', accountId)
      .executeTakeFirst();
    if (!row) throw new Error(`exchange account ${accountId} does not exist`);
    if (row.exchange === PAPER_EXCHANGE) return null;
    accountExchanges.set(accountId, row.exchange);
    if (!box) throw new Error('no master key to open the exchange credentials');
    const open = (field: 'apiKey' | 'secret' | 'password' | 'uid', sealed: string | null) => (sealed ? box.open(sealed, sealContext(row.user_id, field)) : undefined);
    const apiKey = open('apiKey', row.api_key_ciphertext);
    const secret = open('secret', row.secret_ciphertext);
    if (!apiKey || !secret) throw new Error(`exchange account ${accountId} has no stored key`);
    const password = open('password', row.password_ciphertext);
    const uid = open('uid', row.uid_ciphertext);
    const credentials: Credentials = { apiKey, secret, ...(password ? { password } : {}), ...(uid ? { uid } : {}) };
    return createCcxtClient({ exchangeId: row.exchange, credentials, ...(options.createExchange ? { createExchange: options.createExchange } : {}) });
  };

  /** The account's exchange client, or null for a paper account. A failed build is not kept: the next call tries again. */
  const clientFor = (accountId: string): Promise<ExchangeClient | null> => {
    let client = clients.get(accountId);
    if (!client) {
      client = openClient(accountId);
      clients.set(accountId, client);
      client.catch(() => clients.delete(accountId));
    }
    return client;
  };

  /** Real orders sent (or maybe sent) whose outcome is not known yet, per task: reconciled before the task decides again. */
  const pendingIntents = new Map<string, OrderContext>();

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

  /** Applies what the exchange says about a real order: its fill, a refusal without fill, or (open) nothing yet. */
  const settle = async (task: LiveTask, client: ExchangeClient, ctx: OrderContext, order: Order) => {
    if (order.status === 'open') {
      pendingIntents.set(task.id, ctx);
      return;
    }
    try {
      if (order.average === null || new Big(order.filled).lte(0)) {
        await db.transaction().execute((trx) => recordFailure(trx, task, ctx, order.status));
      } else {
        // A null fee (Binance's order query carries no fills, or fees in several
        // currencies) counts as a fee of 0 in the quote asset for now: the
        // position may be slightly overstated until fees are fetched from the trades.
        const fee = order.fee ?? { currency: quoteOf(task.symbol), cost: '0' };
        const thirdAsset = fee.currency !== baseOf(task.symbol) && fee.currency !== quoteOf(task.symbol) && new Big(fee.cost).gt(0);
        const feeInQuote = thirdAsset ? await feeValueInQuote(client, task, fee) : undefined;
        await db.transaction().execute(async (trx) => {
          await applyFill(trx, task, ctx, { id: order.id, average: order.average, filled: order.filled, cost: order.cost, fee, ...(feeInQuote ? { feeInQuote } : {}) });
          await writeState(trx, task);
        });
      }
      pendingIntents.delete(task.id);
      task.dirty = false;
    } catch (error) {
      // The order exists on the exchange but its outcome is not recorded: keep the intent and ask again next tick.
      task.state = ctx.before;
      pendingIntents.set(task.id, ctx);
      log.error({ err: error, taskId: task.id, clientOrderId: ctx.clientOrderId }, 'order outcome could not be recorded');
    }
  };

  /**
   * A real order: (1) its intent is committed; (2) it is sent outside any
   * transaction; (3) its outcome is applied in a second transaction. When the
   * answer is lost the intent stays and the task waits (pendingOrder) until
   * `reconcileIntent` finds out from the exchange.
   */
  const placeRealOrder = async (task: LiveTask, action: OrderRequest, client: ExchangeClient, ctx: OrderContext) => {
    try {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('orders').values(intentRow(task, action, ctx)).execute();
      });
    } catch (error) {
      task.state = applyOrderFailed(ctx.before);
      task.retryAfter = now() + RETRY_AFTER_REFUSAL_MS;
      log.error({ err: error, taskId: task.id }, 'order intent could not be recorded');
      return;
    }
    pendingIntents.set(task.id, ctx);
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
      const reason = failure.kind === 'invalid_order' || failure.kind === 'permission' ? failure.reason : failure.kind;
      const detail = failure.kind === 'insufficient_funds' ? { asset: failure.asset, required: failure.required, available: failure.available } : {};
      try {
        await db.transaction().execute((trx) => recordFailure(trx, task, ctx, reason, detail));
        task.dirty = false;
      } catch (recordError) {
        task.state = applyOrderFailed(ctx.before);
        task.retryAfter = now() + RETRY_AFTER_REFUSAL_MS;
        log.error({ err: recordError, taskId: task.id }, 'order failure could not be recorded');
      }
      return;
    }
    await settle(task, client, ctx, order);
  };

  /** Asks the exchange about a real order whose outcome is unknown: closed, apply it; open, wait; never placed, failed. */
  const reconcileIntent = async (task: LiveTask, client: ExchangeClient, ctx: OrderContext) => {
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
    await db.updateTable('orders').set({ status: 'failed', error: 'not_sent', updated_at: sql`now()` }).where('client_order_id', '=', ctx.clientOrderId).execute();
    pendingIntents.delete(task.id);
    task.state = applyOrderFailed(ctx.before);
    task.dirty = true;
  };

  /** Places one order for a task. Paper: the intent, the fill and its effects in one transaction. Real: see placeRealOrder. */
  const placeOrder = async (task: LiveTask, action: OrderRequest) => {
    const before = task.state;
    const ctx: OrderContext = {
      clientOrderId: newClientOrderId(),
      side: action.kind,
      reason: action.reason,
      level: action.kind === 'buy' ? action.level : task.state.levelsFilled,
      cycle: task.state.cyclesDone + 1,
      before,
    };
    let client: ExchangeClient | null;
    try {
      client = await clientFor(task.accountId);
    } catch (error) {
      task.state = applyOrderFailed(before);
      task.retryAfter = now() + RETRY_AFTER_REFUSAL_MS;
      log.error({ err: error, taskId: task.id }, 'exchange client could not be built');
      return;
    }
    if (client) {
      await placeRealOrder(task, action, client, ctx);
      return;
    }
    await ensureAccount(task.accountId);
    const { clientOrderId } = ctx;
    try {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('orders').values(intentRow(task, action, ctx)).execute();
        let order: PaperOrder;
        try {
          order =
            action.kind === 'buy'
              ? paper.createOrder({ accountId: task.accountId, symbol: task.symbol, side: 'buy', type: 'market', cost: action.quoteAmount, clientOrderId })
              : paper.createOrder({ accountId: task.accountId, symbol: task.symbol, side: 'sell', type: 'market', amount: action.quantity, clientOrderId });
        } catch (error) {
          if (!(error instanceof PaperExchangeError)) throw error;
          const failure = error.failure;
          const reason = failure.kind === 'invalid_order' ? failure.reason : failure.kind;
          await recordFailure(trx, task, ctx, reason, failure.kind === 'insufficient_funds' ? { asset: failure.asset, required: failure.required, available: failure.available } : {});
          return;
        }
        await applyFill(trx, task, ctx, order);
        await saveBalances(trx, task.accountId);
        await writeState(trx, task);
      });
      task.dirty = false;
    } catch (error) {
      // The transaction rolled back: the paper account may hold a fill the database does not; reload it next time.
      loadedAccounts.delete(task.accountId);
      task.state = applyOrderFailed(before);
      task.retryAfter = now() + RETRY_AFTER_REFUSAL_MS;
      log.error({ err: error, taskId: task.id }, 'order could not be recorded');
    }
  };

  const carryOut = async (task: LiveTask, actions: readonly Action[]) => {
    for (const action of actions) {
      if (action.kind === 'event') {
        if (action.event === 'finished') task.finished = true;
        await event(db, task.id, action.event, action.level === undefined ? {} : { level: action.level });
        task.dirty = true;
      } else {
        await placeOrder(task, action);
      }
    }
  };

  /** Real accounts' prices of this tick, one ticker request per (account, symbol); null when it failed. */
  let tickPrices = new Map<string, Promise<string | null>>();
  /** The last price seen per (account, symbol) of a real account. */
  const lastPrices = new Map<string, string>();
  const priceKey = (accountId: string, symbol: string) => `${accountId}|${symbol}`;

  const realPrice = (client: ExchangeClient, accountId: string, symbol: string): Promise<string | null> => {
    const key = priceKey(accountId, symbol);
    let price = tickPrices.get(key);
    const exchangeId = accountExchanges.get(accountId);
    const streamed = !price && exchangeId && options.tickerFeed ? options.tickerFeed.price(exchangeId, symbol) : null;
    if (streamed !== null) {
      lastPrices.set(key, streamed);
      price = Promise.resolve(streamed);
      tickPrices.set(key, price);
    }
    if (!price) {
      price = client.fetchTicker(symbol).then(
        (ticker) => {
          const last = ticker.last ?? ticker.ask ?? ticker.bid;
          if (last !== null) lastPrices.set(key, last);
          return last;
        },
        (error: unknown) => {
          log.warn({ err: error, accountId, symbol }, 'price could not be fetched; its tasks skip this tick');
          return null;
        },
      );
      tickPrices.set(key, price);
    }
    return price;
  };

  /** Tasks that would open a cycle but wait for fuel: task id -> user id (one 'fuel_empty' event per wait). */
  const fuelWaits = new Map<string, string>();

  /**
   * Whether the task may open a new cycle: only read (one balance) when it is
   * between cycles and about to open one; without fuel it waits, and resumes
   * by itself once the balance is above 0 again.
   */
  const mayOpenCycle = async (task: LiveTask): Promise<boolean> => {
    const { state, params } = task;
    const betweenCycles = state.phase === 'ready' || (state.phase === 'cooldown' && (state.cooldownUntil === null || now() >= state.cooldownUntil));
    if (!betweenCycles || state.pendingOrder) return true;
    if (params.cycleCount !== UNTIL_STOPPED && state.cyclesDone >= params.cycleCount) return true;
    if (await hasFuel(db, task.userId)) {
      fuelWaits.delete(task.id);
      return true;
    }
    if (!fuelWaits.has(task.id)) {
      fuelWaits.set(task.id, task.userId);
      await event(db, task.id, 'fuel_empty', { cycle: state.cyclesDone + 1 });
    }
    return false;
  };

  const step = async (task: LiveTask) => {
    let client: ExchangeClient | null;
    try {
      client = await clientFor(task.accountId);
    } catch (error) {
      log.error({ err: error, taskId: task.id }, 'exchange client could not be built; the task skips this tick');
      return;
    }
    if (client) {
      const intent = pendingIntents.get(task.id);
      if (intent) {
        await reconcileIntent(task, client, intent);
        return;
      }
    }
    if (task.finished || !task.params.running || now() < task.retryAfter) return;
    let price: string;
    if (client) {
      const fetched = await realPrice(client, task.accountId, task.symbol);
      if (fetched === null) return;
      price = fetched;
    } else {
      price = market.price(task.symbol);
    }
    const decision = decide(task.params, task.strategy, task.state, price, now(), await mayOpenCycle(task));
    if (decision.state !== task.state) {
      task.state = decision.state;
      task.dirty = true;
    }
    if (decision.actions.length > 0) await carryOut(task, decision.actions);
  };

  const flush = async () => {
    for (const task of tasks.values()) {
      if (!task.dirty) continue;
      task.dirty = false;
      await writeState(db, task);
    }
  };

  /** One second of market and every running task's decision. Calls are serialized. */
  const tick = (seconds = 1): Promise<void> => {
    busy = busy.then(async () => {
      market.tick(seconds);
      paper.onTick();
      tickPrices = new Map();
      for (const task of tasks.values()) await step(task);
      ticks += 1;
      if (ticks % FLUSH_EVERY_TICKS === 0) await flush();
    });
    return busy;
  };

  const load = async (taskId?: string) => {
    let query = db
      .selectFrom('trade_tasks')
      .innerJoin('strategies', 'strategies.id', 'trade_tasks.strategy_id')
      .select([
        'trade_tasks.id',
        'trade_tasks.user_id',
        'trade_tasks.exchange_account_id',
        'trade_tasks.symbol',
        'trade_tasks.first_order_amount',
        'trade_tasks.first_order_multiple',
        'trade_tasks.cycle_count',
        'trade_tasks.replenish_status',
        'trade_tasks.running',
        'trade_tasks.status',
        'trade_tasks.state',
        'strategies.levels',
        'strategies.take_profit_percent',
        'strategies.take_profit_callback_percent',
        'strategies.replenish_callback_percent',
        'strategies.stop_loss_percent',
        'strategies.cooldown_seconds',
      ]);
    query = taskId ? query.where('trade_tasks.id', '=', taskId) : query.where('trade_tasks.status', '=', 'active');
    for (const row of await query.execute()) {
      tasks.set(row.id, {
        id: row.id,
        userId: row.user_id,
        accountId: row.exchange_account_id,
        symbol: row.symbol,
        params: toParams(row),
        strategy: settingsOf(row),
        state: { ...initialCycleState(), ...(row.state as Partial<CycleState>) },
        finished: row.status === 'finished',
        dirty: false,
        retryAfter: 0,
      });
    }
  };

  /**
   * On start. Paper: intents left by a crash between storing an order and
   * its fill were never sent (paper orders are sent and filled inside that
   * same transaction, which rolled back), so none can exist; any found is
   * marked failed and its task decides again. Real accounts: the order may
   * have reached the exchange, so the intent waits for its task's next tick,
   * which asks the exchange (reconcileIntent).
   */
  const reconcile = async () => {
    const intents = await db
      .selectFrom('orders')
      .innerJoin('exchange_accounts', 'exchange_accounts.id', 'orders.exchange_account_id')
      .select(['orders.task_id', 'orders.client_order_id', 'orders.side', 'orders.reason', 'orders.level', 'orders.cycle', 'exchange_accounts.exchange'])
      .where('orders.status', '=', 'intent')
      .execute();
    const paperIntents = intents.filter((row) => row.exchange === PAPER_EXCHANGE).map((row) => row.client_order_id);
    if (paperIntents.length > 0) {
      await db.updateTable('orders').set({ status: 'failed', error: 'not_sent' }).where('client_order_id', 'in', paperIntents).execute();
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
      });
    }
  };

  return {
    market,
    paper,
    tasks,
    tick,
    flush,
    ensureAccount,
    /** The account's exchange client; null for a paper account. */
    clientFor,
    /** Drops the account's cached client after its keys changed or it was removed: the next use builds it from the stored keys. */
    forgetClient: (accountId: string) => {
      clients.delete(accountId);
      accountExchanges.delete(accountId);
    },
    /** The user's running tasks waiting for fuel to open their next cycle. */
    fuelWaiting: (userId: string) =>
      [...fuelWaits].filter(([taskId, owner]) => {
        const task = tasks.get(taskId);
        return owner === userId && task !== undefined && !task.finished && task.params.running;
      }).length,
    /** The last price of a real account's pair seen by the engine, if any. */
    lastPrice: (accountId: string, symbol: string) => lastPrices.get(priceKey(accountId, symbol)) ?? null,
    /** (Re)reads one task after the API changed it. */
    reload: async (taskId: string) => {
      await (busy = busy.then(async () => {
        const existing = tasks.get(taskId);
        if (existing?.dirty) await writeState(db, existing);
        tasks.delete(taskId);
        await load(taskId);
      }));
    },
    /** Runs a task's action between ticks (never in the middle of one). */
    exclusive: <T>(work: () => Promise<T>): Promise<T> => {
      const result = busy.then(work);
      busy = result.then(
        () => undefined,
        () => undefined,
      );
      return result;
    },
    placeOrder,
    async start() {
      await load();
      await reconcile();
      for (const task of tasks.values()) {
        const client = await clientFor(task.accountId).catch((error: unknown) => {
          log.error({ err: error, taskId: task.id }, 'exchange client could not be built');
          return undefined;
        });
        if (client === null) await ensureAccount(task.accountId);
      }
      if (options.tickMs > 0) {
        timer = setInterval(() => {
          tick().catch((error: unknown) => log.error({ err: error }, 'engine tick failed'));
        }, options.tickMs);
        timer.unref();
      }
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await busy;
      await flush();
      await options.tickerFeed?.close();
    },
  };
};

export type Runner = ReturnType<typeof createRunner>;
