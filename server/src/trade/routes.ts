import Big from 'big.js';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { MAX_TASKS_PER_COIN } from '../../../src/api/defaults';
import { ErrorCode } from '../../../src/api/errors';
import { PAPER_EXCHANGE } from '../../../src/api/exchange';
import type { TaskEvent, TradeOrder, TradePair, TradeTask, TradeTaskDetail } from '../../../src/api/trade';
import type { CreateTradePayload, UpdateTradePayload } from '../../../src/api/types';
import type { Db } from '../db/database';
import { averagePrice, initialCycleState, type CycleState } from '../engine/decide';
import { ExchangeClientError, type ExchangeClient, type Ticker } from '../engine/exchangeClient';
import type { Runner } from '../engine/runner';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { levelRule, refreshLevel } from '../member/levels';
import { readSettings } from '../settings';
import { toTemplate } from '../strategy/routes';
import { checkTaskCanRun, type CheckedMarket } from './checks';

export interface TradeDeps {
  db: Db;
  runner: Runner;
  feeRate: string;
}

const uuid = { type: 'string', format: 'uuid' } as const;
const decimal = { type: 'string', pattern: '^\\d{1,12}(\\.\\d{1,8})?$' } as const;
const paging = {
  page: { type: 'integer', minimum: 1, default: 1 },
  pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
} as const;
const SYMBOL = '^[A-Z0-9]{1,15}/[A-Z0-9]{1,10}$';

const TASK_COLUMNS = [
  'trade_tasks.id',
  'trade_tasks.exchange_account_id',
  'trade_tasks.symbol',
  'trade_tasks.strategy_id',
  'trade_tasks.first_order_amount',
  'trade_tasks.first_order_multiple',
  'trade_tasks.cycle_count',
  'trade_tasks.running',
  'trade_tasks.replenish_status',
  'trade_tasks.status',
  'trade_tasks.state',
  'trade_tasks.created_at',
  'exchange_accounts.name as exchange_name',
  'exchange_accounts.exchange',
  'strategies.name as strategy_name',
  'strategies.user_id as strategy_owner',
  'strategies.levels',
] as const;

/** Trading tasks, their orders and the market data the wizard needs (spec section 7). */
export const tradeRoutes = (deps: TradeDeps) => async (app: FastifyInstance) => {
  const { db, runner } = deps;
  app.addHook('onRequest', app.authenticate);

  /** The user's exchange account: the given one (10006 when not theirs), or their first (11006 when none). */
  const account = async (userId: string, exchangeId?: string) => {
    let query = db.selectFrom('exchange_accounts').select(['id', 'exchange', 'name']).where('user_id', '=', userId);
    query = exchangeId ? query.where('id', '=', exchangeId) : query.orderBy('created_at');
    const row = await query.executeTakeFirst();
    if (!row) {
      if (exchangeId) fail(ErrorCode.PARAM_NOT_EXIST, 'exchange account does not exist', { field: 'exchangeId' });
      fail(ErrorCode.API_KEY_NOT_BOUND, 'bind an exchange account first');
    }
    return row!;
  };

  const marketOf = (symbol: string) => runner.paper.fetchMarkets().find((m) => m.symbol === symbol);

  const pairOf = (symbol: string): TradePair => {
    const market = marketOf(symbol)!;
    const ticker = runner.market.ticker(symbol);
    return {
      id: symbol,
      symbol,
      base: market.base,
      quote: market.quote,
      price: ticker.last,
      change24h: ticker.percentage,
      quoteVolume24h: ticker.quoteVolume,
      minCost: market.limits.cost.min,
    };
  };

  /** A market as the routes read it: the paper exchange's or a real one's. */
  type VenueMarket = CheckedMarket & { base: string; quote: string };

  /** Where an account's markets, prices and balance come from: the paper market, or the real exchange through its client. */
  interface Venue {
    markets(): Promise<VenueMarket[]>;
    market(symbol: string): Promise<VenueMarket | undefined>;
    price(symbol: string): Promise<string | null>;
    pair(symbol: string): Promise<TradePair>;
    /** Pairs of many markets, their 24 h figures from one request where the exchange allows it. */
    pairs(markets: VenueMarket[]): Promise<TradePair[]>;
    freeUsdt(): Promise<string>;
  }

  /** The exchange's refusals as API errors. */
  const exchangeCall = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ExchangeClientError)) throw error;
      const failure = error.failure;
      if (failure.kind === 'permission') fail(ErrorCode.EXCHANGE_PERMISSION_DENIED, 'the exchange refused the API key', { reason: failure.reason });
      fail(ErrorCode.NOT_ENABLED, 'the exchange could not be asked now', { reason: 'reason' in failure ? failure.reason : failure.kind });
      throw error;
    }
  };

  const paperVenue = (accountId: string): Venue => ({
    markets: async () => runner.paper.fetchMarkets(),
    market: async (symbol) => marketOf(symbol),
    price: async (symbol) => (marketOf(symbol) ? runner.market.price(symbol) : null),
    pair: async (symbol) => pairOf(symbol),
    pairs: async (markets) => markets.map((m) => pairOf(m.symbol)),
    freeUsdt: () => freeUsdt(accountId),
  });

  const realVenue = (client: ExchangeClient): Venue => {
    const markets = () => exchangeCall(() => client.loadMarkets());
    const market = async (symbol: string) => (await markets()).find((m) => m.symbol === symbol);
    const lastOf = (ticker: Ticker) => ticker.last ?? ticker.ask ?? ticker.bid;
    const price = async (symbol: string) => {
      if (!(await market(symbol))) return null;
      return lastOf(await exchangeCall(() => client.fetchTicker(symbol)));
    };
    const toPair = (info: VenueMarket, ticker: Ticker): TradePair => ({
      id: info.symbol,
      symbol: info.symbol,
      base: info.base,
      quote: info.quote,
      price: lastOf(ticker) ?? '0',
      change24h: ticker.change24h ?? '0',
      quoteVolume24h: ticker.quoteVolume24h ?? '0',
      minCost: info.limits.cost.min,
    });
    return {
      markets,
      market,
      price,
      pair: async (symbol) => toPair((await market(symbol))!, await exchangeCall(() => client.fetchTicker(symbol))),
      pairs: async (infos) => {
        const tickers = await exchangeCall(() => client.fetchTickers(infos.map((m) => m.symbol)));
        const bySymbol = new Map(infos.map((m) => [m.symbol, m]));
        return tickers.flatMap((ticker) => (bySymbol.has(ticker.symbol) ? [toPair(bySymbol.get(ticker.symbol)!, ticker)] : []));
      },
      freeUsdt: async () => (await exchangeCall(() => client.fetchBalance())).free.USDT ?? '0',
    };
  };

  const venueOf = async (account: { id: string; exchange: string }): Promise<Venue> => {
    if (account.exchange === PAPER_EXCHANGE) return paperVenue(account.id);
    let client: ExchangeClient | null = null;
    try {
      client = await runner.clientFor(account.id);
    } catch {
      fail(ErrorCode.NOT_ENABLED, 'the exchange account cannot be used now', { reason: 'credentials_unavailable' });
    }
    return client === null ? paperVenue(account.id) : realVenue(client);
  };

  /** The market and price a pre-start check needs (10006 when the pair is not traded there). */
  const checkedMarket = async (venue: Venue, symbol: string) => {
    const market = await venue.market(symbol);
    const price = market ? await venue.price(symbol) : null;
    if (!market || price === null) fail(ErrorCode.PARAM_NOT_EXIST, `pair ${symbol} does not exist`, { field: 'coinIdList', symbol });
    return { market: market!, price: price! };
  };

  const liveState = (id: string, stored: unknown): CycleState => runner.tasks.get(id)?.state ?? { ...initialCycleState(), ...(stored as Partial<CycleState>) };

  const realized = async (taskIds: string[]) => {
    if (taskIds.length === 0) return new Map<string, string>();
    const rows = await db
      .selectFrom('cycles')
      .select(['task_id', sql<string>`sum(realized_profit)`.as('profit')])
      .where('task_id', 'in', taskIds)
      .groupBy('task_id')
      .execute();
    return new Map(rows.map((r) => [r.task_id, r.profit]));
  };

  type TaskRow = Awaited<ReturnType<typeof taskQuery>>[number];
  const taskQuery = (userId: string) =>
    db
      .selectFrom('trade_tasks')
      .innerJoin('exchange_accounts', 'exchange_accounts.id', 'trade_tasks.exchange_account_id')
      .innerJoin('strategies', 'strategies.id', 'trade_tasks.strategy_id')
      .select(TASK_COLUMNS)
      .where('trade_tasks.user_id', '=', userId)
      .execute();

  const toTask = (row: TaskRow, realizedProfit: string | undefined): TradeTask => {
    const state = liveState(row.id, row.state);
    const average = averagePrice(state);
    const lastPrice = row.exchange !== PAPER_EXCHANGE ? runner.lastPrice(row.exchange_account_id, row.symbol) : marketOf(row.symbol) ? runner.market.price(row.symbol) : null;
    const floating = average && lastPrice ? new Big(state.quantity).times(lastPrice).minus(state.cost) : new Big(0);
    return {
      id: row.id,
      exchangeId: row.exchange_account_id,
      exchangeName: row.exchange_name,
      symbol: row.symbol,
      strategyId: row.strategy_id,
      strategyName: row.strategy_name,
      strategySystem: row.strategy_owner === null,
      firstOrderAmount: row.first_order_amount,
      firstOrderMultiple: row.first_order_multiple,
      cycleCount: row.cycle_count,
      cyclesDone: state.cyclesDone,
      running: runner.tasks.get(row.id)?.params.running ?? row.running,
      status: row.replenish_status,
      finished: row.status === 'finished' || state.phase === 'finished',
      phase: state.phase,
      quantity: state.quantity,
      cost: state.cost,
      averagePrice: average ? new Big(average).round(8).toFixed() : null,
      lastPrice,
      floatingProfit: floating.round(8).toFixed(),
      realizedProfit: new Big(realizedProfit ?? '0').toFixed(),
      levelsFilled: state.levelsFilled,
      levelsTotal: row.levels.length,
      createdAt: new Date(row.created_at).toISOString(),
    };
  };

  const ownTask = async (userId: string, id: string) => {
    const rows = await db
      .selectFrom('trade_tasks')
      .innerJoin('exchange_accounts', 'exchange_accounts.id', 'trade_tasks.exchange_account_id')
      .innerJoin('strategies', 'strategies.id', 'trade_tasks.strategy_id')
      .select(TASK_COLUMNS)
      .where('trade_tasks.user_id', '=', userId)
      .where('trade_tasks.id', '=', id)
      .execute();
    if (rows.length === 0) fail(ErrorCode.PARAM_NOT_EXIST, 'task does not exist', { field: 'id' });
    return rows[0]!;
  };

  const strategyFor = async (userId: string, strategyId: string) => {
    const row = await db
      .selectFrom('strategies')
      .selectAll()
      .where('id', '=', strategyId)
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('user_id', 'is', null)]))
      .executeTakeFirst();
    if (!row) fail(ErrorCode.PARAM_NOT_EXIST, 'strategy does not exist', { field: 'strategyId' });
    return toTemplate(row!);
  };

  const freeUsdt = async (accountId: string) => {
    await runner.ensureAccount(accountId);
    return runner.paper.fetchBalance(accountId).free.USDT ?? '0';
  };

  app.get(
    '/api/trade/pairs',
    { schema: { summary: 'Tradable pairs of an exchange account', querystring: { type: 'object', properties: { exchangeId: uuid, q: { type: 'string', maxLength: 20 }, quote: { type: 'string', maxLength: 10 }, ...paging } } } },
    async (request) => {
      const query = request.query as { exchangeId?: string; q?: string; quote?: string; page: number; pageSize: number };
      const venue = await venueOf(await account(request.user!.id, query.exchangeId));
      const needle = query.q?.trim().toUpperCase() ?? '';
      const all = (await venue.markets()).filter((m) => (!query.quote || m.quote === query.quote.toUpperCase()) && (!needle || m.symbol.includes(needle)));
      const page = all.slice((query.page - 1) * query.pageSize, query.page * query.pageSize);
      return ok({ list: await Promise.all(page.map((m) => venue.pair(m.symbol))), total: all.length });
    },
  );

  app.get(
    '/api/trade/hot-pairs',
    { schema: { summary: 'Pairs by 24 h volume or change', querystring: { type: 'object', properties: { exchangeId: uuid, sort: { type: 'string', enum: ['volume', 'change'], default: 'volume' }, limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 } } } } },
    async (request) => {
      const query = request.query as { exchangeId?: string; sort: 'volume' | 'change'; limit: number };
      const selected = await account(request.user!.id, query.exchangeId);
      const venue = await venueOf(selected);
      // USDT pairs, the quote the robot trades in, ranked by their 24 h figures.
      const pairs = await venue.pairs((await venue.markets()).filter((m) => m.quote === 'USDT'));
      const key = query.sort === 'volume' ? (p: TradePair) => new Big(p.quoteVolume24h) : (p: TradePair) => new Big(p.change24h).abs();
      pairs.sort((a, b) => key(b).cmp(key(a)));
      return ok(pairs.slice(0, query.limit));
    },
  );

  app.post(
    '/api/trade/coin-price',
    {
      schema: {
        summary: 'Last prices of pairs or coins',
        body: { type: 'object', additionalProperties: false, required: ['coins'], properties: { exchangeId: uuid, coins: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 20 } } } },
      },
    },
    async (request) => {
      const body = request.body as { exchangeId?: string; coins: string[] };
      const venue = await venueOf(await account(request.user!.id, body.exchangeId));
      const prices: Record<string, string> = {};
      for (const coin of body.coins) {
        const symbol = coin.includes('/') ? coin.toUpperCase() : `${coin.toUpperCase()}/USDT`;
        const price = await venue.price(symbol);
        if (price !== null) prices[coin] = price;
      }
      return ok(prices);
    },
  );

  app.post(
    '/api/trade/add',
    {
      schema: {
        summary: 'Create one task per coin',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['exchangeId', 'coinIdList', 'cycleCount', 'firstOrderAmount', 'firstOrderMultiple', 'running', 'replenishStatus', 'strategyId'],
          properties: {
            exchangeId: uuid,
            coinIdList: { type: 'array', minItems: 1, maxItems: 20, uniqueItems: true, items: { type: 'string', pattern: SYMBOL } },
            cycleCount: { type: 'integer', minimum: 1, maximum: 9999 },
            firstOrderAmount: decimal,
            firstOrderMultiple: { type: 'boolean' },
            running: { type: 'boolean' },
            replenishStatus: { type: 'string', enum: ['replenish_open', 'replenish_closed'] },
            strategyId: uuid,
          },
        },
      },
    },
    async (request) => {
      const body = request.body as CreateTradePayload;
      const userId = request.user!.id;
      const activated = await db.selectFrom('users').select('activated').where('id', '=', userId).executeTakeFirst();
      if (!activated?.activated) fail(ErrorCode.USER_NOT_ACTIVATED, 'activate the account before creating tasks');
      const hasAccount = await db.selectFrom('exchange_accounts').select('id').where('user_id', '=', userId).executeTakeFirst();
      if (!hasAccount) fail(ErrorCode.API_KEY_NOT_BOUND, 'bind an exchange account first');
      const exchange = await account(userId, body.exchangeId);
      const strategy = await strategyFor(userId, body.strategyId);
      if (new Big(body.firstOrderAmount).lte(0)) fail(ErrorCode.PARAM_RANGE, 'the first order amount must be above 0', { field: 'firstOrderAmount' });
      const venue = await venueOf(exchange);
      for (const symbol of body.coinIdList) {
        if (!(await venue.market(symbol))) fail(ErrorCode.PARAM_NOT_EXIST, `pair ${symbol} does not exist`, { field: 'coinIdList', symbol });
      }
      const params = { firstOrderAmount: body.firstOrderAmount, firstOrderMultiple: body.firstOrderMultiple };
      if (body.running) {
        // Every pair's ladder, and all of them together against the free balance.
        const free = await venue.freeUsdt();
        const checked = [];
        for (const symbol of body.coinIdList) checked.push(await checkedMarket(venue, symbol));
        for (const { market, price } of checked) checkTaskCanRun(market, price, params, strategy, free, deps.feeRate);
        const total = new Big(free).div(body.coinIdList.length).toFixed();
        for (const { market, price } of checked) checkTaskCanRun(market, price, params, strategy, total, deps.feeRate);
      }
      const ids = await db.transaction().execute(async (trx) => {
        // One creation at a time per user, so two requests cannot both pass the per-coin limit.
        await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
        const counts = await trx
          .selectFrom('trade_tasks')
          .select(['symbol', sql<number>`count(*)::int`.as('n')])
          .where('user_id', '=', userId)
          .where('status', '=', 'active')
          .where('symbol', 'in', body.coinIdList)
          .groupBy('symbol')
          .execute();
        const full = counts.find((c) => c.n >= MAX_TASKS_PER_COIN);
        if (full) fail(ErrorCode.TASK_PER_COIN_LIMIT, `at most ${MAX_TASKS_PER_COIN} tasks per coin`, { symbol: full.symbol });
        // The membership level's limit on tasks not finished.
        const levels = (await readSettings(trx)).levels;
        const limit = levelRule(levels, (await refreshLevel(trx, userId, levels)).level)?.taskLimit ?? 0;
        const open = await trx.selectFrom('trade_tasks').select(sql<number>`count(*)::int`.as('n')).where('user_id', '=', userId).where('status', '=', 'active').executeTakeFirstOrThrow();
        if (open.n + body.coinIdList.length > limit) fail(ErrorCode.PARAM_RANGE, `at most ${limit} tasks at this membership level`, { rule: 'taskLimit', limit });
        const rows = await trx
          .insertInto('trade_tasks')
          .values(
            body.coinIdList.map((symbol) => ({
              user_id: userId,
              exchange_account_id: exchange.id,
              symbol,
              strategy_id: strategy.id,
              first_order_amount: new Big(body.firstOrderAmount).toFixed(),
              first_order_multiple: body.firstOrderMultiple,
              cycle_count: body.cycleCount,
              running: body.running,
              replenish_status: body.replenishStatus,
              state: JSON.stringify(initialCycleState()),
            })),
          )
          .returning('id')
          .execute();
        for (const row of rows) await trx.insertInto('task_events').values({ task_id: row.id, kind: 'created', data: JSON.stringify({ running: body.running }) }).execute();
        return rows.map((r) => r.id);
      });
      for (const id of ids) await runner.reload(id);
      return ok(ids.map((id) => ({ id })));
    },
  );

  app.get(
    '/api/trade/list',
    {
      schema: {
        summary: "The user's tasks",
        querystring: {
          type: 'object',
          properties: { ...paging, running: { type: 'boolean' }, symbol: { type: 'string', maxLength: 30 }, finished: { type: 'boolean' }, sort: { type: 'string' }, order: { type: 'string' } },
        },
      },
    },
    async (request) => {
      const query = request.query as { page: number; pageSize: number; running?: boolean; symbol?: string; finished?: boolean };
      const rows = await taskQuery(request.user!.id);
      const profits = await realized(rows.map((r) => r.id));
      let tasks = rows.map((row) => toTask(row, profits.get(row.id)));
      if (query.running !== undefined) tasks = tasks.filter((t) => t.running === query.running);
      if (query.finished !== undefined) tasks = tasks.filter((t) => t.finished === query.finished);
      if (query.symbol) tasks = tasks.filter((t) => t.symbol.includes(query.symbol!.toUpperCase()));
      tasks.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      return ok({ list: tasks.slice((query.page - 1) * query.pageSize, query.page * query.pageSize), total: tasks.length });
    },
  );

  app.get('/api/trade/detail/:id', { schema: { summary: 'One task with its cycle and events', params: { type: 'object', required: ['id'], properties: { id: uuid } } } }, async (request) => {
    const { id } = request.params as { id: string };
    const row = await ownTask(request.user!.id, id);
    const profits = await realized([id]);
    const strategy = await strategyFor(request.user!.id, row.strategy_id);
    const events = await db.selectFrom('task_events').select(['id', 'kind', 'data', 'created_at']).where('task_id', '=', id).orderBy('id', 'desc').limit(100).execute();
    const state = liveState(id, row.state);
    const detail: TradeTaskDetail = {
      ...toTask(row, profits.get(id)),
      strategy,
      firstFillPrice: state.firstFillPrice,
      takeProfitArmed: state.trailingSell !== null,
      events: events.map((e): TaskEvent => ({ id: String(e.id), kind: e.kind, data: e.data, createdAt: new Date(e.created_at).toISOString() })),
    };
    return ok(detail);
  });

  app.post(
    '/api/trade/update',
    {
      schema: {
        summary: 'Change a task',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'cycleCount', 'firstOrderAmount', 'firstOrderMultiple', 'running', 'status', 'strategyId'],
          properties: {
            id: uuid,
            cycleCount: { type: 'integer', minimum: 1, maximum: 9999 },
            firstOrderAmount: decimal,
            firstOrderMultiple: { type: 'boolean' },
            running: { type: 'boolean' },
            status: { type: 'string', enum: ['replenish_open', 'replenish_closed'] },
            strategyId: uuid,
          },
        },
      },
    },
    async (request) => {
      const body = request.body as UpdateTradePayload;
      const userId = request.user!.id;
      const row = await ownTask(userId, body.id);
      const strategy = await strategyFor(userId, body.strategyId);
      if (new Big(body.firstOrderAmount).lte(0)) fail(ErrorCode.PARAM_RANGE, 'the first order amount must be above 0', { field: 'firstOrderAmount' });
      if (body.running && !row.running) {
        const venue = await venueOf({ id: row.exchange_account_id, exchange: row.exchange });
        const { market, price } = await checkedMarket(venue, row.symbol);
        checkTaskCanRun(market, price, body, strategy, await venue.freeUsdt(), deps.feeRate);
      }
      await runner.exclusive(async () => {
        await db
          .updateTable('trade_tasks')
          .set({
            cycle_count: body.cycleCount,
            first_order_amount: new Big(body.firstOrderAmount).toFixed(),
            first_order_multiple: body.firstOrderMultiple,
            running: body.running,
            replenish_status: body.status,
            strategy_id: strategy.id,
            updated_at: sql`now()`,
          })
          .where('id', '=', body.id)
          .execute();
        await db.insertInto('task_events').values({ task_id: body.id, kind: 'updated', data: JSON.stringify({ running: body.running, status: body.status }) }).execute();
      });
      await runner.reload(body.id);
      return ok({ id: body.id });
    },
  );

  app.post(
    '/api/trade/action',
    {
      schema: {
        summary: 'Start, stop or replenish now',
        body: { type: 'object', additionalProperties: false, required: ['id', 'action'], properties: { id: uuid, action: { type: 'string', enum: ['start', 'stop', 'replenish'] } } },
      },
    },
    async (request) => {
      const { id, action } = request.body as { id: string; action: 'start' | 'stop' | 'replenish' };
      const userId = request.user!.id;
      const row = await ownTask(userId, id);
      if (row.status === 'finished') fail(ErrorCode.ROBOT_NOT_STARTED, 'the task has finished its cycles');
      if (action === 'replenish') {
        const result = await runner.exclusive(async () => {
          const task = runner.tasks.get(id);
          if (!task) return 'not_loaded' as const;
          const state = task.state;
          if (state.phase !== 'open' || new Big(state.quantity).lte(0) || state.pendingOrder) return 'no_position' as const;
          const level = state.levelsFilled + 1;
          const next = task.strategy.levels[level - 1];
          if (!next) return 'all_filled' as const;
          task.state = { ...state, pendingOrder: true, trailingBuy: null };
          await runner.placeOrder(task, { kind: 'buy', reason: 'replenish', level, quoteAmount: new Big(task.params.firstOrderAmount).times(next.multiple).toFixed() });
          return 'ok' as const;
        });
        if (result === 'not_loaded') fail(ErrorCode.ROBOT_NOT_STARTED, 'the robot is not running this task');
        if (result === 'no_position') fail(ErrorCode.NO_POSITION, 'no position to replenish');
        if (result === 'all_filled') fail(ErrorCode.INVALID, 'every level of the ladder is already filled', { reason: 'all_levels_filled' });
        return ok(null);
      }
      const running = action === 'start';
      if (running) {
        const strategy = await strategyFor(userId, row.strategy_id);
        const venue = await venueOf({ id: row.exchange_account_id, exchange: row.exchange });
        const { market, price } = await checkedMarket(venue, row.symbol);
        checkTaskCanRun(market, price, { firstOrderAmount: row.first_order_amount, firstOrderMultiple: row.first_order_multiple }, strategy, await venue.freeUsdt(), deps.feeRate);
      }
      try {
        await runner.exclusive(async () => {
          await db.updateTable('trade_tasks').set({ running, updated_at: sql`now()` }).where('id', '=', id).execute();
          await db.insertInto('task_events').values({ task_id: id, kind: running ? 'started' : 'stopped', data: '{}' }).execute();
        });
        await runner.reload(id);
      } catch (error) {
        request.log.error({ err: error, taskId: id }, 'robot action failed');
        fail(running ? ErrorCode.ROBOT_START_FAILED : ErrorCode.ROBOT_STOP_FAILED, running ? 'the robot could not start' : 'the robot could not stop');
      }
      return ok(null);
    },
  );

  app.post(
    '/api/trade/close-order/:id',
    { schema: { summary: 'Sell the whole position at market and stop the task', params: { type: 'object', required: ['id'], properties: { id: uuid } } } },
    async (request) => {
      const { id } = request.params as { id: string };
      await ownTask(request.user!.id, id);
      const result = await runner.exclusive(async () => {
        const task = runner.tasks.get(id);
        if (!task) return 'not_loaded' as const;
        const state = task.state;
        if (state.phase !== 'open' || new Big(state.quantity).lte(0) || state.pendingOrder) return 'no_position' as const;
        task.params = { ...task.params, running: false };
        task.state = { ...state, pendingOrder: true };
        await runner.placeOrder(task, { kind: 'sell', reason: 'close', quantity: state.quantity });
        return 'ok' as const;
      });
      if (result === 'not_loaded') fail(ErrorCode.ROBOT_NOT_STARTED, 'the robot is not running this task');
      if (result === 'no_position') fail(ErrorCode.NO_POSITION, 'no position to close');
      await db.insertInto('task_events').values({ task_id: id, kind: 'stopped', data: JSON.stringify({ by: 'close' }) }).execute();
      return ok(null);
    },
  );

  app.get(
    '/api/trade/profit-summary',
    {
      schema: {
        summary: 'Realized profit in total and today (in the given time zone)',
        querystring: { type: 'object', properties: { timeZone: { type: 'string', maxLength: 64, default: 'Asia/Shanghai' } } },
      },
    },
    async (request) => {
      const { timeZone } = request.query as { timeZone: string };
      try {
        new Intl.DateTimeFormat('en', { timeZone });
      } catch {
        fail(ErrorCode.PARAM_FORMAT, 'unknown time zone', { field: 'timeZone' });
      }
      const row = await db
        .selectFrom('cycles')
        .select([
          sql<string>`coalesce(sum(realized_profit), 0)`.as('total'),
          sql<string>`coalesce(sum(realized_profit) filter (where (closed_at at time zone ${timeZone})::date = (now() at time zone ${timeZone})::date), 0)`.as('today'),
          sql<number>`(count(*) filter (where (closed_at at time zone ${timeZone})::date = (now() at time zone ${timeZone})::date))::int`.as('cycles_today'),
          sql<string>`to_char(now() at time zone ${timeZone}, 'YYYY-MM-DD')`.as('date'),
        ])
        .where('user_id', '=', request.user!.id)
        .executeTakeFirstOrThrow();
      return ok({ date: row.date, realizedTotal: new Big(row.total).toFixed(), realizedToday: new Big(row.today).toFixed(), cyclesToday: row.cycles_today });
    },
  );

  app.get(
    '/api/trade/order-history',
    {
      schema: {
        summary: 'Orders of one task or of all tasks',
        querystring: { type: 'object', properties: { taskId: uuid, side: { type: 'string', enum: ['buy', 'sell'] }, ...paging, sort: { type: 'string' }, order: { type: 'string' } } },
      },
    },
    async (request) => {
      const query = request.query as { taskId?: string; side?: 'buy' | 'sell'; page: number; pageSize: number };
      const userId = request.user!.id;
      if (query.taskId) await ownTask(userId, query.taskId);
      let base = db.selectFrom('orders').where('user_id', '=', userId);
      if (query.taskId) base = base.where('task_id', '=', query.taskId);
      if (query.side) base = base.where('side', '=', query.side);
      const [rows, count] = await Promise.all([
        base.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(query.pageSize).offset((query.page - 1) * query.pageSize).execute(),
        base.select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      const list = rows.map(
        (o): TradeOrder => ({
          id: o.id,
          taskId: o.task_id,
          symbol: o.symbol,
          cycle: o.cycle,
          level: o.level,
          side: o.side,
          reason: o.reason,
          status: o.status,
          price: o.price,
          amount: o.filled,
          cost: o.cost,
          fee: o.fee,
          feeCurrency: o.fee_currency,
          error: o.error,
          createdAt: new Date(o.created_at).toISOString(),
        }),
      );
      return ok({ list, total: Number(count.n) });
    },
  );
};
