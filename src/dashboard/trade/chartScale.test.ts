import { describe, expect, it } from 'vitest';
import { balancedSettings } from '../../testing/tasks';
import { autoscaleWithLines, ladderLines, priceLines, rangeWithLines, TOUCH_TRACKING, type ChartColors, type ChartLabels } from './candleChartData';

const labels: ChartLabels = { first: 'First', level: (level) => `L${level}`, average: 'Avg', takeProfit: 'TP', sell: 'Sell' };
const colors: ChartColors = { buy: 'r', sell: 'g', first: 'p', level: 'grey', levelFilled: 'b', average: 'o', takeProfit: 'dg' };

// A cycle bought at 100 with nothing replenished yet: levels at 99 and 97.5, take profit at 101.5.
const lines = priceLines(
  ladderLines({ firstFillPrice: '100', averagePrice: '100', firstOrderAmount: '10', firstOrderMultiple: false, levelsFilled: 0, strategy: balancedSettings }),
  labels,
  colors,
);

describe("the chart's price axis", () => {
  it('reaches the take profit and every level still to fill when the candles stay between them', () => {
    const candles = { priceRange: { minValue: 99.6, maxValue: 100.4 }, margins: { above: 4, below: 4 } };
    expect(rangeWithLines(candles, lines)).toEqual({ priceRange: { minValue: 97.5, maxValue: 101.5 }, margins: { above: 4, below: 4 } });
    // The provider the series gets asks the library's own range first and widens it.
    expect(autoscaleWithLines(lines)(() => candles)).toEqual({ priceRange: { minValue: 97.5, maxValue: 101.5 }, margins: { above: 4, below: 4 } });
  });

  it('keeps the candles where they reach further, and shows the lines alone without candles in view', () => {
    expect(rangeWithLines({ priceRange: { minValue: 90, maxValue: 110 } }, lines)).toEqual({ priceRange: { minValue: 90, maxValue: 110 } });
    expect(rangeWithLines(null, lines)).toEqual({ priceRange: { minValue: 97.5, maxValue: 101.5 } });
    expect(rangeWithLines(null, [])).toBeNull();
  });

  it('titles every line with its price on the axis', () => {
    expect(lines.map((line) => [line.title, line.axisLabelVisible])).toEqual([
      ['First', true],
      ['L1', true],
      ['L2', true],
      ['Avg', true],
      ['TP', true],
    ]);
  });

  it('hides a tapped crosshair when the finger lifts (TrackingModeExitMode.OnTouchEnd), so it never stays over the markers', () => {
    expect(TOUCH_TRACKING).toEqual({ exitMode: 0 });
  });
});
