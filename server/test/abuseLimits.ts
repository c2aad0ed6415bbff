import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/api/errors';
import { rollUpCandles } from '../src/engine/candleRollup';
import { addPaperTask, registerUser, startServer, type TestServer } from './harness';

/**
 * Issue 26: limits no user can turn against another. A stranger's wrong
 * passwords slow the stranger, not the owner; HEAD answers a refusal as GET
 * does; paper accounts are capped; candles are read by window and old minutes
 * rolled up; every candle upload counts.
 * One server per file (the tests use their own users and addresses).
 */

const PASSWORD = 'Sturdy-Passw0rd!';
const from = (ip: string) => ({ headers: { 'X-Forwarded-For': ip } });
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

export const describeAbuseLimits = (backend: 'pglite' | 'postgres') => {
  describe(`limits nobody can turn against others (${backend})`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer(backend, { trustProxy: true, paperAccountsMax: 3 });
    }, 120_000);
    afterAll(async () => server?.close());

    it("a stranger's wrong passwords slow the stranger's address, not the owner's login from another", async () => {
      await registerUser(server, { email: 'owner@example.com' });
      const login = (ip: string, password: string) => server.call('POST', '/api/user/login', { email: 'owner@example.com', password }, from(ip));
      for (let attempt = 0; attempt < 5; attempt++) {
        expect([ErrorCode.PASSWORD_ERROR, ErrorCode.TOO_MANY_REQUESTS]).toContain((await login('203.0.113.9', `Wrong-Passw0rd-${attempt}`)).body.code);
      }
      // The stranger's last failure was just now: from that address even the right password waits.
      await server.db.updateTable('login_failures').set({ last_failure_at: new Date() }).execute();
      const slowed = await login('203.0.113.9', PASSWORD);
      expect(slowed.body.code).toBe(ErrorCode.TOO_MANY_REQUESTS);
      expect(slowed.body.data.retryAfter).toBeGreaterThanOrEqual(1);
      expect(slowed.body.data.retryAfter).toBeLessThanOrEqual(900);
      // The owner, at home, logs in.
      const owner = await login('198.51.100.7', PASSWORD);
      expect(owner.body.code).toBe(0);
    });

    it('answers HEAD as GET, refusal code included, for a widget token', async () => {
      const session = await registerUser(server, { email: 'widgets@example.com' });
      const grant = (await server.call('POST', '/api/user/widget-token', { name: 'Blog', origin: 'https://blog.example' }, { token: session.accessToken })).body.data;
      const cases: [string, string | undefined, number][] = [
        ['/api/user/me', undefined, ErrorCode.UNAUTHORIZED],
        ['/api/wallet/balances', 'https://evil.example', ErrorCode.UNAUTHORIZED],
        ['/api/wallet/balances', undefined, 0],
      ];
      for (const [path, origin, code] of cases) {
        const headers: Record<string, string> = { Authorization: `Bearer ${grant.embedToken}`, ...(origin ? { Origin: origin } : {}) };
        const get = await fetch(`${server.base}${path}`, { headers });
        expect(((await get.json()) as { code: number }).code).toBe(code);
        const head = await fetch(`${server.base}${path}`, { method: 'HEAD', headers });
        const seen = (answer: Response) => ({ status: answer.status, code: answer.headers.get('x-answer-code'), length: answer.headers.get('content-length') });
        expect({ path, ...seen(head), body: await head.text() }).toEqual({ path, ...seen(get), body: '' });
        expect(head.headers.get('x-answer-code')).toBe(code === 0 ? null : String(code));
      }
    });

    it('caps the paper accounts of a user, concurrent adds included, with 10010 and the limit', async () => {
      const session = await registerUser(server, { email: 'papers@example.com' });
      const add = (name: string) => server.call('POST', '/api/exchange/add', { exchange: 'paper', name }, { token: session.accessToken });
      const count = async () =>
        Number((await server.db.selectFrom('exchange_accounts').select((eb) => eb.fn.countAll<string>().as('n')).where('user_id', '=', session.user.id).executeTakeFirstOrThrow()).n);
      while ((await count()) < 2) expect((await add(`Paper ${await count()}`)).body.code).toBe(0);
      const answers = await Promise.all(['A', 'B', 'C'].map((name) => add(`Race ${name}`)));
      expect(answers.map((answer) => answer.body.code).sort()).toEqual([0, ErrorCode.LIMIT_REACHED, ErrorCode.LIMIT_REACHED]);
      const refused = answers.find((answer) => answer.body.code !== 0)!;
      expect(refused.body.data).toMatchObject({ max: 3 });
      expect(await count()).toBe(3);
    });

    it('reads candles by window, grouped in the database, and rolls minutes beyond their days up into hours', async () => {
      const session = await registerUser(server, { email: 'charts@example.com', activated: true });
      const taskId = await addPaperTask(server, session.accessToken);
      const symbol = 'BTC/USDT';
      // Ten days of minutes, ending an hour ago: values that differ minute to minute.
      const end = Math.floor(Date.now() / HOUR) * HOUR - HOUR;
      const start = end - 10 * DAY;
      await server.db.deleteFrom('paper_candles').where('symbol', '=', symbol).execute();
      await server.db.deleteFrom('paper_candles_hourly').where('symbol', '=', symbol).execute();
      await sql`
          insert into paper_candles (symbol, minute, open, high, low, close, volume)
          select ${symbol}, ${start}::bigint + i * ${MINUTE}::bigint, 100 + i % 7, 120 + i % 13, 80 - i % 5, 100 + i % 11, 0.5
          from generate_series(0, ${10 * 24 * 60 - 1}) as i`.execute(server.db);
      const ohlcv = async (timeframe: string, limit: number) => {
        const answer = await server.call('GET', `/api/trade/ohlcv?taskId=${taskId}&timeframe=${timeframe}&limit=${limit}`, undefined, { token: session.accessToken });
        expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
        return answer.body.data.candles as { time: number; open: string; high: string; low: string; close: string; volume: string }[];
      };
      const minutes = await ohlcv('1m', 3);
      expect(minutes.map((c) => c.time)).toEqual([end - 3 * MINUTE, end - 2 * MINUTE, end - MINUTE]);
      const i = (end - MINUTE - start) / MINUTE;
      expect(minutes[2]).toEqual({ time: end - MINUTE, open: String(100 + (i % 7)), high: String(120 + (i % 13)), low: String(80 - (i % 5)), close: String(100 + (i % 11)), volume: '0.5' });
      const hours = await ohlcv('1h', 5);
      expect(hours.map((c) => c.time)).toEqual([5, 4, 3, 2, 1].map((n) => end - n * HOUR));
      expect(hours.every((c) => c.volume === '30' && c.high === '132' && c.low === '76')).toBe(true);
      const daysBefore = await ohlcv('1d', 20);
      expect(daysBefore.length).toBeGreaterThanOrEqual(10);

      // Minutes older than 7 days become hourly candles; the charts say the same as before.
      expect(await rollUpCandles(server.db, 7, end + HOUR)).toBeGreaterThan(0);
      const oldest = await server.db.selectFrom('paper_candles').select((eb) => eb.fn.min('minute').as('first')).where('symbol', '=', symbol).executeTakeFirstOrThrow();
      expect(Number(oldest.first)).toBeGreaterThanOrEqual(end + HOUR - 7 * DAY - HOUR);
      const hourly = await server.db.selectFrom('paper_candles_hourly').select((eb) => eb.fn.countAll<string>().as('n')).where('symbol', '=', symbol).executeTakeFirstOrThrow();
      expect(Number(hourly.n)).toBeGreaterThanOrEqual(3 * 24 - 1);
      expect(await ohlcv('1d', 20)).toEqual(daysBefore);
      expect(await ohlcv('1h', 5)).toEqual(hours);
      expect(await ohlcv('1m', 3)).toEqual(minutes);
      // A second run finds nothing more to roll up.
      expect(await rollUpCandles(server.db, 7, end + HOUR)).toBe(0);
    });

    it('counts every candle upload against the hourly limit, refused ones too', async () => {
      const session = await registerUser(server, { email: 'uploader@example.com' });
      const upload = (csv: string) => server.call('POST', '/api/strategy/backtest/candles', { name: 'c.csv', csv }, { token: session.accessToken });
      for (let attempt = 0; attempt < 20; attempt++) expect((await upload(`1678492800000,1,2,0.5,1.5,x${attempt}`)).body.code).toBe(ErrorCode.PARAM_FORMAT);
      const good = await upload('1678492800000,1,2,0.5,1.5,3\n1678492860000,1,2,0.5,1.5,3');
      expect(good.body.code).toBe(ErrorCode.TOO_MANY_REQUESTS);
      expect(good.body.data.retryAfter).toBeGreaterThan(0);
    });
  });
};
