import Big from 'big.js';
import type { Exchange } from 'ccxt';
import { createStreamExchange, SPOT_SETTINGS, type StreamFactory } from './exchangeAccess';

/**
 * Live prices of real exchanges through ccxt's websocket streams
 * (`watchTicker`): one stream per exchange and symbol, shared by every task,
 * account and paper market that trades it. Streams need no API key. A stream
 * carries the last price and, where the exchange sends them, the best bid and
 * ask. A stream that has not been asked for in `idleMs` is closed; a broken
 * stream reconnects with backoff, and until it is back its quote counts as
 * stale, so the caller falls back to a REST ticker.
 */


export interface TickerFeedOptions {
  createExchange?: StreamFactory;
  /** A streamed price older than this is not used (ms). */
  maxAgeMs?: number;
  /** A stream nobody asked for in this long is closed (ms). */
  idleMs?: number;
  now?: () => number;
  log?: { warn: (data: object, message: string) => void; info?: (data: object, message: string) => void };
}

/** The last streamed ticker of a symbol, in decimals. */
export interface StreamQuote {
  last: string;
  /** Best bid and ask, null where the exchange's stream does not carry them. */
  bid: string | null;
  ask: string | null;
  /** The exchange's time of the ticker (ms), or when it arrived. */
  timestamp: number;
  /** 24-hour change in percent and quote volume, when sent. */
  percentage: string | null;
  quoteVolume: string | null;
  /** When it arrived (ms, the feed's clock). */
  at: number;
}

interface Stream {
  exchangeId: string;
  symbol: string;
  quote: StreamQuote | null;
  askedAt: number;
  running: boolean;
}

/**
 * Stream parameters per exchange: Binance's default ticker stream is the
 * mini ticker, which has no best bid and ask; its full 24-hour ticker has them.
 */
const STREAM_PARAMS: Record<string, Record<string, unknown>> = { binance: { name: 'ticker' } };

const decimal = (value: number | undefined | null): string | null =>
  value !== undefined && value !== null && Number.isFinite(value) ? new Big(value).toString() : null;


const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

export const createTickerFeed = ({
  createExchange = createStreamExchange,
  maxAgeMs = 15_000,
  idleMs = 300_000,
  now = Date.now,
  log,
}: TickerFeedOptions = {}) => {
  const exchanges = new Map<string, Exchange>();
  const streams = new Map<string, Stream>();
  let closed = false;

  const exchangeOf = (exchangeId: string): Exchange => {
    let exchange = exchanges.get(exchangeId);
    if (!exchange) {
      exchange = createExchange(exchangeId, SPOT_SETTINGS);
      exchanges.set(exchangeId, exchange);
    }
    return exchange;
  };

  const run = async (stream: Stream) => {
    let failures = 0;
    const exchange = exchangeOf(stream.exchangeId);
    while (!closed && now() - stream.askedAt < idleMs) {
      try {
        const ticker = await exchange.watchTicker(stream.symbol, STREAM_PARAMS[stream.exchangeId] ?? {});
        const last = decimal(ticker.last ?? ticker.close);
        if (last !== null) {
          const at = now();
          stream.quote = {
            last,
            bid: decimal(ticker.bid),
            ask: decimal(ticker.ask),
            timestamp: ticker.timestamp ?? at,
            percentage: decimal(ticker.percentage),
            quoteVolume: decimal(ticker.quoteVolume),
            at,
          };
        }
        if (failures > 0) log?.info?.({ exchange: stream.exchangeId, symbol: stream.symbol }, 'ticker stream is back');
        failures = 0;
      } catch (error) {
        if (closed) break;
        failures += 1;
        // Said once per outage, not at every retry (an offline machine retries for as long as it runs).
        if (failures === 1) log?.warn({ err: error, exchange: stream.exchangeId, symbol: stream.symbol }, 'ticker stream failed; reconnecting with backoff');
        await sleep(Math.min(30_000, 500 * 2 ** failures));
      }
    }
    stream.running = false;
    streams.delete(`${stream.exchangeId}|${stream.symbol}`);
    if (!closed && exchange.has['unWatchTicker']) await exchange.unWatchTicker(stream.symbol).catch(() => undefined);
  };

  /**
   * The streamed quote of `symbol` on `exchangeId`, or null while there is no
   * fresh one. The first ask starts the shared stream; asking keeps it open.
   */
  const quote = (exchangeId: string, symbol: string): StreamQuote | null => {
    if (closed) return null;
    const key = `${exchangeId}|${symbol}`;
    let stream = streams.get(key);
    if (!stream) {
      stream = { exchangeId, symbol, quote: null, askedAt: now(), running: true };
      streams.set(key, stream);
      void run(stream);
    }
    stream.askedAt = now();
    return stream.quote !== null && now() - stream.quote.at <= maxAgeMs ? stream.quote : null;
  };

  return {
    quote,
    /** The streamed last price, or null while there is no fresh one. */
    price: (exchangeId: string, symbol: string): string | null => quote(exchangeId, symbol)?.last ?? null,
    /** Open streams, as `exchange|symbol`. */
    streams: (): string[] => [...streams.keys()],
    async close() {
      closed = true;
      await Promise.all([...exchanges.values()].map((exchange) => exchange.close().catch(() => undefined)));
      exchanges.clear();
      streams.clear();
    },
  };
};

export type TickerFeed = ReturnType<typeof createTickerFeed>;
