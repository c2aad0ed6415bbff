/**
 * Returns of a task and of the account (definitions in src/api/returns.ts):
 * invested, ROI, APR, run time, the cumulative-profit curve and the cycles'
 * table, all in decimals. The pure figures are here; the routes read the
 * cycles table and the engine's live state (returnsRoutes.ts).
 */
import Big from 'big.js';
import type { ReturnsPoint, TaskCycle } from '../../../src/api/returns';

/** A curve has at most this many points: cycles closed in one time bucket make one point. */
export const MAX_CURVE_POINTS = 500;
const DAY_SECONDS = 86_400;
const YEAR_DAYS = 365;

export interface CycleRow {
  id: string;
  cycle: number;
  opened_at: Date | string | null;
  closed_at: Date | string;
  levels_filled: number;
  buy_cost: string;
  remainder_cost: string;
  sell_proceeds: string;
  realized_profit: string;
  fees: string;
  exit_reason: TaskCycle['exitReason'];
}

/** What a closed cycle held at its peak: the cost basis of what it sold and of what it carried on. */
export const fundsUsed = (row: Pick<CycleRow, 'buy_cost' | 'remainder_cost'>) => new Big(row.buy_cost).plus(row.remainder_cost);

/** profit / funds x 100 to 4 decimals; null when no funds were used. */
export const percentOf = (profit: Big.BigSource, funds: Big.BigSource): string | null => {
  const base = new Big(funds);
  if (base.lte(0)) return null;
  return new Big(profit).div(base).times(100).round(4, Big.roundHalfEven).toFixed(4);
};

/** ROI annualized simply (x 365 days / run time); null below a day of run time. */
export const annualized = (roi: string | null, runSeconds: number): string | null => {
  if (roi === null || runSeconds < DAY_SECONDS) return null;
  return new Big(roi).times(YEAR_DAYS * DAY_SECONDS).div(runSeconds).round(4, Big.roundHalfEven).toFixed(4);
};

const iso = (value: Date | string) => new Date(value).toISOString();
const millis = (value: Date | string) => new Date(value).getTime();

export const toTaskCycle = (row: CycleRow): TaskCycle => {
  const funds = fundsUsed(row);
  return {
    id: String(row.id),
    cycle: row.cycle,
    openedAt: row.opened_at === null ? null : iso(row.opened_at),
    closedAt: iso(row.closed_at),
    durationSeconds: row.opened_at === null ? null : Math.max(0, Math.round((millis(row.closed_at) - millis(row.opened_at)) / 1000)),
    levelsFilled: row.levels_filled,
    fundsUsed: funds.toFixed(),
    sellProceeds: new Big(row.sell_proceeds).toFixed(),
    realizedProfit: new Big(row.realized_profit).toFixed(),
    fees: new Big(row.fees).toFixed(),
    roi: percentOf(row.realized_profit, funds),
    exitReason: row.exit_reason,
  };
};

/**
 * Cumulative profit after each closing, oldest first: closings within one
 * time bucket (the span split in MAX_CURVE_POINTS, at least a second) make
 * one point, at the time of its last closing, so times strictly increase.
 */
export const cumulativeCurve = (closings: readonly { closedAt: Date | string; profit: string }[], maxPoints = MAX_CURVE_POINTS): ReturnsPoint[] => {
  if (closings.length === 0) return [];
  const sorted = [...closings].map((c) => ({ at: millis(c.closedAt), profit: c.profit })).sort((a, b) => a.at - b.at);
  const first = sorted[0]!.at;
  const span = sorted[sorted.length - 1]!.at - first;
  const bucket = Math.max(1000, Math.ceil((span + 1) / maxPoints));
  const points: { at: number; key: number; profit: Big }[] = [];
  let sum = new Big(0);
  for (const closing of sorted) {
    sum = sum.plus(closing.profit);
    const key = Math.floor((closing.at - first) / bucket);
    const last = points[points.length - 1];
    if (last && last.key === key) {
      last.at = closing.at;
      last.profit = sum;
    } else points.push({ at: closing.at, key, profit: sum });
  }
  return points.map((p) => ({ time: new Date(p.at).toISOString(), profit: p.profit.toFixed() }));
};

export interface TaskFigures {
  /** The cost of the position under way now. */
  currentCost: string;
  realizedProfit: string;
  floatingProfit: string;
  createdAt: Date | string;
  finished: boolean;
  cycles: readonly Pick<CycleRow, 'buy_cost' | 'remainder_cost' | 'closed_at' | 'fees'>[];
}

/** A task's invested, ROI, APR and run time at `now`. */
export const taskFigures = (task: TaskFigures, now: Date) => {
  let maxInvested = new Big(task.currentCost);
  let fees = new Big(0);
  let lastClose: number | null = null;
  for (const cycle of task.cycles) {
    const funds = fundsUsed(cycle);
    if (funds.gt(maxInvested)) maxInvested = funds;
    fees = fees.plus(cycle.fees);
    const at = millis(cycle.closed_at);
    if (lastClose === null || at > lastClose) lastClose = at;
  }
  const start = millis(task.createdAt);
  const end = task.finished && lastClose !== null ? lastClose : now.getTime();
  const runSeconds = Math.max(0, Math.floor((end - start) / 1000));
  const totalProfit = new Big(task.realizedProfit).plus(task.floatingProfit);
  const roi = percentOf(totalProfit, maxInvested);
  return {
    invested: new Big(task.currentCost).toFixed(),
    maxInvested: maxInvested.toFixed(),
    totalProfit: totalProfit.toFixed(),
    fees: fees.toFixed(),
    roi,
    apr: annualized(roi, runSeconds),
    startedAt: iso(task.createdAt),
    endedAt: task.finished ? new Date(end).toISOString() : null,
    runSeconds,
  };
};
