/**
 * The engine's journal: every database read and write of the trading engine
 * (tasks, orders, events, cycles with their fuel, paper balances, the
 * commands the API leaves for it). The engine keeps its tasks in memory and
 * decides there; this module writes what happened, a whole tick in one
 * transaction of a few set-based statements (unnest of arrays), whatever the
 * number of orders. A fence (store/shards.ts) makes a process that lost its lease
 * unable to write.
 */
import Big from 'big.js';
import { sql, type Selectable } from 'kysely';
import type { DecimalString } from '../../../../src/api/types';
import type { TaskAttention, TaskWaiting } from '../../../../src/api/trade';
import type { StrategySettings } from '../../../../src/api/strategy';
import type { Db } from '../../db/database';
import type { StrategiesTable } from '../../db/schema';
import { initialCycleState, type CycleState, type TaskParams } from '../core/decide';
import type { ClosedCycle } from '../core/fills';

/** Tasks are split into this many shards by their exchange account: one engine process drives a shard at a time. */
export const SHARD_COUNT = 16;

/**
 * Whether a write failed because an order with the same client order id is
 * stored already (the unique key of `orders.client_order_id`, which also
 * makes it unique per exchange account): that order may have been sent, so
 * it is never sent again, only looked up.
 */
export const isOrderStoredAlready = (error: unknown): boolean => {
  const { code, constraint, message } = (error ?? {}) as { code?: string; constraint?: string; message?: string };
  return code === '23505' && `${constraint ?? ''} ${message ?? ''}`.includes('client_order_id');
};

/** A task's shard, in SQL: the hash of its exchange account, so an account's tasks (and its paper balances) stay together. */
export const shardOf = (accountColumn: string) => sql<number>`((hashtext(${sql.ref(accountColumn)}::text) & 2147483647) % ${sql.lit(SHARD_COUNT)})`;

/** One closed cycle's profit, on which its owner pays fuel. */
export interface FuelDue {
  userId: string;
  taskId: string;
  cycle: number;
  profit: string;
}

/** A strategy template's stored settings, as the tasks' query reads them. */
export type StrategyColumns = Pick<
  Selectable<StrategiesTable>,
  'levels' | 'take_profit_percent' | 'take_profit_callback_percent' | 'replenish_callback_percent' | 'stop_loss_percent' | 'cooldown_seconds' | 'exits' | 'conditions'
>;

/**
 * What the engine needs from other domains, given by whoever builds it (the
 * engine imports no other domain): the fuel a closed cycle pays (member), and
 * how a template's columns read as strategy settings (strategy).
 */
export interface EngineDomains {
  /** Charges each due in the caller's transaction; answers the fuel charged, in the same order. */
  chargeFuel: (trx: Db, dues: FuelDue[]) => Promise<string[]>;
  strategyOf: (row: StrategyColumns) => StrategySettings;
  /** Writes the users' notifications of one commit's events, closed cycles and paper price changes, in the caller's transaction (notify); none when absent. */
  recordEvents?: (trx: Db, events: readonly EventInsert[], cycles: readonly CycleInsert[], prices?: readonly PaperPriceChange[]) => Promise<void>;
}

export interface StoredTask {
  id: string;
  userId: string;
  accountId: string;
  exchange: string;
  /** Paper accounts: 'simulator' or the exchange whose live public prices they trade on; null for real accounts. */
  priceSource: string | null;
  shard: number;
  symbol: string;
  params: TaskParams;
  strategy: StrategySettings;
  state: CycleState;
  finished: boolean;
  attention: TaskAttention | null;
  /** What it waits for while a condition of its strategy does not hold (issue 29). */
  waiting?: TaskWaiting | null;
}

/** What the exchange answered for an order (absent on a real order's intent). */
interface OrderResult {
  exchangeOrderId?: string | null;
  price?: DecimalString | null;
  filled?: DecimalString;
  cost?: DecimalString;
  fee?: DecimalString;
  feeCurrency?: string | null;
  error?: string | null;
}

/** An order row: a paper order written whole with its outcome, or a real order's intent. */
export interface OrderInsert extends OrderResult {
  taskId: string;
  userId: string;
  accountId: string;
  clientOrderId: string;
  symbol: string;
  cycle: number;
  level: number;
  side: 'buy' | 'sell';
  reason: string;
  status: 'intent' | 'closed' | 'failed';
  requested: DecimalString;
}

/** A real order's outcome, written over its intent. */
export interface OrderOutcome extends OrderResult {
  clientOrderId: string;
  status: 'closed' | 'failed';
}

export interface EventInsert {
  taskId: string;
  kind: string;
  data: Record<string, unknown>;
}

export interface CycleInsert {
  taskId: string;
  userId: string;
  closed: ClosedCycle;
  /** The cycle's length in seconds of market time (null when its start is unknown). */
  seconds: number | null;
}

/** What a paper account on a live source trades on now, as the engine settled it (runner/priceNotices.ts). */
export interface PaperPriceNotice {
  accountId: string;
  source: string;
  /** Since when it trades on simulated prices; null: on the source's live prices. */
  fallbackSince: string | null;
}

/** A notice that changed what the account's owner was last told: it becomes one notification. */
export interface PaperPriceChange extends PaperPriceNotice {
  userId: string;
  accountName: string;
}

export interface StateWrite {
  id: string;
  state: CycleState;
  finished: boolean;
  running: boolean;
  attention: TaskAttention | null;
  /** What the task waits for (issue 29); absent: left as stored. */
  waiting?: TaskWaiting | null;
}

export interface BalanceWrite {
  accountId: string;
  asset: string;
  free: DecimalString;
  used: DecimalString;
}

/** Everything one tick (or one order) writes, in one transaction. */
export interface Writes {
  orders: OrderInsert[];
  outcomes: OrderOutcome[];
  events: EventInsert[];
  cycles: CycleInsert[];
  states: StateWrite[];
  balances: BalanceWrite[];
  /** Commands the API left that these writes carry out, with their answers. */
  commands: { id: string; result: unknown }[];
  /** Paper accounts whose live source fell back to the simulator or came back (told once per change). */
  prices: PaperPriceNotice[];
}

export const emptyWrites = (): Writes => ({ orders: [], outcomes: [], events: [], cycles: [], states: [], balances: [], commands: [], prices: [] });

export const hasWrites = (w: Writes) =>
  w.orders.length + w.outcomes.length + w.events.length + w.cycles.length + w.states.length + w.balances.length + w.commands.length + w.prices.length > 0;

/** Checked first in every transaction of the engine: the shards it writes for must still be its own. */
export type Fence = (trx: Db, shards: ReadonlySet<number>) => Promise<void>;

const TASK_COLUMNS = [
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
  'trade_tasks.attention',
  'trade_tasks.waiting',
  'exchange_accounts.exchange',
  'exchange_accounts.price_source',
  'strategies.levels',
  'strategies.take_profit_percent',
  'strategies.take_profit_callback_percent',
  'strategies.replenish_callback_percent',
  'strategies.stop_loss_percent',
  'strategies.cooldown_seconds',
  'strategies.exits',
  'strategies.conditions',
] as const;

const text = (values: readonly (string | null | undefined)[]) => values.map((value) => value ?? null);

/**
 * The journal over `db`. Without `domains` it reads balances only (an API
 * process without an engine); loading tasks and closing cycles need them.
 */
export const createEngineStore = (db: Db, domains: EngineDomains | null = null) => {
  const needDomains = (): EngineDomains => {
    if (!domains) throw new Error('the engine store was built without the other domains (fuel, strategy settings)');
    return domains;
  };
  /** Tasks to drive: by id, or every active task of some shards (all shards when none is given). */
  const loadTasks = async (filter: { ids?: string[]; shards?: number[] } = {}): Promise<StoredTask[]> => {
    let query = db
      .selectFrom('trade_tasks')
      .innerJoin('strategies', 'strategies.id', 'trade_tasks.strategy_id')
      .innerJoin('exchange_accounts', 'exchange_accounts.id', 'trade_tasks.exchange_account_id')
      .select([...TASK_COLUMNS, shardOf('trade_tasks.exchange_account_id').as('shard')]);
    if (filter.ids) {
      if (filter.ids.length === 0) return [];
      query = query.where('trade_tasks.id', 'in', filter.ids);
    } else {
      query = query.where('trade_tasks.status', '=', 'active');
    }
    if (filter.shards) {
      if (filter.shards.length === 0) return [];
      query = query.where(shardOf('trade_tasks.exchange_account_id'), 'in', filter.shards);
    }
    const { strategyOf } = needDomains();
    return (await query.execute()).map((row) => ({
      id: row.id,
      userId: row.user_id,
      accountId: row.exchange_account_id,
      exchange: row.exchange,
      priceSource: row.exchange === 'paper' ? (row.price_source ?? 'simulator') : null,
      shard: Number(row.shard),
      symbol: row.symbol,
      params: {
        firstOrderAmount: row.first_order_amount,
        firstOrderMultiple: row.first_order_multiple,
        cycleCount: row.cycle_count,
        replenishStatus: row.replenish_status,
        running: row.running,
      },
      strategy: strategyOf(row),
      state: { ...initialCycleState(), ...(row.state as Partial<CycleState>) },
      finished: row.status === 'finished',
      attention: (row.attention as TaskAttention | null) ?? null,
      waiting: (row.waiting as TaskWaiting | null) ?? null,
    }));
  };

  /** A paper account's stored balances; a new account gets its start balances written first. */
  const paperBalances = async (accountId: string): Promise<Record<string, DecimalString>> => {
    let rows = await db.selectFrom('paper_balances').select(['asset', 'free']).where('exchange_account_id', '=', accountId).execute();
    if (rows.length === 0) {
      const account = await db.selectFrom('exchange_accounts').select('paper_balances').where('id', '=', accountId).executeTakeFirst();
      rows = Object.entries(account?.paper_balances ?? {}).map(([asset, free]) => ({ asset, free }));
      if (rows.length > 0) {
        await db
          .insertInto('paper_balances')
          .values(rows.map((r) => ({ exchange_account_id: accountId, asset: r.asset, free: r.free, used: '0' })))
          .onConflict((oc) => oc.columns(['exchange_account_id', 'asset']).doNothing())
          .execute();
      }
    }
    return Object.fromEntries(rows.filter((row) => new Big(row.free).gt(0)).map((row) => [row.asset, new Big(row.free).toFixed()]));
  };

  const writeStates = async (trx: Db, states: StateWrite[]) => {
    if (states.length === 0) return;
    await sql`
      update trade_tasks set state = x.state::jsonb, status = x.status, running = x.running, attention = x.attention::jsonb,
             waiting = case when x.keep then trade_tasks.waiting else x.waiting::jsonb end, updated_at = now()
      from unnest(${states.map((s) => s.id)}::uuid[], ${states.map((s) => JSON.stringify(s.state))}::text[],
                  ${states.map((s) => (s.finished ? 'finished' : 'active'))}::text[], ${states.map((s) => s.running)}::boolean[],
                  ${text(states.map((s) => (s.attention ? JSON.stringify(s.attention) : null)))}::text[],
                  ${text(states.map((s) => (s.waiting ? JSON.stringify(s.waiting) : null)))}::text[],
                  ${states.map((s) => s.waiting === undefined)}::boolean[]) as x(id, state, status, running, attention, waiting, keep)
      where trade_tasks.id = x.id`.execute(trx);
  };

  /** The time a journal entry is stamped with: the market's when given (a played history), else the database's. */
  const stamp = (at: Date | undefined) => (at ? sql`${at.toISOString()}::timestamptz` : sql`now()`);

  const insertOrders = async (trx: Db, orders: OrderInsert[], at?: Date) => {
    if (orders.length === 0) return;
    await sql`
      insert into orders (task_id, user_id, exchange_account_id, client_order_id, exchange_order_id, symbol, cycle, level, side, reason,
                          status, requested, price, filled, cost, fee, fee_currency, error, created_at, updated_at)
      select task, owner, account, client, exchange_id, symbol, cycle, level, side, reason, status, requested::numeric, price::numeric,
             filled::numeric, cost::numeric, fee::numeric, fee_currency, error, ${stamp(at)}, ${stamp(at)}
      from unnest(${orders.map((o) => o.taskId)}::uuid[], ${orders.map((o) => o.userId)}::uuid[], ${orders.map((o) => o.accountId)}::uuid[],
                  ${orders.map((o) => o.clientOrderId)}::text[], ${text(orders.map((o) => o.exchangeOrderId))}::text[], ${orders.map((o) => o.symbol)}::text[],
                  ${orders.map((o) => o.cycle)}::int[], ${orders.map((o) => o.level)}::int[], ${orders.map((o) => o.side)}::text[],
                  ${orders.map((o) => o.reason)}::text[], ${orders.map((o) => o.status)}::text[], ${orders.map((o) => o.requested)}::text[],
                  ${text(orders.map((o) => o.price))}::text[], ${orders.map((o) => o.filled ?? '0')}::text[], ${orders.map((o) => o.cost ?? '0')}::text[],
                  ${orders.map((o) => o.fee ?? '0')}::text[], ${text(orders.map((o) => o.feeCurrency))}::text[], ${text(orders.map((o) => o.error))}::text[])
           as x(task, owner, account, client, exchange_id, symbol, cycle, level, side, reason, status, requested, price, filled, cost, fee, fee_currency, error)`.execute(trx);
  };

  const writeOutcomes = async (trx: Db, outcomes: OrderOutcome[]) => {
    if (outcomes.length === 0) return;
    await sql`
      update orders set status = x.status, exchange_order_id = coalesce(x.exchange_id, orders.exchange_order_id), price = x.price::numeric,
                        filled = x.filled::numeric, cost = x.cost::numeric, fee = x.fee::numeric, fee_currency = x.fee_currency, error = x.error,
                        updated_at = now()
      from unnest(${outcomes.map((o) => o.clientOrderId)}::text[], ${outcomes.map((o) => o.status)}::text[], ${text(outcomes.map((o) => o.exchangeOrderId))}::text[],
                  ${text(outcomes.map((o) => o.price))}::text[], ${outcomes.map((o) => o.filled ?? '0')}::text[], ${outcomes.map((o) => o.cost ?? '0')}::text[],
                  ${outcomes.map((o) => o.fee ?? '0')}::text[], ${text(outcomes.map((o) => o.feeCurrency))}::text[], ${text(outcomes.map((o) => o.error))}::text[])
           as x(client, status, exchange_id, price, filled, cost, fee, fee_currency, error)
      where orders.client_order_id = x.client`.execute(trx);
  };

  const insertEvents = async (trx: Db, events: EventInsert[], at?: Date) => {
    if (events.length === 0) return;
    await sql`
      insert into task_events (task_id, kind, data, created_at)
      select task, kind, data::jsonb, ${stamp(at)}
      from unnest(${events.map((e) => e.taskId)}::uuid[], ${events.map((e) => e.kind)}::text[], ${events.map((e) => JSON.stringify(e.data))}::text[])
           with ordinality as x(task, kind, data, n)
      order by n`.execute(trx);
  };

  /** The closed cycles, and the fuel each pays (charged by the member domain), in the caller's transaction. */
  const insertCycles = async (trx: Db, cycles: CycleInsert[], at?: Date) => {
    if (cycles.length === 0) return;
    const fuel = await needDomains().chargeFuel(
      trx,
      cycles.map((c) => ({ userId: c.userId, taskId: c.taskId, cycle: c.closed.cycle, profit: c.closed.realizedProfit })),
    );
    await sql`
      insert into cycles (task_id, user_id, cycle, buy_cost, sell_proceeds, realized_profit, fuel_charged, quantity_sold, remainder_quantity,
                          remainder_cost, fees, levels_filled, exit_reason, opened_at, closed_at)
      select task, owner, cycle, buy_cost::numeric, proceeds::numeric, profit::numeric, fuel::numeric, sold::numeric, remainder::numeric,
             remainder_cost::numeric, fees::numeric, levels, exit_reason, case when secs is null then null else ${stamp(at)} - make_interval(secs => secs) end,
             ${stamp(at)}
      from unnest(${cycles.map((c) => c.taskId)}::uuid[], ${cycles.map((c) => c.userId)}::uuid[], ${cycles.map((c) => c.closed.cycle)}::int[],
                  ${cycles.map((c) => c.closed.buyCost)}::text[], ${cycles.map((c) => c.closed.sellProceeds)}::text[],
                  ${cycles.map((c) => c.closed.realizedProfit)}::text[], ${fuel}::text[], ${cycles.map((c) => c.closed.quantitySold)}::text[],
                  ${cycles.map((c) => c.closed.remainderQuantity)}::text[], ${cycles.map((c) => c.closed.remainderCost)}::text[],
                  ${cycles.map((c) => c.closed.fees)}::text[], ${cycles.map((c) => c.closed.levelsFilled)}::int[],
                  ${cycles.map((c) => c.closed.exitReason)}::text[], ${cycles.map((c) => c.seconds)}::double precision[])
           as x(task, owner, cycle, buy_cost, proceeds, profit, fuel, sold, remainder, remainder_cost, fees, levels, exit_reason, secs)`.execute(trx);
  };

  const writeBalances = async (trx: Db, balances: BalanceWrite[]) => {
    if (balances.length === 0) return;
    await sql`
      insert into paper_balances (exchange_account_id, asset, free, used)
      select account, asset, free::numeric, used::numeric
      from unnest(${balances.map((b) => b.accountId)}::uuid[], ${balances.map((b) => b.asset)}::text[], ${balances.map((b) => b.free)}::text[],
                  ${balances.map((b) => b.used)}::text[]) as x(account, asset, free, used)
      on conflict (exchange_account_id, asset) do update set free = excluded.free, used = excluded.used`.execute(trx);
  };

  /**
   * Stores what each account's owner is told about its prices, only where it
   * differs from what they were last told (and the account still trades on
   * that source): answers the changes, each to be told once, whichever
   * process or restart saw it first.
   */
  const writePriceNotices = async (trx: Db, notices: PaperPriceNotice[]): Promise<PaperPriceChange[]> => {
    if (notices.length === 0) return [];
    const { rows } = await sql<{ id: string; user_id: string; name: string; price_source: string; since: string | null }>`
      update exchange_accounts a set paper_fallback_since = x.since::timestamptz
      from unnest(${notices.map((n) => n.accountId)}::uuid[], ${notices.map((n) => n.source)}::text[], ${text(notices.map((n) => n.fallbackSince))}::text[])
           as x(account, source, since)
      where a.id = x.account and a.price_source = x.source and (a.paper_fallback_since is null) <> (x.since is null)
      returning a.id, a.user_id, a.name, a.price_source, x.since`.execute(trx);
    return rows.map((row) => ({ accountId: row.id, userId: row.user_id, accountName: row.name, source: row.price_source, fallbackSince: row.since }));
  };

  const finishCommands = async (trx: Db, commands: Writes['commands']) => {
    if (commands.length === 0) return;
    await sql`
      update engine_commands set done_at = now(), result = x.result::jsonb
      from unnest(${commands.map((c) => c.id)}::bigint[], ${commands.map((c) => JSON.stringify(c.result ?? null))}::text[]) as x(id, result)
      where engine_commands.id = x.id`.execute(trx);
  };

  /**
   * Writes one tick's (or one order's) outcome in one transaction: the fence
   * first, then orders, outcomes, events, cycles with their fuel, task
   * states, paper balances and finished commands. All of it lands, or none.
   * `at` stamps the orders, events and cycles (a history played faster than
   * it happened); otherwise they carry the database's time.
   */
  const commit = async (writes: Writes, fence?: { check: Fence; shards: ReadonlySet<number> }, at?: Date) => {
    if (!hasWrites(writes)) return;
    await db.transaction().execute(async (trx) => {
      if (fence) await fence.check(trx, fence.shards);
      await insertOrders(trx, writes.orders, at);
      await writeOutcomes(trx, writes.outcomes);
      await insertEvents(trx, writes.events, at);
      await insertCycles(trx, writes.cycles, at);
      const prices = await writePriceNotices(trx, writes.prices);
      if (domains?.recordEvents && (writes.events.length > 0 || writes.cycles.length > 0 || prices.length > 0)) await domains.recordEvents(trx, writes.events, writes.cycles, prices);
      await writeStates(trx, writes.states);
      await writeBalances(trx, writes.balances);
      await finishCommands(trx, writes.commands);
    });
  };

  /** Whether each user's fuel balance is above 0 (one query for a whole tick's users). */
  /**
   * The users whose tasks may open a cycle: those with fuel, and those not
   * activated yet. Fuel comes with activation; before it a newcomer trades on
   * paper only (real accounts need activation, 11001) and pays no fuel, as
   * there is none to pay.
   */
  const fuelOf = async (userIds: readonly string[]): Promise<Set<string>> => {
    if (userIds.length === 0) return new Set();
    const ids = [...new Set(userIds)];
    const rows = await db
      .selectFrom('users')
      .select('id')
      .where('id', 'in', ids)
      .where((eb) =>
        eb.or([
          eb('activated', '=', false),
          eb.exists(
            eb
              .selectFrom('ledger_accounts')
              .select('ledger_accounts.user_id')
              .whereRef('ledger_accounts.user_id', '=', 'users.id')
              .where('ledger_accounts.kind', '=', 'available')
              .where('ledger_accounts.asset', '=', 'FUEL')
              .where('ledger_accounts.balance', '>', '0'),
          ),
        ]),
      )
      .execute();
    return new Set(rows.map((row) => row.id));
  };

  /** Orders stored as intents and not resolved (real orders whose outcome is unknown; paper ones cannot be left). */
  const intents = async (taskIds: readonly string[]) => {
    if (taskIds.length === 0) return [];
    return db
      .selectFrom('orders')
      .innerJoin('exchange_accounts', 'exchange_accounts.id', 'orders.exchange_account_id')
      .select(['orders.task_id', 'orders.client_order_id', 'orders.side', 'orders.reason', 'orders.level', 'orders.cycle', 'orders.requested', 'orders.created_at', 'exchange_accounts.exchange'])
      .where('orders.status', '=', 'intent')
      .where('orders.task_id', 'in', [...taskIds])
      .execute();
  };

  const markNotSent = async (clientOrderIds: readonly string[]) => {
    if (clientOrderIds.length === 0) return;
    await db.updateTable('orders').set({ status: 'failed', error: 'not_sent', updated_at: sql`now()` }).where('client_order_id', 'in', [...clientOrderIds]).execute();
  };

  /** Commands the API left for tasks of these shards, oldest first. */
  const pendingCommands = async (shards: readonly number[] | null) => {
    let query = db.selectFrom('engine_commands').select(['id', 'task_id', 'kind', 'payload']).where('done_at', 'is', null);
    if (shards) {
      if (shards.length === 0) return [];
      query = query.where('shard', 'in', [...shards]);
    }
    return (await query.orderBy('id').limit(500).execute()).map((row) => ({ id: String(row.id), taskId: row.task_id, kind: row.kind, payload: row.payload }));
  };

  return {
    db,
    loadTasks,
    paperBalances,
    commit,
    /** The states of tasks whose trailing figures changed since they were written (one statement). */
    flushStates: (states: StateWrite[]) => (states.length ? db.transaction().execute((trx) => writeStates(trx, states)) : Promise.resolve()),
    fuelOf,
    intents,
    markNotSent,
    pendingCommands,
  };
};

export type EngineStore = ReturnType<typeof createEngineStore>;
