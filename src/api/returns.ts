import type { DecimalString } from './types';

/**
 * Returns of a task and of the whole account, as the server computes them
 * with decimals (server/src/trade/returns.ts).
 *
 * Definitions (the same words in the README and the pages' tooltips):
 * - funds used by a cycle: the most quote the cycle held in its position,
 *   that is the cost basis of everything held when its closing sell came
 *   (every buy adds, only the sell takes away), fees paid in quote included;
 *   for the cycle under way, the cost of its position now;
 * - invested: the funds the cycle under way holds now (0 between cycles);
 * - maxInvested: the most funds any cycle of the task used (the capital the
 *   task needed);
 * - total profit: realized profit of the closed cycles + floating profit of
 *   the position at the last price;
 * - ROI, percent: total profit / maxInvested x 100 (null until a first buy);
 * - APR, percent: ROI x 365 days / run time, simple (not compounded); null
 *   when the task ran less than a day, too short to annualize;
 * - run time: from the task's creation until now; until it was last stopped
 *   (or paused) when it does not run now, so a stopped task's APR stays put;
 *   until its last cycle closed when it has finished.
 */
export interface ReturnsPoint {
  /** ISO time of the last cycle closed in the point's time bucket. */
  time: string;
  /** Realized profit of every cycle closed until then. */
  profit: DecimalString;
}

/** GET /api/trade/returns?taskId */
export interface TaskReturns {
  taskId: string;
  symbol: string;
  invested: DecimalString;
  maxInvested: DecimalString;
  realizedProfit: DecimalString;
  floatingProfit: DecimalString;
  totalProfit: DecimalString;
  /** Quote value of every fee the task paid, whatever asset it was paid in: the closed cycles' and the one under way. */
  fees: DecimalString;
  /** Percent, 4 decimals; null before the first buy. */
  roi: DecimalString | null;
  /** Percent a year, 4 decimals; null below a day of run time. */
  apr: DecimalString | null;
  /** The price the floating profit is valued at (null when none is known now). */
  lastPrice: DecimalString | null;
  startedAt: string;
  /** Where the run time ends: set when the task has finished or is stopped. */
  endedAt: string | null;
  runSeconds: number;
  cyclesClosed: number;
  /** Cumulative realized profit, oldest first, at most 500 points. */
  curve: ReturnsPoint[];
}

/** A row of GET /api/trade/cycles?taskId&page&pageSize -> Page<TaskCycle> (newest first). */
export interface TaskCycle {
  id: string;
  cycle: number;
  /** When its first buy filled (null when unknown). */
  openedAt: string | null;
  closedAt: string;
  durationSeconds: number | null;
  levelsFilled: number;
  /** Funds the cycle used (see above). */
  fundsUsed: DecimalString;
  sellProceeds: DecimalString;
  realizedProfit: DecimalString;
  fees: DecimalString;
  /** realizedProfit / fundsUsed x 100, 4 decimals; null when nothing was used. */
  roi: DecimalString | null;
  exitReason: 'take_profit' | 'stop_loss' | 'close' | 'signal' | null;
}

/** An exchange account's holdings valued in USDT; value null when they could not be asked now. */
export interface AccountValue {
  id: string;
  name: string;
  exchange: string;
  value: DecimalString | null;
}

/** GET /api/trade/overview: total assets and the return of every task together. */
export interface ReturnsOverview {
  assets: {
    /** Wallet USDT + every account valued now (the unavailable ones left out). */
    total: DecimalString;
    /** Custodial wallet USDT, available and held. */
    wallet: DecimalString;
    accounts: AccountValue[];
    /** False when some account could not be valued now. */
    complete: boolean;
  };
  realizedProfit: DecimalString;
  floatingProfit: DecimalString;
  totalProfit: DecimalString;
  /** Sum of the tasks' maxInvested. */
  maxInvested: DecimalString;
  roi: DecimalString | null;
  tasks: number;
  cyclesClosed: number;
  curve: ReturnsPoint[];
}
