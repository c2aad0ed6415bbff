import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MarketRules } from '../../../src/api/backtest';
import { buildLevels, ladder, levelMultiples, stepScaleDrops, type StrategySettings } from '../../../src/api/strategy';
import type { Candle } from '../engine/core/candles';
import { createEquityTracker } from './equity';
import { chartInterval, priceGrid, runBacktest, type RunOptions } from './run';

const T0 = Date.UTC(2023, 0, 1);
const MINUTE = 60_000;
const candle = (i: number, open: string, high: string, low: string, close: string): Candle => ({ time: T0 + i * MINUTE, open, high, low, close, volume: '1' });
const flat = (i: number, price: string) => candle(i, price, price, price, price);

const RULES: MarketRules = { feeRate: '0.001', feeAsset: 'received', amountStep: '0.001', minAmount: '0.001', minCost: '1' };
const ONE_LEVEL: StrategySettings = {
  levels: [{ dropPercent: '5', multiple: '2' }],
  takeProfitPercent: '2',
  takeProfitCallbackPercent: '0',
  replenishCallbackPercent: '0',
  stopLossPercent: null,
  cooldownSeconds: 0,
};

const run = (candles: Candle[], overrides: Partial<RunOptions> = {}) =>
  runBacktest({
    candles,
    interval: MINUTE,
    symbol: 'COIN/USDT',
    settings: ONE_LEVEL,
    firstOrderAmount: '10',
    firstOrderMultiple: false,
    cycleCount: 9999,
    market: RULES,
    tickSize: '0.01',
    fill: 'close',
    detail: true,
    ...overrides,
  });

/**
 * Four minutes of COIN/USDT, a one-level ladder (-5 %, 2x) and a 2 % take
 * profit, fee 0.1 % in the asset received, amounts on a 0.001 step:
 *   0: 100 flat             1: 100 -> 100.5 -> 94 -> 96 (down)
 *   2: 96 -> 95.5 -> 99 -> 98 (up)   3: 98 -> 97.5 -> 103 -> 102.5 (up)
 */
const PATH = [flat(0, '100'), candle(1, '100', '100.5', '94', '96'), candle(2, '96', '99', '95.5', '98'), candle(3, '98', '103', '97.5', '102.5')];

const trades = (result: ReturnType<typeof run>) => result.trades.map((t) => [t.side, t.level, t.price, t.amount, t.cost, t.fee]);

describe('a short path computed by hand', () => {
  it('close model: one tick per candle at its close', () => {
    const result = run(PATH);
    // Minute 0 closes at 100: 10 USDT buy 0.100 (0.0001 fee in COIN), 0.0999 held at a cost of 10.
    // The level (95) is never a close; the take profit (10 x 1.02 / 0.0999 = 102.102) is: minute 3 closes at 102.50.
    // The sell of 0.0999 rounds down to 0.099: 10.1475 less a 0.0101475 fee; its cost 10 x 0.099 / 0.0999 = 9.9099099.
    expect(trades(result)).toEqual([
      ['buy', 0, '100.00', '0.100', '10', '0.0001'],
      ['sell', 0, '102.50', '0.099', '10.1475', '0.0101475'],
    ]);
    expect(result.trades.map((t) => t.time)).toEqual([T0 + MINUTE, T0 + 4 * MINUTE]);
    expect(result.figures).toMatchObject({
      cycles: 1,
      realizedProfit: '0.2274426',
      fees: '0.0201475',
      buys: 1,
      sells: 1,
      maxFundsInUse: '10',
      // The low: 0.0999 x 96 - 10 at minute 1.
      maxDrawdown: '0.4096',
      maxDrawdownPercent: '4.1',
      timeInPositionPercent: '75',
      stopped: null,
    });
    // The 0.0009 COIN the sell could not sell stays with its cost, between cycles.
    expect(result.figures.openPosition).toMatchObject({ quantity: '0.0009', cost: '0.0900901', price: '102.5', floatingProfit: '0.0021599', inCycle: false });
    expect(result.cycles).toEqual([
      expect.objectContaining({ cycle: 1, openedAt: T0 + MINUTE, closedAt: T0 + 4 * MINUTE, levelsFilled: 0, firstPrice: '100.00', buyCost: '9.9099099', profit: '0.2274426', exitReason: 'take_profit' }),
    ]);
    expect(result.chart.equity.map(([, value]) => value)).toEqual(['-0.01', '-0.4096', '-0.2098', '0.2296025']);
  });

  it('ohlc model: a level and a take profit touched inside a candle fill at their own prices', () => {
    const result = run(PATH, { fill: 'ohlc' });
    // Minute 1 falls to 94: the level buys 20 USDT at its trigger 95.00 (0.210 COIN).
    // Held 0.30969 at 29.95: the take profit is the first price >= 29.95 x 1.02 / 0.30969 = 98.6438, so 98.65
    // on minute 2's way up to 99. Sold 0.309: 30.48285 less 0.03048285, cost 29.88327036, profit 0.56909679;
    // 0.00069 COIN stays at 0.06672964. The next cycle buys at the leg's end, 99 (0.101 COIN).
    // Its take profit: (9.999 + 0.06672964) x 1.02 / 0.101589 = 101.065, sold at 101.07 on minute 3's way to 103,
    // where the third cycle opens.
    expect(trades(result)).toEqual([
      ['buy', 0, '100.00', '0.100', '10', '0.0001'],
      ['buy', 1, '95.00', '0.210', '19.95', '0.00021'],
      ['sell', 1, '98.65', '0.309', '30.48285', '0.03048285'],
      ['buy', 0, '99.00', '0.101', '9.999', '0.000101'],
      ['sell', 0, '101.07', '0.101', '10.20807', '0.01020807'],
      ['buy', 0, '103.00', '0.097', '9.991', '0.000097'],
    ]);
    expect(result.cycles.map((c) => c.profit)).toEqual(['0.56909679', '0.19049211']);
    expect(result.figures).toMatchObject({
      cycles: 2,
      realizedProfit: '0.7595889',
      buys: 4,
      sells: 2,
      maxFundsInUse: '29.95',
      // From the high after the first buy (0.0999 x 100.5 - 10 = 0.03995) to the low 94 with both levels:
      // 0.30969 x 94 - 29.95 = -0.83914, a fall of 0.87909.
      maxDrawdown: '0.87909',
      stopped: null,
    });
    expect(result.figures.openPosition).toMatchObject({ quantity: '0.097492', cost: '10.04935982', floatingProfit: '-0.05642982', inCycle: true });
    // Fills inside a candle are timed along its path, within the candle.
    const level = result.trades[1]!;
    expect(level.time).toBeGreaterThan(T0 + MINUTE + MINUTE / 3);
    expect(level.time).toBeLessThan(T0 + MINUTE + (2 * MINUTE) / 3);
  });

  it('ohlc model: a trailing take profit sells after the callback from the high reached inside the candle', () => {
    const settings = { ...ONE_LEVEL, takeProfitCallbackPercent: '0.5' };
    // Up to 105 and back to 101 in one candle that closed up: open -> low -> high -> close.
    const result = run([flat(0, '100'), candle(1, '100', '105', '99.5', '101')], { settings, fill: 'ohlc' });
    // Armed at 102.11 (>= 10 x 1.02 / 0.0999), the high 105, sold at the first price <= 105 x 0.995 = 104.475.
    expect(trades(result).find(([side]) => side === 'sell')).toEqual(['sell', 0, '104.47', '0.099', '10.34253', '0.01034253']);
    // The close model only sees 101: armed, never sold.
    expect(run([flat(0, '100'), candle(1, '100', '105', '99.5', '101')], { settings }).figures.sells).toBe(0);
  });
});

describe('the 3Commas worked example', () => {
  // Base and safety orders of 10 USDT, deviation 1 %, step scale 1.5, volume scale 2, five safety orders:
  // deviations 1, 2.5, 4.75, 8.125, 13.1875 %; orders 10, 10, 20, 40, 80, 160 USDT (320 at most); take profit 1.5 %.
  const settings: StrategySettings = {
    levels: buildLevels(stepScaleDrops('1', '1.5', 5), levelMultiples('doubling', 5)),
    takeProfitPercent: '1.5',
    takeProfitCallbackPercent: '0',
    replenishCallbackPercent: '0',
    stopLossPercent: null,
    cooldownSeconds: 0,
  };
  // No fee and an 8-decimal step, as the example counts; each minute closes on the next safety order's price.
  const rules: MarketRules = { feeRate: '0', feeAsset: 'received', amountStep: '0.00000001', minAmount: '0.00000001', minCost: '0' };
  const closes = ['100', '99', '97.5', '95.25', '91.875', '86.81'];
  const down = closes.map((price, i) => flat(i, price));

  it('fills every safety order at its deviation and sells the position at the take profit over the average', () => {
    const result = run([...down, candle(6, '86.81', '92', '86.81', '92')], { settings, market: rules, fill: 'ohlc', cycleCount: 1 });
    expect(result.trades.filter((t) => t.side === 'buy').map((t) => [t.level, t.price])).toEqual(closes.map((price, level) => [level, new Big(price).toFixed(2)]));
    // 10 / 100 + 10 / 99 + 20 / 97.5 + 40 / 95.25 + 80 / 91.875 + 160 / 86.81, each rounded down to 8 decimals.
    const sell = result.trades.at(-1)!;
    expect(sell).toMatchObject({ side: 'sell', level: 5, amount: '3.53993972' });
    // Average 319.99999765905 / 3.53993972 = 90.39702; take profit 1.5 % over it: 91.75297, so the first price 91.76.
    expect(sell.price).toBe('91.76');
    const theory = ladder(settings, '10', '100');
    expect(new Big(theory.at(-1)!.cumulativeCost).toFixed()).toBe('320');
    expect(Number(theory.at(-1)!.takeProfitPrice)).toBeCloseTo(91.75, 1);
    expect(result.figures).toMatchObject({ cycles: 1, maxFundsInUse: '319.99999765905', realizedProfit: '4.82487104815', fees: '0', openPosition: null });
    // The close model sells at the minute's close, 92.
    expect(run([...down, candle(6, '86.81', '92', '86.81', '92')], { settings, market: rules, cycleCount: 1 }).figures.realizedProfit).toBe('5.67445658095');
  });
});

describe('market rules', () => {
  it('charges the fee in the quote when asked: the whole amount bought is held', () => {
    const result = run(PATH, { market: { ...RULES, feeAsset: 'quote' } });
    expect(result.trades[0]).toMatchObject({ amount: '0.100', cost: '10', fee: '0.01', feeCurrency: 'USDT' });
    // Cost 10.01 (the fee included) over 0.1: the take profit needs 10.01 x 1.02 / 0.1 = 102.102, met at 102.50; all 0.1 sells.
    expect(result.trades[1]).toMatchObject({ amount: '0.100', cost: '10.25' });
    expect(result.figures).toMatchObject({ realizedProfit: '0.22975', fees: '0.02025', openPosition: null, maxFundsInUse: '10.01' });
  });

  it('stops trading where the exchange would refuse an order, and says why', () => {
    const result = run(PATH, { market: { ...RULES, minCost: '15' } });
    expect(result.figures).toMatchObject({ buys: 0, sells: 0, cycles: 0, stopped: { reason: 'below_min_cost', side: 'buy', level: 0, time: T0 + MINUTE, price: '100' } });
    // A sell below the minimum amount: 0.0999 left after the fee does not reach a 0.1 minimum.
    const sell = run(PATH, { market: { ...RULES, amountStep: '0.1', minAmount: '0.1' }, firstOrderAmount: '10.5' });
    expect(sell.figures).toMatchObject({ buys: 1, sells: 0, stopped: { reason: 'below_min_amount', side: 'sell' } });
    expect(sell.figures.openPosition).toMatchObject({ quantity: '0.0999', inCycle: true });
  });

  it('stops after the cycles asked for', () => {
    const result = run(PATH, { fill: 'ohlc', cycleCount: 1 });
    expect(result.figures).toMatchObject({ cycles: 1, buys: 2, sells: 1 });
  });
});

describe('a price grid that is not a power of ten', () => {
  it('finds the take profit on a 0.05 grid', () => {
    // Held 0.0999 at 10: the take profit needs 10 x 1.02 / 0.0999 = 102.1021..., so 102.15 on a 0.05 grid (102.11 on 0.01).
    const path = [flat(0, '100'), candle(1, '100', '104', '100', '103')];
    expect(trades(run(path, { fill: 'ohlc', tickSize: '0.05' })).at(1)).toEqual(['sell', 0, '102.15', '0.099', '10.11285', '0.01011285']);
    expect(trades(run(path, { fill: 'ohlc' })).at(1)).toEqual(['sell', 0, '102.11', '0.099', '10.10889', '0.01010889']);
  });
});

describe('ohlc on flat candles', () => {
  it('trades exactly as the close model (a candle without a range is one price)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -300, max: 300 }), { minLength: 10, maxLength: 200 }), (steps) => {
        let ticks = 10_000;
        const candles = steps.map((s, i) => {
          ticks = Math.max(5_000, ticks + s);
          return flat(i, new Big(ticks).div(100).toFixed(2));
        });
        const close = run(candles, { settings: { ...ONE_LEVEL, takeProfitCallbackPercent: '0.4', replenishCallbackPercent: '0.3' } });
        const ohlc = run(candles, { settings: { ...ONE_LEVEL, takeProfitCallbackPercent: '0.4', replenishCallbackPercent: '0.3' }, fill: 'ohlc' });
        expect(trades(ohlc)).toEqual(trades(close));
        expect(ohlc.figures.realizedProfit).toBe(close.figures.realizedProfit);
      }),
      { numRuns: 60 },
    );
  });
});

describe('the profit curve and its drawdown', () => {
  it('finds the same largest fall as computing the profit at every price', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ price: fc.integer({ min: 1, max: 100_000 }), fill: fc.option(fc.record({ quantity: fc.integer({ min: 0, max: 5000 }), cost: fc.integer({ min: 0, max: 1_000_000 }), realized: fc.integer({ min: -10_000, max: 10_000 }) }), { freq: 8 }) }), { minLength: 1, maxLength: 300 }),
        (events) => {
          const tracker = createEquityTracker();
          let realized = new Big(0);
          let quantity = new Big(0);
          let cost = new Big(0);
          let peak = new Big(0);
          let worst = new Big(0);
          for (const { price, fill } of events) {
            const p = new Big(price).div(100).toFixed();
            if (fill) {
              realized = realized.plus(new Big(fill.realized).div(100));
              quantity = new Big(fill.quantity).div(1000);
              cost = new Big(fill.cost).div(100);
              tracker.position(realized, quantity.toFixed(), cost.toFixed(), p, Number(p));
            } else {
              tracker.price(p, Number(p));
            }
            const equity = realized.plus(quantity.times(p)).minus(cost);
            if (equity.gt(peak)) peak = equity;
            if (peak.minus(equity).gt(worst)) worst = peak.minus(equity);
          }
          expect(tracker.maxDrawdown().toFixed()).toBe(worst.toFixed());
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('helpers', () => {
  it('finds the price grid of a file and a chart interval within 1500 bars', () => {
    expect(priceGrid([candle(0, '23140.48', '23150.7', '23128', '23142.31')])).toBe('0.01');
    expect(priceGrid([candle(0, '0.00000850', '0.0000086', '0.0000084', '0.0000085')])).toBe('0.0000001');
    expect(priceGrid([flat(0, '100')])).toBe('1');
    expect(chartInterval(MINUTE, 3 * 60 * MINUTE)).toBe(MINUTE);
    expect(chartInterval(MINUTE, 30 * 1440 * MINUTE)).toBe(30 * MINUTE);
    expect(chartInterval(MINUTE, 365 * 1440 * MINUTE)).toBe(360 * MINUTE);
    expect(chartInterval(3_600_000, 365 * 1440 * MINUTE)).toBe(360 * MINUTE);
  });
});
