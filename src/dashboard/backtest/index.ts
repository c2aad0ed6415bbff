import type { Domain } from '../domain';

/**
 * The backtest panel of the strategy editor and the trade wizard: no page of its
 * own, no menu entry; its texts load with the signed-in areas' (areaTexts.ts).
 * Those pages show its launcher through kit/embeds.ts.
 */
export const backtest = {
  embeds: { BacktestLauncher: () => import('./BacktestLauncher').then((module) => module.BacktestLauncher) },
} satisfies Domain;
