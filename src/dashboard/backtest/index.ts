import type { Domain } from '../domain';
import { messages } from './messages';

/** The backtest panel of the strategy editor and the trade wizard: texts only (it has no page of its own). */
export const backtest = { messages } satisfies Domain;
