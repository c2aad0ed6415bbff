import { describe, expect, it } from 'vitest';
import { chartFills, chartLines, priceDomain, spreadLabels } from './chartGeometry';

const task = {
  firstFillPrice: '200',
  averagePrice: '195',
  firstOrderAmount: '10',
  firstOrderMultiple: false,
  levelsFilled: 1,
  strategy: {
    levels: [
      { dropPercent: '2', multiple: '1' },
      { dropPercent: '5', multiple: '2' },
      { dropPercent: '20', multiple: '4' },
    ],
    takeProfitPercent: '2',
  },
};

describe('chart geometry', () => {
  it('puts each level where its drop from the first fill is, and take profit over the average', () => {
    expect(chartLines(task)).toEqual([
      { kind: 'first', level: 0, price: 200, filled: true },
      { kind: 'level', level: 1, price: 196, filled: true },
      { kind: 'level', level: 2, price: 190, filled: false },
      { kind: 'level', level: 3, price: 160, filled: false },
      { kind: 'average', level: -1, price: 195, filled: false },
      { kind: 'takeProfit', level: -1, price: 198.9, filled: false },
    ]);
    expect(chartLines({ ...task, firstFillPrice: null })).toEqual([]);
  });

  it('zooms on the recent prices and the next level, or spans the whole ladder', () => {
    const lines = chartLines(task);
    const points = [{ t: 1, price: 194 }, { t: 2, price: 195 }];
    const [low, high] = priceDomain(points, lines, 1, 'price');
    expect(low).toBeLessThan(190);
    expect(low).toBeGreaterThan(185);
    expect(high).toBeGreaterThan(200);
    expect(priceDomain(points, lines, 1, 'ladder')[0]).toBeLessThan(160);
  });

  it('keeps labels apart, centred on their lines and inside the plot, in their input order', () => {
    expect(spreadLabels([50, 52, 100], 10, 0, 200)).toEqual([46, 56, 100]);
    expect(spreadLabels([50, 52, 58], 10, 0, 200).map(Math.round)).toEqual([43, 53, 63]);
    expect(spreadLabels([199, 195], 10, 0, 200)).toEqual([200, 190]);
    expect(spreadLabels([-5], 10, 0, 200)).toEqual([0]);
  });

  it("draws only the cycle's filled orders", () => {
    const base = { taskId: 't', symbol: 'X/USDT', level: 0, reason: 'first', amount: '1', cost: '1', fee: '0', feeCurrency: 'USDT', error: null, side: 'buy' as const };
    const fills = chartFills(
      [
        { ...base, id: 'a', cycle: 2, status: 'closed', price: '10', createdAt: '2026-01-01T00:00:00Z' },
        { ...base, id: 'b', cycle: 2, status: 'failed', price: null, createdAt: '2026-01-01T00:00:01Z' },
        { ...base, id: 'c', cycle: 1, status: 'closed', price: '11', createdAt: '2026-01-01T00:00:02Z' },
      ],
      2,
    );
    expect(fills).toEqual([{ id: 'a', t: Date.parse('2026-01-01T00:00:00Z'), price: 10, side: 'buy' }]);
  });
});
