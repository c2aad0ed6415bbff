import type { Domain } from '../domain';

/**
 * Returns: no page of its own; its parts show on other areas' pages through
 * kit/embeds.ts (a task's returns on the task page, the total on the home
 * page, the month's poster on the profit pages). Its texts load with the
 * signed-in areas' (areaTexts.ts).
 */
export const returns = {
  embeds: {
    TaskReturns: () => import('./TaskReturns').then((module) => module.TaskReturns),
    HomeReturns: () => import('./HomeReturns').then((module) => module.HomeReturns),
    MonthPosterButton: () => import('./MonthPoster').then((module) => module.MonthPosterButton),
  },
} satisfies Domain;
