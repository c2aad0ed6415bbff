import { describe, expect, it } from 'vitest';
import { cycleLabel, cycleProgress } from './cycles';
import { UNLIMITED_CYCLES } from './defaults';

describe('cycle label', () => {
  it('counts a running task in its first cycle as cycle 1', () => {
    expect(cycleProgress({ cyclesDone: 0, cycleCount: 5, finished: false })).toEqual({ current: 1, total: '5' });
    expect(cycleProgress({ cyclesDone: 0, cycleCount: UNLIMITED_CYCLES, finished: false })).toEqual({ current: 1, total: '∞' });
  });

  it('shows N / N for a finished task of N cycles', () => {
    expect(cycleProgress({ cyclesDone: 3, cycleCount: 3, finished: true })).toEqual({ current: 3, total: '3' });
  });

  it('never counts past the last cycle of a task that has not finished yet', () => {
    expect(cycleProgress({ cyclesDone: 3, cycleCount: 3, finished: false })).toEqual({ current: 3, total: '3' });
  });

  it('does not move to the next cycle on a stopped task between cycles (after a close or a stop), only on a running one', () => {
    expect(cycleProgress({ cyclesDone: 1, cycleCount: UNLIMITED_CYCLES, finished: false, running: false, phase: 'cooldown' })).toEqual({ current: 1, total: '∞' });
    expect(cycleProgress({ cyclesDone: 1, cycleCount: 5, finished: false, running: false, phase: 'ready' })).toEqual({ current: 1, total: '5' });
    // Stopped with a position: the cycle under way is still the one shown; never started: the first.
    expect(cycleProgress({ cyclesDone: 1, cycleCount: 5, finished: false, running: false, phase: 'open' })).toEqual({ current: 2, total: '5' });
    expect(cycleProgress({ cyclesDone: 0, cycleCount: 5, finished: false, running: false, phase: 'ready' })).toEqual({ current: 1, total: '5' });
    expect(cycleProgress({ cyclesDone: 1, cycleCount: 5, finished: false, running: true, phase: 'cooldown' })).toEqual({ current: 2, total: '5' });
  });

  it('shows ∞ for 9999 (until stopped)', () => {
    expect(cycleProgress({ cyclesDone: 2, cycleCount: UNLIMITED_CYCLES, finished: false })).toEqual({ current: 3, total: '∞' });
  });

  it('fills the same numbers into either side\'s text', () => {
    const text = (key: string, values: { current: number; total: string }) => `${key}: 第 ${values.current} / ${values.total} 轮`;
    expect(cycleLabel({ cyclesDone: 0, cycleCount: UNLIMITED_CYCLES, finished: false }, text, 'widgets.cycle')).toBe('widgets.cycle: 第 1 / ∞ 轮');
  });
});
