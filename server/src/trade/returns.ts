/**
 * Returns of a task and of the account (definitions in src/api/returns.ts):
 * invested, ROI, APR, run time, the cumulative-profit curve and the cycles'
 * table, all in decimals: the pure figures, and the service that reads the
 * cycles table and the engine's live state for the routes (returnsRoutes.ts).
 */
import Big from 'big.js';
import { sql } from 'kysely';
import type { AccountValue, ReturnsOverview, ReturnsPoint, TaskCycle, TaskReturns } from '../../../src/api/returns';
import type { Page } from '../../../src/api/types';
import type { Db } from '../db/database';
import type { EngineFacade } from '../engine/facade';
import { balances } from '../wallet/service';
import type { TradeTask } from '../../../src/api/trade';
import { MAX_CURVE_POINTS, type CyclesQuery } from './schemas';

const DAY_SECONDS = 86_400;
const YEAR_DAYS = 365;

export interface CycleRow {
  id: string;
  cycle: number;
  opened_at: Date | string | null;
  closed_at: Date | string;
  levels_filled: number;
  buy_cost: string;
  remainder_cost: string;
  sell_proceeds: string;
  realized_profit: string;
  fees: string;
  exit_reason: TaskCycle['exitReason'];
}

/** What a closed cycle held at its peak: the cost basis of what it sold and of what it carried on. */
export const fundsUsed = (row: Pick<CycleRow, 'buy_cost' | 'remainder_cost'>) => new Big(row.buy_cost).plus(row.remainder_cost);

/** profit / funds x 100 to 4 decimals; null when no funds were used. */
export const percentOf = (profit: Big.BigSource, funds: Big.BigSource): string | null => {
  const base = new Big(funds);
  if (base.lte(0)) return null;
  return new Big(profit).div(base).times(100).round(4, Big.roundHalfEven).toFixed(4);
};

/** ROI annualized simply (x 365 days / run time); null below a day of run time. */
export const annualized = (roi: string | null, runSeconds: number): string | null => {
  if (roi === null || runSeconds < DAY_SECONDS) return null;
  return new Big(roi).times(YEAR_DAYS * DAY_SECONDS).div(runSeconds).round(4, Big.roundHalfEven).toFixed(4);
};

const iso = (value: Date | string) => new Date(value).toISOString();
const millis = (value: Date | string) => new Date(value).getTime();

export const toTaskCycle = (row: CycleRow): TaskCycle => {
  const funds = fundsUsed(row);
  return {
    id: String(row.id),
    cycle: row.cycle,
    openedAt: row.opened_at === null ? null : iso(row.opened_at),
    closedAt: iso(row.closed_at),
    durationSeconds: row.opened_at === null ? null : Math.max(0, Math.round((millis(row.closed_at) - millis(row.opened_at)) / 1000)),
    levelsFilled: row.levels_filled,
    fundsUsed: funds.toFixed(),
    sellProceeds: new Big(row.sell_proceeds).toFixed(),
    realizedProfit: new Big(row.realized_profit).toFixed(),
    fees: new Big(row.fees).toFixed(),
    roi: percentOf(row.realized_profit, funds),
    exitReason: row.exit_reason,
  };
};

/**
 * Cumulative profit after each closing, oldest first: closings within one
 * time bucket (the span split in MAX_CURVE_POINTS, at least a second) make
 * one point, at the time of its last closing, so times strictly increase.
 */
export const cumulativeCurve = (closings: readonly { closedAt: Date | string; profit: string }[], maxPoints = MAX_CURVE_POINTS): ReturnsPoint[] => {
  if (closings.length === 0) return [];
  const sorted = [...closings].map((c) => ({ at: millis(c.closedAt), profit: c.profit })).sort((a, b) => a.at - b.at);
  const first = sorted[0]!.at;
  const span = sorted[sorted.length - 1]!.at - first;
  const bucket = Math.max(1000, Math.ceil((span + 1) / maxPoints));
  const points: { at: number; key: number; profit: Big }[] = [];
  let sum = new Big(0);
  for (const closing of sorted) {
    sum = sum.plus(closing.profit);
    const key = Math.floor((closing.at - first) / bucket);
    const last = points[points.length - 1];
    if (last && last.key === key) {
      last.at = closing.at;
      last.profit = sum;
    } else points.push({ at: closing.at, key, profit: sum });
  }
  return points.map((p) => ({ time: new Date(p.at).toISOString(), profit: p.profit.toFixed() }));
};

export interface TaskFigures {
  /** The cost of the position under way now. */
  currentCost: string;
  realizedProfit: string;
  floatingProfit: string;
  createdAt: Date | string;
  finished: boolean;
  /** Quote value of the fees the cycle under way has paid so far (every asset). */
  openFees?: string;
  /** When a task that is not running now (and not finished) was last stopped or paused; null when it runs. */
  stoppedAt?: Date | string | null;
  cycles: readonly Pick<CycleRow, 'buy_cost' | 'remainder_cost' | 'closed_at' | 'fees'>[];
}

/** A task's invested, ROI, APR and run time at `now`. */
export const taskFigures = (task: TaskFigures, now: Date) => {
  let maxInvested = new Big(task.currentCost);
  let fees = new Big(task.openFees ?? 0);
  let lastClose: number | null = null;
  for (const cycle of task.cycles) {
    const funds = fundsUsed(cycle);
    if (funds.gt(maxInvested)) maxInvested = funds;
    fees = fees.plus(cycle.fees);
    const at = millis(cycle.closed_at);
    if (lastClose === null || at > lastClose) lastClose = at;
  }
  const start = millis(task.createdAt);
  // A stopped task's clock stops with it: its APR does not drift while it does nothing.
  const stopped = !task.finished && task.stoppedAt ? Math.min(millis(task.stoppedAt), now.getTime()) : null;
  const end = task.finished && lastClose !== null ? lastClose : (stopped ?? now.getTime());
  const runSeconds = Math.max(0, Math.floor((end - start) / 1000));
  const totalProfit = new Big(task.realizedProfit).plus(task.floatingProfit);
  const roi = percentOf(totalProfit, maxInvested);
  return {
    invested: new Big(task.currentCost).toFixed(),
    maxInvested: maxInvested.toFixed(),
    totalProfit: totalProfit.toFixed(),
    fees: fees.toFixed(),
    roi,
    apr: annualized(roi, runSeconds),
    startedAt: iso(task.createdAt),
    endedAt: task.finished || stopped !== null ? new Date(end).toISOString() : null,
    runSeconds,
  };
};

export interface ReturnsDeps {
  db: Db;
  engine: EngineFacade;
  /** The user's tasks as the pages show them (the trade service's readers). */
  trade: TaskReader;
}

export interface TaskReader {
  /** One task of the user (10006 when not theirs). */
  task(userId: string, id: string): Promise<TradeTask>;
  allTasks(userId: string): Promise<TradeTask[]>;
}

/** An account that does not answer within this long is left out of the total (and said to be). */
const ACCOUNT_TIMEOUT_MS = 5_000;
const QUOTE = 'USDT';

const withTimeout = <T>(work: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });

/** The returns of a user's tasks and account, read from the cycles table and the engine's live state. */
export const createReturnsService = ({ db, engine, trade }: ReturnsDeps) => {
  /** An account's holdings in USDT at its own last prices; null when it cannot be asked now. */
  const accountValue = async (row: { id: string; exchange: string; price_source: string | null }): Promise<string | null> => {
    try {
      return await withTimeout(
        (async () => {
          const client = await engine.accountClient(row);
          const [balance, markets] = await Promise.all([client.fetchBalance(), client.loadMarkets()]);
          const tradable = new Set(markets.map((m) => m.symbol));
          let value = new Big(0);
          const held: [string, string][] = [];
          for (const [asset, amount] of Object.entries(balance.total)) {
            if (new Big(amount).lte(0)) continue;
            if (asset === QUOTE) value = value.plus(amount);
            // A coin without a USDT market has no USDT price here: it is not counted.
            else if (tradable.has(`${asset}/${QUOTE}`)) held.push([`${asset}/${QUOTE}`, amount]);
          }
          if (held.length > 0) {
            // One request for every price where the exchange allows it.
            const tickers = new Map((await client.fetchTickers(held.map(([symbol]) => symbol))).map((t) => [t.symbol, t]));
            for (const [symbol, amount] of held) {
              const ticker = tickers.get(symbol) ?? (await client.fetchTicker(symbol));
              const price = ticker.last ?? ticker.bid ?? ticker.ask;
              if (price === null) throw new Error(`no price for ${symbol}`);
              value = value.plus(new Big(amount).times(price));
            }
          }
          return value.round(8).toFixed();
        })(),
        ACCOUNT_TIMEOUT_MS,
      );
    } catch {
      return null;
    }
  };

  /** A task's returns and cumulative-profit curve. */
  const taskReturns = async (userId: string, taskId: string): Promise<TaskReturns> => {
    const task = await trade.task(userId, taskId);
    const [cycles, created, stop] = await Promise.all([
      db.selectFrom('cycles').select(['closed_at', 'buy_cost', 'remainder_cost', 'fees', 'realized_profit']).where('task_id', '=', taskId).orderBy('closed_at').orderBy('id').execute(),
      db.selectFrom('trade_tasks').select(['created_at', 'state']).where('id', '=', taskId).executeTakeFirstOrThrow(),
      // The last stop (by the user, a close, or the robot pausing it), for a task that does not run now.
      task.running
        ? Promise.resolve(undefined)
        : db.selectFrom('task_events').select('created_at').where('task_id', '=', taskId).where('kind', 'in', ['stopped', 'paused']).orderBy('created_at', 'desc').limit(1).executeTakeFirst(),
    ]);
    const figures = taskFigures(
      {
        currentCost: task.cost,
        realizedProfit: task.realizedProfit,
        floatingProfit: task.floatingProfit,
        createdAt: created.created_at,
        finished: task.finished,
        stoppedAt: stop?.created_at ?? null,
        // The cycle under way has paid fees too (the engine's live state, else the stored one).
        openFees: engine.live(taskId)?.state.fees ?? (created.state as { fees?: string } | null)?.fees ?? '0',
        cycles,
      },
      new Date(),
    );
    return {
      taskId,
      symbol: task.symbol,
      ...figures,
      realizedProfit: task.realizedProfit,
      floatingProfit: task.floatingProfit,
      lastPrice: task.lastPrice,
      cyclesClosed: cycles.length,
      curve: cumulativeCurve(cycles.map((c) => ({ closedAt: c.closed_at, profit: c.realized_profit }))),
    };
  };

  /** A task's closed cycles, newest first, a page of them. */
  const cycles = async (userId: string, query: CyclesQuery): Promise<Page<TaskCycle>> => {
    await trade.task(userId, query.taskId);
    const base = db.selectFrom('cycles').where('task_id', '=', query.taskId).where('user_id', '=', userId);
    const [rows, count] = await Promise.all([
      base
        .select(['id', 'cycle', 'opened_at', 'closed_at', 'levels_filled', 'buy_cost', 'remainder_cost', 'sell_proceeds', 'realized_profit', 'fees', 'exit_reason'])
        .orderBy('closed_at', 'desc')
        .orderBy('id', 'desc')
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize)
        .execute(),
      base.select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { list: (rows as CycleRow[]).map(toTaskCycle), total: Number(count.n) };
  };

  /** The account's total assets and the return of all its tasks. */
  const overview = async (userId: string): Promise<ReturnsOverview> => {
    const [tasks, accounts, wallet, peaks, span] = await Promise.all([
      trade.allTasks(userId),
      db.selectFrom('exchange_accounts').select(['id', 'name', 'exchange', 'price_source']).where('user_id', '=', userId).orderBy('created_at').execute(),
      balances(db, userId),
      db
        .selectFrom('cycles')
        .select(['task_id', sql<string>`max(buy_cost + remainder_cost)::text`.as('peak'), sql<number>`count(*)::int`.as('n')])
        .where('user_id', '=', userId)
        .groupBy('task_id')
        .execute(),
      db
        .selectFrom('cycles')
        .select([sql<number>`extract(epoch from min(closed_at))::float8`.as('first'), sql<number>`extract(epoch from max(closed_at))::float8`.as('last')])
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow(),
    ]);
    // The curve in at most MAX_CURVE_POINTS buckets of time, summed in the database.
    let curve: ReturnsOverview['curve'] = [];
    if (span.first !== null && span.last !== null) {
      const bucket = Math.max(1, Math.ceil((Number(span.last) - Number(span.first) + 1) / MAX_CURVE_POINTS));
      const { rows } = await sql<{ at: Date; profit: string }>`
        select max(closed_at) as at, sum(realized_profit)::text as profit
        from cycles where user_id = ${userId}
        group by floor((extract(epoch from closed_at) - ${Number(span.first)}) / ${bucket})
        order by 1`.execute(db);
      curve = cumulativeCurve(rows.map((row) => ({ closedAt: row.at, profit: row.profit })));
    }
    const peakOf = new Map(peaks.map((p) => [p.task_id, p]));
    let realized = new Big(0);
    let floating = new Big(0);
    let maxInvested = new Big(0);
    for (const task of tasks) {
      realized = realized.plus(task.realizedProfit);
      floating = floating.plus(task.floatingProfit);
      const peak = peakOf.get(task.id)?.peak ?? '0';
      maxInvested = maxInvested.plus(new Big(peak).gt(task.cost) ? peak : task.cost);
    }
    const values: AccountValue[] = await Promise.all(
      accounts.map(async (account) => ({ id: account.id, name: account.name, exchange: account.exchange, value: await accountValue(account) })),
    );
    const usdt = wallet.balances.find((b) => b.asset === QUOTE);
    const walletUsdt = new Big(usdt?.available ?? 0).plus(usdt?.held ?? 0);
    const total = values.reduce((sum, account) => (account.value === null ? sum : sum.plus(account.value)), walletUsdt);
    const totalProfit = realized.plus(floating);
    return {
      assets: { total: total.toFixed(), wallet: walletUsdt.toFixed(), accounts: values, complete: values.every((v) => v.value !== null) },
      realizedProfit: realized.toFixed(),
      floatingProfit: floating.toFixed(),
      totalProfit: totalProfit.toFixed(),
      maxInvested: maxInvested.toFixed(),
      roi: percentOf(totalProfit, maxInvested),
      tasks: tasks.length,
      cyclesClosed: peaks.reduce((sum, p) => sum + p.n, 0),
      curve,
    };
  };

  return { taskReturns, cycles, overview };
};
