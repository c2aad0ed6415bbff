/**
 * The DCA strategy's decision per price (design section 5): a pure function
 * from a task's settings, its cycle state and the latest price to the next
 * state and the actions the runner carries out. No I/O, no clock, no
 * randomness: the same inputs always give the same decision.
 *
 *   decide(params, strategy, state, price, nowMs, mayOpenCycle, signals?) -> { state, actions }
 *
 * - `ready`: places the first order (level 0) when `mayOpenCycle`.
 * - `open`: stop loss first, then take profit (arm, trail the high, sell or
 *   disarm), then, only while take profit is not armed and the status is
 *   `replenish_open`, the next unfilled level (touch, trail the low, buy).
 *   Take profit only arms, and a trailing sell only sells, while selling the
 *   position at the price would cover its cost after the taker fee
 *   (`params.feeRate`): a take-profit exit never books a loss.
 *   One trading action per decision: a price that gaps through several levels
 *   buys the next one now and the following ones on later prices.
 * - `cooldown`: waits until `cooldownUntil`, then opens the next cycle, or
 *   emits `cycle_wait` and waits in `ready` while `mayOpenCycle` is false.
 * - A cycle count reached (`UNTIL_STOPPED` never is) moves `ready` or
 *   `cooldown` to `finished` with a `finished` event; an open cycle always
 *   runs to its end.
 * - A stopped task, a pending order or a finished task: nothing.
 *
 * Signals (issue 29), the optional last argument (`Signals`; absent: the
 * gates hold, no signal close, no alert), evaluated by the caller from the
 * strategy's conditions (conditions.ts gateSignals) once per closed minute:
 * - `start` false: no first order; `condition_wait` is emitted once when the
 *   task starts waiting (state `conditionWait`), as `cycle_wait` is;
 * - `replenish` false: a triggered level does not buy. Its trailing goes on
 *   (touch, trail the low), only the buy waits, and happens on the first
 *   price at which the gate holds and the level's buy condition still does;
 * - `close` true: sells the whole position (reason `signal`) after the stops
 *   and before take profit, only when the sale covers the position's cost
 *   after the taker fee: a signal close never books a loss;
 * - `force` (a TradingView alert, the user's explicit choice; actions carry
 *   `alert: true`): `start_cycle` opens a cycle now when between cycles with
 *   cycles left and `mayOpenCycle` (skipping the cooldown and the start
 *   gate); `buy_level` buys the next unfilled level now at the price when a
 *   cycle is open, levels remain and no target sold (whatever the replenish
 *   status and gate); `close_position` sells the whole position now, before
 *   any other rule, even at a loss (reason `signal`). A force that cannot act
 *   changes nothing: alertOutcome() tells the runner whether to keep it.
 *
 * Exits (issue 28), checked in this order while a cycle is open:
 * - the time stop (`timeStopHours` after the cycle's first fill) sells all;
 * - the break-even stop (`breakEven`, once a target sold) sells all as soon as
 *   selling would no longer cover the cost after the taker fee;
 * - the stop loss, from the average cost or from the last level's trigger
 *   price, armed at once or only after the last level filled, sells all;
 * - take profit per target (strategy.ts targetsOf; the single take profit is
 *   one target of 100 %): target n sells its share of what is left
 *   (share_n / the shares of targets n..last), the last one all of it. A
 *   partial sale that would fall below the market's minimum amount or
 *   notional (`params.limits`), or leave a remainder below it, sells the
 *   whole position instead. Once a target sold, no further level buys.
 *
 * A buy or sell sets `pendingOrder`; the runner then reports the outcome with
 * applyBuyFill, applySellFill or applyOrderFailed. Trailing state is kept
 * until the fill, so a failed order is retried on the next price that still
 * meets its condition.
 *
 * Position accounting (design section 5): a sell books cost only for what it
 * sold, pro rata of the average cost; what it could not sell (below the
 * exchange's amount step or minimum) stays in the position with its cost
 * basis, is carried into the next cycle and is sold with it.
 *
 * Every decision is exact: thresholds are compared by cross-multiplying
 * decimals (100·p·q against cost·(100 ± x)), never by dividing. Because
 * decide() runs for every task on every tick, a float pre-check comes first:
 * per (strategy, state) the open interval of prices where nothing can happen
 * is computed once, narrowed by a relative margin far wider than float
 * rounding, and cached per state object. A price inside it returns the cached
 * no-op decision without creating a single decimal; anything else is decided
 * exactly. The cache only works if the runner keeps passing the same state
 * and strategy objects while they do not change, and treats them as
 * immutable (decide returns the very same state object when nothing changed).
 */
import Big from 'big.js';
import type { DecimalString } from '../../../../src/api/types';
import type { AlertAction } from '../../../../src/api/conditions';
import { targetsOf, type StrategySettings } from '../../../../src/api/strategy';

/** `cycleCount` that never finishes: the task runs until it is stopped. */
export const UNTIL_STOPPED = 9999;

export interface TaskParams {
  /** Quote amount of the first order. */
  firstOrderAmount: DecimalString;
  /** Doubles the first order (not the levels). */
  firstOrderMultiple: boolean;
  /** Cycles to run, 1..9999; UNTIL_STOPPED runs until stopped. */
  cycleCount: number;
  replenishStatus: 'replenish_open' | 'replenish_closed';
  running: boolean;
  /** Taker fee of the account's exchange, a fraction ('0.001'); absent: 0. */
  feeRate?: DecimalString;
  /** The market's order limits, for partial sales; absent: unknown (a partial sale is never widened to all). */
  limits?: MarketLimits;
}

/** An exchange market's order limits, as the paper exchange and ccxt give them. */
export interface MarketLimits {
  amountStep?: DecimalString | null;
  minAmount?: DecimalString | null;
  minCost?: DecimalString | null;
}

export type CyclePhase = 'ready' | 'open' | 'cooldown' | 'finished';

export interface CycleState {
  cyclesDone: number;
  phase: CyclePhase;
  /** End of the pause after a cycle (epoch ms), while `cooldown`. */
  cooldownUntil: number | null;
  /** The first order's fill price: the base every level's drop is measured from. */
  firstFillPrice: DecimalString | null;
  /** Replenish levels bought in this cycle (level n is the n-th of the template). */
  levelsFilled: number;
  /**
   * Base held, net of fees paid in base; between cycles, the remainder the
   * last sell could not sell, carried into the next cycle.
   */
  quantity: DecimalString;
  /** Cost basis of `quantity`: quote spent, fees paid in quote included. */
  cost: DecimalString;
  /** When the cycle's first order filled (epoch ms); null between cycles. */
  openedAt?: number | null;
  /** Quote value of the fees this cycle paid so far. */
  fees?: DecimalString;
  /** A level touched, waiting for the rebound from its low. */
  trailingBuy: { level: number; low: DecimalString } | null;
  /** Take profit armed, waiting for the fall back from its high. */
  trailingSell: { high: DecimalString } | null;
  /** Take-profit targets sold in this cycle (absent: 0). */
  targetsDone?: number;
  /** What this cycle's partial sales sold, their cost basis and proceeds net of fees (absent: none). */
  partial?: { sold: DecimalString; basis: DecimalString; proceeds: DecimalString } | null;
  /** An order is out; nothing is decided until its outcome is applied. */
  pendingOrder: boolean;
  /** Waiting in `ready` for the start conditions (`condition_wait` emitted); absent: not waiting. */
  conditionWait?: boolean;
}

/**
 * The gates of a strategy's conditions at this decision (issue 29), and an
 * alert to act on; see the top of this file. Absent: `{ start: true,
 * replenish: true, close: false }`.
 */
export interface Signals {
  start: boolean;
  replenish: boolean;
  close: boolean;
  force?: AlertAction | null;
}

const NO_SIGNALS: Signals = Object.freeze({ start: true, replenish: true, close: false });

export type Action =
  | {
      kind: 'buy';
      reason: 'first' | 'replenish';
      level: number;
      quoteAmount: DecimalString;
      /** Forced by a TradingView alert (issue 29). */
      alert?: true;
    }
  | {
      kind: 'sell';
      /** `signal`: the close conditions held, or an alert closed the position. */
      reason: 'take_profit' | 'stop_loss' | 'signal';
      quantity: DecimalString;
      /** Take profit: the 1-based target it sells for. */
      target?: number;
      /** Take profit: sells a share and the cycle stays open. */
      partial?: boolean;
      /** Stop loss: which stop sold (absent: the stop loss). */
      stop?: StopKind;
      /** The stop loss measured from the last level's trigger price (absent: from the average cost). */
      fromLastLevel?: true;
      /** Forced by a TradingView alert (issue 29). */
      alert?: true;
    }
  | {
      kind: 'event';
      event: 'take_profit_armed' | 'take_profit_disarmed' | 'replenish_touched' | 'cycle_wait' | 'condition_wait' | 'finished';
      level?: number;
    };

/** The stops that end a cycle: the stop loss, the time stop, the break-even after a target. */
export type StopKind = 'loss' | 'time' | 'break_even';

export interface Decision {
  state: CycleState;
  /** Shared and empty when nothing happens: do not modify. */
  actions: readonly Action[];
}

export interface BuyFill {
  price: DecimalString;
  /** Base received, net of a fee paid in base. */
  quantity: DecimalString;
  /** Quote spent, a fee paid in quote included. */
  cost: DecimalString;
  /** 0 for the first order, n for replenish level n. */
  level: number;
  /** Quote value of the fee (for the cycle's record). */
  fee?: DecimalString;
  /** When it filled (epoch ms). */
  at?: number;
}

export interface SellFill {
  /** Base that left the position: the amount sold, plus a fee paid in base. */
  quantity: DecimalString;
}

/** What a sell did to the position: the cost basis of what it sold, and what stays. */
export interface SaleSplit {
  /** Base sold (at most the position). */
  sold: DecimalString;
  /** Cost basis of `sold`: the position's cost pro rata, rounded down to 8 decimals. */
  basis: DecimalString;
  /** Base the sell left in the position, and its cost basis. */
  remainder: DecimalString;
  remainderCost: DecimalString;
}

/** Our own decimal constructor, so another module changing big.js settings cannot change a decision. */
const Dec = Big();
Dec.DP = 20;
Dec.RM = Big.roundHalfUp;

const NO_ACTIONS: readonly Action[] = Object.freeze([]);

export const initialCycleState = (): CycleState => ({
  cyclesDone: 0,
  phase: 'ready',
  cooldownUntil: null,
  firstFillPrice: null,
  levelsFilled: 0,
  quantity: '0',
  cost: '0',
  openedAt: null,
  fees: '0',
  trailingBuy: null,
  trailingSell: null,
  targetsDone: 0,
  partial: null,
  pendingOrder: false,
});

/** Average cost per unit (cost / quantity, 20 decimals), or null without a position. */
export const averagePrice = (state: CycleState): DecimalString | null => {
  const quantity = new Dec(state.quantity);
  return quantity.gt(0) ? new Dec(state.cost).div(quantity).toFixed() : null;
};

/** The quote amount of the first order: doubled when `firstOrderMultiple`. */
export const firstOrderQuote = (params: Pick<TaskParams, 'firstOrderAmount' | 'firstOrderMultiple'>): DecimalString =>
  new Dec(params.firstOrderAmount).times(params.firstOrderMultiple ? 2 : 1).toFixed();

/**
 * A buy order filled: the first order opens the cycle (on top of a remainder
 * carried from the last one), a level adds to the position.
 */
export const applyBuyFill = (state: CycleState, fill: BuyFill): CycleState => {
  const first = fill.level === 0;
  return {
    ...state,
    phase: 'open',
    cooldownUntil: null,
    firstFillPrice: first ? fill.price : state.firstFillPrice,
    levelsFilled: first ? 0 : Math.max(state.levelsFilled, fill.level),
    quantity: new Dec(state.quantity).plus(fill.quantity).toFixed(),
    cost: new Dec(state.cost).plus(fill.cost).toFixed(),
    openedAt: first ? (fill.at ?? null) : (state.openedAt ?? null),
    fees: new Dec(first ? '0' : (state.fees ?? '0')).plus(fill.fee ?? '0').toFixed(),
    // A new average: take profit arms again against it.
    trailingBuy: null,
    trailingSell: null,
    pendingOrder: false,
  };
};

/**
 * Splits the position at a sale of `quantity` base: the cost basis of what
 * was sold (pro rata, rounded down to 8 decimals, so a rounding never turns a
 * profit into a loss) and the remainder with the rest of the cost. The two
 * costs always add up to the position's cost exactly.
 */
export const splitSale = (state: Pick<CycleState, 'quantity' | 'cost'>, quantity: DecimalString): SaleSplit => {
  const held = new Dec(state.quantity);
  const cost = new Dec(state.cost);
  let sold = new Dec(quantity);
  if (sold.gt(held)) sold = held;
  if (sold.lt(0)) sold = new Dec(0);
  const basis = sold.eq(held) ? cost : held.gt(0) ? cost.times(sold).div(held).round(8, Big.roundDown) : new Dec(0);
  return { sold: sold.toFixed(), basis: basis.toFixed(), remainder: held.minus(sold).toFixed(), remainderCost: cost.minus(basis).toFixed() };
};

/**
 * The position was sold: the cycle is closed (its profit is the runner's to
 * book) and the cooldown starts. What the sell left (below the amount step or
 * minimum) stays as the position, with its cost basis, for the next cycle.
 * Without `fill` the whole position was sold. Whether the task is then
 * finished depends on the task's cycle count, which the next decide() applies.
 */
export const applySellFill = (state: CycleState, strategy: Pick<StrategySettings, 'cooldownSeconds'>, nowMs: number, fill?: SellFill): CycleState => {
  const split = splitSale(state, fill?.quantity ?? state.quantity);
  return {
    cyclesDone: state.cyclesDone + 1,
    phase: 'cooldown',
    cooldownUntil: nowMs + strategy.cooldownSeconds * 1000,
    firstFillPrice: null,
    levelsFilled: 0,
    quantity: split.remainder,
    cost: split.remainderCost,
    openedAt: null,
    fees: '0',
    trailingBuy: null,
    trailingSell: null,
    targetsDone: 0,
    partial: null,
    pendingOrder: false,
  };
};

/**
 * A take-profit target sold its share: the cost basis of what left the
 * position is booked with the cycle's partial sales, the cycle stays open
 * with the rest, and the next target arms against the same average.
 */
export const applyPartialSellFill = (state: CycleState, fill: SellFill & { proceeds: DecimalString; fee?: DecimalString }): CycleState => {
  const split = splitSale(state, fill.quantity);
  const before = state.partial ?? { sold: '0', basis: '0', proceeds: '0' };
  return {
    ...state,
    quantity: split.remainder,
    cost: split.remainderCost,
    fees: new Dec(state.fees ?? '0').plus(fill.fee ?? '0').toFixed(),
    targetsDone: (state.targetsDone ?? 0) + 1,
    partial: {
      sold: new Dec(before.sold).plus(split.sold).toFixed(),
      basis: new Dec(before.basis).plus(split.basis).toFixed(),
      proceeds: new Dec(before.proceeds).plus(fill.proceeds).toFixed(),
    },
    trailingBuy: null,
    trailingSell: null,
    pendingOrder: false,
  };
};

/** The order was rejected or canceled unfilled: decide again on the next price. */
export const applyOrderFailed = (state: CycleState): CycleState => ({ ...state, pendingOrder: false });

const cyclesReached = (params: TaskParams, state: CycleState): boolean =>
  params.cycleCount !== UNTIL_STOPPED && state.cyclesDone >= params.cycleCount;

/** `state` no longer waiting for the start conditions. */
const notWaiting = (state: CycleState): CycleState => {
  if (!state.conditionWait) return state;
  const { conditionWait: _, ...rest } = state;
  return rest;
};

/** The decision for `ready` and `cooldown`: finish, wait, or open the next cycle. */
const decideBetweenCycles = (params: TaskParams, state: CycleState, nowMs: number, mayOpenCycle: boolean, signals: Signals): Decision => {
  if (cyclesReached(params, state)) {
    return { state: { ...notWaiting(state), phase: 'finished', cooldownUntil: null }, actions: [{ kind: 'event', event: 'finished' }] };
  }
  const forced = signals.force === 'start_cycle';
  if (!forced && state.phase === 'cooldown' && state.cooldownUntil !== null && nowMs < state.cooldownUntil) return { state, actions: NO_ACTIONS };
  if (mayOpenCycle && (forced || signals.start)) {
    return {
      state: { ...notWaiting(state), phase: 'ready', cooldownUntil: null, pendingOrder: true },
      actions: [{ kind: 'buy', reason: 'first', level: 0, quoteAmount: firstOrderQuote(params), ...(forced ? { alert: true as const } : {}) }],
    };
  }
  if (mayOpenCycle) {
    if (state.phase === 'ready' && state.conditionWait) return { state, actions: NO_ACTIONS };
    return { state: { ...state, phase: 'ready', cooldownUntil: null, conditionWait: true }, actions: [{ kind: 'event', event: 'condition_wait' }] };
  }
  if (state.phase === 'cooldown') {
    return { state: { ...state, phase: 'ready', cooldownUntil: null }, actions: [{ kind: 'event', event: 'cycle_wait' }] };
  }
  return { state, actions: NO_ACTIONS };
};

/**
 * A strategy's percentages as factors over 100, parsed once per strategy
 * object: exact decimals for the decisions, floats for the pre-check.
 */
interface TargetFactors {
  /** 100 + its profit. */
  takeProfit: Big;
  /** 100 - the callback when it trails; null: it sells as soon as it arms. */
  callback: Big | null;
  /** Its share over the shares of it and the targets after it (1 for the last). */
  share: Big;
  last: boolean;
  approx: { takeProfit: number; callback: number };
}

interface Factors {
  /** 100 - stop loss; null without a stop loss. */
  stopLoss: Big | null;
  /** The stop loss is measured from the last level's trigger price (else from the average). */
  stopFromLastLevel: boolean;
  /** The take-profit targets, in order. */
  targets: TargetFactors[];
  /** The time stop in ms; null without. */
  timeStopMs: number | null;
  /** 100 + replenish callback; null: buy as soon as a level is touched. */
  replenishCallback: Big | null;
  /** 100 - drop, per level. */
  levelTriggers: Big[];
  approx: { stopLoss: number; replenishCallback: number; levelTriggers: number[] };
}

const factorsCache = new WeakMap<StrategySettings, Factors>();

const factorsOf = (strategy: StrategySettings): Factors => {
  let factors = factorsCache.get(strategy);
  if (factors) return factors;
  const hundred = new Dec(100);
  const takeProfitCallback = new Dec(strategy.takeProfitCallbackPercent);
  const replenishCallback = new Dec(strategy.replenishCallbackPercent);
  const approx = (percent: DecimalString | null, sign: 1 | -1) => (percent === null ? 0 : 1 + (sign * Number(percent)) / 100);
  const targets = targetsOf(strategy);
  let rest = targets.reduce((sum, target) => sum.plus(target.sharePercent), new Dec(0));
  const callback = takeProfitCallback.eq(0) ? null : hundred.minus(takeProfitCallback);
  factors = {
    stopLoss: strategy.stopLossPercent === null ? null : hundred.minus(strategy.stopLossPercent),
    stopFromLastLevel: strategy.stopLossBase === 'last_level',
    targets: targets.map((target, i) => {
      const last = i === targets.length - 1;
      const share = last || rest.lte(0) ? new Dec(1) : new Dec(target.sharePercent).div(rest);
      rest = rest.minus(target.sharePercent);
      const trails = target.trailing && callback !== null;
      return {
        takeProfit: hundred.plus(target.profitPercent),
        callback: trails ? callback : null,
        share,
        last,
        approx: { takeProfit: approx(target.profitPercent, 1), callback: trails ? approx(strategy.takeProfitCallbackPercent, -1) : 1 },
      };
    }),
    timeStopMs: strategy.timeStopHours ? strategy.timeStopHours * 3_600_000 : null,
    replenishCallback: replenishCallback.eq(0) ? null : hundred.plus(replenishCallback),
    levelTriggers: strategy.levels.map((level) => hundred.minus(level.dropPercent)),
    approx: {
      stopLoss: approx(strategy.stopLossPercent, -1),
      replenishCallback: approx(strategy.replenishCallbackPercent, 1),
      levelTriggers: strategy.levels.map((level) => approx(level.dropPercent, -1)),
    },
  };
  factorsCache.set(strategy, factors);
  return factors;
};

/**
 * The exact decision for an open cycle, in decimals: every threshold is
 * compared as 100·p·q against cost·factor (or 100·p against price·factor).
 */
const decideOpen = (params: TaskParams, strategy: StrategySettings, state: CycleState, price: DecimalString, nowMs: number, signals: Signals): Decision => {
  const p = new Dec(price);
  if (p.lte(0)) throw new RangeError(`price must be above 0: ${price}`);
  const quantity = new Dec(state.quantity);
  if (quantity.lte(0)) return { state, actions: NO_ACTIONS };
  const factors = factorsOf(strategy);
  const cost = new Dec(state.cost);
  const value = p.times(quantity);
  const value100 = value.times(100);
  const p100 = p.times(100);
  const targetsDone = state.targetsDone ?? 0;
  const target = factors.targets[Math.min(targetsDone, factors.targets.length - 1)]!;
  // Selling everything now would cover the cost after the taker fee: take profit never sells below this.
  const covered = value.times(new Dec(1).minus(params.feeRate ?? '0')).gt(cost);
  const stopAll = (stop: StopKind, fromLastLevel = false): Decision => ({
    state: { ...state, pendingOrder: true },
    actions: [{ kind: 'sell', reason: 'stop_loss', quantity: state.quantity, ...(stop === 'loss' ? {} : { stop }), ...(fromLastLevel ? { fromLastLevel: true as const } : {}) }],
  });
  const sellTarget = (events: Action[] = []): Decision => {
    const partial = target.last ? null : partialQuantity(quantity, target.share, p, params.limits);
    return {
      state: { ...state, pendingOrder: true },
      actions: [
        ...events,
        partial
          ? { kind: 'sell', reason: 'take_profit', quantity: partial, target: targetsDone + 1, partial: true }
          : { kind: 'sell', reason: 'take_profit', quantity: state.quantity, ...(factors.targets.length > 1 ? { target: targetsDone + 1 } : {}) },
      ],
    };
  };

  const nextLevel = state.levelsFilled + 1;
  const buyLevel = (alert: boolean): Action => ({
    kind: 'buy',
    reason: 'replenish',
    level: nextLevel,
    quoteAmount: new Dec(params.firstOrderAmount).times(strategy.levels[nextLevel - 1]!.multiple).toFixed(),
    ...(alert ? { alert: true as const } : {}),
  });
  const sellAll = (alert: boolean): Decision => ({
    state: { ...state, pendingOrder: true },
    actions: [{ kind: 'sell', reason: 'signal', quantity: state.quantity, ...(alert ? { alert: true as const } : {}) }],
  });
  if (signals.force === 'close_position') return sellAll(true);
  if (signals.force === 'buy_level' && nextLevel <= strategy.levels.length && state.firstFillPrice !== null && targetsDone === 0) {
    return { state: { ...state, pendingOrder: true }, actions: [buyLevel(true)] };
  }

  if (factors.timeStopMs !== null && state.openedAt != null && nowMs - state.openedAt >= factors.timeStopMs) return stopAll('time');
  if (strategy.breakEven && targetsDone > 0 && !covered) return stopAll('break_even');
  if (factors.stopLoss && (!strategy.stopLossAfterLastLevel || state.levelsFilled >= strategy.levels.length)) {
    if (!factors.stopFromLastLevel) {
      if (value100.lte(cost.times(factors.stopLoss))) return stopAll('loss');
    } else if (state.firstFillPrice !== null) {
      // 100·100·p against the first fill · (100 - last drop) · (100 - stop).
      const lastTrigger = factors.levelTriggers.at(-1) ?? new Dec(100);
      if (p100.times(100).lte(new Dec(state.firstFillPrice).times(lastTrigger).times(factors.stopLoss))) return stopAll('loss', true);
    }
  }
  if (signals.close && covered) return sellAll(false);

  const actions: Action[] = [];
  let trailingSell = state.trailingSell;
  let trailingBuy = state.trailingBuy;
  // Once a target sold, the ladder is over for this cycle.
  let levelsAllowed = targetsDone === 0;
  if (trailingSell) {
    const high = new Dec(trailingSell.high);
    if (!covered) {
      // Back at the break-even before the callback: selling now would not be a profit.
      trailingSell = null;
      actions.push({ kind: 'event', event: 'take_profit_disarmed' });
    } else if (p.gt(high)) {
      trailingSell = { high: price };
      levelsAllowed = false;
    } else if (p100.lte(high.times(target.callback ?? 100))) {
      return sellTarget();
    } else {
      levelsAllowed = false;
    }
  } else if (covered && value100.gte(cost.times(target.takeProfit))) {
    const armed: Action = { kind: 'event', event: 'take_profit_armed' };
    if (!target.callback) return sellTarget([armed]);
    actions.push(armed);
    trailingSell = { high: price };
    levelsAllowed = false;
  }

  const trigger = factors.levelTriggers[nextLevel - 1];
  let buy: Action | null = null;
  if (!levelsAllowed || params.replenishStatus !== 'replenish_open' || !trigger || state.firstFillPrice === null) {
    trailingBuy = null;
  } else {
    if (trailingBuy && trailingBuy.level !== nextLevel) trailingBuy = null;
    // The replenish gate holds back only the buy itself: the touch and the trailing low go on.
    if (!trailingBuy) {
      if (p100.lte(new Dec(state.firstFillPrice).times(trigger))) {
        if (!factors.replenishCallback) {
          if (signals.replenish) buy = buyLevel(false);
        } else {
          trailingBuy = { level: nextLevel, low: price };
          actions.push({ kind: 'event', event: 'replenish_touched', level: nextLevel });
        }
      }
    } else {
      const low = new Dec(trailingBuy.low);
      if (p.lt(low)) trailingBuy = { level: nextLevel, low: price };
      else if (signals.replenish && p100.gte(low.times(factors.replenishCallback ?? 100))) buy = buyLevel(false);
    }
  }

  if (buy) actions.push(buy);
  if (!buy && actions.length === 0 && trailingBuy === state.trailingBuy && trailingSell === state.trailingSell) {
    return { state, actions: NO_ACTIONS };
  }
  return { state: { ...state, trailingBuy, trailingSell, pendingOrder: buy !== null }, actions };
};

/**
 * A target's partial sale: `share` of the position, down to the amount step;
 * null (sell all) when that or what it leaves is below the market's minimum
 * amount or notional at `price`, or nothing would be left.
 */
const partialQuantity = (quantity: Big, share: Big, price: Big, limits: MarketLimits | undefined): DecimalString | null => {
  let sold = quantity.times(share);
  const step = limits?.amountStep ? new Dec(limits.amountStep) : null;
  sold = step && step.gt(0) ? sold.div(step).round(0, Big.roundDown).times(step) : sold.round(8, Big.roundDown);
  const left = quantity.minus(sold);
  if (sold.lte(0) || left.lte(0)) return null;
  const tooSmall = (amount: Big) =>
    (limits?.minAmount && amount.lt(limits.minAmount)) || (limits?.minCost && amount.times(price).lt(limits.minCost)) || (step && step.gt(0) && amount.lt(step));
  if (tooSmall(sold) || tooSmall(left)) return null;
  return sold.toFixed();
};

/** Relative margin of the float pre-check; float rounding here is below 1e-15. */
const MARGIN = 1e-9;

interface QuietRange {
  strategy: StrategySettings;
  replenishStatus: TaskParams['replenishStatus'];
  feeRate: TaskParams['feeRate'];
  /** Prices strictly between these (floats, margin applied) change nothing. */
  above: number;
  below: number;
  idle: Decision;
  /** The strategy's time stop (ms) and the state's cycle start: past both, no price is quiet. */
  timeStopAt: number;
  /** With the close signal on: prices below this (the break-even, margin applied) cannot close. */
  closeBelow: number;
}

const quietRanges = new WeakMap<CycleState, QuietRange>();

/**
 * The open interval of prices at which decideOpen returns the state unchanged
 * with no action, as floats narrowed by MARGIN: it only screens, the exact
 * decision is always the decimal one.
 */
const quietRange = (params: TaskParams, strategy: StrategySettings, state: CycleState): QuietRange => {
  const timeStopMs = factorsOf(strategy).timeStopMs;
  const timeStopAt = timeStopMs !== null && state.openedAt != null ? state.openedAt + timeStopMs : Infinity;
  const range = { strategy, replenishStatus: params.replenishStatus, feeRate: params.feeRate, above: Infinity, below: -Infinity, idle: { state, actions: NO_ACTIONS }, timeStopAt, closeBelow: -Infinity };
  const quantity = Number(state.quantity);
  if (!(quantity > 0)) {
    // decideOpen changes nothing without a position (a price not above 0 still goes the exact way and throws).
    return { ...range, above: 0, below: Infinity, closeBelow: Infinity };
  }
  const all = factorsOf(strategy);
  const factors = all.approx;
  const targetsDone = state.targetsDone ?? 0;
  const target = all.targets[Math.min(targetsDone, all.targets.length - 1)]!.approx;
  const average = Number(state.cost) / quantity;
  // The price at which selling covers the cost after the fee.
  const breakEven = average / (1 - Number(params.feeRate ?? '0'));
  let above: number;
  let below: number;
  const trigger = factors.levelTriggers[state.levelsFilled];
  const levelsOpen = params.replenishStatus === 'replenish_open' && trigger !== undefined && state.firstFillPrice !== null && targetsDone === 0;
  // The stops' prices: the stop loss when armed (from the average or the last level), the break-even after a target.
  let stop = 0;
  if (all.stopLoss && (!strategy.stopLossAfterLastLevel || state.levelsFilled >= strategy.levels.length)) {
    if (!all.stopFromLastLevel) stop = average * factors.stopLoss;
    else if (state.firstFillPrice !== null) stop = Number(state.firstFillPrice) * (factors.levelTriggers.at(-1) ?? 1) * factors.stopLoss;
  }
  if (strategy.breakEven && targetsDone > 0) stop = Math.max(stop, breakEven);
  if (state.trailingSell) {
    if (state.trailingBuy) return range;
    const high = Number(state.trailingSell.high);
    above = Math.max(breakEven, high * target.callback, stop);
    below = high;
  } else {
    above = stop;
    below = Math.max(average * target.takeProfit, breakEven);
    const trailing = state.trailingBuy;
    if (trailing && (!levelsOpen || trailing.level !== state.levelsFilled + 1)) return range;
    if (levelsOpen && trailing) {
      const low = Number(trailing.low);
      above = Math.max(above, low);
      below = Math.min(below, low * factors.replenishCallback);
    } else if (levelsOpen) {
      above = Math.max(above, Number(state.firstFillPrice) * trigger);
    }
  }
  above *= 1 + MARGIN;
  below *= 1 - MARGIN;
  if (!Number.isFinite(above) || !Number.isFinite(below) || !(above < below)) return range;
  return { ...range, above, below, closeBelow: breakEven * (1 - MARGIN) };
};

/** The quiet range of an open state, computed once per (state, strategy, status, fee). */
const cachedRange = (params: TaskParams, strategy: StrategySettings, state: CycleState): QuietRange => {
  let range = quietRanges.get(state);
  if (!range || range.strategy !== strategy || range.replenishStatus !== params.replenishStatus || range.feeRate !== params.feeRate) {
    range = quietRange(params, strategy, state);
    quietRanges.set(state, range);
  }
  return range;
};

/**
 * For a running open cycle: the open interval of prices (floats, narrowed by
 * a margin far wider than float rounding) at which decide() changes nothing,
 * so the engine can leave the task alone until the price leaves it. Null when
 * every price may matter (a trail on both sides, no position, not open).
 */
export const quietBounds = (params: TaskParams, strategy: StrategySettings, state: CycleState, signals: Signals = NO_SIGNALS): { above: number; below: number } | null => {
  if (!params.running || state.pendingOrder || state.phase !== 'open' || signals.force) return null;
  // A time stop sells whatever the price: the task must be decided on every tick.
  if (factorsOf(strategy).timeStopMs !== null) return null;
  const range = cachedRange(params, strategy, state);
  const below = signals.close ? Math.min(range.below, range.closeBelow) : range.below;
  return range.above < below ? { above: range.above, below } : null;
};

/** The decision when no cycle is open to price (stopped, waiting on an order, finished, between cycles), else null. */
const decideUnlessOpen = (params: TaskParams, state: CycleState, nowMs: number, mayOpenCycle: boolean, signals: Signals): Decision | null => {
  if (!params.running || state.pendingOrder || state.phase === 'finished') return { state, actions: NO_ACTIONS };
  if (state.phase !== 'open') return decideBetweenCycles(params, state, nowMs, mayOpenCycle, signals);
  return null;
};

/**
 * What an alert's action does to a task now: `acts` (pass it as
 * `signals.force`, then it is spent), `later` (an order is out or the task
 * is paused: keep it), or `never` (nothing to act on: no cycle to open, no
 * level left, no position; drop it and say so).
 */
export const alertOutcome = (params: TaskParams, strategy: StrategySettings, state: CycleState, action: AlertAction): 'acts' | 'later' | 'never' => {
  if (state.phase === 'finished') return 'never';
  if (!params.running || state.pendingOrder) return 'later';
  const open = state.phase === 'open';
  switch (action) {
    case 'start_cycle':
      return !open && !cyclesReached(params, state) ? 'acts' : 'never';
    case 'buy_level':
      return open && state.levelsFilled < strategy.levels.length && state.firstFillPrice !== null && (state.targetsDone ?? 0) === 0 ? 'acts' : 'never';
    default:
      return open && new Dec(state.quantity).gt(0) ? 'acts' : 'never';
  }
};

/**
 * The strategy's decision for one task at one price. `mayOpenCycle` false
 * (no fuel left, the task being stopped) lets an open cycle finish but opens
 * no new one. See the top of this file for the rules. `price` must be a plain
 * decimal string above 0, as the exchange layer gives it: a malformed one
 * throws when it reaches the exact decision, but the float pre-check does not
 * validate it.
 */
export const decide = (
  params: TaskParams,
  strategy: StrategySettings,
  state: CycleState,
  price: DecimalString,
  nowMs: number,
  mayOpenCycle: boolean,
  signals: Signals = NO_SIGNALS,
): Decision => {
  const early = decideUnlessOpen(params, state, nowMs, mayOpenCycle, signals);
  if (early) return early;
  // An alert is decided exactly: the quiet range knows nothing of it.
  if (signals.force) return decideOpen(params, strategy, state, price, nowMs, signals);
  const range = cachedRange(params, strategy, state);
  const p = +price;
  // A replenish gate that does not hold only holds back buys, so the range stays quiet; a close signal narrows it to below the break-even.
  const below = signals.close ? Math.min(range.below, range.closeBelow) : range.below;
  if (nowMs < range.timeStopAt && p > range.above && p < below) return range.idle;
  const decision = decideOpen(params, strategy, state, price, nowMs, signals);
  return decision.state === state ? range.idle : decision;
};

/** decide() without the float pre-check: the reference the pre-check must agree with. */
export const decideExact = (
  params: TaskParams,
  strategy: StrategySettings,
  state: CycleState,
  price: DecimalString,
  nowMs: number,
  mayOpenCycle: boolean,
  signals: Signals = NO_SIGNALS,
): Decision => decideUnlessOpen(params, state, nowMs, mayOpenCycle, signals) ?? decideOpen(params, strategy, state, price, nowMs, signals);
