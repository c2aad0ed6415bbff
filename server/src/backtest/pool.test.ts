import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { StrategySettings } from '../../../src/api/strategy';
import { createWorkerPool, nextJob, WorkerError, type RunInput, type WorkerPool } from './pool';

const SAMPLE = join(import.meta.dirname, '..', '..', 'market-data', 'BTCUSDT-1m-2023-03-01_2023-03-21.csv');
const settings: StrategySettings = {
  levels: [
    { dropPercent: '2', multiple: '1' },
    { dropPercent: '5', multiple: '2' },
  ],
  takeProfitPercent: '1.5',
  takeProfitCallbackPercent: '0',
  replenishCallbackPercent: '0',
  stopLossPercent: null,
  cooldownSeconds: 0,
};
const input: RunInput = {
  symbol: 'BTC/USDT',
  settings,
  firstOrderAmount: '10',
  firstOrderMultiple: false,
  cycleCount: 9999,
  market: { feeRate: '0.001', feeAsset: 'received', amountStep: '0.00001', minAmount: '0.00001', minCost: '5' },
  fill: 'close',
  variants: [],
  rankBy: 'returnPercent',
};

/** A logger that writes nothing. */
const silent = Fastify({ logger: false }).log;

let pool: WorkerPool;
afterEach(async () => pool.close());

describe('the backtest worker threads', () => {
  it('run a backtest in a thread with progress, and keep its candles for the next run', async () => {
    pool = createWorkerPool({ size: 1, log: silent });
    let loads = 0;
    const load = async () => {
      loads += 1;
      return readFileSync(SAMPLE, 'utf8');
    };
    const progress: number[] = [];
    const first = await pool.run({ key: 'sample', load, stored: false, range: {}, input, onProgress: (done) => progress.push(done) }).promise;
    expect(first).toMatchObject({ symbol: 'BTC/USDT', candles: 30_240, interval: 60_000 });
    expect(first.figures.cycles).toBeGreaterThan(5);
    expect(progress.at(-1)).toBe(30_240);
    // A week of it, with two variants: the thread parses nothing again.
    const week = await pool.run({
      key: 'sample',
      load,
      stored: false,
      range: { from: Date.UTC(2023, 2, 8), to: Date.UTC(2023, 2, 15) },
      input: { ...input, variants: [{ takeProfitPercent: '1' }, { takeProfitPercent: '2', label: 'wide' }], rankBy: 'realizedProfit' },
    }).promise;
    expect(loads).toBe(1);
    expect(week).toMatchObject({ candles: 7 * 1440, from: Date.UTC(2023, 2, 8), to: Date.UTC(2023, 2, 15) });
    expect(week.variants!.map((v) => v.index).sort()).toEqual([0, 1, 2]);
    expect(week.variants!.find((v) => v.index === 2)).toMatchObject({ label: 'wide', settings: { takeProfitPercent: '2', levels: settings.levels } });
  });

  it('refuse a range without candles and a malformed file with its line', async () => {
    pool = createWorkerPool({ size: 1, log: silent });
    const empty = pool.run({ key: 'sample', load: async () => readFileSync(SAMPLE, 'utf8'), stored: false, range: { from: Date.UTC(2024, 0, 1) }, input }).promise;
    await expect(empty).rejects.toMatchObject({ failure: { kind: 'range', candles: 0 } });
    await expect(pool.parse('open_time,open,high,low,close,volume\n1700000000000,1,2,0.5,1.5,3\n1700000060000,1,2,x,1.5,3\n')).rejects.toMatchObject({
      failure: { kind: 'format', line: 3, reason: expect.stringContaining('low') },
    });
    const parsed = await pool.parse('2023-03-01T00:00:00Z,10,11,9,10.5,1,ignored\n2023-03-01T00:02:00Z,10.5,12,10,11,2e-1\n');
    expect(parsed).toEqual({ csv: '1677628800000,10,11,9,10.5,1\n1677628920000,10.5,12,10,11,0.2', candles: 2, interval: 120_000, from: 1677628800000, to: 1677629040000 });
  });

  it('cancel a queued or running job; the next job runs on a fresh thread', async () => {
    pool = createWorkerPool({ size: 1, log: silent });
    const load = async () => readFileSync(SAMPLE, 'utf8');
    const long = pool.run({ key: 'sample', load, stored: false, range: {}, input: { ...input, variants: Array.from({ length: 20 }, () => ({ takeProfitPercent: '2' })) } });
    const queued = pool.run({ key: 'sample', load, stored: false, range: {}, input });
    expect(pool.queued()).toBe(1);
    queued.cancel();
    await expect(queued.promise).rejects.toBeInstanceOf(WorkerError);
    long.cancel();
    await expect(long.promise).rejects.toMatchObject({ failure: { kind: 'canceled' } });
    const after = await pool.run({ key: 'sample', load, stored: false, range: {}, input }).promise;
    expect(after.candles).toBe(30_240);
  });

  it("share the threads between users: a 1-day run does not wait behind another user's long runs", async () => {
    pool = createWorkerPool({ size: 1, log: silent });
    const load = async () => readFileSync(SAMPLE, 'utf8');
    const finished: string[] = [];
    const big = { ...input, variants: Array.from({ length: 8 }, () => ({ takeProfitPercent: '2' })) };
    const longs = [1, 2].map((n) =>
      pool.run({ owner: 'big', key: 'sample', load, stored: false, range: {}, input: big }).promise.then(() => finished.push(`big ${n}`)),
    );
    const day = Date.UTC(2023, 2, 2);
    const short = pool.run({ owner: 'small', key: 'sample', load, stored: false, range: { from: day, to: day + 86_400_000 }, input }).promise.then(() => finished.push('small'));
    // The other user's run gets a thread of its own at once; the big user's second run waits its turn.
    expect(pool.threads()).toBe(2);
    expect(pool.queued()).toBe(1);
    await Promise.all([...longs, short]);
    // The short run never waits for the big user's queued second run (which
    // starts only when the first has ended), however slowly its thread starts.
    expect(finished.indexOf('small')).toBeLessThan(finished.indexOf('big 2'));
    expect(pool.threads()).toBe(1);
  }, 90_000);
});

describe('the backtest queue order', () => {
  it('serves the owner with fewer jobs running first, then the one served longest ago, then the oldest job', () => {
    const queue = [
      { id: 1, owner: 'a' },
      { id: 2, owner: 'a' },
      { id: 3, owner: 'b' },
      { id: 4, owner: 'c' },
    ];
    expect(nextJob(queue, new Map(), new Map())?.id).toBe(1);
    expect(nextJob(queue, new Map([['a', 1]]), new Map())?.id).toBe(3);
    expect(nextJob(queue, new Map([['a', 1], ['b', 1]]), new Map())?.id).toBe(4);
    expect(nextJob(queue, new Map(), new Map([['a', 5], ['b', 3], ['c', 4]]))?.id).toBe(3);
    expect(nextJob([], new Map(), new Map())).toBeUndefined();
  });
});
