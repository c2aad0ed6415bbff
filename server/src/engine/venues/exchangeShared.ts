/**
 * What every client of one exchange shares in a server: its pauses (429,
 * 418; the process's, as a ban holds the address), its request budget, and
 * its market list. The app makes one with its engine (enginePlugin.ts) and
 * hands it to every user's account clients and to its price reads, so two
 * servers in one process share no budget nor market list.
 */
import { createExchangePauses, type ExchangePauses } from './exchangePauses';
import { createRateBudgets, type RateBudgets } from './rateBudget';
import { createSharedMarkets, type SharedMarkets } from './sharedMarkets';

export interface ExchangeShared {
  pauses: ExchangePauses;
  budgets: RateBudgets;
  markets: SharedMarkets;
}

export const createExchangeShared = (pauses: ExchangePauses = createExchangePauses()): ExchangeShared => ({
  pauses,
  budgets: createRateBudgets({ pauses }),
  markets: createSharedMarkets(),
});
