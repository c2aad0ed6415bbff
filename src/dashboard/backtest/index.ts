import type { Domain } from '../domain';

/** The backtest panel of the strategy editor and the trade wizard: texts only (it has no page of its own). */
export const backtest = {} satisfies Domain;
