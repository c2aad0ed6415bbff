/**
 * Exchanges' public candle history for backtests, through ccxt's
 * `fetchOHLCV` (no keys: history is public on every offered exchange), paged
 * forward from the start of a range, and cached in the database by UTC day:
 * a day that had ended when it was fetched is never fetched again.
 *
 * Paging: each request asks for the exchange's largest page from `since`;
 * the next one starts after the last candle received. A page without candles
 * in the range is a gap (maintenance, or an exchange that answers by time
 * window, as OKX does): the next request starts one page further (ccxt
 * itself drops candles older than asked for). An exchange without a start
 * time in its candle API (HTX) cannot serve history: 20001.
 *
 * One ccxt instance per exchange serves every user, so ccxt's rate limiter
 * keeps the whole server within the exchange's public limits.
 */
import Big from 'big.js';
import type { Exchange, OHLCV } from 'ccxt';
import { INTERVAL_MS, type HistoryInterval } from '../../../src/api/backtest';
import { ErrorCode } from '../../../src/api/errors';
import type { Db } from '../db/database';
import { classifyCcxtError, toMarketInfo } from '../engine/venues/ccxtClient';
import { SPOT_SETTINGS } from '../engine/venues/exchangeAccess';
import type { MarketInfo } from '../engine/venues/exchangeClient';
import type { ExchangeFactory } from '../engine/venues/exchangeAccess';
import { fail } from '../http/errors';
import { storedLine } from './stored';

export const DAY_MS = 86_400_000;
const READ_ATTEMPTS = 3;
/** Exchanges whose spot candle API has no start time: only the latest candles (HTX's /market/history/kline). */
const LATEST_ONLY = new Set(['htx']);

export interface HistoryOptions {
  db: Db;
  createExchange: ExchangeFactory;
  now?: () => number;
  /** Pause before a read's second attempt; it doubles before each next one. */
  retryDelayMs?: number;
}

export interface HistoryRequest {
  exchange: string;
  symbol: string;
  interval: HistoryInterval;
  /** Open times in [from, to), epoch ms. */
  from: number;
  to: number;
  /** Candles read so far (cached or fetched) out of the range's count. */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

/** A number from ccxt as the exchange wrote it: the shortest decimal that reads back as the same double. */
const decimal = (value: number): string => {
  const text = String(value);
  return /e/i.test(text) ? new Big(value).toFixed() : text;
};

const timeOf = (line: string) => Number(line.slice(0, line.indexOf(',')));

/** A candle line, or null for a row no backtest can use (a price not above 0, a low above the high). */
const lineOf = ([time, open, high, low, close, volume]: OHLCV): string | null => {
  if (![time, open, high, low, close].every((value) => typeof value === 'number' && Number.isFinite(value))) return null;
  if (!(open! > 0 && close! > 0 && low! > 0 && low! <= Math.min(open!, close!) && high! >= Math.max(open!, close!))) return null;
  return storedLine(time!, decimal(open!), decimal(high!), decimal(low!), decimal(close!), typeof volume === 'number' && volume >= 0 ? decimal(volume) : '0');
};

export const createHistory = ({ db, createExchange, now = Date.now, retryDelayMs = 500 }: HistoryOptions) => {
  const instances = new Map<string, Exchange>();

  const exchangeOf = (exchangeId: string): Exchange => {
    let exchange = instances.get(exchangeId);
    if (!exchange) {
      exchange = createExchange(exchangeId, { apiKey: '', secret: '', timeout: 10_000, ...SPOT_SETTINGS });
      instances.set(exchangeId, exchange);
    }
    return exchange;
  };

  /** A public read: transient failures tried again with backoff, the rest as catalogue errors. */
  const read = async <T>(call: () => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await call();
      } catch (error) {
        const failure = classifyCcxtError(error);
        if (!failure) throw error;
        if (failure.kind === 'transient' && attempt < READ_ATTEMPTS) {
          await new Promise((resolve) => setTimeout(resolve, retryDelayMs * 2 ** (attempt - 1)));
          continue;
        }
        if (failure.kind === 'invalid_order' && failure.reason === 'bad_symbol') fail(ErrorCode.PARAM_NOT_EXIST, 'the pair is not traded on this exchange', { field: 'symbol' });
        return fail(ErrorCode.NOT_ENABLED, 'the exchange could not be asked now', { reason: failure.kind === 'transient' ? failure.reason : 'exchange_refused' });
      }
    }
  };

  /** The pair's spot market (precision, minimums, taker fee); 10006 when the exchange does not trade it. */
  const market = async (exchangeId: string, symbol: string): Promise<MarketInfo> => {
    const exchange = exchangeOf(exchangeId);
    const markets = await read(() => exchange.loadMarkets());
    const found = markets[symbol];
    const info = found ? toMarketInfo(exchange, found) : undefined;
    if (!info) return fail(ErrorCode.PARAM_NOT_EXIST, `${symbol} is not a spot pair of ${exchangeId}`, { field: 'symbol', symbol });
    return info;
  };

  const saveDay = (request: HistoryRequest, day: number, lines: string[], complete: boolean) =>
    db
      .insertInto('market_candles')
      .values({ exchange: request.exchange, symbol: request.symbol, interval: request.interval, day, candles: lines.join('\n'), complete })
      .onConflict((oc) => oc.columns(['exchange', 'symbol', 'interval', 'day']).doUpdateSet({ candles: lines.join('\n'), complete, fetched_at: new Date() }))
      .execute();

  /**
   * Fetches [start, end) (whole days) and stores it day by day; days that had
   * not ended yet are stored as incomplete and fetched again next time.
   */
  const fetchDays = async (request: HistoryRequest, start: number, end: number, progress: (lines: number) => void): Promise<Map<number, string[]>> => {
    const exchange = exchangeOf(request.exchange);
    if (exchange.has.fetchOHLCV !== true || LATEST_ONLY.has(request.exchange)) fail(ErrorCode.NOT_SUPPORTED, `${request.exchange} publishes no candle history`, { reason: 'history_not_available' });
    const step = INTERVAL_MS[request.interval];
    const limit: number = (exchange.features as { spot?: { fetchOHLCV?: { limit?: number } } } | undefined)?.spot?.fetchOHLCV?.limit ?? 500;
    const startedAt = now();
    const until = Math.min(end, startedAt);
    const days = new Map<number, string[]>();
    for (let day = start; day < end; day += DAY_MS) days.set(day, []);
    let flushed = start;
    const flush = async (before: number) => {
      for (; flushed + DAY_MS <= before; flushed += DAY_MS) await saveDay(request, flushed, days.get(flushed)!, flushed + DAY_MS <= startedAt);
    };
    let since = start;
    while (since < until) {
      if (request.signal?.aborted) throw request.signal.reason;
      const page = await read(() => exchange.fetchOHLCV(request.symbol, request.interval, since, limit));
      const rows = page.filter((row) => (row[0] ?? 0) >= since && (row[0] ?? 0) < until);
      if (rows.length === 0) {
        // Past the last candle there is: done. Otherwise a gap: one page further.
        if (page.length > 0 && (page.at(-1)![0] ?? 0) >= until) break;
        since += limit * step;
      } else {
        for (const row of rows) {
          const line = lineOf(row);
          if (line) days.get(Math.floor(row[0]! / DAY_MS) * DAY_MS)?.push(line);
        }
        since = rows.at(-1)![0]! + step;
        progress(rows.length);
      }
      await flush(Math.min(since, until));
    }
    await flush(end);
    return days;
  };

  /**
   * The candles of [from, to) as `time,open,high,low,close,volume` lines:
   * complete days from the cache, the rest from the exchange.
   */
  const candles = async (request: HistoryRequest): Promise<{ csv: string; candles: number }> => {
    const step = INTERVAL_MS[request.interval];
    const firstDay = Math.floor(request.from / DAY_MS) * DAY_MS;
    const lastDay = Math.floor((request.to - 1) / DAY_MS) * DAY_MS;
    const total = Math.ceil((request.to - request.from) / step);
    let done = 0;
    const progress = (count: number) => {
      done += count;
      request.onProgress?.(Math.min(done, total), total);
    };

    const cached = await db
      .selectFrom('market_candles')
      .select(['day', 'candles'])
      .where('exchange', '=', request.exchange)
      .where('symbol', '=', request.symbol)
      .where('interval', '=', request.interval)
      .where('day', '>=', String(firstDay))
      .where('day', '<=', String(lastDay))
      .where('complete', '=', true)
      .execute();
    const days = new Map<number, string[]>(cached.map((row) => [Number(row.day), row.candles === '' ? [] : row.candles.split('\n')]));
    for (const lines of days.values()) progress(lines.length);

    // Runs of days not cached, each fetched in one pass.
    for (let day = firstDay; day <= lastDay; ) {
      if (days.has(day)) {
        day += DAY_MS;
        continue;
      }
      let end = day;
      while (end <= lastDay && !days.has(end)) end += DAY_MS;
      const fetched = await fetchDays(request, day, end, progress);
      for (const [fetchedDay, lines] of fetched) days.set(fetchedDay, lines);
      day = end;
    }

    const lines: string[] = [];
    for (let day = firstDay; day <= lastDay; day += DAY_MS) {
      for (const line of days.get(day) ?? []) {
        const time = timeOf(line);
        if (time >= request.from && time < request.to) lines.push(line);
      }
    }
    if (lines.length === 0) fail(ErrorCode.PARAM_RANGE, 'the exchange has no candles of this pair between from and to', { field: 'from' });
    return { csv: lines.join('\n'), candles: lines.length };
  };

  return { market, candles };
};

export type History = ReturnType<typeof createHistory>;
