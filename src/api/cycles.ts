import { UNLIMITED_CYCLES } from './defaults';
import type { TradeTask } from './trade';

/** How a cycle label counts: the cycle under way, and the total ('∞' for a task that runs until stopped). */
export interface CycleProgress {
  current: number;
  total: string;
}

/**
 * The one rule for "cycle X / Y" wherever a task is shown (dashboard and
 * widgets): a task that has not finished is in the cycle one past those done
 * (at most the last), a finished task shows the cycles it did, and so does a
 * stopped one with no cycle under way (a stop or a close starts no next
 * cycle); a cycleCount of UNLIMITED_CYCLES (9999) or more means "until
 * stopped" and shows '∞'.
 */
export const cycleProgress = (task: Pick<TradeTask, 'cyclesDone' | 'cycleCount' | 'finished'> & Partial<Pick<TradeTask, 'running' | 'phase'>>): CycleProgress => {
  const unlimited = task.cycleCount >= UNLIMITED_CYCLES;
  const idle = task.running === false && task.phase !== undefined && task.phase !== 'open';
  const current = task.finished
    ? task.cyclesDone
    : idle && task.cyclesDone > 0
      ? task.cyclesDone
      : unlimited
        ? task.cyclesDone + 1
        : Math.min(task.cyclesDone + 1, task.cycleCount);
  return { current, total: unlimited ? '∞' : String(task.cycleCount) };
};

/** The label itself, through the caller's translate (both sides keep the key `…cycle` as '第 {{current}} / {{total}} 轮'). */
export const cycleLabel = (
  task: Pick<TradeTask, 'cyclesDone' | 'cycleCount' | 'finished'> & Partial<Pick<TradeTask, 'running' | 'phase'>>,
  translate: (key: string, options: { current: number; total: string }) => string,
  key: string,
) => translate(key, cycleProgress(task));
