import { FEE_ASSETS, FILL_MODELS, HISTORY_INTERVALS, MAX_VARIANTS, RANK_BY } from '../../../src/api/backtest';
import { Body, IdParams, SafeText, Type, Uuid } from '../http/schemas';
import { settingsProperties } from '../strategy/schemas';

/** Amounts, steps and minimums: plain decimals, up to 8 places. */
const decimal = { type: 'string', pattern: '^\\d{1,12}(\\.\\d{1,8})?$' } as const;
const uuid = { type: 'string', format: 'uuid' } as const;
/** ISO-8601 or epoch milliseconds / seconds. */
const time = { type: 'string', minLength: 1, maxLength: 40 } as const;
export const SYMBOL_PATTERN = '^[A-Z0-9]{1,15}/[A-Z0-9]{1,10}$';
/** The backtest calls take the strategy settings as templates take them (strategy/schemas.ts). */
const SETTINGS_REQUIRED = Object.keys(settingsProperties);

const body = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', additionalProperties: false, required, properties }) as const;

export const runSchema = {
  summary: 'Backtest a strategy template on recorded candles (long runs continue in the background: poll the run)',
  body: body(
    {
      strategyId: uuid,
      settings: body(settingsProperties, SETTINGS_REQUIRED),
      symbol: { type: 'string', pattern: SYMBOL_PATTERN },
      source: body(
        {
          kind: { type: 'string', enum: ['sample', 'upload', 'exchange'] },
          id: uuid,
          exchange: { type: 'string', pattern: '^[a-z0-9]{1,30}$' },
          interval: { type: 'string', enum: [...HISTORY_INTERVALS] },
        },
        ['kind'],
      ),
      from: time,
      to: time,
      firstOrderAmount: decimal,
      firstOrderMultiple: { type: 'boolean' },
      cycleCount: { type: 'integer', minimum: 1, maximum: 9999 },
      fill: { type: 'string', enum: [...FILL_MODELS] },
      market: body(
        { feeRate: { type: 'string', pattern: '^0(\\.\\d{1,8})?$' }, feeAsset: { type: 'string', enum: [...FEE_ASSETS] }, amountStep: decimal, minAmount: decimal, minCost: decimal },
        [],
      ),
      variants: {
        type: 'array',
        maxItems: MAX_VARIANTS,
        items: body({ ...settingsProperties, label: { type: 'string', maxLength: 60 } }, []),
      },
      rankBy: { type: 'string', enum: [...RANK_BY] },
    },
    ['symbol', 'source', 'firstOrderAmount'],
  ),
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
