import Big from 'big.js';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Candle } from '../src/engine/core/candles';
import { startServer, type TestServer } from './harness';
import { checkMoney } from './invariants';
import { addTask, replayConfig, trader } from './engineReplayShared';

export const describeRandomPaths = (backend: 'pglite' | 'postgres') =>
  describe(`the engine on random price paths (${backend})`, () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('keeps the money exact on random price paths (fast-check)', async () => {
    const candlesArb = fc
      .record({
        start: fc.integer({ min: 2_000_000, max: 4_000_000 }),
        moves: fc.array(fc.oneof({ weight: 8, arbitrary: fc.integer({ min: -40, max: 40 }) }, { weight: 1, arbitrary: fc.integer({ min: -400, max: 400 }) }), { minLength: 150, maxLength: 400 }),
        drift: fc.integer({ min: -3, max: 3 }),
      })
      .map(({ start, moves, drift }) => {
        // Prices in cents around 20 000 - 40 000 USDT, moves in basis points.
        let cents = start;
        return moves.map((move, i): Candle => {
          cents = Math.max(100_000, Math.round((cents * (10_000 + move + drift)) / 10_000));
          const close = (cents / 100).toFixed(2);
          return { time: Date.UTC(2024, 0, 1) + i * 60_000, open: close, high: close, low: close, close, volume: '1' };
        });
      });
    const strategyArb = fc.record({
      takeProfitPercent: fc.constantFrom('0.3', '0.6', '1', '2'),
      // At 0.3 % a callback above 0.02 % would fall under the fee floor (0.25 %), which the server refuses.
      takeProfitCallbackPercent: fc.constantFrom('0', '0.02'),
      replenishCallbackPercent: fc.constantFrom('0', '0.1'),
      firstDrop: fc.constantFrom('0.2', '0.5', '1'),
      multiple: fc.constantFrom('1', '1.5', '2'),
      stopLoss: fc.constantFrom(null, '30'),
    });
    let cyclesSeen = 0;
    await fc.assert(
      fc.asyncProperty(candlesArb, strategyArb, fc.constantFrom('10', '12.34', '25'), async (candles, s, firstOrderAmount) => {
        server = await startServer(backend, replayConfig(candles));
        try {
          const me = await trader(server);
          const drop = new Big(s.firstDrop);
          const strategy = {
            name: 'Random',
            levels: [1, 2, 3].map((n) => ({ dropPercent: drop.times(n * n).toFixed(), multiple: new Big(s.multiple).pow(n - 1).toFixed() })),
            takeProfitPercent: s.takeProfitPercent,
            takeProfitCallbackPercent: s.takeProfitCallbackPercent,
            replenishCallbackPercent: s.replenishCallbackPercent,
            stopLossPercent: s.stopLoss,
            cooldownSeconds: 0,
          };
          expect((await addTask(me, 'BTC/USDT', strategy, firstOrderAmount)).code).toBe(0);
          // The second sells in two targets (half at the take profit, the rest at twice it) with the break-even after the first.
          const targets = [
            { sharePercent: '50', profitPercent: s.takeProfitPercent, trailing: s.takeProfitCallbackPercent !== '0' },
            { sharePercent: '50', profitPercent: new Big(s.takeProfitPercent).times(2).toFixed(), trailing: s.takeProfitCallbackPercent !== '0' },
          ];
          expect((await addTask(me, 'BTC/USDT', { ...strategy, name: 'Second', takeProfitTargets: targets, breakEven: true }, '15')).code).toBe(0);
          for (let i = 0; i < candles.length; i += 1) await server.app.engine.tick();
          cyclesSeen += (await checkMoney(server)).cycles;
        } finally {
          await server.close();
          server = undefined;
        }
      }),
      { numRuns: backend === 'pglite' ? 12 : 6, seed: 20261124 },
    );
    // The paths trade: cycles close (and the money stays exact through them).
    expect(cyclesSeen).toBeGreaterThan(10);
  }, 600_000);
});
