import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Big from 'big.js';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { candleInterval, parseCandlesCsv, type Candle } from '../src/engine/candles';
import type { ServerConfig } from '../src/config';
import { BACKENDS, registerUser, startServer, type TestServer } from './harness';
import { checkMoney } from './invariants';
import { SIX_LEVELS } from './ladders';

/** Three weeks of BTC/USDT minutes (server/market-data, with its source note): -15 % then +45 %. */
const BTC_MARCH_2023 = parseCandlesCsv(readFileSync(join(process.cwd(), 'server', 'market-data', 'BTCUSDT-1m-2023-03-01_2023-03-21.csv'), 'utf8'));

/** The ladder the issue names: six levels, drops 2/4/7/11/16/22 %, multiples x1.5, take profit 1.5 %, no callbacks. */
const sixLevels = {
  name: 'Six levels',
  levels: SIX_LEVELS,
  takeProfitPercent: '1.5',
  takeProfitCallbackPercent: '0',
  replenishCallbackPercent: '0',
  stopLossPercent: null,
  cooldownSeconds: 0,
};

const replayConfig = (candles: Candle[]): Partial<ServerConfig> => ({
  paperReplay: { file: 'test', symbol: 'BTC/USDT', speed: 'max', candles, interval: candleInterval(candles) },
});

interface Trader {
  call: (method: string, path: string, body?: unknown) => Promise<{ body: { code: number; data: any } }>;
  exchangeId: string;
}

const trader = async (server: TestServer): Promise<Trader> => {
  const { accessToken } = await registerUser(server, { email: 'replay@example.com', activated: true });
  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token: accessToken });
  const exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper' })).body.data.id as string;
  return { call, exchangeId };
};

const addTask = async ({ call, exchangeId }: Trader, symbol: string, strategy: Record<string, unknown>, firstOrderAmount = '10') => {
  const added = await call('POST', '/api/strategy/add', strategy);
  expect(added.body).toMatchObject({ code: 0 });
  const strategyId = added.body.data.id as string;
  const created = await call('POST', '/api/trade/add', {
    exchangeId,
    coinIdList: [symbol],
    cycleCount: 9999,
    firstOrderAmount,
    firstOrderMultiple: false,
    running: true,
    replenishStatus: 'replenish_open',
    strategyId,
  });
  return created.body;
};

describe.each(BACKENDS)('the engine over recorded history (%s)', (backend) => {
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
          expect((await addTask(me, 'BTC/USDT', { ...strategy, name: 'Second' }, '15')).code).toBe(0);
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
