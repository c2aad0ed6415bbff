import Big from 'big.js';
import { sql } from 'kysely';
import { ErrorCode } from '../../../src/api/errors';
import type { ClosedCycle, DailyProfit, DailyProfitDetail, ProfitOverview, ProfitRank } from '../../../src/api/member';
import type { Page } from '../../../src/api/types';
import type { Db } from '../db/database';
import { BusinessError, fail } from '../http/errors';
import type { DailyDetailQuery, DailyQuery, RankQuery, SummaryQuery } from './schemas';

/** A calendar date YYYY-MM-DD that exists (10003 otherwise). */
const checkDate = (date: string): string => {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date) fail(ErrorCode.PARAM_FORMAT, 'invalid date', { field: 'date' });
  return date;
};

/** A zone name Intl accepts but the database does not know: the same 10003. */
const inZone = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof BusinessError) && /time zone/i.test(String((error as Error).message))) {
      fail(ErrorCode.PARAM_FORMAT, 'unknown time zone', { field: 'timeZone' });
    }
    throw error;
  }
};

/** "A***": the nickname's first character and a mask. */
export const maskName = (nickname: string): string => `${[...nickname.trim()][0] ?? '*'}***`;

const decimal = (value: string | number | null | undefined) => new Big(value ?? 0).toFixed();

/** Totals and one point a day of realized profit (days in the query's time zone). */
export const summary = async (db: Db, userId: string, query: SummaryQuery): Promise<ProfitOverview> => {
  const tz = query.timeZone;
  return inZone(async () => {
    const totals = await db
      .selectFrom('cycles')
      .select([
        sql<string>`coalesce(sum(realized_profit), 0)::text`.as('total'),
        sql<number>`count(*)::int`.as('cycles'),
        sql<string>`coalesce(sum(realized_profit) filter (where (closed_at at time zone ${tz})::date = (now() at time zone ${tz})::date), 0)::text`.as('today'),
        sql<string>`coalesce(sum(realized_profit) filter (where (closed_at at time zone ${tz})::date > (now() at time zone ${tz})::date - 7), 0)::text`.as('last7'),
        sql<string>`coalesce(sum(realized_profit) filter (where (closed_at at time zone ${tz})::date > (now() at time zone ${tz})::date - 30), 0)::text`.as('last30'),
        sql<string>`to_char(now() at time zone ${tz}, 'YYYY-MM-DD')`.as('today_date'),
      ])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    const { rows } = await sql<{ date: string; profit: string; cycles: number }>`
      with days as (
        select (now() at time zone ${tz})::date - back as day from generate_series(0, ${query.days - 1}::int) as back
      ), sums as (
        select (closed_at at time zone ${tz})::date as day, sum(realized_profit) as profit, count(*) as cycles
        from cycles
        where user_id = ${userId} and closed_at >= now() - make_interval(days => ${query.days + 1})
        group by 1
      )
      select to_char(days.day, 'YYYY-MM-DD') as date, coalesce(sums.profit, 0)::text as profit, coalesce(sums.cycles, 0)::int as cycles
      from days left join sums on sums.day = days.day
      order by days.day`.execute(db);
    return {
      timeZone: tz,
      today: totals.today_date,
      total: decimal(totals.total),
      todayProfit: decimal(totals.today),
      last7Days: decimal(totals.last7),
      last30Days: decimal(totals.last30),
      cycles: totals.cycles,
      daily: rows.map((row) => ({ date: row.date, profit: decimal(row.profit), cycles: row.cycles })),
    };
  });
};

/** Days with closed cycles, newest first, a page of them. */
export const daily = async (db: Db, userId: string, query: DailyQuery): Promise<Page<DailyProfit>> => {
  const tz = query.timeZone;
  return inZone(async () => {
    const { rows } = await sql<{ date: string; profit: string; cycles: number; total: number }>`
      select to_char(day, 'YYYY-MM-DD') as date, sum(realized_profit)::text as profit,
        count(*)::int as cycles, (count(*) over ())::int as total
      from (select (closed_at at time zone ${tz})::date as day, realized_profit from cycles where user_id = ${userId}) as closed
      group by day
      order by day desc
      limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`.execute(db);
    let total = rows[0]?.total;
    if (total === undefined) {
      const { rows: counted } = await sql<{ n: number }>`
        select count(distinct (closed_at at time zone ${tz})::date)::int as n from cycles where user_id = ${userId}`.execute(db);
      total = counted[0]?.n ?? 0;
    }
    return { list: rows.map((row) => ({ date: row.date, profit: decimal(row.profit), cycles: row.cycles })), total };
  });
};

/** The cycles closed on one day. */
export const dailyDetail = async (db: Db, userId: string, query: DailyDetailQuery): Promise<DailyProfitDetail> => {
  const tz = query.timeZone;
  const date = checkDate(query.date);
  return inZone(async () => {
    const rows = await db
      .selectFrom('cycles')
      .innerJoin('trade_tasks', 'trade_tasks.id', 'cycles.task_id')
      .innerJoin('exchange_accounts', 'exchange_accounts.id', 'trade_tasks.exchange_account_id')
      .select([
        'cycles.id',
        'cycles.task_id',
        'cycles.cycle',
        'cycles.buy_cost',
        'cycles.sell_proceeds',
        'cycles.realized_profit',
        'cycles.fuel_charged',
        'cycles.closed_at',
        'trade_tasks.symbol',
        'exchange_accounts.name as exchange_name',
      ])
      .where('cycles.user_id', '=', userId)
      // The day's bounds in the zone, so the (user_id, closed_at) index serves the range.
      .where('cycles.closed_at', '>=', sql<Date>`(${date}::date)::timestamp at time zone ${tz}`)
      .where('cycles.closed_at', '<', sql<Date>`(${date}::date + 1)::timestamp at time zone ${tz}`)
      .orderBy('cycles.closed_at', 'desc')
      .orderBy('cycles.id', 'desc')
      .execute();
    const cycles = rows.map(
      (row): ClosedCycle => ({
        id: String(row.id),
        taskId: row.task_id,
        symbol: row.symbol,
        exchangeName: row.exchange_name,
        cycle: row.cycle,
        buyCost: decimal(row.buy_cost),
        sellProceeds: decimal(row.sell_proceeds),
        realizedProfit: decimal(row.realized_profit),
        fuelCharged: decimal(row.fuel_charged),
        closedAt: new Date(row.closed_at).toISOString(),
      }),
    );
    const profit = cycles.reduce((sum, c) => sum.plus(c.realizedProfit), new Big(0));
    return { date, profit: profit.toFixed(), cycles };
  });
};

/** Users ranked by realized profit, names masked, and the caller's own place. */
export const rank = async (db: Db, userId: string, query: RankQuery): Promise<ProfitRank> => {
  const tz = query.timeZone;
  return inZone(async () => {
    const { rows: today } = await sql<{ date: string }>`select to_char(now() at time zone ${tz}, 'YYYY-MM-DD') as date`.execute(db);
    const date = today[0]!.date;
    const window =
      query.period === 'day'
        ? sql`where closed_at >= (${date}::date)::timestamp at time zone ${tz} and closed_at < (${date}::date + 1)::timestamp at time zone ${tz}`
        : sql``;
    const { rows } = await sql<{ user_id: string; profit: string; rank: number; nickname: string }>`
      with totals as (
        select user_id, sum(realized_profit) as profit from cycles ${window} group by user_id having sum(realized_profit) > 0
      ), ranked as (
        select user_id, profit, (row_number() over (order by profit desc, user_id))::int as rank from totals
      )
      select ranked.user_id, ranked.profit::text as profit, ranked.rank, users.nickname
      from ranked join users on users.id = ranked.user_id
      where ranked.rank <= ${query.limit} or ranked.user_id = ${userId}
      order by ranked.rank`.execute(db);
    const mine = rows.find((row) => row.user_id === userId);
    return {
      period: query.period,
      date,
      list: rows
        .filter((row) => row.rank <= query.limit)
        .map((row) => ({ rank: row.rank, name: maskName(row.nickname), profit: decimal(row.profit), self: row.user_id === userId })),
      me: mine ? { rank: mine.rank, profit: decimal(mine.profit) } : null,
    };
  });
};
