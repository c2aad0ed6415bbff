/**
 * A live public market's reads, shared by every paper account (and the
 * dashboard's charts) on that exchange: tickers and candles answered from a
 * short-lived cache, and one request in flight per question however many ask
 * it at once. Their requests are the exchange's budget's price reads
 * (rateBudget.ts), behind the engine's own orders and reads.
 */
import type { ExchangeClient } from '../exchangeClient';

export const TICKER_TTL_MS = 500;
export const CANDLE_TTL_MS = 10_000;

export const cachedReads = (client: ExchangeClient, { tickerTtlMs = TICKER_TTL_MS, candleTtlMs = CANDLE_TTL_MS, now = Date.now } = {}): ExchangeClient => {
  const entries = new Map<string, { at: number; answer: Promise<unknown> }>();
  const cached = <T>(key: string, ttlMs: number, ask: () => Promise<T>): Promise<T> => {
    const entry = entries.get(key);
    if (entry && now() - entry.at < ttlMs) return entry.answer as Promise<T>;
    const fresh = { at: now(), answer: ask() as Promise<unknown> };
    entries.set(key, fresh);
    // A failure is not kept: the next caller asks again.
    fresh.answer.catch(() => entries.get(key) === fresh && entries.delete(key));
    // Old entries go when the cache grows (pairs nobody looks at any more).
    if (entries.size > 5_000) for (const [old, { at }] of entries) if (now() - at > candleTtlMs) entries.delete(old);
    return fresh.answer as Promise<T>;
  };
  return {
    ...client,
    fetchTicker: (symbol) => cached(`ticker:${symbol}`, tickerTtlMs, () => client.fetchTicker(symbol)),
    fetchTickers: (symbols) => cached(`tickers:${[...symbols].sort().join(',')}`, tickerTtlMs, () => client.fetchTickers(symbols)),
    fetchOHLCV: (symbol, timeframe, limit) => cached(`candles:${symbol}:${timeframe}:${limit}`, candleTtlMs, () => client.fetchOHLCV(symbol, timeframe, limit)),
  };
};
