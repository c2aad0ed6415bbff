import Big from 'big.js';
import {
  DEFAULT_HISTORY_DAYS,
  MAX_VARIANTS,
  SAMPLE_FROM,
  SAMPLE_SYMBOL,
  SAMPLE_TO,
  sweepSize,
  sweepVariants,
  type BacktestRequest,
  type BacktestVariant,
  type CandleSource,
  type FeeAsset,
  type FillModel,
  type HistoryInterval,
  type SweepNames,
  type VariantSweep,
} from '../../api/backtest';
import { UNLIMITED_CYCLES } from '../../api/defaults';
import { conditionsOf, exitsOf, sameSettings, type StrategySettings } from '../../api/strategy';
import type { BacktestDefaults } from '../kit/embeds';

const DAY = 86_400_000;
const DECIMAL = /^\d+(\.\d+)?$/;
const SYMBOL = /^[A-Z0-9]{1,15}\/[A-Z0-9]{1,10}$/;

/** What the panel's form holds, as typed. Dates are UTC days (YYYY-MM-DD), `to` included. */
export interface BacktestForm {
  source: CandleSource['kind'];
  symbol: string;
  exchange: string;
  interval: HistoryInterval;
  uploadId: string | null;
  from: string;
  to: string;
  firstOrderAmount: string;
  firstOrderMultiple: boolean;
  cycles: string;
  fill: FillModel;
  /** Market rules: empty keeps the pair's own. The fee is typed in percent. */
  feePercent: string;
  feeAsset: FeeAsset | '';
  amountStep: string;
  minAmount: string;
  minCost: string;
}

export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const startOfDay = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The range a source offers first: the whole sample, or an exchange's last 30 days. */
export const defaultRange = (source: CandleSource['kind'], now = Date.now()): { from: string; to: string } =>
  source === 'sample' ? { from: dayOf(SAMPLE_FROM), to: dayOf(SAMPLE_TO - DAY) } : { from: dayOf(now - DEFAULT_HISTORY_DAYS * DAY), to: dayOf(now) };

export const initialForm = (defaults: BacktestDefaults = {}, now = Date.now()): BacktestForm => {
  const symbol = defaults.symbol && SYMBOL.test(defaults.symbol) ? defaults.symbol : SAMPLE_SYMBOL;
  // The sample is BTC/USDT; any other pair starts from an exchange's history.
  const source = symbol === SAMPLE_SYMBOL ? 'sample' : 'exchange';
  return {
    source,
    symbol,
    exchange: defaults.exchange && defaults.exchange !== 'paper' ? defaults.exchange : 'binance',
    interval: '1m',
    uploadId: null,
    ...defaultRange(source, now),
    firstOrderAmount: defaults.firstOrderAmount ?? '10',
    firstOrderMultiple: defaults.firstOrderMultiple ?? false,
    cycles: String(defaults.cycleCount ?? UNLIMITED_CYCLES),
    fill: 'close',
    feePercent: '',
    feeAsset: '',
    amountStep: '',
    minAmount: '',
    minCost: '',
  };
};

export type FormProblem = 'symbol' | 'firstOrderAmount' | 'cycles' | 'range' | 'upload' | 'market';

/** The request the form makes for `settings`, or the first field that is not right yet. */
export const toRequest = (form: BacktestForm, settings: StrategySettings): { request: BacktestRequest } | { problem: FormProblem } => {
  const symbol = form.symbol.trim().toUpperCase();
  if (!SYMBOL.test(symbol)) return { problem: 'symbol' };
  const amount = form.firstOrderAmount.trim();
  if (!DECIMAL.test(amount) || new Big(amount).lte(0)) return { problem: 'firstOrderAmount' };
  const cycles = Number(form.cycles);
  if (!Number.isInteger(cycles) || cycles < 1 || cycles > UNLIMITED_CYCLES) return { problem: 'cycles' };
  const from = startOfDay(form.from);
  const to = startOfDay(form.to) + DAY;
  if (!Number.isFinite(from) || !Number.isFinite(to) || from >= to) return { problem: 'range' };
  let source: CandleSource;
  if (form.source === 'upload') {
    if (!form.uploadId) return { problem: 'upload' };
    source = { kind: 'upload', id: form.uploadId };
  } else if (form.source === 'exchange') {
    source = { kind: 'exchange', exchange: form.exchange, interval: form.interval };
  } else {
    source = { kind: 'sample' };
  }
  const market: BacktestRequest['market'] = {};
  const fee = form.feePercent.trim();
  if (fee) {
    if (!DECIMAL.test(fee) || new Big(fee).gte(100)) return { problem: 'market' };
    market.feeRate = new Big(fee).div(100).toFixed();
  }
  if (form.feeAsset) market.feeAsset = form.feeAsset;
  for (const key of ['amountStep', 'minAmount', 'minCost'] as const) {
    const value = form[key].trim();
    if (!value) continue;
    if (!DECIMAL.test(value)) return { problem: 'market' };
    market[key] = value;
  }
  // Only the settings: a template also carries its id and name, which a backtest does not take. Its exits and conditions trade too.
  const { levels, takeProfitPercent, takeProfitCallbackPercent, replenishCallbackPercent, stopLossPercent, cooldownSeconds } = settings;
  const conditions = conditionsOf(settings);
  return {
    request: {
      settings: { levels, takeProfitPercent, takeProfitCallbackPercent, replenishCallbackPercent, stopLossPercent, cooldownSeconds, ...exitsOf(settings), ...(conditions ? { conditions } : {}) },
      symbol: form.source === 'sample' ? SAMPLE_SYMBOL : symbol,
      source,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      firstOrderAmount: amount,
      firstOrderMultiple: form.firstOrderMultiple,
      cycleCount: cycles,
      fill: form.fill,
      ...(Object.keys(market).length > 0 ? { market } : {}),
    },
  };
};

/** The sweep as typed: one comma-separated list of values per setting. */
export type SweepForm = Record<keyof VariantSweep, string>;
export const EMPTY_SWEEP: SweepForm = { takeProfitPercent: '', takeProfitCallbackPercent: '', replenishCallbackPercent: '', stepScale: '', amountScale: '' };

const listOf = (text: string): string[] | null => {
  const values = text
    .split(/[,，\s]+/)
    .map((value) => value.trim())
    .filter(Boolean);
  return values.every((value) => DECIMAL.test(value)) ? [...new Set(values)] : null;
};

/** The variants a sweep makes of `settings`, or null while a list is not numbers. */
export const sweepOf = (form: SweepForm, settings: StrategySettings, names?: SweepNames): { variants: BacktestVariant[]; count: number } | null => {
  const sweep: VariantSweep = {};
  for (const key of Object.keys(form) as (keyof VariantSweep)[]) {
    const values = listOf(form[key]);
    if (values === null) return null;
    if (values.length > 0) sweep[key] = values;
  }
  const combinations = Object.keys(sweep).length === 0 ? 0 : sweepSize(sweep);
  if (combinations === 0 || combinations > MAX_VARIANTS) return { variants: [], count: combinations };
  // A combination that is the template itself is the comparison's "this template" row already: listed once.
  const variants = sweepVariants(settings, sweep, names).filter((variant) => !sameSettings(variantSettings(settings, variant), settings));
  return { variants, count: variants.length };
};

/** Whether two settings trade alike (src/api/strategy.ts). */
export { sameSettings };

/** A variant's settings: the template with the variant's changes (its label is not a setting). */
const variantSettings = (settings: StrategySettings, variant: BacktestVariant): StrategySettings => {
  const { label: _label, ...changes } = variant;
  return { ...settings, ...changes };
};
