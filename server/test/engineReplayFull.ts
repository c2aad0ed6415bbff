import Big from 'big.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { checkMoney } from './invariants';
import { BTC_MARCH_2023, addTask, replayConfig, sixLevels, trader } from './engineReplayShared';

/**
 * The one full-length replay per database: three weeks of minutes, 30,240
 * engine ticks, a transaction each. A file per database, so that the two run
 * on two workers at once (engineReplay.pglite.test.ts, engineReplay.postgres.test.ts);
 * the random paths are engineReplayProperty.ts (a file per database).
 */
export const describeFullReplay = (backend: 'pglite' | 'postgres') =>
  describe(`the engine over recorded history (${backend})`, () => {
    let server: TestServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    it('replays three weeks of BTC minutes: exact money, no take-profit loss, profit within 2 % of selling whole positions', async () => {
      server = await startServer(backend, replayConfig(BTC_MARCH_2023));
      const me = await trader(server);
      const replay = server.app.engine.market.replay!;
      // The replay waits at its first candle until a task on its pair runs.
      await server.app.engine.tick();
      expect(replay.status()).toMatchObject({ started: false, played: 1 });

      const main = await addTask(me, 'BTC/USDT', sixLevels);
      expect(main.code).toBe(0);
      // Two more tasks on the same account: one on the same coin with trailing callbacks, one on a simulated coin.
      expect((await addTask(me, 'BTC/USDT', { ...sixLevels, name: 'Trailing', takeProfitCallbackPercent: '0.3', replenishCallbackPercent: '0.5', cooldownSeconds: 600 })).code).toBe(0);
      expect((await addTask(me, 'ETH/USDT', { ...sixLevels, name: 'Simulated' })).code).toBe(0);

      for (let i = 0; i < BTC_MARCH_2023.length; i += 1) {
        await server.app.engine.tick();
        if (i % 10_000 === 9_999) await checkMoney(server);
      }
      expect(replay.status()).toMatchObject({ started: true, done: true, played: BTC_MARCH_2023.length });
      expect(server.app.engine.market.price('BTC/USDT')).toBe(BTC_MARCH_2023.at(-1)!.close);

      const report = await checkMoney(server);
      expect(report.takeProfitCycles).toBeGreaterThan(20);

      // What the six-level task booked against what its fills earn when each cycle sells its whole position.
      const taskId = main.data[0].id as string;
      const cycles = await server.db.selectFrom('cycles').selectAll().where('task_id', '=', taskId).orderBy('cycle').execute();
      const sells = await server.db.selectFrom('orders').select(['cycle', 'price']).where('task_id', '=', taskId).where('side', '=', 'sell').where('status', '=', 'closed').execute();
      const sellPrice = new Map(sells.map((o) => [o.cycle, o.price!]));
      let booked = new Big(0);
      let whole = new Big(0);
      for (const cycle of cycles) {
        booked = booked.plus(cycle.realized_profit);
        const held = new Big(cycle.quantity_sold!).plus(cycle.remainder_quantity);
        whole = whole.plus(held.times(sellPrice.get(cycle.cycle)!).times('0.999').minus(new Big(cycle.buy_cost).plus(cycle.remainder_cost)));
        expect(new Big(cycle.remainder_quantity).lt('0.00001')).toBe(true);
      }
      expect(cycles.length).toBeGreaterThan(10);
      expect(booked.gt(0)).toBe(true);
      expect(booked.minus(whole).abs().lte(whole.times('0.02'))).toBe(true);
      console.info(`six-level replay (${backend}): ${cycles.length} cycles, booked ${booked.toFixed(4)} USDT, whole positions ${whole.toFixed(4)} USDT (${booked.div(whole).times(100).toFixed(2)} %)`);
    }, 600_000);
  });
