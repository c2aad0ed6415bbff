import Big from 'big.js';
import type { TradeTask } from '../../api/trade';
import { taskResult as result } from '../kit/money';

export interface HomeTotals {
  realized: string;
  floating: string;
  running: number;
  total: number;
  /** Quote spent on the open positions. */
  capital: string;
  /** By realized + floating profit; null without tasks. */
  best: TradeTask | null;
  worst: TradeTask | null;
  /** The pairs in use, per exchange account (prices are asked per account). */
  symbolsByExchange: Record<string, string[]>;
}

/** What the home page sums up from the task list. */
export const homeTotals = (tasks: readonly TradeTask[]): HomeTotals => {
  let realized = new Big(0);
  let floating = new Big(0);
  let capital = new Big(0);
  let best: TradeTask | null = null;
  let worst: TradeTask | null = null;
  const symbolsByExchange: Record<string, string[]> = {};
  for (const task of tasks) {
    realized = realized.plus(task.realizedProfit);
    floating = floating.plus(task.floatingProfit);
    capital = capital.plus(task.cost);
    if (!best || result(task).gt(result(best))) best = task;
    if (!worst || result(task).lt(result(worst))) worst = task;
    const symbols = (symbolsByExchange[task.exchangeId] ??= []);
    if (!task.finished && !symbols.includes(task.symbol)) symbols.push(task.symbol);
  }
  return {
    realized: realized.toFixed(),
    floating: floating.toFixed(),
    running: tasks.filter((t) => t.running && !t.finished).length,
    total: tasks.length,
    capital: capital.toFixed(),
    best,
    worst: tasks.length > 1 ? worst : null,
    symbolsByExchange,
  };
};
