import type { Static, TProperties, TSchema } from 'typebox';
import {
  FEE_ASSETS,
  FILL_MODELS,
  HISTORY_INTERVALS,
  MAX_BACKTEST_ALERTS,
  MAX_VARIANTS,
  PRESET_DEFAULT_DAYS,
  PRESET_MAX_DAYS,
  RANK_BY,
  type BacktestFigures,
  type BacktestJob,
  type BacktestReport,
  type CandleUpload,
  type PresetFiguresAnswer,
} from '../../../src/api/backtest';
import type { Page } from '../../../src/api/types';
import { ALERT_ACTIONS } from '../../../src/api/conditions';
import { Answer, DecimalText, Nullable, PageOf } from '../http/answers';
import { Body, IdParams, Query, SafeText, SameShape, StringEnum, Type, Uuid, type Same } from '../http/schemas';
import { OPTIONAL_SETTING_KEYS, settingsAnswerProperties, settingsProperties } from '../strategy/schemas';

/** Amounts, steps and minimums: plain decimals, up to 8 places. */
const decimal = Type.String({ pattern: '^\\d{1,12}(\\.\\d{1,8})?$' });
const uuid = Uuid();
/** ISO-8601 or epoch milliseconds / seconds. */
const time = Type.String({ minLength: 1, maxLength: 40 });
export const SYMBOL_PATTERN = '^[A-Z0-9]{1,15}/[A-Z0-9]{1,10}$';
/** The backtest calls take the strategy settings as templates take them (strategy/schemas.ts). */
const SETTINGS_REQUIRED = (Object.keys(settingsProperties) as (keyof typeof settingsProperties)[]).filter(
  (key): key is Exclude<keyof typeof settingsProperties, (typeof OPTIONAL_SETTING_KEYS)[number]> => !(OPTIONAL_SETTING_KEYS as readonly string[]).includes(key),
);

/** The value an object of `body` takes: the required fields, and the others optional. */
type BodyOf<P extends TProperties, R extends keyof P> = { [K in R]: Static<P[K]> } & { [K in Exclude<keyof P, R>]?: Static<P[K]> };

/**
 * An object of the backtest bodies: unknown fields refused, the `required`
 * ones required. Its keys in the order the published document has always
 * listed them; its type, for the handler, is the one its fields give.
 */
const body = <P extends TProperties, R extends keyof P & string = never>(properties: P, required: readonly R[]) =>
  Type.Unsafe<BodyOf<P, R>>({ type: 'object', additionalProperties: false, required: [...required], properties });

/** A list of at most `maxItems` (keys in the document's order). */
const list = <T extends TSchema>(items: T, maxItems: number) => Type.Unsafe<Static<T>[]>({ type: 'array', maxItems, items });

const runBody = body(
  {
    strategyId: uuid,
    settings: body(settingsProperties, SETTINGS_REQUIRED),
    symbol: Type.String({ pattern: SYMBOL_PATTERN }),
    source: body(
      {
        kind: StringEnum(['sample', 'upload', 'exchange'] as const),
        id: uuid,
        exchange: Type.String({ pattern: '^[a-z0-9]{1,30}$' }),
        interval: StringEnum(HISTORY_INTERVALS),
      },
      ['kind'],
    ),
    from: time,
    to: time,
    firstOrderAmount: decimal,
    firstOrderMultiple: Type.Boolean(),
    cycleCount: Type.Integer({ minimum: 1, maximum: 9999 }),
    fill: StringEnum(FILL_MODELS),
    market: body(
      { feeRate: Type.String({ pattern: '^0(\\.\\d{1,8})?$' }), feeAsset: StringEnum(FEE_ASSETS), amountStep: decimal, minAmount: decimal, minCost: decimal },
      [],
    ),
    variants: list(body({ ...settingsProperties, label: Type.String({ maxLength: 60 }) }, []), MAX_VARIANTS),
    rankBy: StringEnum(RANK_BY),
    alerts: list(body({ time, action: StringEnum(ALERT_ACTIONS) }, ['time', 'action']), MAX_BACKTEST_ALERTS),
  },
  ['symbol', 'source', 'firstOrderAmount'],
);

/** A backtest as the call takes it, checked: the source's fields its kind needs are checked by the service. */
export type RunBody = Static<typeof runBody>;

/* ---------- Answers: the contract's types (src/api/backtest.ts), checked at compile time below ---------- */

const text = DecimalText();
const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const marketRulesSchema = Type.Object({ feeRate: text, feeAsset: StringEnum(FEE_ASSETS), amountStep: text, minAmount: text, minCost: text });
const openPositionSchema = Type.Object({
  quantity: text,
  cost: text,
  averagePrice: text,
  price: text,
  value: text,
  floatingProfit: text,
  levelsFilled: Type.Integer(),
  inCycle: Type.Boolean(),
  openedAt: Nullable('integer'),
});
const stopSchema = Type.Object({
  reason: StringEnum(['below_min_amount', 'below_min_cost', 'insufficient_funds', 'order_refused'] as const),
  side: StringEnum(['buy', 'sell'] as const),
  level: Type.Integer(),
  time: Type.Integer(),
  price: text,
});
const figuresSchema = Type.Object({
  cycles: Type.Integer(),
  realizedProfit: text,
  fees: text,
  buys: Type.Integer(),
  sells: Type.Integer(),
  maxFundsInUse: text,
  maxDrawdown: text,
  maxDrawdownPercent: text,
  timeInPositionPercent: text,
  openPosition: nullable(openPositionSchema),
  returnPercent: text,
  realizedReturnPercent: text,
  // Absent in runs stored before they were kept.
  annualizedReturnPercent: Type.Optional(text),
  holdReturnPercent: Type.Optional(text),
  holdProfit: Type.Optional(text),
  exits: Type.Optional(
    Type.Object({ targetSales: Type.Array(Type.Integer()), stopLoss: Type.Integer(), timeStop: Type.Integer(), breakEven: Type.Integer(), stopProfit: text }),
  ),
  stopped: nullable(stopSchema),
});
const stopKind = StringEnum(['loss', 'time', 'break_even'] as const);
const cycleSchema = Type.Object({
  cycle: Type.Integer(),
  openedAt: Nullable('integer'),
  closedAt: Type.Integer(),
  levelsFilled: Type.Integer(),
  firstPrice: Nullable('string'),
  buyCost: text,
  proceeds: text,
  profit: text,
  fees: text,
  exitReason: StringEnum(['take_profit', 'stop_loss', 'close', 'signal'] as const),
  stop: Type.Optional(stopKind),
});
const tradeSchema = Type.Object({
  time: Type.Integer(),
  side: StringEnum(['buy', 'sell'] as const),
  reason: StringEnum(['first', 'replenish', 'take_profit', 'stop_loss', 'signal'] as const),
  cycle: Type.Integer(),
  level: Type.Integer(),
  price: text,
  amount: text,
  cost: text,
  fee: text,
  feeCurrency: Type.String(),
  target: Type.Optional(Type.Integer()),
  partial: Type.Optional(Type.Boolean()),
  stop: Type.Optional(stopKind),
});
const chartSchema = Type.Object({
  interval: Type.Integer(),
  candles: Type.Array(Type.Tuple([Type.Integer(), text, text, text, text])),
  equity: Type.Array(Type.Tuple([Type.Integer(), text])),
});
const settingsAnswer = Type.Object(settingsAnswerProperties);
const variantResultSchema = Type.Object({ index: Type.Integer(), label: Type.String(), settings: settingsAnswer, figures: figuresSchema });
const reportSchema = Type.Object({
  symbol: Type.String(),
  // Absent in runs stored before it was kept.
  tickSize: Type.Optional(text),
  interval: Type.Integer(),
  from: Type.Integer(),
  to: Type.Integer(),
  candles: Type.Integer(),
  fill: StringEnum(FILL_MODELS),
  market: marketRulesSchema,
  settings: settingsAnswer,
  firstOrderAmount: text,
  firstOrderMultiple: Type.Boolean(),
  cycleCount: Type.Integer(),
  figures: figuresSchema,
  cycles: Type.Array(cycleSchema),
  trades: Type.Array(tradeSchema),
  chart: chartSchema,
  variants: nullable(Type.Array(variantResultSchema)),
  rankBy: StringEnum(RANK_BY),
});
const jobSchema = Type.Object({
  id: Type.String(),
  status: StringEnum(['queued', 'loading', 'running', 'done', 'failed', 'canceled'] as const),
  progress: Type.Object({ done: Type.Integer(), total: Type.Integer() }),
  createdAt: Type.String(),
  result: nullable(reportSchema),
  error: nullable(Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Unknown() })),
});
const candleUploadSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  candles: Type.Integer(),
  interval: Type.Integer(),
  from: Type.Integer(),
  to: Type.Integer(),
  createdAt: Type.String(),
});
const uploadPage = PageOf(candleUploadSchema);
const presetFiguresSchema = Type.Object({
  symbol: Type.String(),
  source: StringEnum(['sample', 'exchange'] as const),
  exchange: Nullable('string'),
  interval: Type.Integer(),
  from: Type.Integer(),
  to: Type.Integer(),
  candles: Type.Integer(),
  firstOrderAmount: text,
  computedAt: Type.String(),
  presets: Type.Array(Type.Object({ strategyId: Type.String(), name: Type.String(), settings: settingsAnswer, figures: figuresSchema })),
});

// The contract (src/api/backtest.ts, what the panel reads) and these schemas describe the same values.
SameShape<Same<Static<typeof figuresSchema>, BacktestFigures>>();
SameShape<Same<Static<typeof reportSchema>, BacktestReport>>();
SameShape<Same<Static<typeof jobSchema>, BacktestJob>>();
SameShape<Same<Static<typeof candleUploadSchema>, CandleUpload>>();
SameShape<Same<Static<typeof uploadPage>, Page<CandleUpload>>>();
SameShape<Same<Static<typeof presetFiguresSchema>, PresetFiguresAnswer>>();

/* ---------- Routes ---------- */

export const runSchema = {
  summary: 'Backtest a strategy template on recorded candles (long runs continue in the background: poll the run)',
  body: runBody,
  response: { 200: Answer(jobSchema) },
};

export const runIdSchema = {
  summary: 'A backtest run: its progress, then its report or its error',
  params: IdParams(),
  response: { 200: Answer(jobSchema) },
};

export const cancelSchema = { summary: 'Stop a backtest run', body: Body({ id: Uuid() }), response: { 200: Answer(jobSchema) } };

/** A year of minutes as six plain columns is about 35 MB. */
export const UPLOAD_BODY_LIMIT = 40 * 1024 * 1024;

export const uploadSchema = {
  summary: 'Upload candles (Binance klines CSV: open_time, open, high, low, close, volume) for backtests',
  body: Body({ name: SafeText({ minLength: 1, maxLength: 120 }), csv: Type.String({ minLength: 1, maxLength: UPLOAD_BODY_LIMIT }) }),
  response: { 200: Answer(candleUploadSchema) },
};

export const uploadsSchema = { summary: 'The candle files the user uploaded, newest first', response: { 200: Answer(uploadPage) } };

export const presetsQuery = Query({
  symbol: Type.String({ pattern: SYMBOL_PATTERN }),
  source: StringEnum(['sample', 'exchange'] as const, { default: 'sample' }),
  exchange: Type.Optional(Type.String({ pattern: '^[a-z0-9]{1,30}$' })),
  days: Type.Integer({ minimum: 1, maximum: PRESET_MAX_DAYS, default: PRESET_DEFAULT_DAYS }),
});
export type PresetsQuery = Static<typeof presetsQuery>;

export const presetsSchema = {
  summary:
    "The system templates' backtested figures on a pair over its last `days` (the bundled minute history offline, or an exchange's history up to today's UTC midnight), computed once per pair and day for every user",
  querystring: presetsQuery,
  response: { 200: Answer(presetFiguresSchema) },
};
