/**
 * The trade calls' rules (spec section 7): accounts and markets through the
 * one exchange interface (paper or real), the pre-start checks, the per-coin
 * and membership limits, tasks as the pages show them (sorted and paged in
 * the database), and the user's actions, carried out by the engine wherever
 * it runs (engine/facade.ts).
 */
import Big from 'big.js';
import { sql } from 'kysely';
import { MAX_TASKS_PER_COIN } from '../../../src/api/defaults';
import { ErrorCode } from '../../../src/api/errors';
import { isTestnetExchange, PAPER_EXCHANGE } from '../../../src/api/exchange';
import type { CloseResult, OhlcvAnswer, TaskAttention, TaskEvent, TaskWaiting, TradeOrder, TradePair, TradeTask, TradeTaskDetail } from '../../../src/api/trade';
import type { Db } from '../db/database';
import { averagePrice, initialCycleState, type CycleState } from '../engine/core/decide';
import { ExchangeClientError, type ExchangeClient, type MarketInfo, type Ticker } from '../engine/venues/exchangeClient';
import type { EngineFacade } from '../engine/facade';
import { isUsablePrice } from '../engine/runner/runner';
import { fail } from '../http/errors';
import { levelRule, refreshLevel } from '../member/levels';
import { readSettings } from '../settings';
import { toTemplate } from '../strategy/service';
import { firstOrderForInvestment, type StrategySettings } from '../../../src/api/strategy';
import { checkTaskCanRun } from './checks';
import type { CoinPriceBody, CreateTradePayload, HotPairsQuery, OhlcvQuery, OrderHistoryQuery, PairsQuery, TaskListQuery, TaskSort, UpdateTradePayload } from './schemas';

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
  'trade_tasks.attention',
  'trade_tasks.waiting',
  'trade_tasks.created_at',
  'exchange_accounts.name as exchange_name',
  'exchange_accounts.exchange',
  'exchange_accounts.price_source',
  'strategies.name as strategy_name',
  'strategies.user_id as strategy_owner',
  'strategies.levels',
] as const;

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

const lastOf = (ticker: Ticker) => ticker.last ?? ticker.ask ?? ticker.bid;

const toPair = (info: MarketInfo, ticker: Ticker): TradePair => ({
  id: info.symbol,
  symbol: info.symbol,
  base: info.base,
  quote: info.quote,
  price: lastOf(ticker) ?? '0',
  change24h: ticker.change24h ?? '0',
  quoteVolume24h: ticker.quoteVolume24h ?? '0',
  minCost: info.limits.cost.min,
  tickSize: info.precision.price,
  amountStep: info.precision.amount,
});

/** How long a task answer waits for an exchange's markets not loaded yet (they go on loading for the next one). */
const MARKETS_WAIT_MS = 1_000;

const SORT_COLUMNS: Record<TaskSort, string> = {
  createdAt: 'trade_tasks.created_at',
  symbol: 'trade_tasks.symbol',
  realizedProfit: 'realized',
  cyclesDone: 'cycles_done',
};

/**
 * Figures of a position and a price, computed once per distinct input (the
 * same tasks are shown over and over while their positions and prices stay):
 * plain functions of their strings, so a kept answer is always the one
 * computed now. Each map starts afresh above MEMO_MAX entries.
 */
const MEMO_MAX = 10_000;
const memo = <T>(compute: (key: string, ...args: string[]) => T) => {
  const kept = new Map<string, T>();
  return (key: string, ...args: string[]): T => {
    let value = kept.get(key);
    if (value === undefined) {
      value = compute(key, ...args);
      if (kept.size >= MEMO_MAX) kept.clear();
      kept.set(key, value);
    }
    return value;
  };
};

/** A decimal string in big.js's plain notation (as the database's numeric may differ in trailing zeros). */
const decimalOf = memo((value) => new Big(value).toFixed());

const positionMemo = memo((_key, quantity, cost, lastPrice) => {
  const average = averagePrice({ quantity: quantity!, cost: cost! } as CycleState);
  const floating = average && lastPrice ? new Big(quantity!).times(lastPrice).minus(cost!) : new Big(0);
  return { average: average ? new Big(average).round(8).toFixed() : null, floating: floating.round(8).toFixed() };
});

/** Average entry price (8 places) and floating profit at the last price (8 places) of a position. */
const positionFigures = (quantity: string, cost: string, lastPrice: string | null) =>
  positionMemo(`${quantity}|${cost}|${lastPrice ?? ''}`, quantity, cost, lastPrice ?? '');

/** An exchange's markets by symbol, built once per loaded list (a client keeps its markets once loaded). */
const bySymbol = new WeakMap<MarketInfo[], Map<string, MarketInfo>>();
const bySymbolOf = (infos: MarketInfo[]) => {
  let map = bySymbol.get(infos);
  if (!map) {
    map = new Map(infos.map((info) => [info.symbol, info]));
    bySymbol.set(infos, map);
  }
  return map;
};

/** Clients whose markets have loaded: each keeps them once loaded (ccxtClient.ts, the paper accounts). */
const answeredMarkets = new WeakSet<ExchangeClient>();

/** A number per object, for keys that name an object (the same object, the same number). */
const objectIds = new WeakMap<object, number>();
let lastObjectId = 0;
const idOf = (value: object | null) => {
  if (value === null) return 0;
  let id = objectIds.get(value);
  if (id === undefined) {
    id = ++lastObjectId;
    objectIds.set(value, id);
  }
  return id;
};

/**
 * The last list or detail answer built from kept rows (db/userCache.ts), with
 * the key of the live values it showed: gone with the rows when a change drops them.
 */
const answers = new WeakMap<object, { key: string; answer: unknown }>();
/** The answer given last for these kept rows when the live values are the same (`key`); else `build()`'s, kept when `keep` says so. */
const answerFor = async <T>(kept: object, key: string, build: () => Promise<{ answer: T; keep: boolean }>): Promise<T> => {
  const given = answers.get(kept);
  if (given?.key === key) return given.answer as T;
  const { answer, keep } = await build();
  if (keep) answers.set(kept, { key, answer });
  return answer;
};

export interface ListCache {
  get<T>(userId: string, key: string, load: () => Promise<T>): Promise<T>;
}

/** "Invest X": the first order a total to invest makes for every pair (the wizard shows the same figure); refused when it is below a cent. */
const investedFirstOrder = (strategy: StrategySettings, body: CreateTradePayload): string => {
  const invest = body.investAmount!;
  if (new Big(invest).lte(0)) fail(ErrorCode.PARAM_RANGE, 'the amount to invest must be above 0', { field: 'investAmount' });
  const first = firstOrderForInvestment(strategy, invest, body.coinIdList.length, body.firstOrderMultiple);
  if (new Big(first).lte(0)) {
    fail(ErrorCode.PARAM_RANGE, 'the amount to invest is too small for a first order of a cent', { field: 'investAmount', reason: 'invest_too_small', investAmount: new Big(invest).toFixed() });
  }
  return first;
};

export const createTradeService = ({ db, engine, listCache }: { db: Db; engine: EngineFacade; listCache?: ListCache }) => {
  /** The user's exchange account: the given one (10006 when not theirs), or their first (11006 when none). */
  const account = async (userId: string, exchangeId?: string) => {
    let query = db.selectFrom('exchange_accounts').select(['id', 'exchange', 'name', 'price_source']).where('user_id', '=', userId);
    query = exchangeId ? query.where('id', '=', exchangeId) : query.orderBy('created_at');
    const row = await query.executeTakeFirst();
    if (!row) {
      if (exchangeId) fail(ErrorCode.PARAM_NOT_EXIST, 'exchange account does not exist', { field: 'exchangeId' });
      fail(ErrorCode.API_KEY_NOT_BOUND, 'bind an exchange account first');
    }
    return row!;
  };

  /** An account through the one exchange interface (10002/20002 when a real one's keys cannot be opened now). */
  const clientOf = async (row: { id: string; exchange: string; price_source?: string | null }): Promise<ExchangeClient> => {
    try {
      return await engine.accountClient(row);
    } catch {
      return fail(ErrorCode.NOT_ENABLED, 'the exchange account cannot be used now', { reason: 'credentials_unavailable' });
    }
  };

  const marketOf = async (client: ExchangeClient, symbol: string) => (await exchangeCall(() => client.loadMarkets())).find((m) => m.symbol === symbol);

  /** The market, price and taker fee a pre-start check needs (10006 when the pair is not traded there). */
  const checkedMarket = async (client: ExchangeClient, symbol: string) => {
    const market = await marketOf(client, symbol);
    const price = market ? lastOf(await exchangeCall(() => client.fetchTicker(symbol))) : null;
    if (!market || price === null) fail(ErrorCode.PARAM_NOT_EXIST, `pair ${symbol} does not exist`, { field: 'coinIdList', symbol });
    // A broken price (0, negative, not a number) is no ground for a check: ask again later.
    if (!isUsablePrice(price)) fail(ErrorCode.NOT_ENABLED, `no usable price for ${symbol} now`, { reason: 'no_price', symbol });
    return { market: market!, price: price!, feeRate: market!.taker ?? engine.paperFeeRate };
  };

  const freeUsdt = async (client: ExchangeClient) => (await exchangeCall(() => client.fetchBalance())).free.USDT ?? '0';

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

  const tasksOf = (userId: string) =>
    db
      .selectFrom('trade_tasks')
      .innerJoin('exchange_accounts', 'exchange_accounts.id', 'trade_tasks.exchange_account_id')
      .innerJoin('strategies', 'strategies.id', 'trade_tasks.strategy_id')
      // The task's own cycles only (their (task_id, cycle) index), not a sum over every task's.
      .select([
        ...TASK_COLUMNS,
        sql<string>`(select coalesce(sum(cycles.realized_profit), 0) from cycles where cycles.task_id = trade_tasks.id)`.as('realized'),
        sql<number>`coalesce((trade_tasks.state->>'cyclesDone')::int, 0)`.as('cycles_done'),
      ])
      .where('trade_tasks.user_id', '=', userId);
  type TaskRow = Awaited<ReturnType<ReturnType<typeof tasksOf>['execute']>>[number];

  /**
   * The markets of the rows' accounts, one load per account (each client
   * keeps its markets once loaded). An account whose markets cannot be had
   * now is left out: its tasks show no tick or step rather than no answer.
   */
  const marketsOf = async (rows: Pick<TaskRow, 'exchange_account_id' | 'exchange' | 'price_source'>[]): Promise<Map<string, Map<string, MarketInfo>>> => {
    const accounts = new Map(rows.map((row) => [row.exchange_account_id, row]));
    const found = new Map<string, Map<string, MarketInfo>>();
    await Promise.all(
      [...accounts.values()].map(async (row) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          // A real account's own exchange only (accountClient would answer the simulator's markets for one it cannot open).
          const client =
            row.exchange === PAPER_EXCHANGE
              ? await engine.accountClient({ id: row.exchange_account_id, exchange: row.exchange, price_source: row.price_source })
              : await engine.clientFor(row.exchange_account_id);
          if (!client) return;
          // A client that answered its markets once keeps them: no wait to bound.
          const infos = answeredMarkets.has(client)
            ? await client.loadMarkets()
            : await Promise.race([client.loadMarkets(), new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), MARKETS_WAIT_MS)))]);
          if (infos) {
            answeredMarkets.add(client);
            found.set(row.exchange_account_id, bySymbolOf(infos));
          }
        } catch {
          // No markets now (keys that cannot be opened, an exchange that does not answer): no tick or step.
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    return found;
  };

  /**
   * Everything a task's answer reads besides its stored row and its market's
   * rules: the live state where the engine drives it here (the journal's
   * otherwise), the last price and where prices come from.
   */
  const liveOf = (row: TaskRow) => {
    const live = engine.live(row.id);
    return {
      state: live?.state ?? { ...initialCycleState(), ...(row.state as Partial<CycleState>) },
      running: live?.params.running ?? row.running,
      attention: live ? live.attention : ((row.attention as TaskAttention | null) ?? null),
      waiting: live ? (live.waiting ?? null) : ((row.waiting as TaskWaiting | null) ?? null),
      lastPrice: row.exchange !== PAPER_EXCHANGE ? engine.lastPrice(row.exchange_account_id, row.symbol) : engine.paperPriceOf(row),
      prices: engine.taskPrices(row),
    };
  };
  type Live = ReturnType<typeof liveOf>;
  /** The values of `liveOf` an answer shows, as text: equal texts, equal answers (with the same stored rows and rules). */
  const liveKey = ({ state, running, attention, waiting, lastPrice, prices }: Live) =>
    `${state.cyclesDone}|${state.phase}|${state.quantity}|${state.cost}|${state.levelsFilled}|${running}|${idOf(attention)}|${idOf(waiting)}|${lastPrice}|${prices.source}|${prices.live}`;

  /** A task as the pages show it. */
  const toTask = (row: TaskRow, markets: Map<string, Map<string, MarketInfo>>, { state, running, attention, waiting, lastPrice, prices }: Live = liveOf(row)): TradeTask => {
    const info = markets.get(row.exchange_account_id)?.get(row.symbol);
    const { average, floating } = positionFigures(state.quantity, state.cost, lastPrice);
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
      running,
      status: row.replenish_status,
      finished: row.status === 'finished' || state.phase === 'finished',
      phase: state.phase,
      quantity: state.quantity,
      cost: state.cost,
      averagePrice: average,
      lastPrice,
      floatingProfit: floating,
      realizedProfit: decimalOf(row.realized ?? '0'),
      levelsFilled: state.levelsFilled,
      levelsTotal: row.levels.length,
      tickSize: info?.precision.price ?? null,
      amountStep: info?.precision.amount ?? null,
      attention,
      waiting,
      prices,
      createdAt: new Date(row.created_at).toISOString(),
    };
  };

  const ownTask = async (userId: string, id: string) => {
    const row = await tasksOf(userId).where('trade_tasks.id', '=', id).executeTakeFirst();
    if (!row) fail(ErrorCode.PARAM_NOT_EXIST, 'task does not exist', { field: 'id' });
    return row!;
  };

  return {
    /** One task of the user as the pages show it (10006 when not theirs). */
    async task(userId: string, id: string) {
      const row = await ownTask(userId, id);
      return toTask(row, await marketsOf([row]));
    },

    /** Every task of the user as the pages show them. */
    async allTasks(userId: string) {
      const rows = await tasksOf(userId).execute();
      const markets = await marketsOf(rows);
      return rows.map((row) => toTask(row, markets));
    },

    async pairs(userId: string, query: PairsQuery) {
      const client = await clientOf(await account(userId, query.exchangeId));
      const needle = query.q?.trim().toUpperCase() ?? '';
      const all = (await exchangeCall(() => client.loadMarkets())).filter((m) => (!query.quote || m.quote === query.quote.toUpperCase()) && (!needle || m.symbol.includes(needle)));
      const page = all.slice((query.page - 1) * query.pageSize, query.page * query.pageSize);
      const tickers = page.length ? await exchangeCall(() => client.fetchTickers(page.map((m) => m.symbol))) : [];
      const bySymbol = new Map(tickers.map((ticker) => [ticker.symbol, ticker]));
      return { list: page.flatMap((m) => (bySymbol.has(m.symbol) ? [toPair(m, bySymbol.get(m.symbol)!)] : [])), total: all.length };
    },

    async hotPairs(userId: string, query: HotPairsQuery) {
      const client = await clientOf(await account(userId, query.exchangeId));
      // USDT pairs, the quote the robot trades in, ranked by their 24 h figures from one request where the exchange allows it.
      const infos = (await exchangeCall(() => client.loadMarkets())).filter((m) => m.quote === 'USDT');
      const bySymbol = new Map(infos.map((m) => [m.symbol, m]));
      const tickers = await exchangeCall(() => client.fetchTickers(infos.map((m) => m.symbol)));
      const pairs = tickers.flatMap((ticker) => (bySymbol.has(ticker.symbol) ? [toPair(bySymbol.get(ticker.symbol)!, ticker)] : []));
      const key = query.sort === 'volume' ? (p: TradePair) => new Big(p.quoteVolume24h) : (p: TradePair) => new Big(p.change24h).abs();
      pairs.sort((a, b) => key(b).cmp(key(a)));
      return pairs.slice(0, query.limit);
    },

    async coinPrices(userId: string, body: CoinPriceBody) {
      const client = await clientOf(await account(userId, body.exchangeId));
      const known = new Set((await exchangeCall(() => client.loadMarkets())).map((m) => m.symbol));
      const prices: Record<string, string> = {};
      for (const coin of body.coins) {
        const symbol = coin.includes('/') ? coin.toUpperCase() : `${coin.toUpperCase()}/USDT`;
        if (!known.has(symbol)) continue;
        const price = lastOf(await exchangeCall(() => client.fetchTicker(symbol)));
        if (price !== null) prices[coin] = price;
      }
      return prices;
    },

    async create(userId: string, body: CreateTradePayload) {
      const hasAccount = await db.selectFrom('exchange_accounts').select('id').where('user_id', '=', userId).executeTakeFirst();
      if (!hasAccount) fail(ErrorCode.API_KEY_NOT_BOUND, 'bind an exchange account first');
      const exchange = await account(userId, body.exchangeId);
      // Anyone may trade on paper or a testnet's play money; real money needs an activated account (design section 5).
      if (exchange.exchange !== PAPER_EXCHANGE && !isTestnetExchange(exchange.exchange)) {
        const activated = await db.selectFrom('users').select('activated').where('id', '=', userId).executeTakeFirst();
        if (!activated?.activated) fail(ErrorCode.USER_NOT_ACTIVATED, 'activate the account before trading on a real exchange', { reason: 'real_exchange' });
      }
      const strategy = await strategyFor(userId, body.strategyId);
      // "Invest X": the first order is derived from the total, as the wizard shows it.
      const firstOrderAmount = body.investAmount === undefined ? body.firstOrderAmount : investedFirstOrder(strategy, body);
      if (new Big(firstOrderAmount).lte(0)) fail(ErrorCode.PARAM_RANGE, 'the first order amount must be above 0', { field: 'firstOrderAmount' });
      const client = await clientOf(exchange);
      for (const symbol of body.coinIdList) {
        if (!(await marketOf(client, symbol))) fail(ErrorCode.PARAM_NOT_EXIST, `pair ${symbol} does not exist`, { field: 'coinIdList', symbol });
      }
      const params = { firstOrderAmount, firstOrderMultiple: body.firstOrderMultiple };
      if (body.running) {
        // Every pair's ladder, and all of them together against the free balance.
        const free = await freeUsdt(client);
        if (body.investAmount !== undefined && new Big(body.investAmount).gt(free)) {
          fail(ErrorCode.INSUFFICIENT_BALANCE, 'the free balance does not cover the amount to invest', {
            reason: 'insufficient_funds',
            required: new Big(body.investAmount).toFixed(),
            available: new Big(free).toFixed(),
          });
        }
        const checked = [];
        for (const symbol of body.coinIdList) checked.push(await checkedMarket(client, symbol));
        for (const { market, price, feeRate } of checked) checkTaskCanRun(market, price, params, strategy, free, feeRate);
        const share = new Big(free).div(body.coinIdList.length).toFixed();
        for (const { market, price, feeRate } of checked) checkTaskCanRun(market, price, params, strategy, share, feeRate);
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
              first_order_amount: new Big(firstOrderAmount).toFixed(),
              first_order_multiple: body.firstOrderMultiple,
              cycle_count: body.cycleCount,
              running: body.running,
              replenish_status: body.replenishStatus,
              state: JSON.stringify(initialCycleState()),
            })),
          )
          .returning('id')
          .execute();
        await trx
          .insertInto('task_events')
          .values(rows.map((row) => ({ task_id: row.id, kind: 'created', data: JSON.stringify({ running: body.running }) })))
          .execute();
        return rows.map((r) => r.id);
      });
      await engine.tasksCreated(ids);
      return ids.map((id) => ({ id }));
    },

    async list(userId: string, query: TaskListQuery) {
      const load = async () => {
        let base = tasksOf(userId);
        if (query.running !== undefined) base = base.where('trade_tasks.running', '=', query.running);
        if (query.finished !== undefined) base = base.where('trade_tasks.status', '=', query.finished ? 'finished' : 'active');
        if (query.symbol) base = base.where('trade_tasks.symbol', 'like', `%${query.symbol.toUpperCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        const direction = query.order.toLowerCase() === 'asc' ? 'asc' : 'desc';
        // One query: the page and, beside each row, the count of all (a window over the filtered tasks).
        const rows = await base
          .select(sql<string>`count(*) over ()`.as('total'))
          .orderBy(sql.ref(SORT_COLUMNS[query.sort]), direction)
          .orderBy('trade_tasks.id', direction)
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize)
          .execute();
        // A page past the end has no row to carry the count.
        const total =
          rows.length > 0 ? Number(rows[0]!.total) : query.page === 1 ? 0 : Number((await db.selectFrom(base.as('t')).select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
        return { rows, total };
      };
      // The rows as stored; the live parts (engine state, prices) are read below on every call.
      const kept = listCache ? await listCache.get(userId, JSON.stringify(query), load) : await load();
      const lives = kept.rows.map(liveOf);
      // The same stored rows with the same live values: the answer given last (prices move about once a second).
      return answerFor(kept, lives.map(liveKey).join('\n'), async () => {
        const markets = await marketsOf(kept.rows);
        return {
          answer: { list: kept.rows.map((row, i) => toTask(row, markets, lives[i])), total: kept.total },
          // Kept only with every market's rules in it (a market still loading would stay missing from it).
          keep: kept.rows.every((row) => markets.has(row.exchange_account_id)),
        };
      });
    },

    async detail(userId: string, id: string): Promise<TradeTaskDetail> {
      // The rows as stored, kept like the list's (dropped on every change to the user's tasks, cycles, events,
      // templates or accounts); the live parts (engine state, prices, markets) are filled in below on every call.
      const load = async () => {
        const row = await ownTask(userId, id);
        const [strategy, events] = await Promise.all([
          strategyFor(userId, row.strategy_id),
          db.selectFrom('task_events').select(['id', 'kind', 'data', 'created_at']).where('task_id', '=', id).orderBy('id', 'desc').limit(100).execute(),
        ]);
        return { row, strategy, events };
      };
      const kept = listCache ? await listCache.get(userId, `detail:${id}`, load) : await load();
      const { row, strategy, events } = kept;
      const live = liveOf(row);
      const { state } = live;
      // As the list's: the same stored rows and live values give the answer given last.
      return answerFor(kept, `${liveKey(live)}|${state.firstFillPrice}|${state.trailingSell !== null}`, async () => {
        const markets = await marketsOf([row]);
        const answer: TradeTaskDetail = {
          ...toTask(row, markets, live),
          strategy,
          firstFillPrice: state.firstFillPrice,
          takeProfitArmed: state.trailingSell !== null,
          events: events.map((e): TaskEvent => ({ id: String(e.id), kind: e.kind, data: e.data, createdAt: new Date(e.created_at).toISOString() })),
        };
        return { answer, keep: markets.has(row.exchange_account_id) };
      });
    },

    async update(userId: string, body: UpdateTradePayload) {
      const row = await ownTask(userId, body.id);
      const strategy = await strategyFor(userId, body.strategyId);
      if (new Big(body.firstOrderAmount).lte(0)) fail(ErrorCode.PARAM_RANGE, 'the first order amount must be above 0', { field: 'firstOrderAmount' });
      if (body.running && !row.running) {
        const client = await clientOf({ id: row.exchange_account_id, exchange: row.exchange, price_source: row.price_source });
        const { market, price, feeRate } = await checkedMarket(client, row.symbol);
        checkTaskCanRun(market, price, body, strategy, await freeUsdt(client), feeRate);
      }
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('trade_tasks')
          .set({
            cycle_count: body.cycleCount,
            first_order_amount: new Big(body.firstOrderAmount).toFixed(),
            first_order_multiple: body.firstOrderMultiple,
            running: body.running,
            replenish_status: body.status,
            strategy_id: strategy.id,
            // An edit is the user's answer to whatever needed attention: the engine tries again.
            attention: null,
            updated_at: sql`now()`,
          })
          .where('id', '=', body.id)
          .execute();
        await trx.insertInto('task_events').values({ task_id: body.id, kind: 'updated', data: JSON.stringify({ running: body.running, status: body.status }) }).execute();
      });
      await engine.taskChanged(body.id);
      return { id: body.id };
    },

    /** Start (also resumes a task that needs attention), stop, or replenish now. */
    async action(userId: string, id: string, action: 'start' | 'stop' | 'replenish') {
      const row = await ownTask(userId, id);
      if (row.status === 'finished') fail(ErrorCode.ROBOT_NOT_STARTED, 'the task has finished its cycles');
      if (action === 'replenish') {
        const result = await engine.command(id, 'replenish');
        if (result.kind === 'not_loaded') fail(ErrorCode.ROBOT_NOT_STARTED, 'the robot is not running this task');
        if (result.kind === 'no_position') fail(ErrorCode.NO_POSITION, 'no position to replenish');
        if (result.kind === 'all_filled') fail(ErrorCode.INVALID, 'every level of the ladder is already filled', { reason: 'all_levels_filled' });
        return null;
      }
      const running = action === 'start';
      if (running) {
        const strategy = await strategyFor(userId, row.strategy_id);
        const client = await clientOf({ id: row.exchange_account_id, exchange: row.exchange, price_source: row.price_source });
        const { market, price, feeRate } = await checkedMarket(client, row.symbol);
        checkTaskCanRun(market, price, { firstOrderAmount: row.first_order_amount, firstOrderMultiple: row.first_order_multiple }, strategy, await freeUsdt(client), feeRate);
      }
      try {
        await db.transaction().execute(async (trx) => {
          await trx
            .updateTable('trade_tasks')
            .set({ running, ...(running ? { attention: null } : { waiting: null }), updated_at: sql`now()` })
            .where('id', '=', id)
            .execute();
          await trx.insertInto('task_events').values({ task_id: id, kind: running ? 'started' : 'stopped', data: '{}' }).execute();
        });
        await engine.taskChanged(id);
      } catch (error) {
        fail(running ? ErrorCode.ROBOT_START_FAILED : ErrorCode.ROBOT_STOP_FAILED, running ? 'the robot could not start' : 'the robot could not stop', { cause: (error as Error).message });
      }
      return null;
    },

    /** Sells what the exchange takes of the position at market and stops the task; what stays below its step is reported. */
    async close(userId: string, id: string): Promise<CloseResult> {
      const row = await ownTask(userId, id);
      const result = await engine.command(id, 'close');
      if (result.kind === 'not_loaded') fail(ErrorCode.ROBOT_NOT_STARTED, 'the robot is not running this task');
      if (result.kind === 'no_position' || result.kind === 'all_filled') fail(ErrorCode.NO_POSITION, 'no position to close');
      if (result.kind === 'below_min') {
        fail(ErrorCode.PARAM_RANGE, 'the position is below the exchange minimum and cannot be sold', {
          reason: 'below_min_order',
          side: 'sell',
          symbol: row.symbol,
          quantity: result.quantity,
          sellable: result.sellable,
          value: result.value,
          minAmount: result.minAmount,
          minCost: result.minCost,
        });
      }
      if (result.kind === 'refused') fail(ErrorCode.INVALID, 'the exchange refused the sale', { reason: result.attention?.reason ?? 'order_refused', ...result.attention?.detail });
      if (result.kind !== 'ok') throw new Error(`unexpected close result ${JSON.stringify(result)}`);
      return { symbol: row.symbol, sold: result.sold ?? '0', remainder: result.remainder ?? '0' };
    },

    /** A task's pair in candles, on the prices it trades on (the simulator's minute candles, or the exchange's through ccxt). */
    async ohlcv(userId: string, query: OhlcvQuery): Promise<OhlcvAnswer> {
      const row = await ownTask(userId, query.taskId);
      const client = await clientOf({ id: row.exchange_account_id, exchange: row.exchange, price_source: row.price_source });
      const candles = await exchangeCall(() => client.fetchOHLCV(row.symbol, query.timeframe, query.limit));
      return { symbol: row.symbol, timeframe: query.timeframe, prices: engine.taskPrices(row), candles };
    },

    async profitSummary(userId: string, timeZone: string) {
      const row = await db
        .selectFrom('cycles')
        .select([
          sql<string>`coalesce(sum(realized_profit), 0)`.as('total'),
          sql<string>`coalesce(sum(realized_profit) filter (where (closed_at at time zone ${timeZone})::date = (now() at time zone ${timeZone})::date), 0)`.as('today'),
          sql<number>`(count(*) filter (where (closed_at at time zone ${timeZone})::date = (now() at time zone ${timeZone})::date))::int`.as('cycles_today'),
          sql<string>`to_char(now() at time zone ${timeZone}, 'YYYY-MM-DD')`.as('date'),
        ])
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return { date: row.date, realizedTotal: new Big(row.total).toFixed(), realizedToday: new Big(row.today).toFixed(), cyclesToday: row.cycles_today };
    },

    async orderHistory(userId: string, query: OrderHistoryQuery) {
      if (query.taskId) await ownTask(userId, query.taskId);
      let base = db.selectFrom('orders').where('user_id', '=', userId);
      if (query.taskId) base = base.where('task_id', '=', query.taskId);
      if (query.side) base = base.where('side', '=', query.side);
      const direction = query.order.toLowerCase() === 'asc' ? 'asc' : 'desc';
      const [rows, count] = await Promise.all([
        base.selectAll().orderBy('created_at', direction).orderBy('id').limit(query.pageSize).offset((query.page - 1) * query.pageSize).execute(),
        base.select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      // The markets of the page's accounts, for their tick and step (one load per account, as for tasks).
      const accountIds = [...new Set(rows.map((o) => o.exchange_account_id))];
      const accounts =
        accountIds.length === 0
          ? []
          : await db.selectFrom('exchange_accounts').select(['id as exchange_account_id', 'exchange', 'price_source']).where('id', 'in', accountIds).execute();
      const markets = await marketsOf(accounts);
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
          tickSize: markets.get(o.exchange_account_id)?.get(o.symbol)?.precision.price ?? null,
          amountStep: markets.get(o.exchange_account_id)?.get(o.symbol)?.precision.amount ?? null,
          createdAt: new Date(o.created_at).toISOString(),
        }),
      );
      return { list, total: Number(count.n) };
    },
  };
};
