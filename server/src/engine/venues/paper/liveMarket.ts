/**
 * Paper trading on a real exchange's live public market: its pairs, price
 * and amount steps and minimums (ccxt's markets), and its best bid and ask,
 * read with no keys. Prices come from the exchange's websocket ticker
 * streams where they flow (ccxt's `watchTicker`, shared with the engine's
 * real-exchange tasks); pairs with no fresh streamed quote are read with one
 * REST tickers request a second. The paper exchange fills against it exactly
 * as against the simulator.
 *
 * When the exchange cannot be reached (markets cannot load, prices stop
 * coming), the market says so: `live` turns false with the time since when,
 * and the engine trades its accounts on the simulator until it is back (a
 * retry every RETRY_MS). Nothing claims live prices that are not.
 */
import Big from 'big.js';
import type { FastifyBaseLogger } from 'fastify';
import type { PaperPrices } from '../../../../../src/api/exchange';
import type { DecimalString } from '../../../../../src/api/types';
import type { ExchangeClient, MarketInfo, Ticker } from '../exchangeClient';
import type { PaperPriceFeed } from './exchange';
import type { StreamQuote, TickerFeed } from '../tickerFeed';
import type { PaperMarket, PaperTicker } from './market';

/** Prices are refreshed this often while the market is in use. */
const REFRESH_MS = 1_000;
/** A price older than this is stale: the market is not live any more. */
const STALE_MS = 15_000;
/** An exchange that could not be reached is asked again this often. */
const RETRY_MS = 60_000;

interface Quote {
  bid: DecimalString;
  ask: DecimalString;
  last: DecimalString;
  ticker: Ticker;
  at: number;
}

const specOf = (info: MarketInfo): PaperMarket => ({
  symbol: info.symbol,
  base: info.base,
  quote: info.quote,
  startPrice: '0',
  tickSize: info.precision.price,
  amountStep: info.precision.amount,
  minAmount: info.limits.amount.min === '0' ? info.precision.amount : info.limits.amount.min,
  minCost: info.limits.cost.min,
  annualVolatility: 0,
  dailyQuoteVolume: 0,
});

export interface LiveMarketOptions {
  exchangeId: string;
  /** A public client of the exchange (no keys). */
  client: ExchangeClient;
  log: FastifyBaseLogger;
  /** The exchange's websocket ticker streams; none: REST only. */
  stream?: Pick<TickerFeed, 'quote'> | null;
  now?: () => number;
  refreshMs?: number;
}

/** A streamed ticker with both sides of the book as a quote; null when it lacks a side. */
const streamedQuote = (symbol: string, streamed: StreamQuote | null): Quote | null => {
  if (!streamed || streamed.bid === null || streamed.ask === null) return null;
  const { last, bid, ask, timestamp, percentage, quoteVolume, at } = streamed;
  return { last, bid, ask, at, ticker: { symbol, timestamp, last, bid, ask, change24h: percentage, quoteVolume24h: quoteVolume } };
};

export const createLiveMarket = ({ exchangeId, client, log, stream = null, now = Date.now, refreshMs = REFRESH_MS }: LiveMarketOptions) => {
  let specs: PaperMarket[] = [];
  let bySymbol = new Map<string, PaperMarket>();
  const quotes = new Map<string, Quote>();
  /** Pairs the engine trades or a page asked for: refreshed together in one request. */
  const wanted = new Set<string>();
  let loaded = false;
  let lastSuccess = 0;
  let failingSince: number | null = null;
  let lastAttempt = 0;
  let timer: NodeJS.Timeout | null = null;
  let busy: Promise<void> | null = null;

  const fail = (error: unknown, what: string) => {
    if (failingSince === null) {
      failingSince = now();
      log.warn({ err: error, exchange: exchangeId }, `${exchangeId} cannot be reached (${what}): its paper accounts trade on the simulator until it is back`);
    }
  };

  const load = async () => {
    lastAttempt = now();
    try {
      const infos = await client.loadMarkets();
      specs = infos.filter((info) => new Big(info.precision.amount).gt(0) && new Big(info.precision.price).gt(0)).map(specOf);
      bySymbol = new Map(specs.map((spec) => [spec.symbol, spec]));
      loaded = true;
    } catch (error) {
      fail(error, 'markets');
    }
  };

  const succeeded = (at: number) => {
    lastSuccess = at;
    if (failingSince !== null) log.info({ exchange: exchangeId }, `${exchangeId} is reachable again: live prices`);
    failingSince = null;
  };

  /** The fresh streamed quote of a pair, if its stream flows. */
  const streamOf = (symbol: string): Quote | null => (stream ? streamedQuote(symbol, stream.quote(exchangeId, symbol)) : null);

  const refresh = async () => {
    if (!loaded) {
      if (now() - lastAttempt >= RETRY_MS || lastAttempt === 0) await load();
      if (!loaded) return;
    }
    // With no pair in use yet, one price still proves the exchange answers.
    const inUse = [...wanted].filter((symbol) => bySymbol.has(symbol));
    const probe = bySymbol.has('BTC/USDT') ? 'BTC/USDT' : specs[0]?.symbol;
    const candidates = inUse.length > 0 ? inUse : probe ? [probe] : [];
    if (candidates.length === 0) return;
    // Pairs whose stream flows need no request; asking keeps their streams open.
    const symbols = candidates.filter((symbol) => !streamOf(symbol));
    if (symbols.length === 0) return succeeded(now());
    try {
      const tickers = await client.fetchTickers(symbols);
      const at = now();
      for (const ticker of tickers) {
        const last = ticker.last ?? ticker.bid ?? ticker.ask;
        const bid = ticker.bid ?? last;
        const ask = ticker.ask ?? last;
        if (last === null || bid === null || ask === null) continue;
        quotes.set(ticker.symbol, { bid, ask, last, ticker, at });
      }
      succeeded(at);
    } catch (error) {
      if (now() - lastSuccess > STALE_MS) fail(error, 'prices');
    }
  };

  /** One refresh at a time. */
  const refreshOnce = () => (busy ??= refresh().finally(() => (busy = null)));

  /** The newest of the streamed and the polled quote; none fresh: no live price. */
  const quoteOf = (symbol: string): Quote => {
    wanted.add(symbol);
    const polled = quotes.get(symbol);
    const streamed = bySymbol.has(symbol) ? streamOf(symbol) : null;
    const quote = streamed && (!polled || streamed.at >= polled.at) ? streamed : polled;
    if (!quote || now() - quote.at > STALE_MS) throw new RangeError(`no live price for ${symbol} on ${exchangeId}`);
    return quote;
  };

  const isLive = () => loaded && failingSince === null && now() - lastSuccess <= STALE_MS;

  const feed: PaperPriceFeed = {
    get markets() {
      return specs;
    },
    market: (symbol) => bySymbol.get(symbol),
    now,
    bestPrices: (symbol) => {
      const { last, bid, ask } = quoteOf(symbol);
      return { last, bid, ask };
    },
    ticker: (symbol): PaperTicker => {
      const { last, bid, ask, ticker, at } = quoteOf(symbol);
      return {
        symbol,
        timestamp: ticker.timestamp ?? at,
        datetime: new Date(ticker.timestamp ?? at).toISOString(),
        last,
        close: last,
        bid,
        ask,
        open: last,
        high: last,
        low: last,
        change: '0',
        percentage: ticker.change24h ?? '0',
        baseVolume: '0',
        quoteVolume: ticker.quoteVolume24h ?? '0',
      };
    },
  };

  return {
    exchangeId,
    feed,
    client,
    /** Live while its prices are fresh; otherwise the simulator stands in. */
    live: isLive,
    status: (): PaperPrices => {
      const live = isLive();
      // Not reached yet counts as down from the first attempt.
      const since = failingSince ?? (lastAttempt || now());
      return { source: exchangeId, live, fallbackSince: live ? null : new Date(since).toISOString() };
    },
    /** Keeps these pairs' prices fresh (the engine's tasks, a page's pairs). */
    want: (symbols: Iterable<string>) => {
      for (const symbol of symbols) wanted.add(symbol);
    },
    /** Loads the markets and the first prices now (an account being added, tests). */
    warm: async () => {
      await refreshOnce();
      return loaded;
    },
    refresh: refreshOnce,
    start() {
      if (timer) return;
      void refreshOnce();
      timer = setInterval(() => void refreshOnce(), refreshMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
};

export type LiveMarket = ReturnType<typeof createLiveMarket>;
