import Big from 'big.js';
import {
  buildLevels,
  levelMultiples,
  stepScaleDrops,
  type MultipleMode,
  type ReplenishLevel,
  type StopLossBase,
  type StrategySettings,
  type StrategyTemplate,
  type TakeProfitTarget,
} from '../../api/strategy';
import { conditionsDraftFrom, NO_CONDITIONS, toConditions, type ConditionsDraft } from './conditionDraft';

export interface StrategyDraft
  extends Omit<StrategySettings, 'stopLossPercent' | 'cooldownSeconds' | 'takeProfitTargets' | 'stopLossBase' | 'stopLossAfterLastLevel' | 'timeStopHours' | 'breakEven' | 'conditions'> {
  name: string;
  stopLossEnabled: boolean;
  stopLossPercent: string;
  cooldownSeconds: string;
  /** Several take-profit targets (else the single take profit sells all). */
  targetsEnabled: boolean;
  targets: TakeProfitTarget[];
  stopLossBase: StopLossBase;
  stopLossAfterLastLevel: boolean;
  timeStopEnabled: boolean;
  timeStopHours: string;
  breakEven: boolean;
  /** The gates of issue 29: when a cycle starts, a level buys, the position closes. */
  conditions: ConditionsDraft;
}

/** The two targets a template starts from when several are switched on: half at the take profit, the rest at twice it. */
export const defaultTargets = (takeProfitPercent: string): TakeProfitTarget[] => {
  const first = DECIMAL.test(takeProfitPercent.trim()) ? takeProfitPercent.trim() : '1.5';
  return [
    { sharePercent: '50', profitPercent: first, trailing: false },
    { sharePercent: '50', profitPercent: new Big(first).times(2).toString(), trailing: true },
  ];
};

export interface GeneratorInput {
  count: string;
  firstStep: string;
  stepScale: string;
  mode: MultipleMode;
  firstMultiple: string;
  multipleStep: string;
}

export const DEFAULT_GENERATOR: GeneratorInput = { count: '5', firstStep: '1', stepScale: '1.5', mode: 'doubling', firstMultiple: '1', multipleStep: '1' };

/**
 * The generator's fields for a ladder it could have made: its count, first
 * drop and first multiple, the step scale of its first two drops, and the
 * amounts' mode (equal, doubling, else arithmetic by its first two multiples).
 * So a copied or loaded template opens with fields that agree with its ladder.
 */
export const generatorFrom = (levels: readonly ReplenishLevel[]): GeneratorInput => {
  const [first, second] = levels;
  if (!first || !DECIMAL.test(first.dropPercent) || !DECIMAL.test(first.multiple) || new Big(first.dropPercent).eq(0)) return DEFAULT_GENERATOR;
  const multiples = levels.map((level) => level.multiple);
  const equal = multiples.every((m) => DECIMAL.test(m) && new Big(m).eq(first.multiple));
  const doubling = multiples.every((m, i) => DECIMAL.test(m) && new Big(m).eq(new Big(first.multiple).times(new Big(2).pow(i))));
  const trim = (value: Big) => value.round(4).toString();
  const stepScale = second && DECIMAL.test(second.dropPercent) ? trim(new Big(second.dropPercent).div(first.dropPercent).minus(1)) : DEFAULT_GENERATOR.stepScale;
  const multipleStep = second && DECIMAL.test(second.multiple) ? trim(new Big(second.multiple).minus(first.multiple)) : DEFAULT_GENERATOR.multipleStep;
  return {
    count: String(levels.length),
    firstStep: first.dropPercent,
    stepScale,
    mode: equal ? 'equal' : doubling ? 'doubling' : 'arithmetic',
    firstMultiple: first.multiple,
    multipleStep: equal || doubling ? DEFAULT_GENERATOR.multipleStep : multipleStep,
  };
};

/** A new template's values: five doubling levels from 1 %, 1.5 % take profit. */
export const DEFAULT_DRAFT: StrategyDraft = {
  name: '',
  levels: buildLevels(stepScaleDrops('1', '1.5', 5), levelMultiples('doubling', 5)),
  takeProfitPercent: '1.5',
  takeProfitCallbackPercent: '0.3',
  replenishCallbackPercent: '0.2',
  stopLossEnabled: false,
  stopLossPercent: '30',
  cooldownSeconds: '60',
  targetsEnabled: false,
  targets: [],
  stopLossBase: 'average',
  stopLossAfterLastLevel: false,
  timeStopEnabled: false,
  timeStopHours: '72',
  breakEven: false,
  conditions: NO_CONDITIONS,
};

export const draftFrom = (template: StrategyTemplate, name = template.name): StrategyDraft => ({
  name,
  levels: template.levels.map((level) => ({ ...level })),
  takeProfitPercent: template.takeProfitPercent,
  takeProfitCallbackPercent: template.takeProfitCallbackPercent,
  replenishCallbackPercent: template.replenishCallbackPercent,
  stopLossEnabled: template.stopLossPercent !== null,
  stopLossPercent: template.stopLossPercent ?? DEFAULT_DRAFT.stopLossPercent,
  cooldownSeconds: String(template.cooldownSeconds),
  targetsEnabled: (template.takeProfitTargets?.length ?? 0) > 0,
  targets: (template.takeProfitTargets ?? []).map((target) => ({ ...target })),
  stopLossBase: template.stopLossBase ?? 'average',
  stopLossAfterLastLevel: template.stopLossAfterLastLevel ?? false,
  timeStopEnabled: Boolean(template.timeStopHours),
  timeStopHours: template.timeStopHours ? String(template.timeStopHours) : DEFAULT_DRAFT.timeStopHours,
  breakEven: template.breakEven ?? false,
  conditions: conditionsDraftFrom(template.conditions),
});

const DECIMAL = /^\d+(\.\d+)?$/;

/** The draft as the API takes it, or null while a field is not a number yet. */
export const toSettings = (draft: StrategyDraft): (StrategySettings & { name: string }) | null => {
  const decimals = [
    draft.takeProfitPercent,
    draft.takeProfitCallbackPercent,
    draft.replenishCallbackPercent,
    ...(draft.stopLossEnabled ? [draft.stopLossPercent] : []),
    ...draft.levels.flatMap((level) => [level.dropPercent, level.multiple]),
    ...(draft.targetsEnabled ? draft.targets.flatMap((target) => [target.sharePercent, target.profitPercent]) : []),
  ];
  if (!decimals.every((value) => DECIMAL.test(value.trim())) || !/^\d+$/.test(draft.cooldownSeconds.trim())) return null;
  if (draft.timeStopEnabled && !/^\d+$/.test(draft.timeStopHours.trim())) return null;
  const conditions = toConditions(draft.conditions);
  if (conditions === null) return null;
  const targets = draft.targetsEnabled ? draft.targets.map((t) => ({ sharePercent: t.sharePercent.trim(), profitPercent: t.profitPercent.trim(), trailing: t.trailing })) : [];
  // Only the exits the draft sets: a template without them is sent as before.
  const exits: Pick<StrategySettings, 'takeProfitTargets' | 'stopLossBase' | 'stopLossAfterLastLevel' | 'timeStopHours' | 'breakEven'> = {};
  if (targets.length > 0) exits.takeProfitTargets = targets;
  if (draft.stopLossEnabled && draft.stopLossBase === 'last_level') exits.stopLossBase = 'last_level';
  if (draft.stopLossEnabled && draft.stopLossAfterLastLevel) exits.stopLossAfterLastLevel = true;
  if (draft.timeStopEnabled) exits.timeStopHours = Number(draft.timeStopHours.trim());
  if (targets.length > 0 && draft.breakEven) exits.breakEven = true;
  return {
    name: draft.name.trim(),
    levels: draft.levels.map((level) => ({ dropPercent: level.dropPercent.trim(), multiple: level.multiple.trim() })),
    // With several targets, the take profit is the first one's (the ladder's take-profit column and its checks).
    takeProfitPercent: targets[0]?.profitPercent ?? draft.takeProfitPercent.trim(),
    takeProfitCallbackPercent: draft.takeProfitCallbackPercent.trim(),
    replenishCallbackPercent: draft.replenishCallbackPercent.trim(),
    stopLossPercent: draft.stopLossEnabled ? draft.stopLossPercent.trim() : null,
    cooldownSeconds: Number(draft.cooldownSeconds.trim()),
    ...exits,
    ...(conditions ? { conditions } : {}),
  };
};

/** Ladder from the generator (3Commas-style step scale; equal, doubling or arithmetic amounts). */
export const generateLevels = (input: GeneratorInput): ReplenishLevel[] | null => {
  const count = Number(input.count);
  if (!Number.isInteger(count) || count < 1 || count > 30) return null;
  if (![input.firstStep, input.stepScale, input.firstMultiple, input.multipleStep].every((v) => DECIMAL.test(v.trim()))) return null;
  return buildLevels(
    stepScaleDrops(input.firstStep.trim(), input.stepScale.trim(), count),
    levelMultiples(input.mode, count, input.firstMultiple.trim(), input.multipleStep.trim()),
  );
};
