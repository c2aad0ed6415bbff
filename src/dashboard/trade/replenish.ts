import Big from 'big.js';
import type { TradeTaskDetail } from '../../api/trade';
import type { DecimalString } from '../../api/types';

/** What "replenish now" would buy, as the confirmation shows it before anything is sent. */
export interface ReplenishPreview {
  /** The ladder level it buys (1 for the first replenish). */
  level: number;
  /** Quote it spends: the first order x the level's multiple, as the engine computes it. */
  amount: DecimalString;
  /** The price it is estimated at: the last price (a market buy fills near it). */
  price: DecimalString;
  /** The average cost now, and after the buy at that price (fees left out), 8 decimals. */
  average: DecimalString;
  newAverage: DecimalString;
}

/**
 * The next level's market buy, in decimals: null when there is nothing to
 * replenish now (no cycle under way, no position, every level filled, no
 * price known, or a finished task).
 */
export const replenishPreview = (
  task: Pick<TradeTaskDetail, 'finished' | 'phase' | 'quantity' | 'cost' | 'lastPrice' | 'levelsFilled' | 'firstOrderAmount'> & {
    strategy: Pick<TradeTaskDetail['strategy'], 'levels'>;
  },
): ReplenishPreview | null => {
  if (task.finished || task.phase !== 'open' || !task.lastPrice) return null;
  const quantity = new Big(task.quantity);
  const price = new Big(task.lastPrice);
  const next = task.strategy.levels[task.levelsFilled];
  if (!next || quantity.lte(0) || price.lte(0)) return null;
  const amount = new Big(task.firstOrderAmount).times(next.multiple);
  const cost = new Big(task.cost);
  return {
    level: task.levelsFilled + 1,
    amount: amount.toFixed(),
    price: price.toFixed(),
    average: cost.div(quantity).round(8).toFixed(),
    newAverage: cost.plus(amount).div(quantity.plus(amount.div(price))).round(8).toFixed(),
  };
};
