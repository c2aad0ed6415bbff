/**
 * What one filled order does to a task: its new position and cycle state, the
 * events to record and, for a sell, the closed cycle with its realized
 * profit. Pure: the live runner (paper and real exchanges) and the backtest
 * apply fills through this one function, so both book the same money.
 *
 * Fees (design section 5): a fee in the base asset comes off the quantity
 * (buys) or comes out of the position on top of the amount sold (sells); a
 * fee in the quote asset adds to the cost (buys) or comes off the proceeds
 * (sells); a fee in a third asset (BNB on Binance) counts at its quote value
 * (`inQuote`), like a quote fee. A fill may pay fees in several assets. A sell books cost only for the quantity
 * that left the position (pro rata, decide.ts splitSale); the remainder is
 * carried into the next cycle.
 */
import Big from 'big.js';
import type { DecimalString } from '../../../../src/api/types';
import type { StrategySettings } from '../../../../src/api/strategy';
import type { TaskStop } from '../../../../src/api/trade';
import { applyBuyFill, applyPartialSellFill, applySellFill, splitSale, type CycleState, type StopKind } from './decide';

export interface FillFee {
  currency: string;
  cost: DecimalString;
  /** A fee paid in a third asset, valued in the quote at the fill ('0' when no price was found). */
  inQuote?: DecimalString;
}

/** A fill as both the paper exchange and a real one report it. */
export interface Fill {
  id: string;
  average: DecimalString | null;
  /** Base amount filled. */
  filled: DecimalString;
  /** Quote value filled. */
  cost: DecimalString;
  /** Every fee the fill paid, by asset. */
  fees: FillFee[];
}

/** Why a position was sold: take profit, a stop, the user's close, or a signal (issue 29: the close conditions or an alert). */
export type SellReason = 'take_profit' | 'stop_loss' | 'close' | 'signal';

export interface FillContext {
  symbol: string;
  side: 'buy' | 'sell';
  reason: 'first' | 'replenish' | SellReason;
  level: number;
  cycle: number;
  /** The task's state when the order was placed. */
  before: CycleState;
  strategy: Pick<StrategySettings, 'cooldownSeconds'>;
  /** Market time of the fill, epoch ms. */
  at: number;
  /** A take-profit target's partial sale: the cycle stays open with the rest. */
  partial?: boolean;
  /** The 1-based take-profit target a sale is for, when the strategy has several. */
  target?: number;
  /** A stop's sale: which stop fired (named in the `stop_loss` event). */
  stop?: TaskStop;
}

/** Which stop a decision's stop-loss sale is, by name; undefined for any other order. */
export const stopOf = (action: { reason: string; stop?: StopKind; fromLastLevel?: boolean }): TaskStop | undefined => {
  if (action.reason !== 'stop_loss') return undefined;
  if (action.stop === 'time' || action.stop === 'break_even') return action.stop;
  return action.fromLastLevel ? 'loss_last_level' : 'loss_average';
};

/** A closed cycle as it is stored (table `cycles`). */
export interface ClosedCycle {
  cycle: number;
  /** Cost basis of the quantity sold. */
  buyCost: DecimalString;
  sellProceeds: DecimalString;
  realizedProfit: DecimalString;
  quantitySold: DecimalString;
  /** What the sell could not sell, carried into the next cycle, and its cost basis. */
  remainderQuantity: DecimalString;
  remainderCost: DecimalString;
  /** Quote value of every fee the cycle paid. */
  fees: DecimalString;
  levelsFilled: number;
  /** Market time the cycle's first order filled, epoch ms; null when unknown. */
  openedAt: number | null;
  exitReason: SellReason;
}

export interface FillEvent {
  kind: 'cycle_started' | 'replenished' | 'sold' | 'stop_loss' | 'cycle_complete';
  data: Record<string, unknown>;
}

export interface FillOutcome {
  state: CycleState;
  events: FillEvent[];
  /** Set when a sell closed the cycle. */
  closed: ClosedCycle | null;
}

export const baseOf = (symbol: string) => symbol.split('/')[0] ?? '';
export const quoteOf = (symbol: string) => symbol.split('/')[1] ?? '';

/** The fees split by where they land: base units, quote units (third assets at their quote value), and their total quote value. */
export const feeParts = (symbol: string, fill: Pick<Fill, 'fees' | 'average'>) => {
  let inBase = new Big(0);
  let inQuote = new Big(0);
  for (const fee of fill.fees) {
    if (fee.currency === baseOf(symbol)) inBase = inBase.plus(fee.cost);
    else if (fee.currency === quoteOf(symbol)) inQuote = inQuote.plus(fee.cost);
    else inQuote = inQuote.plus(fee.inQuote ?? '0');
  }
  return { inBase, inQuote, value: inBase.times(fill.average ?? '0').plus(inQuote) };
};

/** Applies a filled order (filled > 0, average set) to the task's state. */
export const applyFill = (ctx: FillContext, fill: Fill): FillOutcome => {
  const { symbol, before, level, cycle } = ctx;
  const fee = feeParts(symbol, fill);
  if (ctx.side === 'buy') {
    const state = applyBuyFill(before, {
      price: fill.average!,
      // Quantity net of a fee paid in base; cost including a fee paid in quote.
      quantity: new Big(fill.filled).minus(fee.inBase).toFixed(),
      cost: new Big(fill.cost).plus(fee.inQuote).toFixed(),
      level,
      fee: fee.value.round(8, Big.roundUp).toFixed(),
      at: ctx.at,
    });
    return {
      state,
      events: [{ kind: level === 0 ? 'cycle_started' : 'replenished', data: { cycle, level, price: fill.average, amount: fill.cost } }],
      closed: null,
    };
  }
  const reason = ctx.reason as SellReason;
  const split = splitSale(before, new Big(fill.filled).plus(fee.inBase).toFixed());
  const proceeds = new Big(fill.cost).minus(fee.inQuote);
  const target = ctx.target === undefined ? {} : { target: ctx.target };
  if (ctx.partial && new Big(split.remainder).gt(0)) {
    // A target sold its share: booked with the cycle when it closes.
    const state = applyPartialSellFill(before, { quantity: split.sold, proceeds: proceeds.toFixed(), fee: fee.value.round(8, Big.roundUp).toFixed() });
    const data = { cycle, price: fill.average, proceeds: proceeds.toFixed(), profit: proceeds.minus(split.basis).toFixed(), sold: split.sold, remainder: split.remainder, reason, partial: true, ...target };
    return { state, events: [{ kind: 'sold', data }], closed: null };
  }
  // The cycle's earlier partial sales, booked with this last one.
  const earlier = before.partial ?? { sold: '0', basis: '0', proceeds: '0' };
  const buyCost = new Big(earlier.basis).plus(split.basis);
  const totalProceeds = proceeds.plus(earlier.proceeds);
  const profit = totalProceeds.minus(buyCost);
  const closed: ClosedCycle = {
    cycle,
    buyCost: buyCost.toFixed(),
    sellProceeds: totalProceeds.toFixed(),
    realizedProfit: profit.toFixed(),
    quantitySold: new Big(earlier.sold).plus(split.sold).toFixed(),
    remainderQuantity: split.remainder,
    remainderCost: split.remainderCost,
    fees: new Big(before.fees ?? '0').plus(fee.value.round(8, Big.roundUp)).toFixed(),
    levelsFilled: before.levelsFilled,
    openedAt: before.openedAt ?? null,
    exitReason: reason,
  };
  const state = applySellFill(before, ctx.strategy, ctx.at, { quantity: split.sold });
  const sold = { cycle, price: fill.average, proceeds: proceeds.toFixed(), profit: proceeds.minus(split.basis).toFixed(), sold: split.sold, remainder: split.remainder, ...target };
  return {
    state,
    events: [
      { kind: reason === 'stop_loss' ? 'stop_loss' : 'sold', data: { ...sold, reason, ...(reason === 'stop_loss' && ctx.stop ? { stop: ctx.stop } : {}) } },
      { kind: 'cycle_complete', data: { cycle, profit: closed.realizedProfit } },
    ],
    closed,
  };
};
