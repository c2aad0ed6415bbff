import Big from 'big.js';
import { rankResults, type BacktestReport, type BacktestVariant, type RankBy, type VariantResult } from '../../../src/api/backtest';
import type { StrategySettings } from '../../../src/api/strategy';
import type { DecimalString } from '../../../src/api/types';
import { priceGrid, runBacktest, type RunOptions } from './run';

/** A run's options, for the template and its variants, and how far they got. */
export interface ReportInput extends Omit<RunOptions, 'tickSize' | 'detail' | 'onProgress'> {
  /** The exchange's price step, when known: prices are on the finer of it and the candles' own grid. */
  tickSize?: DecimalString;
  variants: readonly BacktestVariant[];
  rankBy: RankBy;
  /** Candles computed so far, of `candles x (1 + variants)`. */
  onProgress?: (done: number, total: number) => void;
}

/** A variant's settings: the template with the variant's changes. */
export const variantSettings = (settings: StrategySettings, variant: BacktestVariant): StrategySettings => {
  const { label: _label, ...changes } = variant;
  return { ...settings, ...changes };
};

const finer = (a: DecimalString, b: DecimalString | undefined) => (b === undefined || new Big(a).lte(b) ? a : b);

/** The template in full (trades, cycles, chart) and each variant's figures, ranked. */
export const backtestReport = (input: ReportInput): BacktestReport => {
  const { candles, interval, variants } = input;
  const tickSize = finer(priceGrid(candles), input.tickSize);
  const total = candles.length * (1 + variants.length);
  const run = (settings: StrategySettings, index: number, detail: boolean) =>
    runBacktest({
      candles,
      interval,
      symbol: input.symbol,
      settings,
      firstOrderAmount: input.firstOrderAmount,
      firstOrderMultiple: input.firstOrderMultiple,
      cycleCount: input.cycleCount,
      market: input.market,
      tickSize,
      fill: input.fill,
      detail,
      onProgress: input.onProgress && ((done) => input.onProgress!(index * candles.length + done, total)),
      ...(input.alerts ? { alerts: input.alerts } : {}),
    });

  const main = run(input.settings, 0, true);
  let ranked: VariantResult[] | null = null;
  if (variants.length > 0) {
    const results: VariantResult[] = [{ index: 0, label: '', settings: input.settings, figures: main.figures }];
    variants.forEach((variant, i) => {
      const settings = variantSettings(input.settings, variant);
      results.push({ index: i + 1, label: variant.label ?? `#${i + 1}`, settings, figures: run(settings, i + 1, false).figures });
    });
    ranked = rankResults(results, input.rankBy);
  }
  return {
    symbol: input.symbol,
    tickSize,
    interval,
    from: candles[0]!.time,
    to: candles.at(-1)!.time + interval,
    candles: candles.length,
    fill: input.fill,
    market: input.market,
    settings: input.settings,
    firstOrderAmount: input.firstOrderAmount,
    firstOrderMultiple: input.firstOrderMultiple,
    cycleCount: input.cycleCount,
    figures: main.figures,
    cycles: main.cycles,
    trades: main.trades,
    chart: main.chart,
    variants: ranked,
    rankBy: input.rankBy,
  };
};
