/**
 * Signal conditions (issue 29), evaluated: pure functions of a gate's
 * conditions and a symbol's indicator readings (indicators.ts), used alike
 * by the engine and the backtest once per closed minute.
 *
 * - `rsi`: RSI strictly below / above the value;
 * - `ma_cross`: the last close is on `side` of the average and the close of
 *   the minute before was not (a cross holds for one minute);
 * - `bollinger`: the last close reached or passed the band (lower: at or
 *   below it; upper: at or above it);
 * - `price_range`: min <= close <= max, a null bound open;
 * - `alert`: never holds by itself: an alert forces its action instead.
 * Anything still warming up (no value yet) does not hold. "all" of nothing
 * holds, "any" of nothing does not (the settings never save an empty group).
 * Every comparison is between decimals (big.js), so the result never depends
 * on float rounding.
 */
import Big from 'big.js';
import type { AlertAction, Condition, ConditionGroup, StrategyConditions } from '../../../../src/api/conditions';
import type { DecimalString } from '../../../../src/api/types';
import { indicatorKeyOf, type IndicatorReadings } from './indicators';

export interface ConditionReading {
  /** Indexes from the gate's group down to the condition ([1, 0]: the first condition of the gate's second item, a group). */
  path: number[];
  /** The value it compares: the indicator (RSI, the average, the band) or the price; null while warming up, or for an alert. */
  current: DecimalString | null;
  holds: boolean;
}

export interface GateResult {
  holds: boolean;
  readings: ConditionReading[];
}

const isGroup = (item: Condition | ConditionGroup): item is ConditionGroup => 'mode' in item;

/** Whether one condition holds, and the value it compared. */
export const evaluateCondition = (condition: Condition, readings: IndicatorReadings): { current: DecimalString | null; holds: boolean } => {
  const close = readings.close;
  switch (condition.kind) {
    case 'rsi': {
      const current = readings.value(indicatorKeyOf(condition)!);
      if (current === null) return { current, holds: false };
      const order = new Big(current).cmp(condition.value);
      return { current, holds: condition.op === 'below' ? order < 0 : order > 0 };
    }
    case 'ma_cross': {
      const key = indicatorKeyOf(condition)!;
      const current = readings.value(key);
      const previous = readings.previousSide(key);
      return { current, holds: readings.side(key) === condition.side && previous !== null && previous !== condition.side };
    }
    case 'bollinger': {
      const current = readings.value(indicatorKeyOf(condition)!);
      if (current === null || close === null) return { current, holds: false };
      const order = new Big(close).cmp(current);
      return { current, holds: condition.band === 'lower' ? order <= 0 : order >= 0 };
    }
    case 'price_range': {
      if (close === null) return { current: null, holds: false };
      const price = new Big(close);
      return { current: close, holds: (condition.min === null || price.gte(condition.min)) && (condition.max === null || price.lte(condition.max)) };
    }
    default:
      return { current: null, holds: false };
  }
};

/** Whether a gate's group holds, with the reading of each of its plain conditions (in order, nested ones included). */
export const evaluateGate = (group: ConditionGroup, readings: IndicatorReadings): GateResult => {
  const all: ConditionReading[] = [];
  const walk = (node: ConditionGroup, path: number[]): boolean => {
    let result = node.mode === 'all';
    node.conditions.forEach((item, i) => {
      const at = [...path, i];
      let holds: boolean;
      if (isGroup(item)) holds = walk(item, at);
      else {
        const reading = evaluateCondition(item, readings);
        all.push({ path: at, ...reading });
        holds = reading.holds;
      }
      result = node.mode === 'all' ? result && holds : result || holds;
    });
    return result;
  };
  return { holds: walk(group, []), readings: all };
};

/** What decide() takes from the gates (decide.ts `Signals`). */
export interface GateSignals {
  start: boolean;
  replenish: boolean;
  close: boolean;
  force?: AlertAction | null;
}

/**
 * The gates of a strategy's conditions at the readings: an absent start or
 * replenish gate holds; an absent close gate never closes (a close gate that
 * "always held" would sell every position at its break-even).
 */
export const gateSignals = (conditions: StrategyConditions | null | undefined, readings: IndicatorReadings, force?: AlertAction | null): GateSignals => ({
  start: conditions?.start ? evaluateGate(conditions.start, readings).holds : true,
  replenish: conditions?.replenish ? evaluateGate(conditions.replenish, readings).holds : true,
  close: conditions?.close ? evaluateGate(conditions.close, readings).holds : false,
  ...(force ? { force } : {}),
});

/** Whether a strategy has any gate. */
export const hasConditions = (conditions: StrategyConditions | null | undefined): boolean => Boolean(conditions?.start || conditions?.replenish || conditions?.close);

const trim = (value: DecimalString): string => new Big(value).toString();
/** A reading as logs show it: RSI and prices rounded to 2 decimals at most. */
export const formatReading = (value: DecimalString): string => new Big(value).round(2).toString();

/** A plain-text condition for logs and the task's waiting line: `RSI(14,1h) < 30`. The dashboard localizes its own. */
export const describeCondition = (condition: Condition): string => {
  switch (condition.kind) {
    case 'rsi':
      return `RSI(${condition.period},${condition.timeframe}) ${condition.op === 'below' ? '<' : '>'} ${trim(condition.value)}`;
    case 'ma_cross':
      return `price crosses ${condition.side} ${condition.average.toUpperCase()}(${condition.period},${condition.timeframe})`;
    case 'bollinger':
      return `price ${condition.band === 'lower' ? '<=' : '>='} BB ${condition.band}(${condition.period},${trim(condition.deviations)},${condition.timeframe})`;
    case 'price_range':
      if (condition.min !== null && condition.max !== null) return `${trim(condition.min)} <= price <= ${trim(condition.max)}`;
      if (condition.min !== null) return `price >= ${trim(condition.min)}`;
      return condition.max !== null ? `price <= ${trim(condition.max)}` : 'any price';
    default:
      return 'TradingView alert';
  }
};

/** A group in plain text: `RSI(14,1h) < 30 and (price >= 100 or TradingView alert)`. */
export const describeGroup = (group: ConditionGroup, nested = false): string => {
  const text = group.conditions.map((item) => (isGroup(item) ? describeGroup(item, true) : describeCondition(item))).join(group.mode === 'all' ? ' and ' : ' or ');
  return nested && group.conditions.length > 1 ? `(${text})` : text;
};

/** The waiting line of a gate: each condition that does not hold, with its current value: `RSI(14,1h) < 30, now 41.2`. */
export const describeWaiting = (group: ConditionGroup, result: GateResult): string => {
  const byPath = new Map(result.readings.map((reading) => [reading.path.join('.'), reading]));
  const parts: string[] = [];
  const walk = (node: ConditionGroup, path: number[]) =>
    node.conditions.forEach((item, i) => {
      const at = [...path, i];
      if (isGroup(item)) return walk(item, at);
      const reading = byPath.get(at.join('.'));
      if (!reading || reading.holds) return;
      parts.push(reading.current === null ? describeCondition(item) : `${describeCondition(item)}, now ${formatReading(reading.current)}`);
    });
  walk(group, []);
  return parts.join('; ');
};
