/**
 * Can one user's calls exhaust the server for others (issue 26)? The real
 * server runs in a child process (PGlite on disk, the engine ticking) with a
 * year of the simulator's BTC/USDT minutes, rolled up as the engine keeps
 * them (7 days of minutes, hourly candles before). Another user's
 * `GET /api/trade/ohlcv` (1h, 200 candles) is measured alone, then while one
 * abuser asks its widest candles (1d and 1m, 500 each) on 4 connections and
 * uploads 4 MB candle files on 4 more. Prints the other user's p50/p99 side
 * by side, the abuser's answers by code; exits non-zero when a count is zero.
 * Goal: p99 under abuse <= 3 x alone and <= 250 ms.
 *
 *   npm run bench:abuse
 *
 * BENCH_SECONDS sets each phase's length (default 15); BENCH_DAYS the history (default 365).
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { DEV_SIGN_SECRET, signBody } from '../src/api/signing';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const DAYS = Number(process.env.BENCH_DAYS ?? 365);
const PASSWORD = 'Abuse-Bench-Passw0rd';
const GOAL_MS = 250;
const GOAL_FACTOR = 3;

interface Ready {
  url: string;
  minutesKept: number;
  hourly: number;
}

const serve = async () => {
  const { buildApp } = await import('../server/src/app');
  const { loadConfig } = await import('../server/src/config');
  const { migrate, openDatabase } = await import('../server/src/db/database');
  const { hashPassword } = await import('../server/src/shared/passwords');
  const { rollUpCandles } = await import('../server/src/engine/candleRollup');
  const dataDir = mkdtempSync(join(tmpdir(), 'qt-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', PORT: '0', DASHBOARD_DIR: join(dataDir, 'none'), DEMO_ACCOUNT: 'false', SCRYPT_COST: '1024' });
  const db = await openDatabase({ dataDir });
  await migrate(db, 'public');
  const password_hash = await hashPassword(PASSWORD, config.scryptCost);
  await db
    .insertInto('users')
    .values(['victim', 'abuser'].map((name) => ({ email: `${name}@example.com`, nickname: name, password_hash, invite_code: name.toUpperCase().padEnd(8, 'X'), inviter_id: null, avatar: null })))
    .execute();
  const now = Math.floor(Date.now() / 60_000) * 60_000;
  const start = now - DAYS * 86_400_000;
  for (let day = 0; day < DAYS; day += 30) {
    const from = start + day * 86_400_000;
    const count = Math.min(30, DAYS - day) * 1440;
    await sql`
      insert into paper_candles (symbol, minute, open, high, low, close, volume)
      select 'BTC/USDT', ${from}::bigint + i::bigint * 60000, 30000 + i % 97, 30100 + i % 89, 29900 - i % 83, 30000 + i % 79, 1.5
      from generate_series(0, ${count - 1}) as i on conflict do nothing`.execute(db);
  }
  while ((await rollUpCandles(db, config.paperMinutesDays)) > 0);
  const kept = await db.selectFrom('paper_candles').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const hourly = await db.selectFrom('paper_candles_hourly').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const app = await buildApp(config, { db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.send!({ ready: { url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`, minutesKept: Number(kept.n), hourly: Number(hourly.n) } satisfies Ready });
  process.on('message', async (message: string) => {
    if (message === 'stop') {
      await app.close();
      await db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
  });
};

const call = async (url: string, method: string, path: string, body?: object, token?: string) => {
  const payload = body && path === '/api/user/login' ? signBody(method, path, body, DEV_SIGN_SECRET) : body;
  const answer = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(payload ? { body: JSON.stringify(payload) } : {}),
  });
  const envelope = (await answer.json()) as { code: number; data: any };
  if (envelope.code !== 0) throw new Error(`${method} ${path}: ${JSON.stringify(envelope)}`);
  return envelope.data;
};

/** A user's token and one paper task on BTC/USDT. */
const userWithTask = async (url: string, name: string) => {
  const { accessToken } = await call(url, 'POST', '/api/user/login', { email: `${name}@example.com`, password: PASSWORD });
  const exchangeId = (await call(url, 'POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper' }, accessToken)).id;
  const strategyId = (
    await call(url, 'POST', '/api/strategy/add', { name: 'Bench', levels: [{ dropPercent: '2', multiple: '1' }], takeProfitPercent: '1.5', takeProfitCallbackPercent: '0', replenishCallbackPercent: '0', stopLossPercent: null, cooldownSeconds: 5 }, accessToken)
  ).id;
  const tasks = await call(
    url,
    'POST',
    '/api/trade/add',
    { exchangeId, coinIdList: ['BTC/USDT'], cycleCount: 1, firstOrderAmount: '10', firstOrderMultiple: false, running: false, replenishStatus: 'replenish_open', strategyId },
    accessToken,
  );
  return { token: accessToken, taskId: tasks[0].id as string };
};

const counted = () => {
  const byCode: Record<string, number> = {};
  const onResponse = (status: number, body: string) => {
    let code = `HTTP ${status}`;
    try {
      code = String((JSON.parse(body) as { code: number }).code);
    } catch {}
    byCode[code] = (byCode[code] ?? 0) + 1;
  };
  return { byCode, onResponse };
};

const measure = (url: string, path: string, token: string, connections: number) => {
  const answers = counted();
  return autocannon({ url, connections, duration: SECONDS, requests: [{ method: 'GET', path, headers: { authorization: `Bearer ${token}` }, onResponse: answers.onResponse }] }).then((result) => ({
    connections,
    requests: result.requests.total,
    answeredByCode: answers.byCode,
    errors: result.errors + result.timeouts,
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
  }));
};

/** A candle file of `lines` minutes (about 40 bytes a line). */
const candleFile = (lines: number) => {
  const rows: string[] = [];
  const first = Date.UTC(2024, 0, 1);
  for (let i = 0; i < lines; i++) rows.push(`${first + i * 60_000},${100 + (i % 7)},${110 + (i % 5)},${90 - (i % 3)},${100 + (i % 11)},1.5`);
  return rows.join('\n');
};

const main = async () => {
  const child = fork(import.meta.filename, ['--serve'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const server = await new Promise<Ready>((resolve, reject) => {
    child.on('message', (message: { ready?: Ready }) => message.ready && resolve(message.ready));
    child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
  });
  const victim = await userWithTask(server.url, 'victim');
  const abuser = await userWithTask(server.url, 'abuser');
  const victimPath = `/api/trade/ohlcv?taskId=${victim.taskId}&timeframe=1h&limit=200`;

  const alone = await measure(server.url, victimPath, victim.token, 1);
  const uploadBody = JSON.stringify({ name: 'big.csv', csv: candleFile(100_000) });
  const uploads = counted();
  const chartAnswers = counted();
  const [underAbuse, charts, uploaded] = await Promise.all([
    measure(server.url, victimPath, victim.token, 1),
    autocannon({
      url: server.url,
      connections: 4,
      duration: SECONDS,
      requests: [
        { method: 'GET', path: `/api/trade/ohlcv?taskId=${abuser.taskId}&timeframe=1d&limit=500`, headers: { authorization: `Bearer ${abuser.token}` }, onResponse: chartAnswers.onResponse },
        { method: 'GET', path: `/api/trade/ohlcv?taskId=${abuser.taskId}&timeframe=1m&limit=500`, headers: { authorization: `Bearer ${abuser.token}` }, onResponse: chartAnswers.onResponse },
      ],
    }),
    autocannon({
      url: server.url,
      connections: 4,
      duration: SECONDS,
      requests: [
        { method: 'POST', path: '/api/strategy/backtest/candles', headers: { authorization: `Bearer ${abuser.token}`, 'content-type': 'application/json' }, body: uploadBody, onResponse: uploads.onResponse },
      ],
    }),
  ]);
  child.send('stop');
  const goal = Math.min(GOAL_MS, Math.max(1, alone.latencyMs.p99) * GOAL_FACTOR);
  const report = {
    bench: "abuse (widest candles, big uploads) vs another user's GET /api/trade/ohlcv 1h x 200",
    database: 'PGlite (on disk)',
    seconds: SECONDS,
    history: { days: DAYS, minutesKept: server.minutesKept, hourlyCandles: server.hourly },
    otherUserAlone: alone,
    otherUserUnderAbuse: underAbuse,
    abuserCandles: { requests: charts.requests.total, answeredByCode: chartAnswers.byCode, latencyMs: { p50: charts.latency.p50, p99: charts.latency.p99 } },
    abuserUploads: { bytesEach: uploadBody.length, requests: uploaded.requests.total, answeredByCode: uploads.byCode, latencyMs: { p50: uploaded.latency.p50, p99: uploaded.latency.p99 } },
    goal: { p99AtMostMs: goal, rule: `<= ${GOAL_FACTOR} x alone and <= ${GOAL_MS} ms`, met: underAbuse.latencyMs.p99 <= goal },
  };
  console.log(JSON.stringify(report, null, 2));
  const sum = (byCode: Record<string, number>) => Object.values(byCode).reduce((total, n) => total + n, 0);
  if ((alone.answeredByCode['0'] ?? 0) === 0 || (underAbuse.answeredByCode['0'] ?? 0) === 0 || sum(chartAnswers.byCode) === 0 || sum(uploads.byCode) === 0) {
    console.error('a count is zero: the figures above measure nothing');
    process.exit(1);
  }
};

if (process.argv.includes('--serve')) await serve();
else await main();
