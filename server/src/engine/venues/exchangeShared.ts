/**
 * What every client of one exchange shares in a process: its pauses (429,
 * 418), its request budget, and its market list. Tests that pass their own
 * pauses get their own budgets and market lists with them.
 */
import { createExchangePauses, processPauses, type ExchangePauses } from './exchangePauses';
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

/** The process's: every client shares it unless a test gives its own pauses. */
export const processShared = createExchangeShared(processPauses);

const byPauses = new WeakMap<ExchangePauses, ExchangeShared>();

export const sharedFor = (pauses: ExchangePauses): ExchangeShared => {
  if (pauses === processPauses) return processShared;
  let shared = byPauses.get(pauses);
  if (!shared) {
    shared = createExchangeShared(pauses);
    byPauses.set(pauses, shared);
  }
  return shared;
};
