import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOnStep } from '../../core/decimal';
import { createMarket, DEFAULT_START_MS, mulberry32, normals, PAPER_MARKETS, perSecondSigma, type PaperMarket } from './market';

const BTC = 'BTC/USDT';

const marketOf = (symbol: string): PaperMarket => PAPER_MARKETS.find((m) => m.symbol === symbol)!;

/** A one-line fingerprint of every price at this moment. */
const snapshot = (market: ReturnType<typeof createMarket>): string => Object.values(market.prices()).join(',');

describe('the listed markets', () => {
  it('lists twenty distinct USDT pairs', () => {
    expect(PAPER_MARKETS).toHaveLength(20);
    expect(new Set(PAPER_MARKETS.map((m) => m.symbol)).size).toBe(20);
    for (const m of ['BTC', 'ETH', 'SOL', 'BNB', 'XRP', 'DOGE']) expect(marketOf(`${m}/USDT`)).toBeDefined();
  });

  it.each(PAPER_MARKETS.map((m) => [m.symbol, m] as const))('%s is consistent', (_symbol, m) => {
    expect(m.symbol).toBe(`${m.base}/${m.quote}`);
    expect(m.quote).toBe('USDT');
    expect(new Big(m.startPrice).gt(0)).toBe(true);
    expect(isOnStep(m.startPrice, m.tickSize)).toBe(true);
    expect(isOnStep(m.minAmount, m.amountStep)).toBe(true);
    expect(m.minCost).toBe('5');
    // The smallest order an exchange would accept is a few dollars, not thousands.
    expect(new Big(m.minAmount).times(m.startPrice).lte(m.minCost)).toBe(true);
    // An order's cost (tick x step) is exact at 8 decimals.
    expect(new Big(m.tickSize).times(m.amountStep).gte('0.00000001')).toBe(true);
    expect(m.annualVolatility).toBeGreaterThanOrEqual(0.4);
    expect(m.annualVolatility).toBeLessThanOrEqual(1.5);
  });

  it('has BTC near 90 000 with about 55 % annual volatility and the alts wilder', () => {
    const btc = marketOf(BTC);
    expect(Number(btc.startPrice)).toBeGreaterThan(50_000);
    expect(Number(btc.startPrice)).toBeLessThan(150_000);
    expect(btc.annualVolatility).toBeCloseTo(0.55, 2);
    for (const m of PAPER_MARKETS) expect(m.annualVolatility).toBeGreaterThanOrEqual(btc.annualVolatility);
  });
});

describe('the random numbers', () => {
  it('mulberry32 repeats for a seed and stays in [0, 1)', () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    for (let i = 0; i < 1000; i += 1) {
      const x = a();
      expect(x).toBe(b());
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
  });

  it('Box-Muller gives standard normals', () => {
    const draw = normals(mulberry32(11));
    const n = 100_000;
    let sum = 0;
    let squares = 0;
    for (let i = 0; i < n; i += 1) {
      const z = draw();
      sum += z;
      squares += z * z;
    }
    expect(Math.abs(sum / n)).toBeLessThan(0.02);
    expect(squares / n).toBeGreaterThan(0.97);
    expect(squares / n).toBeLessThan(1.03);
  });
});

describe('createMarket', () => {
  it('starts at the listed prices and the given time, one second per tick', () => {
    const market = createMarket(1, 1_700_000_000_000);
    for (const m of PAPER_MARKETS) expect(market.price(m.symbol)).toBe(m.startPrice);
    expect(market.now()).toBe(1_700_000_000_000);
    market.tick();
    expect(market.now()).toBe(1_700_000_001_000);
    market.tick(59);
    expect(market.now()).toBe(1_700_000_060_000);
    expect(createMarket(1).now()).toBe(DEFAULT_START_MS);
  });

  it('replays the same 10 000 ticks for the same seed', () => {
    const a = createMarket(20_261_101);
    const b = createMarket(20_261_101);
    for (let i = 0; i < 10_000; i += 1) {
      a.tick();
      b.tick();
      expect(snapshot(a)).toBe(snapshot(b));
    }
    for (const m of PAPER_MARKETS) expect(a.ticker(m.symbol)).toEqual(b.ticker(m.symbol));
    expect(a.now()).toBe(b.now());
  });

  it('moves differently for another seed', () => {
    const a = createMarket(1);
    const b = createMarket(2);
    a.tick(100);
    b.tick(100);
    expect(snapshot(a)).not.toBe(snapshot(b));
  });

  it('tick(n) is n single ticks', () => {
    const a = createMarket(5);
    const b = createMarket(5);
    a.tick(500);
    for (let i = 0; i < 500; i += 1) b.tick();
    expect(snapshot(a)).toBe(snapshot(b));
  });

  it("keeps a market's prices whatever other markets are listed", () => {
    const all = createMarket(9);
    const alone = createMarket(9, DEFAULT_START_MS, [marketOf('ETH/USDT')]);
    all.tick(1000);
    alone.tick(1000);
    expect(alone.price('ETH/USDT')).toBe(all.price('ETH/USDT'));
  });

  it('refuses unknown symbols, bad seeds and bad tick counts', () => {
    const market = createMarket(1);
    expect(market.market('FOO/USDT')).toBeUndefined();
    expect(() => market.price('FOO/USDT')).toThrow(RangeError);
    expect(() => createMarket(1.5)).toThrow(RangeError);
    expect(() => market.tick(-1)).toThrow(RangeError);
  });

  it('exposes only positive prices on the tick grid, for any seed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (seed) => {
        const market = createMarket(seed);
        for (let i = 0; i < 100; i += 1) {
          market.tick(10);
          for (const m of PAPER_MARKETS) {
            const price = market.price(m.symbol);
            const digits = price.split('.')[1]?.length ?? 0;
            // Plain notation with exactly the tick's decimals, positive, a multiple of the tick.
            const ok = /^\d+(\.\d+)?$/.test(price) && digits === (m.tickSize.split('.')[1]?.length ?? 0) && new Big(price).gt(0) && isOnStep(price, m.tickSize);
            if (!ok) throw new Error(`${m.symbol} at ${price}`);
          }
        }
      }),
      { numRuns: 25 },
    );
  });

  it('never shows a price <= 0, even for a one-tick coin in a wild market', () => {
    const penny: PaperMarket = { ...marketOf('SHIB/USDT'), symbol: 'PENNY/USDT', base: 'PENNY', startPrice: '0.00000002', annualVolatility: 400 };
    const market = createMarket(3, DEFAULT_START_MS, [penny]);
    let seenOneTick = false;
    for (let i = 0; i < 20_000; i += 1) {
      market.tick();
      const { last, bid, ask } = market.bestPrices('PENNY/USDT');
      if (last === '0.00000001') seenOneTick = true;
      expect(new Big(last).gt(0)).toBe(true);
      expect(new Big(bid).gt(0)).toBe(true);
      expect(new Big(ask).gt(bid)).toBe(true);
    }
    expect(seenOneTick).toBe(true);
  });

  it.each([
    [BTC, 1],
    [BTC, 2],
    ['ETH/USDT', 3],
    ['SOL/USDT', 4],
  ])('%s (seed %i) moves with its configured volatility', (symbol, seed) => {
    const market = createMarket(seed);
    const returns: number[] = [];
    let previous = Number(market.price(symbol));
    for (let i = 0; i < 20_000; i += 1) {
      market.tick();
      const price = Number(market.price(symbol));
      returns.push(Math.log(price / previous));
      previous = price;
    }
    const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
    const variance = returns.reduce((a, r) => a + (r - mean) ** 2, 0) / (returns.length - 1);
    const target = perSecondSigma(marketOf(symbol).annualVolatility);
    expect(Math.sqrt(variance) / target).toBeGreaterThan(0.8);
    expect(Math.sqrt(variance) / target).toBeLessThan(1.2);
  });
});

describe('the ticker', () => {
  it('is consistent with the last price', () => {
    const market = createMarket(8);
    market.tick(3600);
    for (const m of PAPER_MARKETS) {
      const t = market.ticker(m.symbol);
      const [last, bid, ask, high, low] = [t.last, t.bid, t.ask, t.high, t.low].map((x) => new Big(x));
      expect(t.last).toBe(market.price(m.symbol));
      expect(t.close).toBe(t.last);
      expect(bid!.lt(ask!)).toBe(true);
      expect(bid!.lte(last!) && last!.lte(ask!)).toBe(true);
      expect(low!.lte(last!) && last!.lte(high!)).toBe(true);
      for (const price of [t.bid, t.ask, t.high, t.low, t.open]) expect(isOnStep(price, m.tickSize)).toBe(true);
      // Within the first day the window opens at the start price.
      expect(t.open).toBe(m.startPrice);
      expect(new Big(t.change).eq(last!.minus(t.open))).toBe(true);
      expect(new Big(t.percentage).minus(new Big(t.change).div(t.open).times(100)).abs().lte('0.005')).toBe(true);
      expect(t.timestamp).toBe(market.now());
      expect(t.datetime).toBe(new Date(market.now()).toISOString());
      expect(new Big(t.quoteVolume).gt(0)).toBe(true);
      // A small spread: at most a few basis points (or one tick either side on a cheap coin).
      const spread = ask!.minus(bid!);
      expect(spread.lte(last!.times('0.0002').plus(new Big(m.tickSize).times(2)))).toBe(true);
    }
  });

  it('rolls a 24 hour window', () => {
    const market = createMarket(12);
    market.tick(24 * 3600 + 600);
    const t = market.ticker(BTC);
    // The start price has left the window, and the day's volume is near the configured mean.
    expect(t.open).not.toBe(marketOf(BTC).startPrice);
    const ratio = Number(t.quoteVolume) / marketOf(BTC).dailyQuoteVolume;
    expect(ratio).toBeGreaterThan(0.9);
    expect(ratio).toBeLessThan(1.1);
    expect(Number(t.baseVolume) * Number(t.last)).toBeGreaterThan(Number(t.quoteVolume) * 0.8);
  });
});
