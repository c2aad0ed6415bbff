/**
 * What the API asks of the trading engine, wherever the engine runs: in this
 * process (the embedded database, or a PostgreSQL process that drives the
 * task's shard) or in another one (ENGINE=off here, or the shard leased
 * elsewhere). The routes talk to this and to nothing else of the engine.
 *
 * - Market data of the paper exchange: this process's market (it runs it or
 *   mirrors the process that does, venues/paper/sharedMarket.ts).
 * - Paper balances and tasks' states: the database, the engine's journal,
 *   overlaid with the live state when this process drives the task.
 * - Actions on a task (reload after an edit, replenish now, close, a
 *   webhook's alert): carried
 *   out here when this process drives the task, otherwise left as a command
 *   in `engine_commands` for the process that does, whose answer is awaited.
 */
import Big from 'big.js';
import type { FastifyBaseLogger } from 'fastify';
import { HOUR_MS } from './candleRollup';
import { sql } from 'kysely';
import type { PaperTicker, SimulatedMarket } from './venues/paper/market';
import type { CycleState } from './core/decide';
import { PAPER_EXCHANGE, SIMULATOR, type PaperPrices } from '../../../src/api/exchange';
import { TIMEFRAME_MS, type CandleTimeframe } from '../../../src/api/trade';
import type { Candle } from './core/candles';
import { ExchangeClientError, type ExchangeClient, type MarketInfo, type Ticker } from './venues/exchangeClient';
import type { LiveMarket } from './venues/paper/liveMarket';
import type { PriceSources } from './venues/paper/priceSources';
import { createExchangeClients, type ExchangeClientsOptions } from './venues/exchangeClients';
import { paperMarketInfo, type PaperMarketInfo } from './venues/paper/exchange';
import { createSharedMarket } from './venues/paper/sharedMarket';
import { toMarketInfo } from './venues/paperClient';
import { PAPER_MARKETS } from './venues/paper/market';
import type { CommandKind, CommandResult, LiveTask, Runner, TaskAlert } from './runner/runner';
import { createEngineStore, shardOf } from './store/journal';

/** How long the API waits for another process to carry out a command. */
const COMMAND_WAIT_MS = 10_000;
const COMMAND_POLL_MS = 50;
/** An API-only process reads the shared prices at most this often. */
const MIRROR_REFRESH_MS = 1_000;

export interface EngineFacadeOptions extends ExchangeClientsOptions {
  log: FastifyBaseLogger;
  /** This process's engine; null for an API-only process (ENGINE=off). */
  runner: Runner | null;
  paperFeeRate: string;
  seed: number;
  /** The live public markets paper accounts may trade on (shared with the engine); none: the simulator only. */
  priceSources?: PriceSources | null;
}

/** Candle sizes in milliseconds. */

/** How long a balance answer waits for a real exchange. */
const BALANCE_WAIT_MS = 3_000;

/** How long adding a paper account waits for its exchange's first prices. */
const WARM_WAIT_MS = 2_000;

/** Paper account objects kept at most (then it starts afresh). */
const KEPT_PAPER_ACCOUNTS = 10_000;

export const createEngineFacade = ({ db, log, runner, paperFeeRate, seed, exchangeMasterKey, createExchange, shared, priceSources = null }: EngineFacadeOptions) => {
  const store = runner?.store ?? createEngineStore(db);
  // Without an engine here, the market is the one another process publishes.
  const mirror = runner ? null : createSharedMarket({ seed, markets: PAPER_MARKETS });
  const market: SimulatedMarket = runner?.market ?? mirror!.market;
  const clients = runner ? null : createExchangeClients({ db, exchangeMasterKey, createExchange, shared });
  let refreshedAt = 0;

  /** An API-only process brings its mirror of the prices up to date (at most once a second). */
  const fresh = async () => {
    if (!mirror || Date.now() - refreshedAt < MIRROR_REFRESH_MS) return;
    refreshedAt = Date.now();
    await mirror.refresh(db);
  };

  const markets: PaperMarketInfo[] = (runner?.market.markets ?? PAPER_MARKETS).map((spec) => paperMarketInfo(spec, paperFeeRate));

  /** Carries out an action where the task is driven; the answer comes back either way. An alert command carries its alert. */
  const command = async (taskId: string, kind: CommandKind, alert?: TaskAlert): Promise<CommandResult> => {
    if (runner) {
      if (runner.drives(taskId)) return runner.command(taskId, kind, alert);
      const row = await db.selectFrom('trade_tasks').select(shardOf('exchange_account_id').as('shard')).where('id', '=', taskId).executeTakeFirst();
      if (!row || runner.holdsShard(Number(row.shard))) return runner.command(taskId, kind, alert);
    }
    const shard = await db.selectFrom('trade_tasks').select(shardOf('exchange_account_id').as('shard')).where('id', '=', taskId).executeTakeFirst();
    if (!shard) return { kind: 'not_loaded' };
    const { id } = await db
      .insertInto('engine_commands')
      .values({ task_id: taskId, shard: Number(shard.shard), kind, payload: alert ? JSON.stringify(alert) : null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const deadline = Date.now() + COMMAND_WAIT_MS;
    while (Date.now() < deadline) {
      const row = await db.selectFrom('engine_commands').select(['done_at', 'result']).where('id', '=', id).executeTakeFirstOrThrow();
      if (row.done_at) return row.result as CommandResult;
      await new Promise((resolve) => setTimeout(resolve, COMMAND_POLL_MS));
    }
    log.warn({ taskId, kind }, 'no engine answered the command in time');
    return { kind: 'not_loaded' };
  };

  /**
   * Has the engine read tasks again in one step, whatever their number: those
   * this process drives are read in one turn between its ticks; for the
   * others one statement leaves a reload command each, and the answer does
   * not wait for their engine (a task is in the database already, and a
   * process that takes its shard later loads it anyway).
   */
  const reloadTasks = async (taskIds: readonly string[]) => {
    if (taskIds.length === 0) return;
    const rows = await db.selectFrom('trade_tasks').select(['id', shardOf('exchange_account_id').as('shard')]).where('id', 'in', [...taskIds]).execute();
    const here = runner ? rows.filter((row) => runner.drives(row.id) || runner.holdsShard(Number(row.shard))) : [];
    if (here.length > 0) await runner!.reloadAll(here.map((row) => row.id));
    const elsewhere = rows.filter((row) => !here.includes(row));
    if (elsewhere.length > 0) await db.insertInto('engine_commands').values(elsewhere.map((row) => ({ task_id: row.id, shard: Number(row.shard), kind: 'reload' }))).execute();
  };

  const toTicker = (symbol: string): Ticker => {
    let ticker: PaperTicker;
    try {
      ticker = market.ticker(symbol);
    } catch {
      throw new ExchangeClientError({ kind: 'invalid_order', reason: 'bad_symbol' }, symbol);
    }
    return { symbol, timestamp: ticker.timestamp, bid: ticker.bid, ask: ticker.ask, last: ticker.last, change24h: ticker.percentage, quoteVolume24h: ticker.quoteVolume };
  };
  const paperInfos: MarketInfo[] = markets.map(toMarketInfo);
  const notHere = async (): Promise<never> => {
    throw new ExchangeClientError({ kind: 'refused' }, 'the API reads paper accounts; the engine trades them');
  };

  /**
   * The simulator's candles of a pair, oldest first: only the window asked for (the last `limit` candles
   * up to the pair's newest minute), grouped in the database. Minutes are kept for PAPER_MINUTES_DAYS; the
   * hours before are in the hourly candles (candleRollup.ts), which 1h and 1d candles read as well.
   */
  const simulatorCandles = async (symbol: string, timeframe: string, limit: number): Promise<Candle[]> => {
    const size = TIMEFRAME_MS[timeframe as CandleTimeframe] ?? TIMEFRAME_MS['1m'];
    const coarse = size >= HOUR_MS && size % HOUR_MS === 0;
    const rows = await sql<{ time: string; open: string; high: string; low: string; close: string; volume: string }>`
      with newest as (
        select greatest(
          (select minute from paper_candles where symbol = ${symbol} order by minute desc limit 1),
          case when ${coarse}::boolean then (select hour from paper_candles_hourly where symbol = ${symbol} order by hour desc limit 1) end
        ) as t
      ),
      since as (select (t / ${size}::bigint) * ${size}::bigint - ${limit - 1}::bigint * ${size}::bigint as t from newest),
      candles as (
        select minute as t, open, high, low, close, volume from paper_candles where symbol = ${symbol} and minute >= (select t from since)
        union all
        select hour as t, open, high, low, close, volume from paper_candles_hourly where ${coarse}::boolean and symbol = ${symbol} and hour >= (select t from since)
      )
      select (t / ${size}::bigint) * ${size}::bigint as time, (array_agg(open order by t))[1]::text as open, max(high)::text as high,
             min(low)::text as low, (array_agg(close order by t desc))[1]::text as close, sum(volume)::text as volume
      from candles group by 1 order by 1 desc limit ${limit}`.execute(db);
    return rows.rows.reverse().map((row) => ({ time: Number(row.time), open: row.open, high: row.high, low: row.low, close: row.close, volume: new Big(row.volume).toFixed() }));
  };

  const balanceOf = async (accountId: string) => {
    const free = await store.paperBalances(accountId);
    return { free, used: {}, total: free };
  };

  /** A paper account on the simulator seen through the one exchange interface: its rules and prices, its balance from the journal. */
  const paperAccount = (accountId: string): ExchangeClient => ({
    loadMarkets: async () => paperInfos,
    fetchTicker: async (symbol) => {
      await fresh();
      return toTicker(symbol);
    },
    fetchTickers: async (symbols) => {
      await fresh();
      return symbols.map(toTicker);
    },
    fetchOHLCV: simulatorCandles,
    fetchBalance: () => balanceOf(accountId),
    createMarketOrder: notHere,
    fetchOrderByClientOrderId: notHere,
    fetchOpenOrders: notHere,
    fetchOrderFees: notHere,
  });

  /** Paper accounts on the simulator, one object each (the list of a user's tasks asks for them on every call). */
  const paperAccounts = new Map<string, ExchangeClient>();
  const keptPaperAccount = (accountId: string): ExchangeClient => {
    let client = paperAccounts.get(accountId);
    if (!client) {
      if (paperAccounts.size >= KEPT_PAPER_ACCOUNTS) paperAccounts.clear();
      client = paperAccount(accountId);
      paperAccounts.set(accountId, client);
    }
    return client;
  };

  /** A paper account on a live public market: the exchange's pairs, prices and candles, its balance from the journal. */
  const liveAccount = (accountId: string, live: LiveMarket): ExchangeClient => ({
    loadMarkets: () => live.client.loadMarkets(),
    fetchTicker: async (symbol) => {
      live.want([symbol]);
      return live.client.fetchTicker(symbol);
    },
    fetchTickers: (symbols) => live.client.fetchTickers(symbols),
    fetchOHLCV: (symbol, timeframe, limit) => live.client.fetchOHLCV(symbol, timeframe, limit),
    fetchBalance: () => balanceOf(accountId),
    createMarketOrder: notHere,
    fetchOrderByClientOrderId: notHere,
    fetchOpenOrders: notHere,
    fetchOrderFees: notHere,
  });

  /** Where a paper account's prices come from now (the simulator when its exchange cannot be reached). */
  const pricesOf = (source: string | null): PaperPrices => {
    const chosen = source ?? SIMULATOR;
    return priceSources ? priceSources.status(chosen) : { source: chosen, live: false, fallbackSince: chosen === SIMULATOR ? null : new Date().toISOString() };
  };

  return {
    market,
    paperFeeRate,
    /** Any account through the one exchange interface (reads): a paper account's market, or the real exchange's through ccxt. */
    accountClient: async (account: { id: string; exchange: string; price_source?: string | null }): Promise<ExchangeClient> => {
      if (account.exchange === PAPER_EXCHANGE) {
        const source = account.price_source ?? SIMULATOR;
        if (source !== SIMULATOR && priceSources) {
          const live = priceSources.liveMarket(source);
          if (live.live()) return liveAccount(account.id, live);
        }
        return keptPaperAccount(account.id);
      }
      const client = await (runner ? runner.clientFor(account.id) : clients!.clientFor(account.id));
      return client ?? keptPaperAccount(account.id);
    },
    /** The paper exchange's markets (ccxt's structure, trimmed). */
    paperMarkets: () => markets,
    pricesOf,
    /** The last price of a paper account's pair on the prices it trades on now (null when there is none). */
    paperPriceOf: (account: { exchange_account_id: string; symbol: string; price_source?: string | null }): string | null => {
      const source = account.price_source ?? SIMULATOR;
      try {
        if (source !== SIMULATOR && priceSources) {
          const live = priceSources.liveMarket(source);
          if (live.live()) return live.feed.bestPrices(account.symbol).last;
        }
        return markets.some((m) => m.symbol === account.symbol) ? market.price(account.symbol) : null;
      } catch {
        return null;
      }
    },
    /** The prices a task trades on: a real account's exchange (live), or its paper account's source. */
    taskPrices: (account: { exchange: string; price_source?: string | null }) => {
      if (account.exchange !== PAPER_EXCHANGE) return { source: account.exchange, live: true };
      const { source, live } = pricesOf(account.price_source ?? SIMULATOR);
      return { source, live };
    },
    /**
     * Loads a live source's markets and first prices now (a paper account
     * being added), waiting at most WARM_WAIT_MS: an exchange that does not
     * answer by then goes on loading in the background while the account
     * says it trades on the simulator. Answers where its prices come from.
     */
    async warmSource(source: string): Promise<PaperPrices> {
      if (source !== SIMULATOR && priceSources) {
        let timer: NodeJS.Timeout | undefined;
        const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, WARM_WAIT_MS)));
        await Promise.race([priceSources.liveMarket(source).warm(), waited]).finally(() => clearTimeout(timer));
      }
      return pricesOf(source);
    },
    paperMarket: (symbol: string) => markets.find((m) => m.symbol === symbol),
    async paperPrice(symbol: string): Promise<string | null> {
      await fresh();
      try {
        return market.price(symbol);
      } catch {
        return null;
      }
    },
    async paperTicker(symbol: string): Promise<PaperTicker | null> {
      await fresh();
      try {
        return market.ticker(symbol);
      } catch {
        return null;
      }
    },
    /**
     * An account's free balance of an asset now: a paper account's from the
     * journal, a real account's from its exchange (waiting at most
     * BALANCE_WAIT_MS); null when the exchange cannot be asked now.
     */
    async freeBalance(account: { id: string; exchange: string }, asset = 'USDT'): Promise<string | null> {
      if (account.exchange === PAPER_EXCHANGE) return (await store.paperBalances(account.id))[asset] ?? '0';
      let timer: NodeJS.Timeout | undefined;
      try {
        // The account's own exchange only: accountClient would answer a paper balance for keys it cannot open.
        const client = await (runner ? runner.clientFor(account.id) : clients!.clientFor(account.id));
        if (!client) return null;
        const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), BALANCE_WAIT_MS)));
        const balance = await Promise.race([client.fetchBalance(), late]);
        return balance ? new Big(balance.free[asset] ?? '0').toFixed() : null;
      } catch {
        return null;
      } finally {
        clearTimeout(timer);
      }
    },
    /** A paper account's free balance of an asset, from the journal (new accounts get their start balances). */
    async paperFree(accountId: string, asset = 'USDT'): Promise<string> {
      return (await store.paperBalances(accountId))[asset] ?? '0';
    },
    /** The live task when this process drives it (its trailing state is newer than the journal's). */
    live: (taskId: string): LiveTask | undefined => runner?.tasks.get(taskId),
    /** A task's state: the live one, or the stored one. */
    stateOf: (taskId: string, stored: unknown): CycleState => runner?.tasks.get(taskId)?.state ?? (stored as CycleState),
    clientFor: (accountId: string): Promise<ExchangeClient | null> => (runner ? runner.clientFor(accountId) : clients!.clientFor(accountId)),
    /** The last price the engine saw for a real account's pair, when it runs here. */
    lastPrice: (accountId: string, symbol: string) => runner?.lastPrice(accountId, symbol) ?? null,
    /** After an edit or a removal of an account's keys: clients built from the old keys are dropped everywhere. */
    async keysChanged(accountId: string) {
      runner?.forgetClient(accountId);
      clients?.forget(accountId);
      const ids = await db.selectFrom('trade_tasks').select('id').where('exchange_account_id', '=', accountId).where('status', '=', 'active').execute();
      await reloadTasks(ids.map((row) => row.id).filter((id) => !runner?.drives(id)));
    },
    command,
    /** A webhook's alert for a task (issue 29): kept on the live task, where its next decision acts on it. */
    alert: (taskId: string, alert: TaskAlert) => command(taskId, 'alert', alert),
    /** After the API changed a task: the engine reads it again. */
    taskChanged: (taskId: string) => command(taskId, 'reload').then(() => undefined),
    /** New tasks reach the engine in one step, whatever their number (see reloadTasks). */
    tasksCreated: (taskIds: readonly string[]) => reloadTasks(taskIds),
    /** The user's running tasks that wait for fuel to open their next cycle (between cycles, with no fuel left). */
    async fuelWaiting(userId: string): Promise<number> {
      const row = await sql<{ n: number; fuel: string | null }>`
        select count(*)::int as n,
               (select balance::text from ledger_accounts where user_id = ${userId} and asset = 'FUEL' and kind = 'available') as fuel
        from trade_tasks
        where user_id = ${userId} and running and status = 'active' and state->>'phase' in ('ready', 'cooldown')`.execute(db);
      const { n, fuel } = row.rows[0] ?? { n: 0, fuel: null };
      return new Big(fuel ?? '0').gt(0) ? 0 : n;
    },
    /** This process's engine status, with the cluster's nodes and shards on PostgreSQL. */
    async status() {
      if (!runner) return { running: false, engine: 'off' as const };
      return { ...runner.status(), cluster: await runner.cluster() };
    },
  };
};

export type EngineFacade = ReturnType<typeof createEngineFacade>;
