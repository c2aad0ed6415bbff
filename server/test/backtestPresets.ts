import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SAMPLE_FROM, SAMPLE_TO, type BacktestJob, type PresetFiguresAnswer } from '../../src/api/backtest';
import { createHistory } from '../src/backtest/history';
import { createWorkerPool, type WorkerPool } from '../src/backtest/pool';
import { createBacktestService } from '../src/backtest/service';
import { registerUser, startServer, type TestServer } from './harness';
import { recordedExchange } from './recordedExchange';

const DAY = 86_400_000;
const PRESETS = '/api/strategy/backtest/presets';

/** The figures endpoint on one database (backtestPresets.pglite.test.ts, backtestPresets.postgres.test.ts: a file each, each under a minute). */
export const describeBacktestPresets = (backend: 'pglite' | 'postgres') =>
  describe(`the system templates' backtested figures (${backend})`, () => {
    let server: TestServer;
    let token: string;
    const replay = recordedExchange();
    const call = (method: string, path: string, body?: unknown, as = token) => server.call<any>(method, path, body, { token: as });

    beforeEach(async () => {
      server = await startServer(backend, {}, { exchangeFactory: replay.factory });
      token = (await registerUser(server, { email: 'presets@example.com' })).accessToken;
    });
    afterEach(async () => server.close());

    it('gives each system template the figures a backtest of it on the same candles gives, and says which candles', async () => {
      expect((await server.call('GET', `${PRESETS}?symbol=BTC/USDT`)).status).toBe(401);
      const answer = await call('GET', `${PRESETS}?symbol=BTC/USDT&days=3`);
      expect(answer.body.code).toBe(0);
      const data = answer.body.data as PresetFiguresAnswer;
      expect(data).toMatchObject({ symbol: 'BTC/USDT', source: 'sample', exchange: null, interval: 60_000, from: SAMPLE_TO - 3 * DAY, to: SAMPLE_TO, candles: 3 * 1440, firstOrderAmount: '10' });
      const system = (await call('GET', '/api/trade/config-templates')).body.data as { id: string; name: string }[];
      expect(data.presets.map((p) => [p.strategyId, p.name])).toEqual(system.map((t) => [t.id, t.name]));
      expect(data.presets.map((p) => p.name)).toEqual(['conservative', 'balanced', 'aggressive']);

      for (const preset of data.presets) {
        const run = await call('POST', '/api/strategy/backtest', {
          strategyId: preset.strategyId,
          symbol: 'BTC/USDT',
          source: { kind: 'sample' },
          from: String(SAMPLE_TO - 3 * DAY),
          to: String(SAMPLE_TO),
          firstOrderAmount: '10',
        });
        let job = run.body.data as BacktestJob;
        while (job.status !== 'done') {
          expect(['queued', 'loading', 'running']).toContain(job.status);
          await new Promise((resolve) => setTimeout(resolve, 40));
          job = (await call('GET', `/api/strategy/backtest/${job.id}`)).body.data;
        }
        expect(preset.figures, preset.name).toEqual(job.result!.figures);
        expect(preset.settings).toEqual(job.result!.settings);
        // The market its ladder is checked against in the wizard (its minimums) and the period's last close.
        expect(data.market).toEqual(job.result!.market);
        expect(data.lastPrice).toBe(job.result!.chart.candles.at(-1)![4]);
        for (const key of ['returnPercent', 'annualizedReturnPercent', 'maxDrawdownPercent', 'holdReturnPercent'] as const) expect(preset.figures[key]).toMatch(/^-?\d+(\.\d+)?$/);
      }
      // They differ from template to template (the ladders do).
      expect(new Set(data.presets.map((p) => p.figures.maxFundsInUse)).size).toBe(3);

      // The whole sample when the period is longer than it; a second user the same day gets the same computation.
      const whole = (await call('GET', `${PRESETS}?symbol=BTC/USDT`)).body.data as PresetFiguresAnswer;
      expect(whole).toMatchObject({ from: SAMPLE_FROM, to: SAMPLE_TO, candles: 30_240 });
      const other = (await registerUser(server, { email: 'second@example.com' })).accessToken;
      expect((await call('GET', `${PRESETS}?symbol=BTC/USDT`, undefined, other)).body.data).toEqual(whole);
    });

    it('refuses a bad pair or period with catalogue codes, and counts nothing', async () => {
      const refused = async (query: string, code: number, data?: Record<string, unknown>) => {
        const answer = await call('GET', `${PRESETS}?${query}`);
        expect(answer.body, query).toMatchObject({ code, ...(data ? { data } : {}) });
      };
      await refused('', 10000);
      await refused('symbol=btcusdt', 10003);
      await refused('symbol=ETH/USDT', 10008, { field: 'symbol' });
      await refused('symbol=BTC/USDT&days=0', 10002);
      await refused('symbol=BTC/USDT&days=366', 10002);
      await refused('symbol=BTC/USDT&days=abc', 10001);
      await refused('symbol=BTC/USDT&source=upload', 10008);
      await refused('symbol=BTC/USDT&source=exchange', 10000, { field: 'exchange' });
      await refused('symbol=BTC/USDT&source=exchange&exchange=nope', 30100);
      await refused('symbol=BTC/USDT&source=exchange&exchange=paper', 20001);
      // Localized by the catalogue in the browser: the server says which field.
      const { id } = (await call('GET', '/api/user/me')).body.data;
      const counted = await server.db.selectFrom('throttle_counters').select('count').where('key', '=', `backtest:${id}`).execute();
      expect(counted.reduce((n, row) => n + Number(row.count), 0)).toBe(0);
      expect(replay.requests).toEqual([]);
    });

    it('computes once per pair, period and day: a cache hit or a concurrent ask runs nothing more', async () => {
      const pool = createWorkerPool({ log: server.app.log });
      let runs = 0;
      const counting: WorkerPool = { ...pool, run: (request) => ((runs += 1), pool.run(request)) };
      let now = Date.UTC(2026, 10, 27, 6);
      const service = createBacktestService({
        db: server.db,
        log: server.app.log,
        pool: counting,
        history: createHistory({ db: server.db, createExchange: replay.factory }),
        throttle: server.app.throttle,
        paperMarkets: server.app.engineFacade.paperMarkets,
        exchangeKind: () => 'real',
        uploadsPerUser: 1,
        uploadsTotal: 1,
        now: () => now,
      });
      try {
        const query = { symbol: 'BTC/USDT', source: 'sample' as const, days: 3 };
        const [a, b] = await Promise.all([service.presets('user-a', query), service.presets('user-b', query)]);
        expect(runs).toBe(1);
        expect(b).toEqual(a);
        now += 3_600_000;
        expect(await service.presets('user-c', query)).toEqual(a);
        expect(runs).toBe(1);
        // Another period is another computation; the next day computes again.
        await service.presets('user-a', { ...query, days: 2 });
        expect(runs).toBe(2);
        now += DAY;
        const tomorrow = await service.presets('user-a', query);
        expect(runs).toBe(3);
        expect(tomorrow.presets).toEqual(a.presets);
        expect(tomorrow.computedAt).not.toBe(a.computedAt);
        // A refusal runs nothing and is not kept.
        await expect(service.presets('user-a', { ...query, symbol: 'ETH/USDT' })).rejects.toMatchObject({ code: 10008 });
        expect(runs).toBe(3);
      } finally {
        await service.close();
      }
    });
  });
