/**
 * What the task's candlestick chart draws, as plain data: the server's candles
 * as lightweight-charts bars, the task's fills as markers, and the ladder's
 * trigger prices, the average cost and the take-profit price as price lines.
 * Prices stay decimal strings until the objects handed to the chart, where
 * they become the floats a canvas draws with. Only types come from the chart
 * library here, so this module does not pull it into the first load.
 */
import Big from 'big.js';
import type { AutoscaleInfo, AutoscaleInfoProvider, CandlestickData, CreatePriceLineOptions, LineStyle, SeriesMarker, TrackingModeExitMode, UTCTimestamp } from 'lightweight-charts';
import { ladder, type StrategySettings } from '../../api/strategy';
import { TIMEFRAME_MS, type CandleTimeframe, type OhlcvCandle, type TradeOrder, type TradeTaskDetail } from '../../api/trade';
import type { DecimalString } from '../../api/types';

/** Candles asked for at a time (the server's default). */
export const CANDLE_LIMIT = 200;
/** The newest candles asked again on each refresh: the forming one and the one just closed. */
export const CANDLE_TAIL = 2;

/** Epoch milliseconds as the chart's UTC seconds. */
export const utcSeconds = (ms: number) => Math.floor(ms / 1000) as UTCTimestamp;

/**
 * The candles of a first answer with the newer ones of a refresh: a newer
 * candle replaces the one of the same open time, later ones are appended.
 * Ordered by time, one candle per time.
 */
export const mergeCandles = (older: readonly OhlcvCandle[], newer: readonly OhlcvCandle[]): OhlcvCandle[] => {
  const byTime = new Map<number, OhlcvCandle>();
  for (const candle of older) byTime.set(candle.time, candle);
  for (const candle of newer) byTime.set(candle.time, candle);
  return [...byTime.values()].sort((a, b) => a.time - b.time);
};

/** Candles as candlestick bars (ordered, one per time, as the chart requires). */
export const candleBars = (candles: readonly OhlcvCandle[]): CandlestickData<UTCTimestamp>[] =>
  mergeCandles(candles, []).map((candle) => ({
    time: utcSeconds(candle.time),
    open: Number(candle.open),
    high: Number(candle.high),
    low: Number(candle.low),
    close: Number(candle.close),
  }));

/**
 * What the series does with new bars: draw them all again (the first bars,
 * another timeframe) or update the last bar and append the newer ones, so a
 * refresh moves the forming candle without redrawing the chart.
 */
export type BarsChange<T> = { reset: true; bars: T[] } | { reset: false; bars: T[] };

export interface ShownBars {
  key: string;
  last: number;
}

export const barsChange = <T extends { time: UTCTimestamp }>(shown: ShownBars | null, key: string, bars: T[]): BarsChange<T> =>
  shown === null || shown.key !== key || bars.length === 0
    ? { reset: true, bars }
    : { reset: false, bars: bars.filter((bar) => bar.time >= shown.last) };

export type LadderLineKind = 'first' | 'level' | 'average' | 'takeProfit';

/** A horizontal line of the cycle under way. */
export interface LadderLine {
  kind: LadderLineKind;
  /** 0 for the first order, k for replenish level k; -1 for the average and the take profit. */
  level: number;
  price: DecimalString;
  /** A level already bought in this cycle. */
  filled: boolean;
}

const PRICE_DP = 8;

/**
 * The cycle's lines: level 0 at the first fill price, level k where the
 * template's k-th drop puts its trigger, the average cost and the take-profit
 * price over that average. No first fill yet: no lines.
 */
export const ladderLines = (
  task: Pick<TradeTaskDetail, 'firstFillPrice' | 'averagePrice' | 'firstOrderAmount' | 'firstOrderMultiple' | 'levelsFilled'> & {
    strategy: Pick<StrategySettings, 'levels' | 'takeProfitPercent'>;
  },
): LadderLine[] => {
  if (!task.firstFillPrice || !new Big(task.firstFillPrice).gt(0)) return [];
  const lines: LadderLine[] = ladder(task.strategy, task.firstOrderAmount, task.firstFillPrice, task.firstOrderMultiple).map((row) => ({
    kind: row.level === 0 ? 'first' : 'level',
    level: row.level,
    price: row.price,
    filled: row.level <= task.levelsFilled,
  }));
  if (task.averagePrice && new Big(task.averagePrice).gt(0)) {
    const average = new Big(task.averagePrice);
    lines.push({ kind: 'average', level: -1, price: average.toFixed(), filled: false });
    const takeProfit = average.times(new Big(task.strategy.takeProfitPercent).div(100).plus(1));
    lines.push({ kind: 'takeProfit', level: -1, price: takeProfit.round(PRICE_DP).toFixed(), filled: false });
  }
  return lines;
};

/** The words on the chart, in the page's language. */
export interface ChartLabels {
  first: string;
  level: (level: number) => string;
  average: string;
  takeProfit: string;
  sell: string;
}

/** The chart's colours, from the theme. */
export interface ChartColors {
  buy: string;
  sell: string;
  first: string;
  level: string;
  levelFilled: string;
  average: string;
  takeProfit: string;
}

// lightweight-charts' LineStyle values (the enum itself would load the library).
const SOLID = 0 as LineStyle;
const DOTTED = 1 as LineStyle;
const DASHED = 2 as LineStyle;

/**
 * Lines as the chart's price lines, each titled and each with its price on
 * the axis (lightweight-charts draws a line's title only beside its axis
 * label; the axis moves overlapping labels apart).
 */
export const priceLines = (lines: readonly LadderLine[], labels: ChartLabels, colors: ChartColors): CreatePriceLineOptions[] => {
  return lines.map((line) => {
    const base = { price: Number(line.price), lineWidth: 1 as const, lineVisible: true };
    switch (line.kind) {
      case 'first':
        return { ...base, title: labels.first, color: colors.first, lineStyle: SOLID, axisLabelVisible: true };
      case 'average':
        return { ...base, title: labels.average, color: colors.average, lineStyle: SOLID, lineWidth: 2, axisLabelVisible: true };
      case 'takeProfit':
        return { ...base, title: labels.takeProfit, color: colors.takeProfit, lineStyle: DASHED, lineWidth: 2, axisLabelVisible: true };
      default:
        return {
          ...base,
          title: labels.level(line.level),
          color: line.filled ? colors.levelFilled : colors.level,
          lineStyle: line.filled ? DASHED : DOTTED,
          axisLabelVisible: true,
        };
    }
  });
};

/**
 * The price range the axis fits: the candles' own range (what the library
 * computed, `base`) widened to every line's price, so the take profit above
 * and the levels still to fill below stay on screen whatever the candles do.
 * No candles in view: the lines alone.
 */
export const rangeWithLines = (base: AutoscaleInfo | null, lines: readonly Pick<CreatePriceLineOptions, 'price'>[]): AutoscaleInfo | null => {
  const prices = lines.map((line) => line.price).filter((price) => Number.isFinite(price));
  if (prices.length === 0) return base;
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  const range = base?.priceRange;
  if (!range) return { ...base, priceRange: { minValue: low, maxValue: high } };
  return { ...base, priceRange: { minValue: Math.min(range.minValue, low), maxValue: Math.max(range.maxValue, high) } };
};

/** The series' autoscale with the lines in it (lightweight-charts' autoscaleInfoProvider). */
export const autoscaleWithLines =
  (lines: readonly Pick<CreatePriceLineOptions, 'price'>[]): AutoscaleInfoProvider =>
  (original) =>
    rangeWithLines(original(), lines);

/**
 * On a touch screen a tap shows the crosshair and lifting the finger hides it
 * again (TrackingModeExitMode.OnTouchEnd, 0): the library's default keeps it
 * over the chart, and its labels over the fill markers, until the next tap.
 */
export const TOUCH_TRACKING = { exitMode: 0 as TrackingModeExitMode };

/**
 * The open time of the candle a moment falls in, among `candles` (ordered),
 * or null when none of them holds it (older than the first, or in a candle
 * not answered yet).
 */
export const candleAt = (candles: readonly OhlcvCandle[], timeframe: CandleTimeframe, at: number): number | null => {
  let low = 0;
  let high = candles.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (candles[middle]!.time <= at) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  if (found < 0) return null;
  const open = candles[found]!.time;
  return at < open + TIMEFRAME_MS[timeframe] ? open : null;
};

/**
 * A marker for every filled order on the candle it was filled in: an arrow
 * up below the bar for a buy (named by its level), an arrow down above the
 * bar for a sell. Fills outside the candles are left out.
 */
export const fillMarkers = (
  orders: readonly TradeOrder[],
  candles: readonly OhlcvCandle[],
  timeframe: CandleTimeframe,
  labels: ChartLabels,
  colors: ChartColors,
): SeriesMarker<UTCTimestamp>[] => {
  const markers: (SeriesMarker<UTCTimestamp> & { at: number })[] = [];
  for (const order of orders) {
    if (order.status !== 'closed' || order.price === null) continue;
    const at = Date.parse(order.createdAt);
    const open = candleAt(candles, timeframe, at);
    if (open === null) continue;
    const time = utcSeconds(open);
    markers.push(
      order.side === 'buy'
        ? { at, id: order.id, time, position: 'belowBar', shape: 'arrowUp', color: colors.buy, text: order.level === 0 ? labels.first : labels.level(order.level) }
        : { at, id: order.id, time, position: 'aboveBar', shape: 'arrowDown', color: colors.sell, text: labels.sell },
    );
  }
  return markers.sort((a, b) => a.at - b.at).map(({ at: _at, ...marker }) => marker);
};
