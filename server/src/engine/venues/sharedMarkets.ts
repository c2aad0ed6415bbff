/**
 * One market list per exchange flavour (live or testnet), shared by every
 * account's client and every task of a server (exchangeShared.ts). Binance's exchangeInfo
 * costs 20 of the minute's 6,000 weight: loaded per account, 100 accounts
 * starting together spent a third of the minute on it. The list changes
 * rarely (a listing, a filter): it is loaded once and refreshed every
 * REFRESH_MS, the old list serving until the new one arrived. A failed load
 * is not kept.
 */
import type { MarketInterface } from 'ccxt';

export const REFRESH_MS = 6 * 60 * 60_000;

export interface SharedMarkets {
  /** The flavour's markets as ccxt parsed them; `load` runs when there are none yet, or they are older than REFRESH_MS. */
  get(key: string, load: () => Promise<MarketInterface[]>): Promise<MarketInterface[]>;
}

export const createSharedMarkets = (now: () => number = Date.now, refreshMs = REFRESH_MS): SharedMarkets => {
  const lists = new Map<string, { at: number; markets: Promise<MarketInterface[]>; refreshing?: boolean }>();
  const start = (key: string, load: () => Promise<MarketInterface[]>) => {
    const entry = { at: now(), markets: load() };
    entry.markets.catch(() => {
      if (lists.get(key) === entry) lists.delete(key);
    });
    return entry;
  };
  return {
    get(key, load) {
      const entry = lists.get(key);
      if (!entry) {
        const fresh = start(key, load);
        lists.set(key, fresh);
        return fresh.markets;
      }
      if (now() - entry.at > refreshMs && !entry.refreshing) {
        entry.refreshing = true;
        const next = { at: now(), markets: load() };
        next.markets.then(
          () => lists.set(key, next),
          () => {
            entry.refreshing = false;
          },
        );
      }
      return entry.markets;
    },
  };
};
