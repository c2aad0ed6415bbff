import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backtestReport } from '../../../server/src/backtest/report';
import { parseCandlesCsv } from '../../../server/src/engine/core/candles';
import { markerGroups, PHONE_MARKER_GROUPS } from './chartMarkers';

/** The sample's three weeks with a tight ladder: many fills, which a phone's chart must not pile up. */
const candles = parseCandlesCsv(readFileSync(join(process.cwd(), 'server', 'market-data', 'BTCUSDT-1m-2023-03-01_2023-03-21.csv'), 'utf8'));
const report = backtestReport({
  candles,
  interval: 60_000,
  symbol: 'BTC/USDT',
  settings: {
    levels: [
      { dropPercent: '0.5', multiple: '1' },
      { dropPercent: '1', multiple: '2' },
      { dropPercent: '2', multiple: '3' },
    ],
    takeProfitPercent: '0.5',
    takeProfitCallbackPercent: '0',
    replenishCallbackPercent: '0',
    stopLossPercent: null,
    cooldownSeconds: 0,
  },
  firstOrderAmount: '10',
  firstOrderMultiple: false,
  cycleCount: 9999,
  market: { feeRate: '0.001', feeAsset: 'received', amountStep: '0.00001', minAmount: '0.00001', minCost: '5' },
  fill: 'close',
  variants: [],
  rankBy: 'returnPercent',
});

describe('the backtest chart’s fill markers', () => {
  it('on a desktop: one marker per fill, on its chart candle', () => {
    const groups = markerGroups(report.trades, report.chart.interval, report.chart.candles.length, false);
    expect(groups).toHaveLength(report.trades.length);
    expect(groups.every((g) => g.count === 1 && g.time % report.chart.interval === 0)).toBe(true);
  });

  it('on a phone: thinned to a readable few per side, counting every fill, in time order', () => {
    expect(report.trades.length).toBeGreaterThan(4 * PHONE_MARKER_GROUPS);
    const groups = markerGroups(report.trades, report.chart.interval, report.chart.candles.length, true);
    for (const side of ['buy', 'sell'] as const) {
      const ofSide = groups.filter((g) => g.side === side);
      expect(ofSide.length).toBeLessThanOrEqual(PHONE_MARKER_GROUPS);
      expect(ofSide.reduce((sum, g) => sum + g.count, 0)).toBe(report.trades.filter((t) => t.side === side).length);
    }
    expect(groups.map((g) => g.time)).toEqual([...groups.map((g) => g.time)].sort((a, b) => a - b));
    const times = new Set(report.chart.candles.map(([time]) => time));
    expect(groups.every((g) => times.has(g.time))).toBe(true);
  });
});
