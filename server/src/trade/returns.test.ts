import { describe, expect, it } from 'vitest';
import { annualized, cumulativeCurve, percentOf, taskFigures, toTaskCycle } from './returns';

const at = (iso: string) => new Date(iso);

describe('returns figures', () => {
  it('ROI is profit over funds to 4 decimals, null without funds, with the sign of the profit', () => {
    expect(percentOf('1.5', '100')).toBe('1.5000');
    expect(percentOf('-2', '300')).toBe('-0.6667');
    expect(percentOf('1', '0')).toBeNull();
    expect(percentOf('0', '10')).toBe('0.0000');
  });

  it('annualizes simply over the run time, and not below a day', () => {
    expect(annualized('1.0000', 86_399)).toBeNull();
    expect(annualized('1.0000', 86_400)).toBe('365.0000');
    expect(annualized('-2.0000', 86_400 * 73)).toBe('-10.0000');
    expect(annualized(null, 86_400 * 10)).toBeNull();
  });

  it('invested is the position now; max invested the biggest cycle, the current one included', () => {
    const cycles = [
      { buy_cost: '100', remainder_cost: '0', fees: '0.2', closed_at: at('2026-01-02T00:00:00Z') },
      { buy_cost: '240', remainder_cost: '0.5', fees: '0.5', closed_at: at('2026-01-05T00:00:00Z') },
    ];
    const running = taskFigures({ currentCost: '30', realizedProfit: '3.5', floatingProfit: '-1', createdAt: at('2026-01-01T00:00:00Z'), finished: false, cycles }, at('2026-01-11T00:00:00Z'));
    expect(running).toMatchObject({ invested: '30', maxInvested: '240.5', totalProfit: '2.5', fees: '0.7', runSeconds: 864_000, endedAt: null });
    expect(running.roi).toBe('1.0395');
    expect(running.apr).toBe('37.9418');
    const bigNow = taskFigures({ currentCost: '500', realizedProfit: '3.5', floatingProfit: '-10', createdAt: at('2026-01-01T00:00:00Z'), finished: false, cycles }, at('2026-01-11T00:00:00Z'));
    expect(bigNow.maxInvested).toBe('500');
    expect(bigNow.roi).toBe('-1.3000');
    // A finished task's run time ends with its last cycle.
    const done = taskFigures({ currentCost: '0', realizedProfit: '3.5', floatingProfit: '0', createdAt: at('2026-01-01T00:00:00Z'), finished: true, cycles }, at('2026-03-01T00:00:00Z'));
    expect(done).toMatchObject({ runSeconds: 4 * 86_400, endedAt: '2026-01-05T00:00:00.000Z', invested: '0' });
    // A stopped task's run time ends at its stop, however late it is read.
    const stopped = taskFigures({ currentCost: '0', realizedProfit: '3.5', floatingProfit: '0', createdAt: at('2026-01-01T00:00:00Z'), finished: false, stoppedAt: at('2026-01-08T00:00:00Z'), cycles }, at('2026-03-01T00:00:00Z'));
    expect(stopped).toMatchObject({ runSeconds: 7 * 86_400, endedAt: '2026-01-08T00:00:00.000Z' });
  });

  it('a cycle row: funds used, duration and its own ROI', () => {
    const row = toTaskCycle({
      id: '7',
      cycle: 3,
      opened_at: at('2026-01-01T00:00:00Z'),
      closed_at: at('2026-01-01T01:30:00Z'),
      levels_filled: 2,
      buy_cost: '99.5',
      remainder_cost: '0.5',
      sell_proceeds: '101.3',
      realized_profit: '1.8',
      fees: '0.2',
      exit_reason: 'take_profit',
    });
    expect(row).toEqual({
      id: '7',
      cycle: 3,
      openedAt: '2026-01-01T00:00:00.000Z',
      closedAt: '2026-01-01T01:30:00.000Z',
      durationSeconds: 5400,
      levelsFilled: 2,
      fundsUsed: '100',
      sellProceeds: '101.3',
      realizedProfit: '1.8',
      fees: '0.2',
      roi: '1.8000',
      exitReason: 'take_profit',
    });
  });

  it('the curve sums in order, one point per bucket at strictly increasing times', () => {
    const closings = [
      { closedAt: '2026-01-01T00:00:02.500Z', profit: '0.1' },
      { closedAt: '2026-01-01T00:00:00.000Z', profit: '1' },
      { closedAt: '2026-01-01T00:00:00.400Z', profit: '2' },
      { closedAt: '2026-01-01T00:00:05.000Z', profit: '-0.3' },
    ];
    expect(cumulativeCurve(closings)).toEqual([
      { time: '2026-01-01T00:00:00.400Z', profit: '3' },
      { time: '2026-01-01T00:00:02.500Z', profit: '3.1' },
      { time: '2026-01-01T00:00:05.000Z', profit: '2.8' },
    ]);
    expect(cumulativeCurve([])).toEqual([]);
    const many = Array.from({ length: 2000 }, (_, i) => ({ closedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(), profit: '0.01' }));
    const curve = cumulativeCurve(many);
    expect(curve.length).toBeLessThanOrEqual(500);
    expect(curve.at(-1)).toEqual({ time: many.at(-1)!.closedAt, profit: '20' });
    for (let i = 1; i < curve.length; i++) expect(Date.parse(curve[i]!.time)).toBeGreaterThan(Date.parse(curve[i - 1]!.time));
  });
});
