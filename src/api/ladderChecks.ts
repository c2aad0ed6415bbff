/**
 * The ladder against the exchange's minimums (design section 5): every buy of
 * a task's ladder and every sale of its position, as the exchange would see
 * them. The server checks a task with it before it runs (server/src/trade/
 * checks.ts); the wizard's preset cards warn with it before one is applied.
 */
import Big from 'big.js';
import { effectiveTakeProfitPercent, stopLossPrice, type StrategySettings } from './strategy';
import type { DecimalString } from './types';

/** Room kept over the exchange's minimum cost: prices move between this check and the order. */
export const MIN_COST_HEADROOM = new Big('1.05');

/** What the check reads of a market: the paper exchange's, or a real one's through the exchange client. */
export type CheckedMarket = {
  symbol: string;
  precision: { amount: string };
  limits: { amount: { min: string }; cost: { min: string } };
  /** The exchange's taker fee, a fraction, when it states one. */
  taker?: string;
};

/** The task's sizing: its first order's quote amount, doubled for the first buy when `firstOrderMultiple`. */
export interface LadderParams {
  firstOrderAmount: DecimalString;
  firstOrderMultiple: boolean;
}

/** An order of the ladder, or a sale of the position, that the exchange would refuse. */
export interface LadderProblem {
  side: 'buy' | 'sell';
  /** 0: the first order (or the position after it); n: level n. */
  level: number;
  /** Sells: the price the sale is judged at. */
  at?: 'take_profit' | 'stop_loss';
  /** Base amount of the order after rounding to the step. */
  quantity: string;
  price: string;
  /** Quote value of that amount at that price. */
  value: string;
  /** Buys: the quote amount the order spends. */
  quote?: string;
}

const floorTo = (value: Big, step: Big) => value.div(step).round(0, Big.roundDown).times(step);

/**
 * Every order of the ladder and every sale of the position, as the exchange
 * would see them, for a first fill at `price` (design section 5):
 * - buys: each order, rounded down to the amount step at its trigger price,
 *   must meet the minimum amount and (with headroom) the minimum cost;
 * - sells: after the first order and after every level, the position net of
 *   the fee taken in the coin and rounded down to the step must be sellable
 *   (minimum amount, minimum cost) at the take-profit price and at the
 *   stop-loss price.
 * Answers the first order that fails, or null.
 */
export const ladderProblem = (market: CheckedMarket, price: string, params: LadderParams, strategy: StrategySettings, feeRate: string): LadderProblem | null => {
  const step = new Big(market.precision.amount);
  const minAmount = new Big(market.limits.amount.min);
  const minCost = new Big(market.limits.cost.min).times(MIN_COST_HEADROOM);
  const tooSmall = (quantity: Big, at: Big) => quantity.lte(0) || quantity.lt(minAmount) || quantity.times(at).lt(minCost);
  const first = new Big(price);
  const takeProfit = new Big(effectiveTakeProfitPercent(strategy)).div(100).plus(1);
  const orders = [
    { level: 0, quote: new Big(params.firstOrderAmount).times(params.firstOrderMultiple ? 2 : 1), price: first },
    ...strategy.levels.map((level, i) => ({
      level: i + 1,
      quote: new Big(params.firstOrderAmount).times(level.multiple),
      price: first.times(new Big(1).minus(new Big(level.dropPercent).div(100))),
    })),
  ];
  let held = new Big(0);
  let spent = new Big(0);
  for (const order of orders) {
    const bought = floorTo(order.quote.div(order.price), step);
    if (tooSmall(bought, order.price)) {
      const value = bought.times(order.price).round(8).toFixed();
      return { side: 'buy', level: order.level, quantity: bought.toFixed(), price: order.price.round(8).toFixed(), value, quote: order.quote.toFixed() };
    }
    // The fee comes off the coin received (the paper exchange, Binance without BNB), rounded up.
    held = held.plus(bought.minus(bought.times(feeRate).round(8, Big.roundUp)));
    spent = spent.plus(bought.times(order.price));
    const sellable = floorTo(held, step);
    const average = spent.div(held);
    const exits: { at: 'take_profit' | 'stop_loss'; price: Big }[] = [{ at: 'take_profit', price: average.times(takeProfit) }];
    // From the average, or below the last level's trigger price (stopLossBase).
    const stop = stopLossPrice(strategy, average, first);
    if (stop) exits.push({ at: 'stop_loss', price: stop });
    for (const exit of exits) {
      if (tooSmall(sellable, exit.price)) {
        return {
          side: 'sell',
          level: order.level,
          at: exit.at,
          quantity: sellable.toFixed(),
          price: exit.price.round(8).toFixed(),
          value: sellable.times(exit.price).round(8).toFixed(),
        };
      }
    }
  }
  return null;
};

/** The smallest first order amount (2 decimals) whose whole ladder passes ladderProblem; null when none does up to a million. */
export const smallestFirstOrder = (market: CheckedMarket, price: string, params: LadderParams, strategy: StrategySettings, feeRate: string): string | null => {
  let amount = new Big(params.firstOrderAmount);
  if (ladderProblem(market, price, params, strategy, feeRate) === null) return amount.toFixed();
  // Grow until it passes, then narrow down to the cent.
  let low = amount;
  for (let i = 0; i < 60 && ladderProblem(market, price, { ...params, firstOrderAmount: amount.toFixed() }, strategy, feeRate) !== null; i += 1) {
    low = amount;
    amount = amount.times(1.25).round(2, Big.roundUp);
    if (amount.gt(1_000_000)) return null;
  }
  let high = amount;
  while (high.minus(low).gt('0.01')) {
    const middle = low.plus(high).div(2).round(2, Big.roundUp);
    if (middle.eq(high)) break;
    if (ladderProblem(market, price, { ...params, firstOrderAmount: middle.toFixed() }, strategy, feeRate) === null) high = middle;
    else low = middle;
  }
  return high.toFixed();
};
