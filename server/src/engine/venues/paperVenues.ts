import { SIMULATOR } from '../../../../src/api/exchange';
import type { DecimalString } from '../../../../src/api/types';
import { createPaperExchange, type PaperExchange, type PaperPriceFeed } from './paper/exchange';
import type { LiveMarket } from './paper/liveMarket';
import type { SimulatedMarket } from './paper/market';
import type { PriceSources } from './paper/priceSources';

/**
 * Where a paper account trades: the simulator, or a real exchange's live
 * public market (paper/liveMarket.ts), each with its own paper exchange.
 * An account whose exchange cannot be reached trades on the simulator
 * until it is back; its balances move with it (the journal has them after
 * every commit).
 */
export interface PaperVenue {
  key: string;
  paper: PaperExchange;
  feed: PaperPriceFeed;
  live: LiveMarket | null;
}

export interface PaperVenuesOptions {
  market: SimulatedMarket;
  feeRate: string;
  priceSources?: PriceSources | null | undefined;
  /** An account's balances as the journal has them (a new account's start balances). */
  loadBalances: (accountId: string) => Promise<Record<string, DecimalString>>;
}

export const createPaperVenues = ({ market, feeRate, priceSources, loadBalances }: PaperVenuesOptions) => {
  const paper: PaperExchange = createPaperExchange({ market, feeRate });
  const simulator: PaperVenue = { key: SIMULATOR, paper, feed: market, live: null };
  const venues = new Map<string, PaperVenue>([[SIMULATOR, simulator]]);
  /** Which venue holds each loaded account's balances. */
  const accountVenues = new Map<string, PaperVenue>();

  const venueFor = (task: { priceSource: string | null }): PaperVenue => {
    const source = task.priceSource ?? SIMULATOR;
    if (source === SIMULATOR || !priceSources) return simulator;
    const live = priceSources.liveMarket(source);
    if (!live.live()) return simulator;
    let venue = venues.get(source);
    if (!venue) {
      venue = { key: source, paper: createPaperExchange({ market: live.feed, feeRate }), feed: live.feed, live };
      venues.set(source, venue);
    }
    return venue;
  };

  return {
    /** The simulator's paper exchange. */
    paper,
    simulator,
    venueFor,
    all: () => venues.values(),
    /** Loads a paper account's balances into its venue's paper exchange (again when it moved to another venue). */
    async ensureAccount(accountId: string, venue: PaperVenue = simulator) {
      if (accountVenues.get(accountId) === venue) return;
      venue.paper.restoreBalances(accountId, await loadBalances(accountId));
      accountVenues.set(accountId, venue);
    },
    /** The paper exchange holding an account's balances. */
    paperOf: (accountId: string) => (accountVenues.get(accountId) ?? simulator).paper,
    forgetAccount: (accountId: string) => accountVenues.delete(accountId),
  };
};

export type PaperVenues = ReturnType<typeof createPaperVenues>;
