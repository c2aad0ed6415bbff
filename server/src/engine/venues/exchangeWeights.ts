/**
 * What each request we send costs against an exchange's limit per server
 * address, as the exchanges document it (the table in README.md, "Rate
 * limits"), keyed by ccxt's path of the REST endpoint.
 *
 * Binance spot (developers.binance.com, Spot API, "General info: limits"
 * and each endpoint's "Weight"): REQUEST_WEIGHT 6,000 a minute per IP,
 * counted back in X-MBX-USED-WEIGHT-1M.
 *
 * OKX v5 (www.okx.com/docs-v5, "Rate limit" of each endpoint): limits per
 * endpoint and 2 seconds, public endpoints per IP, private ones per user
 * ID. We keep one budget per IP of 20 requests every 2 s, the smallest of
 * the public endpoints we call (tickers, instruments), for all of them
 * together; private endpoints count against each user's own limits (60 per
 * 2 s for orders, 10 per 2 s for the balance), which one account's few tasks
 * stay far below, so they cost nothing here.
 */
import { ENGINE_READ, ORDER, PRICE_READ, type BudgetRules, type Priority } from './rateBudget';

const count = (value: unknown): number => {
  if (Array.isArray(value)) return value.length;
  if (typeof value === 'string') {
    try {
      const parsed = JSON.parse(value) as unknown;
      return Array.isArray(parsed) ? parsed.length : 1;
    } catch {
      return value.split(',').length;
    }
  }
  return 0;
};

/** Binance spot's documented weight of a request (ccxt's path under api/v3). */
export const binanceWeight = (path: string, method: string, params: Record<string, unknown>): number => {
  const has = (name: string) => params[name] !== undefined;
  switch (path) {
    case 'exchangeInfo':
      return 20;
    case 'ticker/24hr': {
      if (has('symbol')) return 2;
      if (!has('symbols')) return 80;
      const symbols = count(params['symbols']);
      return symbols <= 20 ? 2 : symbols <= 100 ? 40 : 80;
    }
    case 'ticker/price':
    case 'ticker/bookTicker':
      return has('symbol') ? 2 : 4;
    case 'klines':
    case 'uiKlines':
      return 2;
    case 'account':
      return 20;
    case 'order':
      return method === 'GET' ? 4 : 1;
    case 'openOrders':
      return method === 'GET' ? (has('symbol') ? 6 : 80) : 1;
    case 'myTrades':
      return has('orderId') ? 5 : 20;
    case 'depth':
      return 5;
    default:
      return 1;
  }
};

/** OKX v5: public endpoints (per IP) cost 1 of the shared 20 per 2 s; private ones (per user ID) nothing here. */
export const okxWeight = (path: string): number => (path.startsWith('market/') || path.startsWith('public/') ? 1 : 0);

/** Whether a request places or cancels an order: it goes before every read. */
export const isOrderCall = (path: string, method: string): boolean =>
  (path === 'order' && method !== 'GET') ||
  (path === 'openOrders' && method === 'DELETE') ||
  /^trade\/(order|batch-orders|cancel-order|cancel-batch-orders)$/.test(path) && method === 'POST';

/** Orders may fill a process's whole share, the engine's reads 90 % of it, the shared price reads 60 %. */
const SHARES: Record<Priority, number> = { 0: 1, 1: 0.9, 2: 0.6 } satisfies Record<typeof ORDER | typeof ENGINE_READ | typeof PRICE_READ, number>;

/** The budget rules and request weights of an exchange; a generic budget for one we have no table of. */
export const budgetRulesOf = (exchangeId: string): { rules: BudgetRules; weightOf: (path: string, method: string, params: Record<string, unknown>) => number } => {
  switch (exchangeId) {
    case 'binance':
      return { rules: { limit: 6000, windowMs: 60_000, safety: 0.9, shares: SHARES, usedHeader: 'x-mbx-used-weight-1m', maxInFlight: 4 }, weightOf: binanceWeight };
    case 'okx':
      return { rules: { limit: 20, windowMs: 2_000, safety: 0.9, shares: SHARES, maxInFlight: 8 }, weightOf: okxWeight };
    default:
      // Unknown weights: a request counts 1, at most 10 a second.
      return { rules: { limit: 20, windowMs: 2_000, safety: 0.9, shares: SHARES, maxInFlight: 8 }, weightOf: () => 1 };
  }
};
