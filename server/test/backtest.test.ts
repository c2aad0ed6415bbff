import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Big from 'big.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BacktestJob } from '../../src/api/backtest';
import { SAMPLE_FROM } from '../../src/api/backtest';
import binanceOrders from './fixtures/binance-orders.json';
import { BACKENDS, registerUser, startServer, type TestServer } from './harness';
import { recordedExchange, type RecordedAnswer } from './recordedExchange';

const BALANCED = '00000000-0000-4000-8000-000000000002';
const SAMPLE = join(import.meta.dirname, '..', 'market-data', 'BTCUSDT-1m-2023-03-01_2023-03-21.csv');
const DAY = 86_400_000;
const settings = {
  levels: [
    { dropPercent: '2', multiple: '1' },
    { dropPercent: '4', multiple: '1.5' },
    { dropPercent: '7', multiple: '2.25' },
  ],
  takeProfitPercent: '1.5',
  takeProfitCallbackPercent: '0',
  replenishCallbackPercent: '0',
  stopLossPercent: null,
  cooldownSeconds: 0,
};
const sampleRun = { settings, symbol: 'BTC/USDT', source: { kind: 'sample' }, firstOrderAmount: '10' };

describe.each(BACKENDS)('backtests over the API (%s)', (backend) => {
  let server: TestServer;
  let token: string;
  const replay = recordedExchange();
  const call = (method: string, path: string, body?: unknown, as = token) => server.call<any>(method, path, body, { token: as });

  /** Polls a run until it is no longer queued, loading or running; returns every answer seen. */
  const settle = async (job: BacktestJob) => {
    const seen = [job];
    let current = job;
    while (['queued', 'loading', 'running'].includes(current.status)) {
      await new Promise((resolve) => setTimeout(resolve, 40));
      current = (await call('GET', `/api/strategy/backtest/${job.id}`)).body.data;
      seen.push(current);
    }
    return { job: current, seen };
  };
  const runs = async () => Number((await server.db.selectFrom('backtest_runs').select(server.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  beforeEach(async () => {
    server = await startServer(backend, {}, { exchangeFactory: replay.factory });
    token = (await registerUser(server, { email: 'tester@example.com' })).accessToken;
  });
  afterEach(async () => server.close());

  it('backtests a system template on the bundled sample and keeps the report', async () => {
    expect((await server.call('POST', '/api/strategy/backtest', { ...sampleRun })).status).toBe(401);
    const started = await call('POST', '/api/strategy/backtest', { strategyId: BALANCED, symbol: 'BTC/USDT', source: { kind: 'sample' }, firstOrderAmount: '10', fill: 'ohlc' });
    expect(started.body.code).toBe(0);
    const { job } = await settle(started.body.data);
    expect(job).toMatchObject({ status: 'done', error: null, progress: { done: 30_240, total: 30_240 } });
    const report = job.result!;
    expect(report).toMatchObject({ symbol: 'BTC/USDT', candles: 30_240, interval: 60_000, from: SAMPLE_FROM, fill: 'ohlc', variants: null });
    // The pair's rules on the paper exchange.
    expect(report.market).toEqual({ feeRate: '0.001', feeAsset: 'received', amountStep: '0.00001', minAmount: '0.00001', minCost: '5' });
    // The tick its prices are on, for the pages to show them to: the market's cent.
    expect(report.tickSize).toBe('0.01');
    for (const trade of report.trades) expect(trade.price).toMatch(/^\d+(\.\d{1,2})?$/);
    expect(report.settings.takeProfitPercent).toBe('1.5');
    const f = report.figures;
    expect(f.cycles).toBeGreaterThan(10);
    expect(f.buys).toBe(report.trades.filter((t) => t.side === 'buy').length);
    expect(report.cycles).toHaveLength(f.cycles);
    expect(report.cycles.reduce((sum, c) => sum.plus(c.profit), new Big(0)).eq(f.realizedProfit)).toBe(true);
    // Take-profit exits never book a loss.
    expect(report.cycles.every((c) => c.exitReason === 'take_profit' && new Big(c.profit).gt(0))).toBe(true);
    expect(new Big(f.maxFundsInUse).gt(10)).toBe(true);
    expect(report.chart.candles.length).toBeLessThanOrEqual(1500);
    expect(report.chart.equity).toHaveLength(report.chart.candles.length);
    // The same run, read again later.
    expect((await call('GET', `/api/strategy/backtest/${job.id}`)).body.data.result.figures).toEqual(f);
  });

  it('ranks variants of a template by the chosen figure', async () => {
    const variants = ['1', '2', '3'].map((takeProfitPercent) => ({ takeProfitPercent, label: `TP ${takeProfitPercent}` }));
    const started = await call('POST', '/api/strategy/backtest', { ...sampleRun, variants, rankBy: 'realizedProfit', from: '2023-03-08T00:00:00Z', to: '2023-03-15T00:00:00Z' });
    const { job } = await settle(started.body.data);
    expect(job.status).toBe('done');
    const ranked = job.result!.variants!;
    expect(ranked.map((v) => v.index).sort()).toEqual([0, 1, 2, 3]);
    for (let i = 1; i < ranked.length; i++) expect(new Big(ranked[i - 1]!.figures.realizedProfit).gte(ranked[i]!.figures.realizedProfit)).toBe(true);
    expect(ranked.find((v) => v.index === 3)).toMatchObject({ label: 'TP 3', settings: { takeProfitPercent: '3', levels: settings.levels } });
    expect(job.result).toMatchObject({ candles: 7 * 1440, rankBy: 'realizedProfit' });
  });

  it('compares a variant with an RSI start and one without, replays alerts, and refuses an alert without a time', async () => {
    const conditions = { start: { mode: 'all', conditions: [{ kind: 'rsi', period: 14, timeframe: '1h', op: 'below', value: '30' }] } };
    const week = { from: '2023-03-08T00:00:00Z', to: '2023-03-15T00:00:00Z' };
    const refused = await call('POST', '/api/strategy/backtest', { ...sampleRun, ...week, alerts: [{ time: 'soon', action: 'start_cycle' }] });
    expect(refused.body).toMatchObject({ code: 10003, data: { field: 'alerts', alert: 1 } });
    const started = await call('POST', '/api/strategy/backtest', {
      ...sampleRun,
      ...week,
      variants: [{ label: 'RSI<30', conditions }],
      alerts: [{ time: '2023-03-08T00:10:00Z', action: 'close_position' }],
    });
    const { job } = await settle(started.body.data);
    expect(job.status).toBe('done');
    const [plain, rsi] = [0, 1].map((index) => job.result!.variants!.find((v) => v.index === index)!);
    expect(plain!.settings).not.toHaveProperty('conditions');
    expect(rsi).toMatchObject({ label: 'RSI<30', settings: { conditions } });
    expect(rsi!.figures.cycles).toBeLessThan(plain!.figures.cycles);
    // The close alert sold the first cycle's position at 00:10.
    expect(job.result!.trades[1]).toMatchObject({ side: 'sell', reason: 'signal', time: Date.parse('2023-03-08T00:10:00Z') });
  });

  /** Starts a run without waiting for the answer (which waits for short runs to finish): its id, once stored, and the answer. */
  const startInBackground = async (body: unknown) => {
    const known = new Set((await server.db.selectFrom('backtest_runs').select('id').execute()).map((r) => r.id));
    const answer = call('POST', '/api/strategy/backtest', body);
    for (;;) {
      const row = (await server.db.selectFrom('backtest_runs').select('id').execute()).find((r) => !known.has(r.id));
      if (row) return { id: row.id, answer };
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const long = { ...sampleRun, fill: 'ohlc', variants: Array.from({ length: 50 }, (_, i) => ({ takeProfitPercent: String(1 + i / 20) })) };

  it('runs in a worker thread: the API answers while it computes, with its progress', async () => {
    const { id, answer } = await startInBackground(long);
    const { job, seen } = await settle({ id, status: 'queued' } as BacktestJob);
    expect(job.status).toBe('done');
    // Answers came back while the run was computing, each further along.
    const during = seen.filter((s) => s.status === 'running' && s.progress.done > 0 && s.progress.done < s.progress.total).map((s) => s.progress.done);
    expect(new Set(during).size).toBeGreaterThan(1);
    expect(during).toEqual([...during].sort((a, b) => a - b));
    expect(job.progress).toEqual({ done: 51 * 30_240, total: 51 * 30_240 });
    expect((await answer).body.data.id).toBe(id);
  });

  it('ends the run before when a new one starts, and stops a run when asked', async () => {
    const first = await startInBackground(long);
    const second = await startInBackground(long);
    expect((await first.answer).body.data.status).toBe('canceled');
    expect((await call('GET', `/api/strategy/backtest/${first.id}`)).body.data.status).toBe('canceled');
    const stopped = await call('POST', '/api/strategy/backtest/cancel', { id: second.id });
    expect(stopped.body.data).toMatchObject({ status: 'canceled', result: null });
    // Another user cannot see it.
    const other = (await registerUser(server, { email: 'other@example.com' })).accessToken;
    expect((await call('GET', `/api/strategy/backtest/${second.id}`, undefined, other)).body.code).toBe(10006);
    expect((await call('POST', '/api/strategy/backtest/cancel', { id: second.id }, other)).body.code).toBe(10006);
  });

  it('says so when a run was left by a server that stopped', async () => {
    const { id: userId } = (await call('GET', '/api/user/me')).body.data;
    const row = await server.db
      .insertInto('backtest_runs')
      .values({ user_id: userId, status: 'running', done: 10, total: 100, request: JSON.stringify(sampleRun), updated_at: new Date(Date.now() - 10 * 60_000) })
      .returning('id')
      .executeTakeFirstOrThrow();
    const left = (await call('GET', `/api/strategy/backtest/${row.id}`)).body.data;
    expect(left).toMatchObject({ status: 'failed', error: { code: 20002, data: { reason: 'interrupted' } } });
    expect((await server.db.selectFrom('backtest_runs').select('status').where('id', '=', row.id).executeTakeFirstOrThrow()).status).toBe('failed');
  });

  it('refuses bad requests with catalogue codes and stores nothing', async () => {
    const refused = async (body: unknown, code: number, data?: Record<string, unknown>) => {
      const answer = await call('POST', '/api/strategy/backtest', body);
      expect(answer.status, JSON.stringify(body)).toBe(200);
      expect(answer.body, JSON.stringify(body)).toMatchObject({ code, ...(data ? { data } : {}) });
    };
    await refused({ ...sampleRun, symbol: undefined }, 10000, { field: 'symbol' });
    await refused({ symbol: 'BTC/USDT', source: { kind: 'sample' }, firstOrderAmount: '10' }, 10000, { field: 'strategyId' });
    await refused({ ...sampleRun, firstOrderAmount: 10 }, 10001);
    await refused({ ...sampleRun, firstOrderAmount: '0' }, 10002);
    await refused({ ...sampleRun, fill: 'vwap' }, 10008);
    await refused({ ...sampleRun, extra: 1 }, 10008);
    await refused({ ...sampleRun, variants: Array.from({ length: 51 }, () => ({})) }, 10005);
    await refused({ ...sampleRun, settings: { ...settings, levels: [{ dropPercent: '4', multiple: '1' }, { dropPercent: '2', multiple: '1' }] } }, 10008, { code: 'drops_increase', level: 2 });
    await refused({ ...sampleRun, variants: [{}, { takeProfitPercent: '0.1' }] }, 10008, { variant: 2, code: 'take_profit_floor' });
    await refused({ ...sampleRun, settings: undefined, strategyId: '00000000-0000-4000-8000-0000000000aa' }, 13001);
    await refused({ ...sampleRun, strategyId: BALANCED }, 10008, { field: 'settings' });
    await refused({ ...sampleRun, symbol: 'ETH/USDT' }, 10008, { field: 'symbol' });
    await refused({ ...sampleRun, from: 'yesterday' }, 10003, { field: 'from' });
    await refused({ ...sampleRun, from: '2023-03-10', to: '2023-03-09' }, 10002, { field: 'from' });
    await refused({ ...sampleRun, from: '2024-01-01' }, 10002);
    await refused({ ...sampleRun, source: { kind: 'upload', id: '00000000-0000-4000-8000-0000000000bb' } }, 10006);
    await refused({ ...sampleRun, source: { kind: 'upload' } }, 10000);
    await refused({ ...sampleRun, source: { kind: 'exchange', exchange: 'nope' } }, 30100);
    await refused({ ...sampleRun, source: { kind: 'exchange', exchange: 'kraken' } }, 30101);
    await refused({ ...sampleRun, source: { kind: 'exchange', exchange: 'paper' } }, 20001);
    await refused({ ...sampleRun, source: { kind: 'exchange', exchange: 'binance', interval: '1m' }, from: '2020-01-01', to: '2022-01-01' }, 10002, { limit: 525_600 });
    await refused({ ...sampleRun, source: { kind: 'exchange', exchange: 'binance', interval: '1m' }, from: '2021-01-01', to: '2021-12-01', variants: Array.from({ length: 50 }, () => ({})) }, 10002, { field: 'variants' });
    await refused({ ...sampleRun, market: { feeRate: '1.5' } }, 10003);
    await refused({ ...sampleRun, market: { amountStep: '0' } }, 10002, { field: 'market.amountStep' });
    const malformed = await server.call('POST', '/api/strategy/backtest', undefined, { token, raw: '{"symbol":' });
    expect(malformed).toMatchObject({ status: 400, body: { code: 10003 } });
    expect(await runs()).toBe(0);
    expect(replay.requests).toEqual([]);
  });

  it('limits backtests per user', async () => {
    const { id } = (await call('GET', '/api/user/me')).body.data;
    await server.db.insertInto('throttle_counters').values({ key: `backtest:${id}`, window_seconds: 600, count: 30 }).execute();
    const answer = await call('POST', '/api/strategy/backtest', sampleRun);
    expect(answer.body).toMatchObject({ code: 10009, data: { retryAfter: expect.any(Number) } });
    expect(await runs()).toBe(0);
  });

  it('backtests an uploaded candle file, and refuses a malformed one with its line', async () => {
    const lines = readFileSync(SAMPLE, 'utf8').trim().split('\n');
    // Binance's full klines layout (12 columns, times in ms), no header: two days of the sample.
    const csv = lines
      .slice(1 + 8 * 1440, 1 + 10 * 1440)
      .map((line) => {
        const [time, ...rest] = line.split(',');
        return [Date.parse(time!.replace(' ', 'T')), ...rest, Date.parse(time!.replace(' ', 'T')) + 59_999, '0', '10', '0', '0', '0'].join(',');
      })
      .join('\n');
    const bad = await call('POST', '/api/strategy/backtest/candles', { name: 'bad.csv', csv: `${csv}\n1678492800000,1,2,3,x,5` });
    expect(bad.body).toMatchObject({ code: 10003, data: { field: 'csv', line: 2881 } });
    expect((await call('GET', '/api/strategy/backtest/candles')).body.data).toEqual({ list: [], total: 0 });

    const upload = await call('POST', '/api/strategy/backtest/candles', { name: 'BTCUSDT-1m-2023-03-09.csv', csv });
    expect(upload.body.data).toMatchObject({ name: 'BTCUSDT-1m-2023-03-09.csv', candles: 2880, interval: 60_000, from: SAMPLE_FROM + 8 * DAY, to: SAMPLE_FROM + 10 * DAY });
    expect((await call('GET', '/api/strategy/backtest/candles')).body.data.list).toEqual([upload.body.data]);
    const started = await call('POST', '/api/strategy/backtest', { ...sampleRun, source: { kind: 'upload', id: upload.body.data.id } });
    const { job } = await settle(started.body.data);
    expect(job).toMatchObject({ status: 'done', result: { candles: 2880, from: SAMPLE_FROM + 8 * DAY } });
    // The same minutes from the bundled sample give the same trades.
    const same = await settle((await call('POST', '/api/strategy/backtest', { ...sampleRun, from: String(SAMPLE_FROM + 8 * DAY), to: String(SAMPLE_FROM + 10 * DAY) })).body.data);
    expect(same.job.result!.trades).toEqual(job.result!.trades);
    // Another user's file does not exist for them.
    const other = (await registerUser(server, { email: 'other@example.com' })).accessToken;
    expect((await call('POST', '/api/strategy/backtest', { ...sampleRun, source: { kind: 'upload', id: upload.body.data.id } }, other)).body.code).toBe(10006);
  });

  it("backtests an exchange's history, fetched with progress, on the exchange's rules", async () => {
    const recorded = readFileSync(SAMPLE, 'utf8').trim().split('\n').slice(1);
    const from = SAMPLE_FROM + 9 * DAY;
    const klines = recorded
      .map((line) => line.split(','))
      .map(([time, ...rest]) => [Date.parse(time!.replace(' ', 'T')), ...rest] as [number, ...string[]])
      .filter(([time]) => time >= from);
    const page = (start: number): RecordedAnswer => ({
      method: 'GET',
      path: '/api/v3/klines',
      query: { startTime: String(start) },
      status: 200,
      body: klines.filter(([time]) => time >= start).slice(0, 1000).map(([time, ...v]) => [time, ...v, time + 59_999, '0', 1, '0', '0', '0']),
    });
    replay.answer(binanceOrders.exchangeInfo as RecordedAnswer, page(from), page(from + 1000 * 60_000));
    const body = { ...sampleRun, source: { kind: 'exchange', exchange: 'binance', interval: '1m' }, from: String(from), to: String(from + DAY), market: { minCost: '6' } };
    const { job, seen } = await settle((await call('POST', '/api/strategy/backtest', body)).body.data);
    expect(replay.unexpected).toEqual([]);
    expect(job).toMatchObject({ status: 'done', result: { candles: 1440, from } });
    // The pair's rules come from Binance (its BTCUSDT filters), the minimum cost from the request.
    expect(job.result!.market).toEqual({ feeRate: '0.001', feeAsset: 'received', amountStep: '0.00001', minAmount: '0.00001', minCost: '6' });
    expect(seen.every((s) => s.status !== 'failed')).toBe(true);
    // Asked again: the cached day, no request.
    const asked = replay.requests.length;
    expect((await settle((await call('POST', '/api/strategy/backtest', body)).body.data)).job.status).toBe('done');
    expect(replay.requests.length).toBe(asked);

    // A pair the exchange does not trade: the run fails with the catalogue's code.
    const missing = await settle((await call('POST', '/api/strategy/backtest', { ...body, symbol: 'DOGE/BTC' })).body.data);
    expect(missing.job).toMatchObject({ status: 'failed', error: { code: 10006 }, result: null });
  });
});
