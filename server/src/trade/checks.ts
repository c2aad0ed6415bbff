import Big from 'big.js';
import { ErrorCode } from '../../../src/api/errors';
import { ladderProblem, MIN_COST_HEADROOM, smallestFirstOrder, type CheckedMarket, type LadderParams } from '../../../src/api/ladderChecks';
import { effectiveTakeProfitPercent, maxCycleFunds, stopLossFiresEarly, takeProfitFloorPercent, withBuyFees, type StrategySettings } from '../../../src/api/strategy';
import { fail } from '../http/errors';

// The ladder's checks against the exchange's minimums are shared with the browser (the wizard's preset cards).
export { ladderProblem, smallestFirstOrder, type CheckedMarket, type LadderProblem } from '../../../src/api/ladderChecks';

/**
 * Before a task runs (design section 5: reported then, not mid-cycle): the
 * take profit must cover the round trip's fees at the account's rate, the
 * stop loss must lie below every level, every order of the ladder and every
 * sale of the position must pass the exchange's minimums (see ladderProblem),
 * and the funds a full cycle needs (with fees) must be free on the account.
 */
export const checkTaskCanRun = (market: CheckedMarket, price: string, params: LadderParams, strategy: StrategySettings, freeQuote: string, feeRate: string) => {
  const floor = takeProfitFloorPercent(feeRate);
  const takeProfit = effectiveTakeProfitPercent(strategy);
  if (new Big(takeProfit).lt(floor)) {
    fail(ErrorCode.PARAM_RANGE, `the take profit after its callback (${takeProfit} %) does not cover the fees of a buy and a sell: at least ${floor} %`, {
      reason: 'take_profit_floor',
      takeProfit,
      floor,
      feeRate,
    });
  }
  const early = stopLossFiresEarly(strategy, feeRate, params.firstOrderMultiple);
  if (early !== null) {
    fail(ErrorCode.PARAM_RANGE, `the stop loss would sell before level ${early} buys`, { reason: 'stop_loss_deeper', level: early });
  }
  const problem = ladderProblem(market, price, params, strategy, feeRate);
  if (problem) {
    const what = problem.side === 'buy' ? `order ${problem.level} of the ladder` : `the position after order ${problem.level}`;
    fail(ErrorCode.PARAM_RANGE, `${what} is below the exchange minimum`, {
      reason: 'below_min_order',
      symbol: market.symbol,
      ...problem,
      amount: problem.quote ?? problem.value,
      minAmount: market.limits.amount.min,
      minCost: new Big(market.limits.cost.min).times(MIN_COST_HEADROOM).toFixed(),
      minFirstOrder: smallestFirstOrder(market, price, params, strategy, feeRate),
    });
  }
  const required = withBuyFees(maxCycleFunds(strategy, params.firstOrderAmount, params.firstOrderMultiple), feeRate);
  if (required.gt(freeQuote)) {
    fail(ErrorCode.INSUFFICIENT_BALANCE, 'the free balance does not cover a full cycle', {
      reason: 'insufficient_funds',
      symbol: market.symbol,
      required: required.round(2, Big.roundUp).toFixed(),
      available: new Big(freeQuote).toFixed(),
    });
  }
};
