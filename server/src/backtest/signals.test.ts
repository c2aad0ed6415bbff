import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import type { MarketRules } from '../../../src/api/backtest';
import type { StrategyConditions } from '../../../src/api/conditions';
import type { StrategySettings } from '../../../src/api/strategy';
import { parseCandlesCsv, type Candle } from '../engine/core/candles';
import { SymbolIndicators } from '../engine/core/indicators';
import { backtestReport } from './report';
import { runBacktest, type RunOptions } from './run';

const MINUTE = 60_000;
const RULES: MarketRules = { feeRate: '0.001', feeAsset: 'quote', amountStep: '0.00001', minAmount: '0.00001', minCost: '5' };
const SETTINGS: StrategySettings = {
  levels: [
    { dropPercent: '1', multiple: '1' },
    { dropPercent: '2.5', multiple: '2' },
    { dropPercent: '5', multiple: '4' },
  ],
  takeProfitPercent: '1',
  takeProfitCallbackPercent: '0',
  replenishCallbackPercent: '0',
  stopLossPercent: null,
  cooldownSeconds: 0,
};
const RSI_START: StrategyConditions = { start: { mode: 'all', conditions: [{ kind: 'rsi', period: 14, timeframe: '1h', op: 'below', value: '30' }] } };
const ALWAYS: StrategyConditions = {
  start: { mode: 'any', conditions: [{ kind: 'price_range', min: '0.01', max: null }] },
  replenish: { mode: 'all', conditions: [{ kind: 'price_range', min: null, max: '10000000' }] },
};

/** The bundled market data: three weeks of BTC/USDT minutes. */
const history: Candle[] = parseCandlesCsv(readFileSync(join(process.cwd(), 'server', 'market-data', 'BTCUSDT-1m-2023-03-01_2023-03-21.csv'), 'utf8'));

const run = (overrides: Partial<RunOptions> = {}, candles: readonly Candle[] = history) =>
  runBacktest({
    candles,
    interval: MINUTE,
    symbol: 'BTC/USDT',
    settings: SETTINGS,
    firstOrderAmount: '100',
    firstOrderMultiple: false,
    cycleCount: 9999,
    market: RULES,
    tickSize: '0.01',
    fill: 'close',
    detail: true,
    ...overrides,
  });

describe('backtest with signals on the bundled history', () => {
  it('an RSI(14,1h) < 30 start opens fewer cycles, later, each when the RSI of the last closed hour was below 30', () => {
    const plain = run();
    const gated = run({ settings: { ...SETTINGS, conditions: RSI_START } });
    expect(gated.figures.cycles).toBeGreaterThan(0);
    expect(gated.figures.cycles).toBeLessThan(plain.figures.cycles);
    const firsts = (result: ReturnType<typeof run>) => result.trades.filter((t) => t.side === 'buy' && t.reason === 'first').map((t) => t.time);
    expect(firsts(gated)[0]!).toBeGreaterThan(firsts(plain)[0]!);
    // Independently: the RSI after each closed minute; a first buy at a minute's close reads it as of the minute before.
    const indicators = new SymbolIndicators(['rsi:14:1h']);
    indicators.push({ time: history[0]!.time - MINUTE, close: history[0]!.open });
    const rsiBefore = new Map<number, string | null>();
    for (const candle of history) {
      rsiBefore.set(candle.time + MINUTE, indicators.value('rsi:14:1h'));
      indicators.push(candle);
    }
    for (const time of firsts(gated)) expect(new Big(rsiBefore.get(time)!).lt(30)).toBe(true);
  });

  it('conditions that always hold give the identical report', () => {
    const plain = run();
    const gated = run({ settings: { ...SETTINGS, conditions: ALWAYS } });
    expect(gated.figures).toEqual(plain.figures);
    expect(gated.trades).toEqual(plain.trades);
    expect(gated.cycles).toEqual(plain.cycles);
    const ohlc = run({ fill: 'ohlc' }, history.slice(0, 5000));
    expect(run({ fill: 'ohlc', settings: { ...SETTINGS, conditions: ALWAYS } }, history.slice(0, 5000)).trades).toEqual(ohlc.trades);
  });

  it('a close signal sells the whole position without a loss; reason signal', () => {
    const close: StrategyConditions = { close: { mode: 'any', conditions: [{ kind: 'rsi', period: 14, timeframe: '15m', op: 'above', value: '60' }] } };
    const result = run({ settings: { ...SETTINGS, takeProfitPercent: '3', conditions: close } });
    const signalCycles = result.cycles.filter((c) => c.exitReason === 'signal');
    expect(signalCycles.length).toBeGreaterThan(0);
    for (const cycle of signalCycles) expect(new Big(cycle.profit).gte(0)).toBe(true);
  });

  it('replays alerts: an alert-only start opens a cycle at each start alert, and a close alert sells at once', () => {
    const alertOnly: StrategyConditions = { start: { mode: 'all', conditions: [{ kind: 'alert' }] } };
    const days = history.slice(0, 3 * 1440);
    const t0 = days[0]!.time;
    const never = run({ settings: { ...SETTINGS, conditions: alertOnly } }, days);
    expect(never.trades).toEqual([]);
    const alerts = [
      { time: t0 + 90 * MINUTE + 30_000, action: 'start_cycle' as const },
      { time: t0 + 95 * MINUTE, action: 'close_position' as const },
      { time: t0 + 2000 * MINUTE, action: 'buy_level' as const },
    ];
    const result = run({ settings: { ...SETTINGS, conditions: alertOnly }, alerts }, days);
    const [buy, sell] = result.trades;
    // The first price at or after 01:30:30 is the close of the minute 01:30 (at 01:31).
    expect(buy).toMatchObject({ side: 'buy', reason: 'first', time: t0 + 91 * MINUTE });
    expect(sell).toMatchObject({ side: 'sell', reason: 'signal', time: t0 + 95 * MINUTE });
    // The buy_level alert finds no open cycle: spent without effect.
    expect(result.trades).toHaveLength(2);
  });

  it('compares a variant with conditions and one without in one report, each with its conditions', () => {
    const days = history.slice(0, 7 * 1440);
    const report = backtestReport({
      candles: days,
      interval: MINUTE,
      symbol: 'BTC/USDT',
      settings: SETTINGS,
      firstOrderAmount: '100',
      firstOrderMultiple: false,
      cycleCount: 9999,
      market: RULES,
      fill: 'close',
      variants: [{ label: 'RSI<30', conditions: RSI_START }, { label: 'always', conditions: ALWAYS }],
      rankBy: 'returnPercent',
    });
    const byLabel = new Map(report.variants!.map((v) => [v.label, v]));
    expect(byLabel.get('RSI<30')!.settings.conditions).toEqual(RSI_START);
    expect(byLabel.get('')!.settings.conditions).toBeUndefined();
    expect(byLabel.get('always')!.figures).toEqual(report.figures);
    expect(byLabel.get('RSI<30')!.figures.cycles).toBeLessThan(report.figures.cycles);
  });
});
