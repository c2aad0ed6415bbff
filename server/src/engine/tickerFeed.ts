import Big from 'big.js';
import ccxt, { type Exchange } from 'ccxt';
import { SPOT_SETTINGS } from './ccxtClient';

/**
 * Live prices of real exchanges through ccxt's websocket streams
 * (`watchTicker`): one stream per exchange and symbol, shared by every task
 * and account that trades it. Streams need no API key. A stream that has not
 * been asked for in `idleMs` is closed; a broken stream reconnects with
 * backoff, and until it is back its price counts as stale, so the caller falls
 * back to a REST ticker.
 */

/** Makes ccxt's websocket class of an exchange (ccxt.pro) with the given settings; no keys. */
export type StreamFactory = (exchangeId: string, settings: Record<string, unknown>) => Exchange;

export interface TickerFeedOptions {
  createExchange?: StreamFactory;
  /** A streamed price older than this is not used (ms). */
  maxAgeMs?: number;
  /** A stream nobody asked for in this long is closed (ms). */
  idleMs?: number;
  now?: () => number;
  log?: { warn: (data: object, message: string) => void };
}

interface Stream {
  exchangeId: string;
  symbol: string;
  price: string | null;
  at: number;
  askedAt: number;
  running: boolean;
}

const proClasses = (ccxt as unknown as { pro: Record<string, new (settings?: object) => Exchange> }).pro;

export const createStreamExchange: StreamFactory = (exchangeId, settings) => {
  const Class = proClasses[exchangeId];
  if (!Class) throw new Error(`ccxt has no websocket class for ${exchangeId}`);
  return new Class(settings);
};

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
        const ticker = await exchange.watchTicker(stream.symbol);
        const last = ticker.last ?? ticker.close;
        if (last !== undefined && last !== null && Number.isFinite(last)) {
          stream.price = new Big(last).toString();
          stream.at = now();
        }
        failures = 0;
      } catch (error) {
        if (closed) break;
        failures += 1;
        log?.warn({ err: error, exchange: stream.exchangeId, symbol: stream.symbol, failures }, 'ticker stream failed; reconnecting');
        await sleep(Math.min(30_000, 500 * 2 ** failures));
      }
    }
    stream.running = false;
    streams.delete(`${stream.exchangeId}|${stream.symbol}`);
    if (!closed && exchange.has['unWatchTicker']) await exchange.unWatchTicker(stream.symbol).catch(() => undefined);
  };

  return {
    /**
     * The streamed last price of `symbol` on `exchangeId`, or null while there
     * is no fresh one. The first ask starts the shared stream.
     */
    price(exchangeId: string, symbol: string): string | null {
      if (closed) return null;
      const key = `${exchangeId}|${symbol}`;
      let stream = streams.get(key);
      if (!stream) {
        stream = { exchangeId, symbol, price: null, at: 0, askedAt: now(), running: true };
        streams.set(key, stream);
        void run(stream);
      }
      stream.askedAt = now();
      return stream.price !== null && now() - stream.at <= maxAgeMs ? stream.price : null;
    },
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
