/**
 * The DCA ("replenish", 补仓) ladder of a strategy template (design section 5):
 * level n triggers when the price falls `dropPercent` below the first order's
 * fill price and buys `firstOrderAmount * multiple` (quote currency). Shared by
 * the editor's preview and the engine, so both compute the same numbers.
 */
import Big from 'big.js';
import { MAX_CONDITIONS, MAX_INDICATOR_PERIOD, type Condition, type ConditionGroup, type Gate, type StrategyConditions } from './conditions';
import type { DecimalString } from './types';

export interface ReplenishLevel {
  /** Percent below the first fill price, e.g. "2.5". */
  dropPercent: DecimalString;
  /** Multiple of the first order amount, e.g. "2". */
  multiple: DecimalString;
}

/**
 * One of several take-profit targets (issue 28): it sells `sharePercent` of
 * the position as it stood at the first target once the price is
 * `profitPercent` over the average cost; the last target sells the rest.
 * A trailing target arms there and sells after the fall back by the
 * template's take-profit callback.
 */
export interface TakeProfitTarget {
  sharePercent: DecimalString;
  profitPercent: DecimalString;
  trailing: boolean;
}

/** Where the stop loss is measured from: the average cost, or the last level's trigger price. */
export type StopLossBase = 'average' | 'last_level';

export const MAX_TARGETS = 5;
/** The longest time stop, hours (a year). */
export const MAX_TIME_STOP_HOURS = 8760;

export interface StrategySettings {
  levels: ReplenishLevel[];
  /** Profit over the average cost at which take profit arms. */
  takeProfitPercent: DecimalString;
  /** Trailing sell: after arming, sell when the price falls back this much from its high. "0" sells at once. */
  takeProfitCallbackPercent: DecimalString;
  /** Trailing buy: after touching a level, buy on a rebound of this much from the low. "0" buys at once. */
  replenishCallbackPercent: DecimalString;
  /** Loss below the average cost that sells everything; null: no stop loss. */
  stopLossPercent: DecimalString | null;
  /** Pause between a cycle's end and the next first order. */
  cooldownSeconds: number;
  /**
   * Several take-profit targets, in rising profit, shares adding up to 100;
   * absent or empty: the single take profit above sells the whole position.
   * Once a target sold, the cycle buys no further level.
   */
  takeProfitTargets?: TakeProfitTarget[];
  /** What `stopLossPercent` is measured from; absent: the average cost. */
  stopLossBase?: StopLossBase;
  /** The stop loss is armed only once the last level has filled. */
  stopLossAfterLastLevel?: boolean;
  /** Sells the position after this many hours in a cycle; absent or null: no time stop. */
  timeStopHours?: number | null;
  /** After the first target sold, the stop moves to the break-even: the average cost plus the sell's fee. */
  breakEven?: boolean;
  /** Signal conditions gating the cycle start, the level buys and a signal close (issue 29); absent or null: none. */
  conditions?: StrategyConditions | null;
}

/** The gates a template sets, without the absent ones (what the store keeps); null when it sets none. */
export const conditionsOf = (settings: Pick<StrategySettings, 'conditions'>): StrategyConditions | null => {
  const conditions: StrategyConditions = {};
  for (const gate of GATES) {
    const group = settings.conditions?.[gate];
    if (group) conditions[gate] = group;
  }
  return Object.keys(conditions).length > 0 ? conditions : null;
};

const GATES: readonly Gate[] = ['start', 'replenish', 'close'];
/** The widest Bollinger band, in standard deviations. */
export const MAX_BOLLINGER_DEVIATIONS = 10;

/** The settings of issue 28's exits: optional, a template without them sells as before. */
export type StrategyExits = Pick<StrategySettings, 'takeProfitTargets' | 'stopLossBase' | 'stopLossAfterLastLevel' | 'timeStopHours' | 'breakEven'>;

/** The exits a template sets, without the absent ones (what the store keeps); null when it sets none. */
export const exitsOf = (settings: StrategyExits): StrategyExits | null => {
  const exits: StrategyExits = {};
  if (settings.takeProfitTargets && settings.takeProfitTargets.length > 0) exits.takeProfitTargets = settings.takeProfitTargets;
  if (settings.stopLossBase && settings.stopLossBase !== 'average') exits.stopLossBase = settings.stopLossBase;
  if (settings.stopLossAfterLastLevel) exits.stopLossAfterLastLevel = true;
  if (settings.timeStopHours) exits.timeStopHours = settings.timeStopHours;
  if (settings.breakEven) exits.breakEven = true;
  return Object.keys(exits).length > 0 ? exits : null;
};

/** The take-profit targets a strategy sells by: its own, or the single take profit as one target of 100 %. */
export const targetsOf = (settings: Pick<StrategySettings, 'takeProfitTargets' | 'takeProfitPercent' | 'takeProfitCallbackPercent'>): TakeProfitTarget[] =>
  settings.takeProfitTargets && settings.takeProfitTargets.length > 0
    ? settings.takeProfitTargets
    : [{ sharePercent: '100', profitPercent: settings.takeProfitPercent, trailing: !new Big(settings.takeProfitCallbackPercent).eq(0) }];

/** The price at which the stop loss sells, for a position at `average` whose first fill was `firstPrice`; null without a stop loss. */
export const stopLossPrice = (
  settings: Pick<StrategySettings, 'levels' | 'stopLossPercent' | 'stopLossBase'>,
  average: Big.BigSource,
  firstPrice: Big.BigSource,
): Big | null => {
  if (settings.stopLossPercent === null) return null;
  const kept = new Big(1).minus(new Big(settings.stopLossPercent).div(100));
  if (settings.stopLossBase !== 'last_level') return new Big(average).times(kept);
  const last = settings.levels.at(-1);
  const lastPrice = last ? new Big(firstPrice).times(new Big(1).minus(new Big(last.dropPercent).div(100))) : new Big(firstPrice);
  return lastPrice.times(kept);
};

export interface StrategyTemplate extends StrategySettings {
  id: string;
  name: string;
  /** System templates can be copied, not changed. */
  system: boolean;
}

export const MAX_LEVELS = 30;

/** The taker fee templates are checked against: the paper exchange's and Binance's standard rate. */
export const DEFAULT_FEE_RATE = '0.001';

/** Room over a round trip's two fees in a take profit's floor, percent: the rounding of amounts and fees, and the spread. */
export const TAKE_PROFIT_MARGIN_PERCENT = '0.05';

/**
 * The lowest take profit (after its callback) that covers a round trip: a
 * buy's and a sell's fee at `feeRate`, plus rounding, in percent. Below it a
 * "profitable" exit would book a loss.
 */
export const takeProfitFloorPercent = (feeRate: DecimalString = DEFAULT_FEE_RATE): DecimalString =>
  new Big(feeRate).times(200).plus(TAKE_PROFIT_MARGIN_PERCENT).toFixed();

/**
 * The profit over the average cost at which take profit sells at the latest,
 * in percent: it arms at +takeProfit and sells after the price falls back the
 * callback from its high, so at worst at (1 + tp)(1 - callback) - 1.
 */
export const effectiveTakeProfitPercent = (settings: Pick<StrategySettings, 'takeProfitPercent' | 'takeProfitCallbackPercent'>): DecimalString => {
  const armed = new Big(settings.takeProfitPercent).div(100).plus(1);
  const kept = new Big(1).minus(new Big(settings.takeProfitCallbackPercent).div(100));
  return armed.times(kept).minus(1).times(100).round(4, Big.roundDown).toFixed();
};

/** Level k's drop (k = 1..count): first step d, step scale S: d * (S^k - 1) / (S - 1); d * k when S = 1. */
export const stepScaleDrops = (firstStepPercent: DecimalString, stepScale: DecimalString, count: number): DecimalString[] => {
  const d = new Big(firstStepPercent);
  const s = new Big(stepScale);
  return Array.from({ length: count }, (_, i) => {
    const k = i + 1;
    const drop = s.eq(1) ? d.times(k) : d.times(s.pow(k).minus(1)).div(s.minus(1));
    return drop.round(4).toString();
  });
};

export type MultipleMode = 'equal' | 'doubling' | 'arithmetic';

/**
 * Amount multiples of the levels: equal (all `first`), doubling (first,
 * 2*first, 4*first, ...; volume scale 2) or arithmetic (first, first+step, ...).
 */
export const levelMultiples = (mode: MultipleMode, count: number, first: DecimalString = '1', step: DecimalString = '1'): DecimalString[] =>
  Array.from({ length: count }, (_, i) => {
    const base = new Big(first);
    if (mode === 'equal') return base.toString();
    if (mode === 'doubling') return base.times(new Big(2).pow(i)).toString();
    return base.plus(new Big(step).times(i)).toString();
  });

export const buildLevels = (drops: DecimalString[], multiples: DecimalString[]): ReplenishLevel[] =>
  drops.map((dropPercent, i) => ({ dropPercent, multiple: multiples[i] ?? multiples[multiples.length - 1] ?? '1' }));

export interface LadderRow {
  /** 0 is the first order; 1..n the replenish levels. */
  level: number;
  dropPercent: DecimalString;
  price: DecimalString;
  amount: DecimalString;
  quantity: DecimalString;
  cumulativeCost: DecimalString;
  averagePrice: DecimalString;
  takeProfitPrice: DecimalString;
}

const PRICE_DP = 8;
const QUOTE_DP = 8;

/**
 * The ladder as the editor shows it: for a first fill at `firstPrice`, each
 * level's trigger price, amount, cumulative cost, the average price after
 * its fill and the take-profit price at that point. Fees are not included.
 */
export const ladder = (
  settings: Pick<StrategySettings, 'levels' | 'takeProfitPercent'>,
  firstOrderAmount: DecimalString,
  firstPrice: DecimalString,
  firstOrderMultiple = false,
): LadderRow[] => {
  const first = new Big(firstOrderAmount);
  const p0 = new Big(firstPrice);
  const tp = new Big(settings.takeProfitPercent).div(100).plus(1);
  let cost = new Big(0);
  let quantity = new Big(0);
  const rows: LadderRow[] = [];
  const entries = [{ dropPercent: '0', amount: firstOrderMultiple ? first.times(2) : first }].concat(
    settings.levels.map((level) => ({ dropPercent: level.dropPercent, amount: first.times(level.multiple) })),
  );
  entries.forEach((entry, level) => {
    const price = p0.times(new Big(1).minus(new Big(entry.dropPercent).div(100)));
    const bought = entry.amount.div(price);
    cost = cost.plus(entry.amount);
    quantity = quantity.plus(bought);
    const average = cost.div(quantity);
    rows.push({
      level,
      dropPercent: entry.dropPercent,
      price: price.round(PRICE_DP).toString(),
      amount: entry.amount.round(QUOTE_DP).toString(),
      quantity: bought.round(PRICE_DP).toString(),
      cumulativeCost: cost.round(QUOTE_DP).toString(),
      averagePrice: average.round(PRICE_DP).toString(),
      takeProfitPrice: average.times(tp).round(PRICE_DP).toString(),
    });
  });
  return rows;
};

/** The most quote currency one cycle can spend: the first order and every level. */
export const maxCycleFunds = (
  settings: Pick<StrategySettings, 'levels'>,
  firstOrderAmount: DecimalString,
  firstOrderMultiple = false,
): DecimalString => {
  const first = new Big(firstOrderAmount);
  return settings.levels
    .reduce((sum, level) => sum.plus(first.times(level.multiple)), firstOrderMultiple ? first.times(2) : first)
    .toString();
};

/** Quote funds to spend with the buys' fees on top at `feeRate`: what must be free to start (the server's check and the wizard's warning). */
export const withBuyFees = (funds: Big.BigSource, feeRate: DecimalString = DEFAULT_FEE_RATE): Big => new Big(funds).times(new Big(1).plus(feeRate));

/**
 * "Invest X": the first order that makes a full cycle of every pair, with
 * the buys' fees at `feeRate`, spend at most `invest` in all. A cycle spends
 * the first order times (1 or 2 for a doubled first order, plus every
 * level's multiple), so the first order is the investment per pair over that
 * sum with fees, down to the cent. "0" when the investment is too small for
 * a cent.
 */
export const firstOrderForInvestment = (
  settings: Pick<StrategySettings, 'levels'>,
  invest: DecimalString,
  pairs: number,
  firstOrderMultiple = false,
  feeRate: DecimalString = DEFAULT_FEE_RATE,
): DecimalString => {
  const perUnit = withBuyFees(maxCycleFunds(settings, '1', firstOrderMultiple), feeRate);
  return new Big(invest).div(Math.max(1, pairs)).div(perUnit).round(2, Big.roundDown).toFixed(2);
};

export type StrategyProblemCode =
  | 'too_many_levels'
  | 'drops_increase'
  | 'drop_below_100'
  | 'multiple_positive'
  | 'take_profit_positive'
  | 'take_profit_callback'
  | 'take_profit_floor'
  | 'replenish_callback'
  | 'stop_loss_range'
  | 'stop_loss_deeper'
  | 'stop_loss_early'
  | 'cooldown'
  | 'targets_count'
  | 'target_share'
  | 'targets_share_sum'
  | 'target_profit_increase'
  | 'target_floor'
  | 'time_stop'
  | 'break_even_targets'
  | 'conditions_count'
  | 'conditions_nesting'
  | 'indicator_period'
  | 'rsi_value'
  | 'bollinger_deviations'
  | 'price_range';

export interface StrategyProblem {
  code: StrategyProblemCode;
  /** The 1-based level concerned, when there is one. */
  level?: number;
  /** The 1-based take-profit target concerned, when there is one. */
  target?: number;
  /** take_profit_floor: the lowest take profit after its callback, percent. */
  floor?: DecimalString;
  /** The gate of the conditions concerned (issue 29). */
  gate?: Gate;
  /** The 1-based condition concerned, counting the gate's plain conditions in order, nested ones included. */
  condition?: number;
}

const PROBLEM_TEXT: Record<StrategyProblemCode, string> = {
  too_many_levels: `at most ${MAX_LEVELS} levels`,
  drops_increase: 'drops must increase from level to level',
  drop_below_100: 'a drop must be below 100 %',
  multiple_positive: 'the multiple must be above 0',
  take_profit_positive: 'take profit must be above 0 %',
  take_profit_callback: 'the take-profit callback must be at least 0 and below the take profit',
  take_profit_floor: 'the take profit after its callback must cover the fees of a buy and a sell',
  replenish_callback: 'the replenish callback must be 0 to 50 %',
  stop_loss_range: 'the stop loss must be between 0 and 100 %',
  stop_loss_deeper: 'the stop loss must be deeper than the last level',
  stop_loss_early: 'the stop loss (on the average cost with fees) would sell before this level buys',
  cooldown: 'the cooldown must be whole seconds, 0 or more',
  targets_count: `at most ${MAX_TARGETS} take-profit targets`,
  target_share: 'a target must sell more than 0 % and at most 100 % of the position',
  targets_share_sum: 'the targets\' shares must add up to 100 %',
  target_profit_increase: 'each target\'s profit must be above 0 % and above the previous target\'s',
  target_floor: 'the target\'s profit after its callback must cover the fees of a buy and a sell',
  time_stop: `the time stop must be whole hours, 1 to ${MAX_TIME_STOP_HOURS}`,
  break_even_targets: 'moving the stop to the break-even needs at least two take-profit targets',
  conditions_count: `a gate (and each group in it) needs 1 to ${MAX_CONDITIONS} conditions`,
  conditions_nesting: 'a group may hold groups of plain conditions, no deeper',
  indicator_period: `the indicator's period must be whole, 2 to ${MAX_INDICATOR_PERIOD}`,
  rsi_value: 'the RSI value must be above 0 and below 100',
  bollinger_deviations: `the band's width must be above 0 and at most ${MAX_BOLLINGER_DEVIATIONS} standard deviations`,
  price_range: 'the price range needs a bound, bounds above 0 and the lower one below the upper one',
};

/** English text of a problem (API messages); the dashboard shows `strategy.problem.<code>` instead. */
export const describeProblem = (problem: StrategyProblem): string => {
  const text = problem.floor ? `${PROBLEM_TEXT[problem.code]}: at least ${problem.floor} %` : PROBLEM_TEXT[problem.code];
  if (problem.target) return `target ${problem.target}: ${text}`;
  if (problem.gate) return `${problem.gate} conditions${problem.condition ? `, condition ${problem.condition}` : ''}: ${text}`;
  return problem.level ? `level ${problem.level}: ${text}` : text;
};

/**
 * The first level before which the stop loss would fire, or null. The engine
 * judges the stop loss against the average cost with fees (quantity net of a
 * fee in the coin), so before level k buys, that average times (1 - stop)
 * must lie below level k's trigger price; otherwise the stop loss sells
 * before the level it was meant to protect.
 */
export const stopLossFiresEarly = (
  settings: Pick<StrategySettings, 'levels' | 'stopLossPercent' | 'stopLossBase' | 'stopLossAfterLastLevel'>,
  feeRate: DecimalString = DEFAULT_FEE_RATE,
  firstOrderMultiple = false,
): number | null => {
  // Measured from the last level, or armed after it: the stop cannot sell before a level buys.
  if (settings.stopLossPercent === null || settings.stopLossBase === 'last_level' || settings.stopLossAfterLastLevel) return null;
  const kept = new Big(1).minus(feeRate);
  const stop = new Big(1).minus(new Big(settings.stopLossPercent).div(100));
  // Prices relative to the first fill (1), amounts relative to the first order amount.
  let cost = new Big(firstOrderMultiple ? 2 : 1);
  let quantity = cost.times(kept);
  for (const [i, level] of settings.levels.entries()) {
    const trigger = new Big(1).minus(new Big(level.dropPercent).div(100));
    if (cost.div(quantity).times(stop).gte(trigger)) return i + 1;
    cost = cost.plus(level.multiple);
    quantity = quantity.plus(new Big(level.multiple).div(trigger).times(kept));
  }
  return null;
};

/**
 * Why a template cannot be saved, or null. Drops must rise strictly and stay
 * below 100 %; the take profit must cover a round trip's fees at `feeRate`;
 * the stop loss must lie below every level on the engine's basis.
 */
export const strategyProblem = (settings: StrategySettings, feeRate: DecimalString = DEFAULT_FEE_RATE): StrategyProblem | null => {
  if (settings.levels.length > MAX_LEVELS) return { code: 'too_many_levels' };
  let previous = new Big(0);
  for (const [i, level] of settings.levels.entries()) {
    const drop = new Big(level.dropPercent);
    if (drop.lte(previous)) return { code: 'drops_increase', level: i + 1 };
    if (drop.gte(100)) return { code: 'drop_below_100', level: i + 1 };
    if (new Big(level.multiple).lte(0)) return { code: 'multiple_positive', level: i + 1 };
    previous = drop;
  }
  const takeProfit = new Big(settings.takeProfitPercent);
  if (takeProfit.lte(0)) return { code: 'take_profit_positive' };
  const takeProfitCallback = new Big(settings.takeProfitCallbackPercent);
  if (takeProfitCallback.lt(0) || takeProfitCallback.gte(takeProfit)) return { code: 'take_profit_callback' };
  const floor = takeProfitFloorPercent(feeRate);
  if (new Big(effectiveTakeProfitPercent(settings)).lt(floor)) return { code: 'take_profit_floor', floor };
  const replenishCallback = new Big(settings.replenishCallbackPercent);
  if (replenishCallback.lt(0) || replenishCallback.gte(50)) return { code: 'replenish_callback' };
  if (settings.stopLossPercent !== null) {
    const stop = new Big(settings.stopLossPercent);
    if (stop.lte(0) || stop.gte(100)) return { code: 'stop_loss_range' };
    if (settings.stopLossBase !== 'last_level' && stop.lte(previous)) return { code: 'stop_loss_deeper' };
    const early = stopLossFiresEarly(settings, feeRate);
    if (early !== null) return { code: 'stop_loss_early', level: early };
  }
  if (!Number.isInteger(settings.cooldownSeconds) || settings.cooldownSeconds < 0) return { code: 'cooldown' };
  return exitProblem(settings, floor);
};

/** The several take-profit targets, the time stop and the break-even (issue 28): why they cannot be saved, or null. */
const exitProblem = (settings: StrategySettings, floor: DecimalString): StrategyProblem | null => {
  const targets = settings.takeProfitTargets ?? [];
  if (targets.length > MAX_TARGETS) return { code: 'targets_count' };
  let shares = new Big(0);
  let previous = new Big(0);
  for (const [i, target] of targets.entries()) {
    const share = new Big(target.sharePercent);
    if (share.lte(0) || share.gt(100)) return { code: 'target_share', target: i + 1 };
    shares = shares.plus(share);
    const profit = new Big(target.profitPercent);
    if (profit.lte(previous)) return { code: 'target_profit_increase', target: i + 1 };
    previous = profit;
    if (target.trailing && new Big(settings.takeProfitCallbackPercent).gte(profit)) return { code: 'take_profit_callback', target: i + 1 };
    const effective = effectiveTakeProfitPercent({ takeProfitPercent: target.profitPercent, takeProfitCallbackPercent: target.trailing ? settings.takeProfitCallbackPercent : '0' });
    if (new Big(effective).lt(floor)) return { code: 'target_floor', target: i + 1, floor };
  }
  if (targets.length > 0 && !shares.eq(100)) return { code: 'targets_share_sum' };
  const hours = settings.timeStopHours;
  if (hours !== undefined && hours !== null && (!Number.isInteger(hours) || hours < 1 || hours > MAX_TIME_STOP_HOURS)) return { code: 'time_stop' };
  if (settings.breakEven && targets.length < 2) return { code: 'break_even_targets' };
  return conditionsProblem(settings.conditions);
};

const isGroup = (item: Condition | ConditionGroup): item is ConditionGroup => typeof item === 'object' && item !== null && 'mode' in item;
const DECIMAL = /^\d+(\.\d+)?$/;
const positive = (value: unknown): boolean => typeof value === 'string' && DECIMAL.test(value) && new Big(value).gt(0);

/** Why one plain condition cannot be saved, or null. */
const conditionProblem = (condition: Condition): StrategyProblemCode | null => {
  if ('period' in condition && (!Number.isInteger(condition.period) || condition.period < 2 || condition.period > MAX_INDICATOR_PERIOD)) return 'indicator_period';
  switch (condition.kind) {
    case 'rsi':
      return positive(condition.value) && new Big(condition.value).lt(100) ? null : 'rsi_value';
    case 'bollinger':
      return positive(condition.deviations) && new Big(condition.deviations).lte(MAX_BOLLINGER_DEVIATIONS) ? null : 'bollinger_deviations';
    case 'price_range': {
      const { min, max } = condition;
      if (min === null && max === null) return 'price_range';
      if ((min !== null && !positive(min)) || (max !== null && !positive(max))) return 'price_range';
      return min !== null && max !== null && new Big(min).gte(max) ? 'price_range' : null;
    }
    default:
      return null;
  }
};

/** The signal conditions (issue 29): why they cannot be saved, or null. */
const conditionsProblem = (conditions: StrategyConditions | null | undefined): StrategyProblem | null => {
  for (const gate of GATES) {
    const group = conditions?.[gate];
    if (!group) continue;
    let count = 0;
    const walk = (node: ConditionGroup, depth: number): StrategyProblem | null => {
      if (node.conditions.length === 0 || node.conditions.length > MAX_CONDITIONS) return { code: 'conditions_count', gate };
      for (const item of node.conditions) {
        if (isGroup(item)) {
          if (depth > 0) return { code: 'conditions_nesting', gate };
          const problem = walk(item, depth + 1);
          if (problem) return problem;
          continue;
        }
        count += 1;
        if (count > MAX_CONDITIONS) return { code: 'conditions_count', gate };
        const code = conditionProblem(item);
        if (code) return { code, gate, condition: count };
      }
      return null;
    };
    const problem = walk(group, 0);
    if (problem) return problem;
  }
  return null;
};

const sameNumber = (a: string | null, b: string | null) => (a === null || b === null ? a === b : new Big(a).eq(b));

/** Whether two settings trade alike ('1.5' and '1.50' are one take profit). */
export const sameSettings = (a: StrategySettings, b: StrategySettings): boolean =>
  a.levels.length === b.levels.length &&
  a.levels.every((level, i) => sameNumber(level.dropPercent, b.levels[i]!.dropPercent) && sameNumber(level.multiple, b.levels[i]!.multiple)) &&
  sameNumber(a.takeProfitPercent, b.takeProfitPercent) &&
  sameNumber(a.takeProfitCallbackPercent, b.takeProfitCallbackPercent) &&
  sameNumber(a.replenishCallbackPercent, b.replenishCallbackPercent) &&
  sameNumber(a.stopLossPercent, b.stopLossPercent) &&
  a.cooldownSeconds === b.cooldownSeconds &&
  sameExits(exitsOf(a), exitsOf(b)) &&
  sameConditions(conditionsOf(a), conditionsOf(b));

/** A condition's decimals written alike ('30' and '30.0' are one RSI value), for comparing. */
const normalized = (item: Condition | ConditionGroup): unknown => {
  if (isGroup(item)) return { mode: item.mode, conditions: item.conditions.map(normalized) };
  const plain = (value: DecimalString | null) => (value === null ? null : new Big(value).toString());
  switch (item.kind) {
    case 'rsi':
      return { ...item, value: plain(item.value) };
    case 'bollinger':
      return { ...item, deviations: plain(item.deviations) };
    case 'price_range':
      return { ...item, min: plain(item.min), max: plain(item.max) };
    default:
      return item;
  }
};

/** Whether two templates' gates (conditionsOf) hold alike: the same conditions in the same order. */
const sameConditions = (a: StrategyConditions | null, b: StrategyConditions | null): boolean =>
  GATES.every((gate) => {
    const [ga, gb] = [a?.[gate] ?? null, b?.[gate] ?? null];
    if (ga === null || gb === null) return ga === gb;
    return canonical(normalized(ga)) === canonical(normalized(gb));
  });

/** JSON with the keys sorted, so key order (a request's against the store's) does not matter. */
const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record).sort().map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
};

/** Whether two templates' exits (exitsOf) sell alike: the same targets in order, stop base and arming, time stop and break-even. */
const sameExits = (a: StrategyExits | null, b: StrategyExits | null): boolean => {
  const targets = (exits: StrategyExits | null) => exits?.takeProfitTargets ?? [];
  const [ta, tb] = [targets(a), targets(b)];
  return (
    ta.length === tb.length &&
    ta.every((target, i) => sameNumber(target.sharePercent, tb[i]!.sharePercent) && sameNumber(target.profitPercent, tb[i]!.profitPercent) && target.trailing === tb[i]!.trailing) &&
    a?.stopLossBase === b?.stopLossBase &&
    a?.stopLossAfterLastLevel === b?.stopLossAfterLastLevel &&
    a?.timeStopHours === b?.timeStopHours &&
    a?.breakEven === b?.breakEven
  );
};
