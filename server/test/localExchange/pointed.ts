import { createCcxtExchange, type ExchangeFactory } from '../../src/engine/venues/exchangeAccess';

/**
 * The product's own ccxt instances (createCcxtExchange, the settings it is
 * given) with their requests sent to a local exchange. ccxt keeps the real
 * URLs and only the connection goes to the local server: ccxt's Binance class
 * picks part of its error table by URL (`getExceptionsByUrl`: its spot codes,
 * such as -1008 SERVER_BUSY, only for `https://api.binance.com/`), so a
 * changed `urls.api` would test another mapping than the one users get.
 * `timeoutMs` replaces the client's request timeout (the soak's read
 * timeouts would otherwise hold its short run for 10 s each).
 */
export const pointedAt = (hosts: Record<string, string>, { timeoutMs }: { timeoutMs?: number } = {}): ExchangeFactory => {
  const fetchImplementation = (url: string, init: RequestInit) => {
    const { origin } = new URL(url);
    const local = hosts[origin];
    if (!local) return Promise.reject(new TypeError(`fetch failed: no local exchange for ${origin}`));
    return fetch(local + url.slice(origin.length), init);
  };
  return (exchangeId, settings) => createCcxtExchange(exchangeId, { ...settings, ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }), fetchImplementation });
};

export const BINANCE_ORIGIN = 'https://api.binance.com';
export const OKX_ORIGIN = 'https://www.okx.com';
