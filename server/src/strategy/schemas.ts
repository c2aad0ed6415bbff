/** The schemas of the strategy calls: validation, the OpenAPI document and (through the type provider) the handlers' types. */
import type { Static } from 'typebox';
import { TIMEFRAMES, type ConditionGroup, type StrategyConditions } from '../../../src/api/conditions';
import { MAX_LEVELS, MAX_TARGETS, MAX_TIME_STOP_HOURS, type StrategySettings, type StrategyTemplate } from '../../../src/api/strategy';
import type { Page } from '../../../src/api/types';
import { Answer, DecimalText, Nullable, PageOf } from '../http/answers';
import { Body, IdParams, Query, SafeText, SameShape, StringEnum, Type, UNSAFE_CHARACTERS, Uuid, pagingProperties, type Same } from '../http/schemas';

/** Percents to 4 decimals, multiples to 8. */
const percent = Type.String({ pattern: '^\\d{1,3}(\\.\\d{1,4})?$' });
const multiple = Type.String({ pattern: '^\\d{1,4}(\\.\\d{1,8})?$' });

/**
 * Signal conditions (issue 29) as they are sent and answered: the shape here
 * (kinds, fields, timeframes, one level of nested groups), the ranges in
 * strategyProblem, which names each problem (periods, RSI values, bands,
 * price ranges, how many conditions).
 */
const period = Type.Integer({ minimum: 0, maximum: 100_000 });
const timeframe = StringEnum(TIMEFRAMES);
const price = Type.String({ pattern: '^\\d{1,12}(\\.\\d{1,12})?$' });
const condition = Type.Union([
  Body({ kind: Type.Literal('rsi'), period, timeframe, op: StringEnum(['below', 'above'] as const), value: percent }),
  Body({ kind: Type.Literal('ma_cross'), average: StringEnum(['sma', 'ema'] as const), period, timeframe, side: StringEnum(['above', 'below'] as const) }),
  Body({ kind: Type.Literal('bollinger'), period, deviations: percent, timeframe, band: StringEnum(['lower', 'upper'] as const) }),
  Body({ kind: Type.Literal('price_range'), min: Type.Union([price, Type.Null()]), max: Type.Union([price, Type.Null()]) }),
  Body({ kind: Type.Literal('alert') }),
]);
/** More than strategyProblem allows, so it is the one that answers with conditions_count. */
const MAX_ITEMS = 32;
const mode = StringEnum(['all', 'any'] as const);
const group = Type.Unsafe<ConditionGroup>(
  Body({ mode, conditions: Type.Array(Type.Union([condition, Body({ mode, conditions: Type.Array(condition, { maxItems: MAX_ITEMS }) })]), { maxItems: MAX_ITEMS }) }),
);
const gate = Type.Optional(Type.Union([group, Type.Null()]));
export const conditionsSchema = Type.Unsafe<StrategyConditions>(Body({ start: gate, replenish: gate, close: gate }));

/** A template's settings as they are sent: here, in backtests (backtest/schemas.ts) and in the backtest command's strategy file. */
export const settingsProperties = {
  levels: Type.Array(Body({ dropPercent: percent, multiple }), { maxItems: MAX_LEVELS }),
  takeProfitPercent: percent,
  takeProfitCallbackPercent: percent,
  replenishCallbackPercent: percent,
  stopLossPercent: Type.Union([percent, Type.Null()]),
  cooldownSeconds: Type.Integer({ minimum: 0, maximum: 7 * 24 * 3600 }),
  // Issue 28's exits, all optional: a template without them sells as before (strategyProblem checks them).
  takeProfitTargets: Type.Optional(Type.Array(Body({ sharePercent: percent, profitPercent: percent, trailing: Type.Boolean() }), { maxItems: MAX_TARGETS })),
  stopLossBase: Type.Optional(StringEnum(['average', 'last_level'] as const)),
  stopLossAfterLastLevel: Type.Optional(Type.Boolean()),
  timeStopHours: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: MAX_TIME_STOP_HOURS }), Type.Null()])),
  breakEven: Type.Optional(Type.Boolean()),
  conditions: Type.Optional(Type.Union([conditionsSchema, Type.Null()])),
};
/** The optional fields of the settings (issue 28's exits, issue 29's conditions): a template without them trades as before. */
export const OPTIONAL_SETTING_KEYS = ['takeProfitTargets', 'stopLossBase', 'stopLossAfterLastLevel', 'timeStopHours', 'breakEven', 'conditions'] as const;
/** The settings alone, every field required (other fields are the caller's business). */
export const settingsSchema = Type.Object(settingsProperties);

const name = Type.String({ minLength: 1, maxLength: 40, pattern: `^[^<>${UNSAFE_CHARACTERS}]*$` });
const addBody = Body({ name, ...settingsProperties });
const editBody = Body({ id: Uuid(), name, ...settingsProperties });

/** The orders a user's template list can be asked for (most recently changed first by default). */
export const LIST_SORT_KEYS = ['updatedAt', 'createdAt', 'name'] as const;
const listQuery = Query({
  ...pagingProperties(),
  q: Type.Optional(SafeText({ maxLength: 40 })),
  sort: StringEnum(LIST_SORT_KEYS, { default: 'updatedAt' }),
  order: StringEnum(['ASC', 'DESC', 'asc', 'desc'], { default: 'DESC' }),
});

export type StrategyBody = Static<typeof addBody>;
export type StrategyEditBody = Static<typeof editBody>;
export type StrategyListQuery = Static<typeof listQuery>;

/** A template's settings as answered: here and in backtest reports (backtest/schemas.ts). */
export const settingsAnswerProperties = {
  levels: Type.Array(Type.Object({ dropPercent: DecimalText(), multiple: DecimalText() })),
  takeProfitPercent: DecimalText(),
  takeProfitCallbackPercent: DecimalText(),
  replenishCallbackPercent: DecimalText(),
  stopLossPercent: Nullable('string'),
  cooldownSeconds: Type.Integer(),
  takeProfitTargets: Type.Optional(Type.Array(Type.Object({ sharePercent: DecimalText(), profitPercent: DecimalText(), trailing: Type.Boolean() }))),
  stopLossBase: Type.Optional(StringEnum(['average', 'last_level'] as const)),
  stopLossAfterLastLevel: Type.Optional(Type.Boolean()),
  timeStopHours: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  breakEven: Type.Optional(Type.Boolean()),
  conditions: Type.Optional(Type.Union([conditionsSchema, Type.Null()])),
};

/** A template as answered. */
const templateSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  system: Type.Boolean(),
  ...settingsAnswerProperties,
});
const templatePage = PageOf(templateSchema);

// The contract (src/api/strategy.ts: what the dashboard sends and reads) and these schemas describe the same values.
SameShape<Same<Static<typeof settingsSchema>, StrategySettings>>();
SameShape<Same<StrategyBody, StrategySettings & { name: string }>>();
SameShape<Same<StrategyEditBody, StrategySettings & { id: string; name: string }>>();
SameShape<Same<Static<typeof templateSchema>, StrategyTemplate>>();
SameShape<Same<Static<typeof templatePage>, Page<StrategyTemplate>>>();

export const schemas = {
  systemTemplates: { summary: 'System strategy templates', response: { 200: Answer(Type.Array(templateSchema)) } },
  list: { summary: "The user's strategy templates", querystring: listQuery, response: { 200: Answer(templatePage) } },
  detail: { summary: 'One template (own or system)', params: IdParams(), response: { 200: Answer(templateSchema) } },
  add: { summary: 'Create a template', body: addBody, response: { 200: Answer(templateSchema) } },
  edit: { summary: 'Change a template of ones own', body: editBody, response: { 200: Answer(templateSchema) } },
  remove: { summary: 'Delete a template of ones own', body: Body({ id: Uuid() }), response: { 200: Answer(Type.Null()) } },
};
