import Big from 'big.js';
import type { PresetFiguresAnswer } from '../../api/backtest';
import { ladderProblem, smallestFirstOrder, type CheckedMarket } from '../../api/ladderChecks';
import { firstOrderForInvestment, maxCycleFunds, withBuyFees, type StrategySettings } from '../../api/strategy';
import type { DecimalString } from '../../api/types';

/** How the wizard sizes the task: a first order, or a total to invest over its pairs. */
export interface PresetSizing {
  firstOrderAmount: DecimalString | null;
  invest: { amount: DecimalString; pairs: number } | null;
  firstOrderMultiple: boolean;
}

/** A preset whose ladder, at the wizard's sizing, has an order the exchange would refuse, and what would pass. */
export interface PresetShortfall {
  firstOrder: DecimalString;
  /** The market's smallest order value (quote). */
  minCost: DecimalString;
  /** The smallest first order whose ladder passes; null when none does. */
  minFirstOrder: DecimalString | null;
  /** Sized by a total: the smallest total that derives that first order. */
  minInvest: DecimalString | null;
}

const positive = (value: string) => {
  try {
    return new Big(value).gt(0);
  } catch {
    return false;
  }
};

/**
 * The server's check before a task runs (ladderChecks.ts), applied to a
 * preset at the wizard's sizing, on the market and last price its figures
 * come from: null when every order of its ladder passes the exchange's
 * minimums (or nothing is sized yet).
 */
export const presetShortfall = (answer: Pick<PresetFiguresAnswer, 'symbol' | 'market' | 'lastPrice'>, settings: StrategySettings, sizing: PresetSizing): PresetShortfall | null => {
  const { invest, firstOrderMultiple } = sizing;
  const firstOrder = invest ? firstOrderForInvestment(settings, invest.amount, invest.pairs, firstOrderMultiple) : sizing.firstOrderAmount;
  if (firstOrder === null || !positive(answer.lastPrice) || (!invest && !positive(firstOrder))) return null;
  const { market: rules } = answer;
  const market: CheckedMarket = { symbol: answer.symbol, precision: { amount: rules.amountStep }, limits: { amount: { min: rules.minAmount }, cost: { min: rules.minCost } } };
  if (ladderProblem(market, answer.lastPrice, { firstOrderAmount: firstOrder, firstOrderMultiple }, settings, rules.feeRate) === null) return null;
  // Searched from a cent at least: a total too small for a cent derives a first order of 0.
  const from = positive(firstOrder) ? firstOrder : '0.01';
  const minFirstOrder = smallestFirstOrder(market, answer.lastPrice, { firstOrderAmount: from, firstOrderMultiple }, settings, rules.feeRate);
  const minInvest =
    invest && minFirstOrder !== null ? withBuyFees(maxCycleFunds(settings, minFirstOrder, firstOrderMultiple)).times(invest.pairs).round(0, Big.roundUp).toFixed() : null;
  return { firstOrder, minCost: rules.minCost, minFirstOrder, minInvest };
};
