import { randomBytes } from 'node:crypto';
import Big from 'big.js';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { StrategySettings } from '../../../src/api/strategy';
import type { Db } from '../db/database';
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
} from './decide';
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
}

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

  /** Places one order for a task and applies its outcome, all in one transaction. */
  const placeOrder = async (task: LiveTask, action: OrderRequest) => {
    await ensureAccount(task.accountId);
    const clientOrderId = newClientOrderId();
    const side = action.kind;
    const level = action.kind === 'buy' ? action.level : task.state.levelsFilled;
    const cycle = task.state.cyclesDone + 1;
    const before = task.state;
    try {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('orders')
          .values({
            task_id: task.id,
            user_id: task.userId,
            exchange_account_id: task.accountId,
            client_order_id: clientOrderId,
            symbol: task.symbol,
            cycle,
            level,
            side,
            reason: action.reason,
            status: 'intent',
            requested: action.kind === 'buy' ? action.quoteAmount : action.quantity,
          })
          .execute();
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
          await trx.updateTable('orders').set({ status: 'failed', error: reason, updated_at: sql`now()` }).where('client_order_id', '=', clientOrderId).execute();
          task.state = applyOrderFailed(before);
          task.retryAfter = now() + RETRY_AFTER_REFUSAL_MS;
          await event(trx, task.id, 'error', { reason, side, level, ...(failure.kind === 'insufficient_funds' ? { asset: failure.asset, required: failure.required, available: failure.available } : {}) });
          await writeState(trx, task);
          return;
        }
        const fee = new Big(order.fee.cost);
        const baseFee = order.fee.currency !== 'USDT';
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
          const cost = baseFee ? new Big(order.cost) : new Big(order.cost).plus(fee);
          task.state = applyBuyFill(before, { price: order.average!, quantity: quantity.toFixed(), cost: cost.toFixed(), level });
          await event(trx, task.id, level === 0 ? 'cycle_started' : 'replenished', { cycle, level, price: order.average, amount: order.cost });
        } else {
          const proceeds = baseFee ? new Big(order.cost) : new Big(order.cost).minus(fee);
          const profit = proceeds.minus(before.cost);
          task.state = applySellFill(before, task.strategy, now());
          await trx
            .insertInto('cycles')
            .values({ task_id: task.id, user_id: task.userId, cycle, buy_cost: before.cost, sell_proceeds: proceeds.toFixed(), realized_profit: profit.toFixed() })
            .execute();
          await event(trx, task.id, action.reason === 'stop_loss' ? 'stop_loss' : 'sold', { cycle, price: order.average, proceeds: proceeds.toFixed(), profit: profit.toFixed() });
          await event(trx, task.id, 'cycle_complete', { cycle, profit: profit.toFixed() });
        }
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

  const step = async (task: LiveTask) => {
    if (task.finished || !task.params.running || now() < task.retryAfter) return;
    const price = market.price(task.symbol);
    const decision = decide(task.params, task.strategy, task.state, price, now(), true);
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
   * On start: intents left by a crash between storing an order and its fill
   * were never sent (paper orders are sent and filled inside that same
   * transaction, which rolled back), so none can exist; any found is marked
   * failed and its task decides again.
   */
  const reconcile = async () => {
    const stale = await db.updateTable('orders').set({ status: 'failed', error: 'not_sent' }).where('status', '=', 'intent').returning('task_id').execute();
    for (const { task_id } of stale) {
      const task = tasks.get(task_id);
      if (task) task.state = applyOrderFailed(task.state);
    }
  };

  return {
    market,
    paper,
    tasks,
    tick,
    flush,
    ensureAccount,
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
      for (const task of tasks.values()) await ensureAccount(task.accountId);
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
    },
  };
};

export type Runner = ReturnType<typeof createRunner>;
