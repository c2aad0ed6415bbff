import type { BacktestTrade } from '../../api/backtest';

/** On a phone's chart at most this many groups of fills per side, so arrows and labels never pile up. */
export const PHONE_MARKER_GROUPS = 24;

/** The fills one chart marker stands for: a side, the chart candle it sits on, how many and which levels. */
export interface MarkerGroup {
  side: 'buy' | 'sell';
  /** Open time (ms) of the chart candle of the group's first fill. */
  time: number;
  count: number;
  /** The level of a single fill (0 is a first order). */
  level: number;
}

/**
 * Fills as chart markers: one per fill on the candle it happened in, or on a
 * phone (`compact`) one per side for every stretch of candles, counting the
 * fills it stands for, at most PHONE_MARKER_GROUPS a side over the chart.
 * Sorted by time, as the chart takes them.
 */
export const markerGroups = (trades: readonly BacktestTrade[], chartInterval: number, chartCandles: number, compact: boolean): MarkerGroup[] => {
  const span = compact ? chartInterval * Math.max(1, Math.ceil(chartCandles / PHONE_MARKER_GROUPS)) : chartInterval;
  const groups = new Map<string, MarkerGroup>();
  const result: MarkerGroup[] = [];
  for (const trade of trades) {
    const key = `${trade.side}|${Math.floor(trade.time / span)}`;
    const group = groups.get(key);
    if (compact && group) {
      group.count += 1;
      continue;
    }
    const created: MarkerGroup = { side: trade.side, time: Math.floor(trade.time / chartInterval) * chartInterval, count: 1, level: trade.level };
    groups.set(key, created);
    result.push(created);
  }
  return result.sort((a, b) => a.time - b.time);
};
