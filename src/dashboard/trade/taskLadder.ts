import Big from 'big.js';
import { ladder, targetsOf } from '../../api/strategy';
import type { DecimalString } from '../../api/types';
import type { TradeOrder, TradeTaskDetail } from '../../api/trade';
import { baseOf, quoteOf } from '../kit/money';

/** A level's fill: what the exchange filled for it in the cycle under way (every fill of the level, summed). */
export interface LevelFill {
  price: DecimalString;
  cost: DecimalString;
  quantity: DecimalString;
}

/**
 * One level of the task's ladder: its trigger price and planned amount, its
 * fill when bought, and what the position looks like after it: the average
 * and the take-profit price (as filled for a bought level, projected from
 * the position held for a pending one) and the funds the pending levels up
 * to this one still need.
 */
export interface TaskLadderRow {
  level: number;
  dropPercent: DecimalString;
  trigger: DecimalString;
  amount: DecimalString;
  /** Bought in the cycle under way; its fill is null only while the cycle's orders are not read yet. */
  bought: boolean;
  fill: LevelFill | null;
  /** The first pending level: the one the robot buys next. */
  next: boolean;
  averageAfter: DecimalString;
  takeProfitAfter: DecimalString;
  /** Quote still to spend for the pending levels up to this one; null for a bought level. */
  fundsNeeded: DecimalString | null;
}

/** A take-profit target of the cycle (strategies with several): its share and price, and its sale once it sold. */
export interface TaskTargetRow {
  /** 1-based, as the engine numbers them. */
  target: number;
  /** Percent of what is left that the target sells (the last one: all of it). */
  sharePercent: DecimalString;
  profitPercent: DecimalString;
  /** Where it sells: the average now, plus its profit percent (fees aside). */
  price: DecimalString;
  /** Its sale in the cycle under way (price, base sold, quote received net of a quote fee); null while pending. */
  sold: { price: DecimalString; quantity: DecimalString; proceeds: DecimalString } | null;
}

export interface TaskLadder {
  rows: TaskLadderRow[];
  /** The take-profit targets, for a strategy with more than one (else empty). */
  targets: TaskTargetRow[];
  /** The ladder is the one a cycle opened now would get (no first fill yet): prices from the last price. */
  projected: boolean;
  /** Quote the pending levels still need in all. */
  fundsNeeded: DecimalString;
}

const PRICE_DP = 8;
const QUOTE_DP = 8;

type LadderTask = Pick<
  TradeTaskDetail,
  'symbol' | 'strategy' | 'firstOrderAmount' | 'firstOrderMultiple' | 'firstFillPrice' | 'lastPrice' | 'levelsFilled' | 'cost' | 'quantity' | 'phase'
>;

/** The buys of the cycle under way, per level: cost with a fee paid in quote, quantity net of a fee paid in base (as the engine books them). */
const fillsByLevel = (symbol: string, orders: TradeOrder[]) => {
  const base = baseOf(symbol);
  const quote = quoteOf(symbol);
  const fills = new Map<number, { cost: Big; quantity: Big; paid: Big; bought: Big }>();
  for (const order of orders) {
    if (order.side !== 'buy' || order.status !== 'closed' || !new Big(order.amount).gt(0)) continue;
    const into = fills.get(order.level) ?? { cost: new Big(0), quantity: new Big(0), paid: new Big(0), bought: new Big(0) };
    const fee = new Big(order.fee || '0');
    into.paid = into.paid.plus(order.cost);
    into.bought = into.bought.plus(order.amount);
    into.cost = into.cost.plus(order.cost).plus(order.feeCurrency === quote ? fee : 0);
    into.quantity = into.quantity.plus(order.amount).minus(order.feeCurrency === base ? fee : 0);
    fills.set(order.level, into);
  }
  return fills;
};

/**
 * The task's ladder for the cycle under way, from its template, its first
 * order and first fill, and the cycle's filled buys (`orders`). Bought levels
 * carry their fills, and the average after each is the position's as booked,
 * so the last bought level's average is the task's own. Pending levels are
 * projected from the position held, at their trigger prices, fees aside.
 * Without a first fill the ladder is the one a cycle opened at the last price
 * would get.
 */
export const taskLadder = (task: LadderTask, orders: TradeOrder[]): TaskLadder | null => {
  const inCycle = task.phase === 'open' && task.firstFillPrice !== null && new Big(task.firstFillPrice).gt(0);
  const anchor = inCycle ? task.firstFillPrice : task.lastPrice;
  if (!anchor || !new Big(anchor).gt(0) || !new Big(task.firstOrderAmount).gt(0)) return null;
  const planned = ladder(task.strategy, task.firstOrderAmount, anchor, task.firstOrderMultiple);
  const takeProfit = new Big(task.strategy.takeProfitPercent).div(100).plus(1);
  const fills = inCycle ? fillsByLevel(task.symbol, orders) : new Map<number, never>();
  const bought = (level: number) => inCycle && level <= task.levelsFilled;

  // What the position held before the cycle's first buy: a remainder carried from the last cycle.
  let cost = new Big(0);
  let quantity = new Big(0);
  if (inCycle) {
    const filledCost = [...fills.values()].reduce((sum, fill) => sum.plus(fill.cost), new Big(0));
    const filledQuantity = [...fills.values()].reduce((sum, fill) => sum.plus(fill.quantity), new Big(0));
    const carriedCost = new Big(task.cost).minus(filledCost);
    const carriedQuantity = new Big(task.quantity).minus(filledQuantity);
    if (carriedCost.gt(0) && carriedQuantity.gt(0)) {
      cost = carriedCost;
      quantity = carriedQuantity;
    }
  }

  let needed = new Big(0);
  let nextFound = false;
  const rows = planned.map((row): TaskLadderRow => {
    const fill = fills.get(row.level);
    if (bought(row.level) && fill) {
      cost = cost.plus(fill.cost);
      quantity = quantity.plus(fill.quantity);
    } else if (!bought(row.level)) {
      cost = cost.plus(row.amount);
      quantity = quantity.plus(new Big(row.amount).div(row.price));
      needed = needed.plus(row.amount);
    }
    const average = quantity.gt(0) ? cost.div(quantity) : new Big(row.averagePrice);
    const isNext = !bought(row.level) && !nextFound;
    if (isNext) nextFound = true;
    return {
      level: row.level,
      dropPercent: row.dropPercent,
      trigger: row.price,
      amount: row.amount,
      bought: bought(row.level),
      fill:
        bought(row.level) && fill
          ? { price: fill.paid.div(fill.bought).round(PRICE_DP).toFixed(), cost: fill.paid.round(QUOTE_DP).toFixed(), quantity: fill.bought.toFixed() }
          : null,
      next: isNext,
      averageAfter: average.round(PRICE_DP).toFixed(),
      takeProfitAfter: average.times(takeProfit).round(PRICE_DP).toFixed(),
      fundsNeeded: bought(row.level) ? null : needed.round(QUOTE_DP).toFixed(),
    };
  });
  const held = new Big(task.quantity);
  const average = inCycle && held.gt(0) ? new Big(task.cost).div(held) : new Big(rows[0]?.averageAfter ?? anchor);
  return { rows, targets: targetRows(task, inCycle ? orders : [], average), projected: !inCycle, fundsNeeded: needed.round(QUOTE_DP).toFixed() };
};

/** The targets of a strategy with several, each with its sale among the cycle's orders (summed over its fills). */
const targetRows = (task: LadderTask, orders: TradeOrder[], average: Big): TaskTargetRow[] => {
  const targets = targetsOf(task.strategy);
  if (targets.length < 2) return [];
  const quote = quoteOf(task.symbol);
  return targets.map((target, i): TaskTargetRow => {
    const sales = orders.filter((order) => order.side === 'sell' && order.status === 'closed' && order.target === i + 1 && new Big(order.amount).gt(0));
    const quantity = sales.reduce((sum, order) => sum.plus(order.amount), new Big(0));
    const paid = sales.reduce((sum, order) => sum.plus(order.cost), new Big(0));
    const fees = sales.reduce((sum, order) => sum.plus(order.feeCurrency === quote ? order.fee || '0' : 0), new Big(0));
    return {
      target: i + 1,
      sharePercent: target.sharePercent,
      profitPercent: target.profitPercent,
      price: average.times(new Big(target.profitPercent).div(100).plus(1)).round(PRICE_DP).toFixed(),
      sold: quantity.gt(0) ? { price: paid.div(quantity).round(PRICE_DP).toFixed(), quantity: quantity.toFixed(), proceeds: paid.minus(fees).round(QUOTE_DP).toFixed() } : null,
    };
  });
};
