import type { TranslateFunction as Translate } from 'react-admin';
import type { Condition, ConditionGroup, Gate } from '../../api/conditions';
import { formatPrice } from './money';

/** The gates in the order the pages show them: a cycle's start, a level's buy, the close. */
export const GATES: readonly Gate[] = ['start', 'replenish', 'close'];

/**
 * A condition in a few words of the page's language ("RSI(14,1h) < 30",
 * "价格上穿 EMA(50,1h)"): the editor's worked explanation, the task's waiting
 * line and the backtest comparison say them alike. Texts under
 * `strategy.condition` (strategy/conditionMessages.ts).
 */
export const conditionText = (item: Condition | ConditionGroup, translate: Translate, locale: string, tick?: string | null): string => {
  if ('mode' in item) return `(${joinConditions(item.mode, item.conditions.map((inner) => conditionText(inner, translate, locale, tick)), translate)})`;
  switch (item.kind) {
    case 'rsi':
      return `RSI(${item.period},${item.timeframe}) ${item.op === 'below' ? '<' : '>'} ${item.value}`;
    case 'ma_cross':
      return translate(`strategy.condition.text.ma_${item.side}`, { average: `${item.average.toUpperCase()}(${item.period},${item.timeframe})` });
    case 'bollinger':
      return translate(`strategy.condition.text.bollinger_${item.band}`, { bands: `BB(${item.period},${item.deviations},${item.timeframe})` });
    case 'price_range': {
      const [min, max] = [formatPrice(item.min, locale, tick), formatPrice(item.max, locale, tick)];
      if (item.min !== null && item.max !== null) return translate('strategy.condition.text.range_between', { min, max });
      if (item.min !== null) return translate('strategy.condition.text.range_min', { min });
      if (item.max !== null) return translate('strategy.condition.text.range_max', { max });
      return translate('strategy.condition.text.range_any');
    }
    case 'alert':
      return translate('strategy.condition.text.alert');
  }
};

/** Conditions joined as their group joins them: "A 且 B", "A 或 B". */
export const joinConditions = (mode: ConditionGroup['mode'], texts: string[], translate: Translate) => texts.join(translate(`strategy.condition.join_${mode}`));

/** A group in words: "RSI(14,1h) < 30 且 价格上穿 EMA(50,1h)". */
export const groupText = (group: ConditionGroup, translate: Translate, locale: string, tick?: string | null) =>
  joinConditions(group.mode, group.conditions.map((item) => conditionText(item, translate, locale, tick)), translate);

/** The condition a reading's path points to in a gate's group ([1] the second; [1, 0] the first inside the second), or null. */
export const conditionAt = (group: ConditionGroup, path: readonly number[]): Condition | ConditionGroup | null => {
  let item: Condition | ConditionGroup | undefined = group;
  for (const index of path) {
    if (!item || !('mode' in item)) return null;
    item = item.conditions[index];
  }
  return item ?? null;
};
