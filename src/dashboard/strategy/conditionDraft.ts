import type { Condition, ConditionGroup, ConditionKind, Gate, StrategyConditions, Timeframe } from '../../api/conditions';
import { GATES } from '../kit/conditionText';

export const CONDITION_KINDS: readonly ConditionKind[] = ['rsi', 'ma_cross', 'bollinger', 'price_range', 'alert'];

/**
 * One condition as the form edits it: every kind's fields as strings, so a
 * row can switch kind and an emptied field stays ''. A nested group (the
 * contract allows one level) is kept as it came: shown, removable, not edited.
 */
export interface ConditionRow {
  kind: ConditionKind | 'group';
  period: string;
  timeframe: Timeframe;
  op: 'below' | 'above';
  value: string;
  average: 'sma' | 'ema';
  side: 'above' | 'below';
  deviations: string;
  band: 'lower' | 'upper';
  min: string;
  max: string;
  group?: ConditionGroup;
}

export interface GateDraft {
  enabled: boolean;
  mode: 'all' | 'any';
  rows: ConditionRow[];
}

export type ConditionsDraft = Record<Gate, GateDraft>;

const BLANK: ConditionRow = { kind: 'rsi', period: '14', timeframe: '1h', op: 'below', value: '30', average: 'ema', side: 'above', deviations: '2', band: 'lower', min: '', max: '' };

/** A new row of a kind, with the usual settings (RSI 14 below 30, EMA 50, Bollinger 20 and 2 deviations, all on 1 h). */
export const newRow = (kind: ConditionKind, from: Partial<ConditionRow> = {}): ConditionRow => {
  const base = { ...BLANK, timeframe: from.timeframe ?? BLANK.timeframe, kind };
  if (kind === 'ma_cross') return { ...base, period: '50' };
  if (kind === 'bollinger') return { ...base, period: '20' };
  return base;
};

const isGroup = (item: Condition | ConditionGroup): item is ConditionGroup => 'mode' in item;

const rowFrom = (item: Condition | ConditionGroup): ConditionRow => {
  if (isGroup(item)) return { ...BLANK, kind: 'group', group: item };
  switch (item.kind) {
    case 'rsi':
      return { ...BLANK, kind: 'rsi', period: String(item.period), timeframe: item.timeframe, op: item.op, value: item.value };
    case 'ma_cross':
      return { ...BLANK, kind: 'ma_cross', period: String(item.period), timeframe: item.timeframe, average: item.average, side: item.side };
    case 'bollinger':
      return { ...BLANK, kind: 'bollinger', period: String(item.period), timeframe: item.timeframe, deviations: item.deviations, band: item.band };
    case 'price_range':
      return { ...BLANK, kind: 'price_range', min: item.min ?? '', max: item.max ?? '' };
    case 'alert':
      return { ...BLANK, kind: 'alert' };
  }
};

const OFF: GateDraft = { enabled: false, mode: 'all', rows: [] };

/** No gate on: every cycle starts, every level buys, as before conditions existed. */
export const NO_CONDITIONS: ConditionsDraft = { start: OFF, replenish: OFF, close: OFF };

export const conditionsDraftFrom = (conditions: StrategyConditions | null | undefined): ConditionsDraft => {
  const gate = (group: ConditionGroup | null | undefined): GateDraft =>
    group && group.conditions.length > 0 ? { enabled: true, mode: group.mode, rows: group.conditions.map(rowFrom) } : { ...OFF, rows: [] };
  return { start: gate(conditions?.start), replenish: gate(conditions?.replenish), close: gate(conditions?.close) };
};

const DECIMAL = /^\d+(\.\d+)?$/;
const INTEGER = /^\d+$/;

/** A row as the API takes it, or null while one of its numbers is not a number yet. */
export const toCondition = (row: ConditionRow): Condition | ConditionGroup | null => {
  const period = row.period.trim();
  switch (row.kind) {
    case 'group':
      return row.group ?? null;
    case 'rsi':
      return INTEGER.test(period) && DECIMAL.test(row.value.trim()) ? { kind: 'rsi', period: Number(period), timeframe: row.timeframe, op: row.op, value: row.value.trim() } : null;
    case 'ma_cross':
      return INTEGER.test(period) ? { kind: 'ma_cross', average: row.average, period: Number(period), timeframe: row.timeframe, side: row.side } : null;
    case 'bollinger':
      return INTEGER.test(period) && DECIMAL.test(row.deviations.trim())
        ? { kind: 'bollinger', period: Number(period), deviations: row.deviations.trim(), timeframe: row.timeframe, band: row.band }
        : null;
    case 'price_range': {
      const [min, max] = [row.min.trim(), row.max.trim()];
      if ((min && !DECIMAL.test(min)) || (max && !DECIMAL.test(max))) return null;
      return { kind: 'price_range', min: min || null, max: max || null };
    }
    case 'alert':
      return { kind: 'alert' };
  }
};

/**
 * The gates the draft switches on, as the API takes them: undefined when none
 * is on (a template without conditions is sent as before), null while a
 * number is not one yet.
 */
export const toConditions = (draft: ConditionsDraft): StrategyConditions | undefined | null => {
  const out: StrategyConditions = {};
  for (const gate of GATES) {
    const { enabled, mode, rows } = draft[gate];
    if (!enabled || rows.length === 0) continue;
    const conditions = rows.map(toCondition);
    if (conditions.some((condition) => condition === null)) return null;
    out[gate] = { mode, conditions: conditions as Array<Condition | ConditionGroup> };
  }
  return Object.keys(out).length > 0 ? out : undefined;
};
