import { describe, expect, it } from 'vitest';
import { parseAlertsCsv, rankResults, sweepSize, sweepVariants, type BacktestFigures } from './backtest';
import { buildLevels, levelMultiples, stepScaleDrops, type StrategySettings } from './strategy';

const base: StrategySettings = {
  levels: buildLevels(stepScaleDrops('1', '1.5', 3), levelMultiples('doubling', 3)),
  takeProfitPercent: '1.5',
  takeProfitCallbackPercent: '0',
  replenishCallbackPercent: '0',
  stopLossPercent: null,
  cooldownSeconds: 0,
};

describe('variant sweeps', () => {
  it('make every combination, labelled by what changed', () => {
    const sweep = { takeProfitPercent: ['1', '2'], stepScale: ['1', '2'], amountScale: ['3'] };
    expect(sweepSize(sweep)).toBe(4);
    const variants = sweepVariants(base, sweep);
    expect(variants.map((v) => v.label)).toEqual(['TP 1 SS 1 AS 3', 'TP 1 SS 2 AS 3', 'TP 2 SS 1 AS 3', 'TP 2 SS 2 AS 3']);
    // Step scale 2 from the first drop 1: 1, 3, 7; amount scale 3 from the first multiple 1: 1, 3, 9 (both kept together).
    expect(variants[3]).toMatchObject({
      takeProfitPercent: '2',
      levels: [
        { dropPercent: '1', multiple: '1' },
        { dropPercent: '3', multiple: '3' },
        { dropPercent: '7', multiple: '9' },
      ],
    });
    expect(variants[0]!.levels!.map((l) => l.dropPercent)).toEqual(['1', '2', '3']);
    expect(sweepVariants(base, {})).toEqual([]);
  });
});

describe('ranking', () => {
  const result = (index: number, figures: Partial<BacktestFigures>) => ({ index, figures: { returnPercent: '0', realizedProfit: '0', maxDrawdown: '0', maxFundsInUse: '0', cycles: 0, ...figures } as BacktestFigures });

  it('puts the best first: highest return or profit, lowest drawdown or funds; ties keep their order', () => {
    const results = [result(0, { returnPercent: '2.5', maxDrawdown: '10' }), result(1, { returnPercent: '10', maxDrawdown: '30' }), result(2, { returnPercent: '-1', maxDrawdown: '10' })];
    expect(rankResults(results, 'returnPercent').map((r) => r.index)).toEqual([1, 0, 2]);
    expect(rankResults(results, 'maxDrawdown').map((r) => r.index)).toEqual([0, 2, 1]);
    // Decimals, not text: '10' ranks above '2.5'.
    expect(rankResults([result(0, { realizedProfit: '2.5' }), result(1, { realizedProfit: '10' })], 'realizedProfit').map((r) => r.index)).toEqual([1, 0]);
  });
});

describe('alert lists (issue 29)', () => {
  it('reads time,action lines, with or without a header, and names the first bad line', () => {
    expect(parseAlertsCsv('time,action\r\n2023-03-08T00:10:00Z,start_cycle\n\n1678234800000,"close_position"\n')).toEqual([
      { time: '2023-03-08T00:10:00Z', action: 'start_cycle' },
      { time: '1678234800000', action: 'close_position' },
    ]);
    expect(parseAlertsCsv('')).toEqual([]);
    expect(() => parseAlertsCsv('2023-03-08T00:10:00Z,start_cycle\n2023-03-08T00:20:00Z,sell')).toThrow('line 2');
  });
});
