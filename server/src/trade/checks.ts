import Big from 'big.js';
import { ErrorCode } from '../../../src/api/errors';
import { maxCycleFunds, type StrategySettings } from '../../../src/api/strategy';
import type { TaskParams } from '../engine/decide';
import { firstOrderQuote } from '../engine/decide';
import type { PaperMarketInfo } from '../engine/paper/exchange';
import { fail } from '../http/errors';

/** Room kept over the exchange's minimum cost: prices move between this check and the order. */
const MIN_COST_HEADROOM = new Big('1.05');

/**
 * Before a task runs (spec: reported then, not mid-cycle): every order of its
 * ladder, rounded to the market's amount step at its trigger price, must meet
 * the minimum amount and cost; and the funds a full cycle needs (with fees)
 * must be free on the account.
 */
/** What the check reads of a market: the paper exchange's, or a real one's through the exchange client. */
export type CheckedMarket = Pick<PaperMarketInfo, 'symbol'> & {
  precision: { amount: string };
  limits: { amount: { min: string }; cost: { min: string } };
};

export const checkTaskCanRun = (
  market: CheckedMarket,
  price: string,
  params: Pick<TaskParams, 'firstOrderAmount' | 'firstOrderMultiple'>,
  strategy: StrategySettings,
  freeQuote: string,
  feeRate: string,
) => {
  const step = new Big(market.precision.amount);
  const minAmount = new Big(market.limits.amount.min);
  const minCost = new Big(market.limits.cost.min);
  const orders = [
    { level: 0, quote: new Big(firstOrderQuote(params)), price: new Big(price) },
    ...strategy.levels.map((level, i) => ({
      level: i + 1,
      quote: new Big(params.firstOrderAmount).times(level.multiple),
      price: new Big(price).times(new Big(1).minus(new Big(level.dropPercent).div(100))),
    })),
  ];
  for (const order of orders) {
    const amount = order.quote.div(order.price).div(step).round(0, Big.roundDown).times(step);
    if (amount.lt(minAmount) || amount.times(order.price).lt(minCost.times(MIN_COST_HEADROOM))) {
      fail(ErrorCode.PARAM_RANGE, `order ${order.level} of the ladder is below the exchange minimum`, {
        reason: 'below_min_order',
        symbol: market.symbol,
        level: order.level,
        amount: order.quote.toFixed(),
        minCost: minCost.times(MIN_COST_HEADROOM).toFixed(),
      });
    }
  }
  const required = new Big(maxCycleFunds(strategy, params.firstOrderAmount, params.firstOrderMultiple)).times(new Big(1).plus(feeRate));
  if (required.gt(freeQuote)) {
    fail(ErrorCode.INSUFFICIENT_BALANCE, 'the free balance does not cover a full cycle', {
      reason: 'insufficient_funds',
      symbol: market.symbol,
      required: required.round(2, Big.roundUp).toFixed(),
      available: new Big(freeQuote).toFixed(),
    });
  }
};
