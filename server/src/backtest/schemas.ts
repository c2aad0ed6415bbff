import type { Static, TProperties, TSchema } from 'typebox';
import { FEE_ASSETS, FILL_MODELS, HISTORY_INTERVALS, MAX_VARIANTS, RANK_BY } from '../../../src/api/backtest';
import { Body, IdParams, SafeText, StringEnum, Type, Uuid } from '../http/schemas';
import { settingsProperties } from '../strategy/schemas';

/** Amounts, steps and minimums: plain decimals, up to 8 places. */
const decimal = Type.String({ pattern: '^\\d{1,12}(\\.\\d{1,8})?$' });
const uuid = Uuid();
/** ISO-8601 or epoch milliseconds / seconds. */
const time = Type.String({ minLength: 1, maxLength: 40 });
export const SYMBOL_PATTERN = '^[A-Z0-9]{1,15}/[A-Z0-9]{1,10}$';
/** The backtest calls take the strategy settings as templates take them (strategy/schemas.ts). */
const SETTINGS_REQUIRED = Object.keys(settingsProperties) as (keyof typeof settingsProperties)[];

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
  },
  ['symbol', 'source', 'firstOrderAmount'],
);

/** A backtest as the call takes it, checked: the source's fields its kind needs are checked by the service. */
export type RunBody = Static<typeof runBody>;

export const runSchema = {
  summary: 'Backtest a strategy template on recorded candles (long runs continue in the background: poll the run)',
  body: runBody,
};

export const runIdSchema = {
  summary: 'A backtest run: its progress, then its report or its error',
  params: IdParams(),
};

export const cancelSchema = { summary: 'Stop a backtest run', body: Body({ id: Uuid() }) };

/** A year of minutes as six plain columns is about 35 MB. */
export const UPLOAD_BODY_LIMIT = 40 * 1024 * 1024;

export const uploadSchema = {
  summary: 'Upload candles (Binance klines CSV: open_time, open, high, low, close, volume) for backtests',
  body: Body({ name: SafeText({ minLength: 1, maxLength: 120 }), csv: Type.String({ minLength: 1, maxLength: UPLOAD_BODY_LIMIT }) }),
};

export const uploadsSchema = { summary: 'The candle files the user uploaded, newest first' };
