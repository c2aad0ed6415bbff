/**
 * GET /api/trade/returns, /api/trade/cycles and /api/trade/overview: a task's
 * returns with its cumulative-profit curve, its closed cycles page by page,
 * and the account's total assets and total return (definitions in
 * src/api/returns.ts).
 */
import Big from 'big.js';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AccountValue, ReturnsOverview, TaskReturns } from '../../../src/api/returns';
import type { Page } from '../../../src/api/types';
import type { TaskCycle } from '../../../src/api/returns';
import type { Db } from '../db/database';
import type { EngineFacade } from '../engine/facade';
import { ok } from '../http/envelope';
import { balances } from '../wallet/service';
import { cumulativeCurve, MAX_CURVE_POINTS, percentOf, taskFigures, toTaskCycle, type CycleRow } from './returns';
import type { createTradeService } from './service';

const uuid = { type: 'string', format: 'uuid' } as const;
const decimal = { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' } as const;
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] });
const time = { type: 'string', format: 'date-time' } as const;
const envelope = (data: object) => ({ type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' }, data } });
const object = (properties: Record<string, object>) => ({ type: 'object', additionalProperties: false, required: Object.keys(properties), properties });

const curveSchema = { type: 'array', maxItems: MAX_CURVE_POINTS, items: object({ time, profit: decimal }) };

const taskReturnsSchema = object({
  taskId: uuid,
  symbol: { type: 'string' },
  invested: decimal,
  maxInvested: decimal,
  realizedProfit: decimal,
  floatingProfit: decimal,
  totalProfit: decimal,
  fees: decimal,
  roi: nullable(decimal),
  apr: nullable(decimal),
  lastPrice: nullable(decimal),
  startedAt: time,
  endedAt: nullable(time),
  runSeconds: { type: 'integer', minimum: 0 },
  cyclesClosed: { type: 'integer', minimum: 0 },
  curve: curveSchema,
});

const taskCycleSchema = object({
  id: { type: 'string' },
  cycle: { type: 'integer' },
  openedAt: nullable(time),
  closedAt: time,
  durationSeconds: nullable({ type: 'integer', minimum: 0 }),
  levelsFilled: { type: 'integer', minimum: 0 },
  fundsUsed: decimal,
  sellProceeds: decimal,
  realizedProfit: decimal,
  fees: decimal,
  roi: nullable(decimal),
  exitReason: nullable({ type: 'string', enum: ['take_profit', 'stop_loss', 'close'] }),
});

const overviewSchema = object({
  assets: object({
    total: decimal,
    wallet: decimal,
    accounts: { type: 'array', items: object({ id: uuid, name: { type: 'string' }, exchange: { type: 'string' }, value: nullable(decimal) }) },
    complete: { type: 'boolean' },
  }),
  realizedProfit: decimal,
  floatingProfit: decimal,
  totalProfit: decimal,
  maxInvested: decimal,
  roi: nullable(decimal),
  tasks: { type: 'integer', minimum: 0 },
  cyclesClosed: { type: 'integer', minimum: 0 },
  curve: curveSchema,
});

export const returnsSchemas = {
  returns: {
    summary: "A task's invested funds, realized and floating profit, ROI, APR, run time and cumulative-profit curve",
    querystring: { type: 'object', additionalProperties: false, required: ['taskId'], properties: { taskId: uuid } },
    response: { 200: envelope(taskReturnsSchema) },
  },
  cycles: {
    summary: "A task's closed cycles, newest first",
    querystring: {
      type: 'object',
      additionalProperties: false,
      required: ['taskId'],
      properties: {
        taskId: uuid,
        page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1 },
        pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      },
    },
    response: { 200: envelope(object({ list: { type: 'array', items: taskCycleSchema }, total: { type: 'integer', minimum: 0 } })) },
  },
  overview: {
    summary: 'Total assets (wallet USDT and every exchange account valued in USDT) and the return of all tasks',
    response: { 200: envelope(overviewSchema) },
  },
} as const;

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

export const returnsRoutes = (deps: { db: Db; engine: EngineFacade; trade: ReturnType<typeof createTradeService> }) => async (app: FastifyInstance) => {
  const { db, engine, trade } = deps;

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

  app.get('/api/trade/returns', { schema: returnsSchemas.returns }, async (request) => {
    const userId = request.user!.id;
    const { taskId } = request.query as { taskId: string };
    const task = await trade.task(userId, taskId);
    const [cycles, created] = await Promise.all([
      db.selectFrom('cycles').select(['closed_at', 'buy_cost', 'remainder_cost', 'fees', 'realized_profit']).where('task_id', '=', taskId).orderBy('closed_at').orderBy('id').execute(),
      db.selectFrom('trade_tasks').select('created_at').where('id', '=', taskId).executeTakeFirstOrThrow(),
    ]);
    const figures = taskFigures(
      { currentCost: task.cost, realizedProfit: task.realizedProfit, floatingProfit: task.floatingProfit, createdAt: created.created_at, finished: task.finished, cycles },
      new Date(),
    );
    const answer: TaskReturns = {
      taskId,
      symbol: task.symbol,
      ...figures,
      realizedProfit: task.realizedProfit,
      floatingProfit: task.floatingProfit,
      lastPrice: task.lastPrice,
      cyclesClosed: cycles.length,
      curve: cumulativeCurve(cycles.map((c) => ({ closedAt: c.closed_at, profit: c.realized_profit }))),
    };
    return ok(answer);
  });

  app.get('/api/trade/cycles', { schema: returnsSchemas.cycles }, async (request) => {
    const userId = request.user!.id;
    const query = request.query as { taskId: string; page: number; pageSize: number };
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
    const page: Page<TaskCycle> = { list: (rows as CycleRow[]).map(toTaskCycle), total: Number(count.n) };
    return ok(page);
  });

  app.get('/api/trade/overview', { schema: returnsSchemas.overview }, async (request) => {
    const userId = request.user!.id;
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
    const answer: ReturnsOverview = {
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
    return ok(answer);
  });
};
