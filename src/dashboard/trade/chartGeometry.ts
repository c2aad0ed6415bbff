import Big from 'big.js';
import { ladder, type StrategySettings } from '../../api/strategy';
import type { TradeOrder, TradeTaskDetail } from '../../api/trade';

/** One polled last price. */
export interface PricePoint {
  t: number;
  price: number;
}

export type LineKind = 'first' | 'level' | 'average' | 'takeProfit';

/** A horizontal line of the chart: a ladder level's trigger price, the average cost or the take-profit price. */
export interface ChartLine {
  kind: LineKind;
  /** 0 for the first fill, k for replenish level k. */
  level: number;
  price: number;
  /** A level already bought in this cycle. */
  filled: boolean;
}

export interface ChartFill {
  id: string;
  t: number;
  price: number;
  side: 'buy' | 'sell';
}

export type ChartView = 'price' | 'ladder';

/**
 * The lines of the cycle under way: level 0 at the first fill price, level k
 * where the template's k-th drop puts it, the average cost and the take-profit
 * price over that average. No first fill yet: no lines.
 */
export const chartLines = (
  task: Pick<TradeTaskDetail, 'firstFillPrice' | 'averagePrice' | 'firstOrderAmount' | 'firstOrderMultiple' | 'levelsFilled'> & {
    strategy: Pick<StrategySettings, 'levels' | 'takeProfitPercent'>;
  },
): ChartLine[] => {
  if (!task.firstFillPrice || Number(task.firstFillPrice) <= 0) return [];
  const rows = ladder(task.strategy, task.firstOrderAmount, task.firstFillPrice, task.firstOrderMultiple);
  const lines: ChartLine[] = rows.map((row) => ({
    kind: row.level === 0 ? 'first' : 'level',
    level: row.level,
    price: Number(row.price),
    filled: row.level <= task.levelsFilled,
  }));
  if (task.averagePrice) {
    const average = new Big(task.averagePrice);
    lines.push({ kind: 'average', level: -1, price: average.toNumber(), filled: false });
    const takeProfit = average.times(new Big(task.strategy.takeProfitPercent).div(100).plus(1));
    lines.push({ kind: 'takeProfit', level: -1, price: takeProfit.toNumber(), filled: false });
  }
  return lines;
};

/** This cycle's filled orders, as dots. */
export const chartFills = (orders: readonly TradeOrder[], cycle: number): ChartFill[] =>
  orders
    .filter((o) => o.cycle === cycle && o.status === 'closed' && o.price !== null)
    .map((o) => ({ id: o.id, t: Date.parse(o.createdAt), price: Number(o.price), side: o.side }));

/**
 * The prices the y axis spans. `ladder` shows every line; `price` zooms on the
 * recent prices, the first fill, the average, the take profit and the next
 * level to fill, so a quiet market is not a flat line under a deep ladder.
 */
export const priceDomain = (points: readonly PricePoint[], lines: readonly ChartLine[], levelsFilled: number, view: ChartView): [number, number] => {
  const kept =
    view === 'ladder'
      ? lines
      : lines.filter((line) => line.kind !== 'level' || line.level <= levelsFilled + 1);
  const values = [...points.map((p) => p.price), ...kept.map((l) => l.price)].filter((v) => Number.isFinite(v) && v > 0);
  if (values.length === 0) return [0, 1];
  let min = Math.min(...values);
  let max = Math.max(...values);
  // A flat series still gets some height: 0.2 % of the price.
  const minSpan = max * 0.002;
  if (max - min < minSpan) {
    const middle = (max + min) / 2;
    min = middle - minSpan / 2;
    max = middle + minSpan / 2;
  }
  const pad = (max - min) * 0.08;
  return [min - pad, max + pad];
};

export const timeDomain = (points: readonly PricePoint[], now: number): [number, number] => {
  if (points.length < 2) return [now - 60_000, now];
  return [points[0]!.t, points[points.length - 1]!.t];
};

/** A linear map from [d0, d1] onto [r0, r1]. */
export const scale = ([d0, d1]: [number, number], [r0, r1]: [number, number]) => {
  const span = d1 - d0 || 1;
  return (value: number) => r0 + ((value - d0) / span) * (r1 - r0);
};

/**
 * Label positions for lines at `ys` (any order): each crowd of labels is
 * centred on its lines with `gap` between neighbours, and kept within
 * [top, bottom]. Returns the positions in the input order.
 */
export const spreadLabels = (ys: readonly number[], gap: number, top: number, bottom: number): number[] => {
  const order = ys.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y);
  interface Group {
    start: number;
    targets: number[];
  }
  const place = (targets: number[]) => {
    const mean = targets.reduce((sum, y) => sum + y, 0) / targets.length;
    const span = (targets.length - 1) * gap;
    return Math.max(top, Math.min(mean - span / 2, bottom - span));
  };
  let groups: Group[] = order.map((o) => ({ start: place([o.y]), targets: [o.y] }));
  // Merge neighbours that overlap until none do; each merge re-centres the crowd.
  for (let merged = true; merged; ) {
    merged = false;
    const next: Group[] = [];
    for (const group of groups) {
      const previous = next[next.length - 1];
      if (previous && previous.start + previous.targets.length * gap > group.start) {
        const targets = [...previous.targets, ...group.targets];
        next[next.length - 1] = { start: place(targets), targets };
        merged = true;
      } else {
        next.push(group);
      }
    }
    groups = next;
  }
  const placed = groups.flatMap((group) => group.targets.map((_, k) => group.start + k * gap));
  const result = new Array<number>(ys.length);
  order.forEach((o, k) => (result[o.i] = placed[k]!));
  return result;
};
