/**
 * Does a login flood starve everybody else? The real server (production
 * scrypt cost) runs in a child process; one account's logins flood it on 16
 * connections while another user's authenticated `GET /api/trade/list` is
 * measured (p50, p99, req/s), first alone, then under the flood. Prints the
 * logins by answer code and the list calls answered with code 0; exits
 * non-zero when either count is zero (the figures would measure nothing).
 * Goal: list p99 <= 250 ms under the flood.
 *
 *   npm run bench:login-flood                 # PGlite on disk
 *   npm run bench:login-flood -- --postgres   # PostgreSQL at BENCH_DATABASE_URL or TEST_DATABASE_URL
 *
 * BENCH_SECONDS sets each phase's length (default 20).
 *
 *   npm run bench:login-flood -- --addresses 1000
 *
 * Many-address mode (issue 26): the server trusts X-Forwarded-For (TRUST_PROXY,
 * as behind a proxy), and the flood's wrong logins come from 1 000 addresses
 * in turn, against the demo account and unknown emails. Measured instead of
 * the list: legitimate logins (right password, each user from the address it
 * signed in from before), one at a time, alone and then under the flood;
 * their p50/p99 are printed side by side. Goal: p99 under the flood < 1 s.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { DEV_SIGN_SECRET, signBody } from '../src/api/signing';

const FLOOD_CONNECTIONS = 16;
const LIST_CONNECTIONS = 2;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const GOAL_P99_MS = 250;
const LISTER = { email: 'lister@example.com', password: 'Lister-Passw0rd-2026' };
const addressesArg = process.argv.indexOf('--addresses');
/** Many-address mode: the flood's addresses (0: one address, the original bench). */
const ADDRESSES = addressesArg > 0 ? Number(process.argv[addressesArg + 1]) : 0;
/** Legitimate users in many-address mode, each logging in from its own address (10 successes per account and address in 15 minutes). */
const LEGIT_USERS = 40;
const GOAL_LOGIN_P99_MS = 1000;
const legitEmail = (n: number) => `legit${n}@example.com`;
const legitAddress = (n: number) => `198.18.${Math.floor(n / 250)}.${(n % 250) + 1}`;
const floodAddress = (n: number) => `10.${Math.floor(n / 65_536) % 256}.${Math.floor(n / 256) % 256}.${n % 256}`;

interface Ready {
  url: string;
  scryptCost: number;
  database: string;
  floodEmail: string;
  floodPassword: string;
}

/** The server process: a fresh database, the demo account (the flooded one) and a second user. */
const serve = async () => {
  const { buildApp } = await import('../server/src/app');
  const { loadConfig } = await import('../server/src/config');
  const { dropSchema, migrate, openDatabase } = await import('../server/src/db/database');
  const { DEMO_EMAIL, DEMO_PASSWORD, ensureDemoAccount } = await import('../server/src/demo/account');
  const { hashPassword, hashQueue } = await import('../server/src/shared/passwords');
  const url = process.env.BENCH_POSTGRES_URL;
  const dataDir = mkdtempSync(join(tmpdir(), 'qt-bench-'));
  const schema = url ? `bench_${randomBytes(4).toString('hex')}` : 'public';
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', PORT: '0', DASHBOARD_DIR: join(dataDir, 'none'), ...(ADDRESSES ? { TRUST_PROXY: 'true' } : {}) });
  const db = await openDatabase(url ? { url, schema } : { dataDir });
  await migrate(db, schema);
  await ensureDemoAccount(db, config.scryptCost);
  await db
    .insertInto('users')
    .values({
      email: LISTER.email,
      nickname: 'Lister',
      password_hash: await hashPassword(LISTER.password, config.scryptCost),
      invite_code: 'LISTER01',
      inviter_id: null,
      avatar: null,
      activated: true,
      activated_at: sql<Date>`now()`,
    })
    .execute();
  if (ADDRESSES) {
    // One hash for every legitimate user (same password): the setup costs one scrypt run.
    const password_hash = await hashPassword(LISTER.password, config.scryptCost);
    await db
      .insertInto('users')
      .values(Array.from({ length: LEGIT_USERS }, (_, n) => ({ email: legitEmail(n), nickname: `Legit ${n}`, password_hash, invite_code: `LEGIT${String(n).padStart(3, '0')}`, inviter_id: null, avatar: null })))
      .execute();
  }
  const app = await buildApp(config, { db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const ready: Ready = {
    url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`,
    scryptCost: config.scryptCost,
    database: url ? 'PostgreSQL' : 'PGlite (on disk)',
    floodEmail: DEMO_EMAIL,
    floodPassword: DEMO_PASSWORD,
  };
  process.send!({ ready });
  process.on('message', async (message: string) => {
    if (message === 'stats') process.send!({ stats: hashQueue.stats() });
    if (message === 'stop') {
      await app.close();
      if (url) await dropSchema(db, schema);
      await db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
  });
};

const signed = (path: string, body: object) => JSON.stringify(signBody('POST', path, body, DEV_SIGN_SECRET));

const measureList = (url: string, token: string) => {
  let answered = 0;
  let other = 0;
  const run = autocannon({
    url,
    connections: LIST_CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: 'GET',
        path: '/api/trade/list?page=1&pageSize=10',
        headers: { authorization: `Bearer ${token}` },
        onResponse: (status: number, body: string) => {
          if (status === 200 && (JSON.parse(body) as { code: number }).code === 0) answered += 1;
          else other += 1;
        },
      },
    ],
  });
  return run.then((result) => ({
    connections: LIST_CONNECTIONS,
    requests: result.requests.total,
    answeredWithCode0: answered,
    otherAnswers: other + result.errors + result.timeouts,
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    requestsPerSecond: result.requests.average,
  }));
};

const flood = (url: string, email: string, password: string) => {
  let turn = 0;
  const byCode: Record<string, number> = {};
  const run = autocannon({
    url,
    connections: FLOOD_CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        path: '/api/user/login',
        headers: { 'content-type': 'application/json' },
        // Every request signed afresh: the server refuses a reused uuid. Many-address mode: wrong passwords from address after address.
        setupRequest: (request) => {
          if (!ADDRESSES) return { ...request, body: signed('/api/user/login', { email, password }) };
          turn += 1;
          const target = turn % 2 === 0 ? email : `nobody${turn % 5000}@example.com`;
          return {
            ...request,
            headers: { ...request.headers, 'x-forwarded-for': floodAddress(turn % ADDRESSES) },
            body: signed('/api/user/login', { email: target, password: `Wrong-Passw0rd-${turn}` }),
          };
        },
        onResponse: (status: number, body: string) => {
          const code = status === 200 ? String((JSON.parse(body) as { code: number }).code) : `HTTP ${status}`;
          byCode[code] = (byCode[code] ?? 0) + 1;
        },
      },
    ],
  });
  return run.then((result) => ({
    connections: FLOOD_CONNECTIONS,
    requests: result.requests.total,
    answeredByCode: byCode,
    errors: result.errors + result.timeouts,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99 },
    requestsPerSecond: result.requests.average,
  }));
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/** Legitimate logins one at a time for `seconds` (each user from its own address, in turn): latencies and codes. */
const legitLogins = async (url: string, seconds: number, round: number, max = LEGIT_USERS * 4) => {
  const latencies: number[] = [];
  const byCode: Record<string, number> = {};
  const until = Date.now() + seconds * 1000;
  for (let n = 0; Date.now() < until && n < max; n++) {
    const user = (n + round * 7) % LEGIT_USERS;
    const started = performance.now();
    const answer = await fetch(`${url}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': legitAddress(user) },
      body: signed('/api/user/login', { email: legitEmail(user), password: LISTER.password }),
    });
    const code = answer.status === 200 ? String(((await answer.json()) as { code: number }).code) : `HTTP ${answer.status}`;
    latencies.push(performance.now() - started);
    byCode[code] = (byCode[code] ?? 0) + 1;
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  return { logins: latencies.length, answeredByCode: byCode, latencyMs: { p50: Math.round(percentile(sorted, 50)), p99: Math.round(percentile(sorted, 99)), max: Math.round(sorted.at(-1) ?? NaN) } };
};

const main = async () => {
  const postgres = process.argv.includes('--postgres') ? (process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL) : undefined;
  if (process.argv.includes('--postgres') && !postgres) throw new Error('--postgres needs BENCH_DATABASE_URL or TEST_DATABASE_URL');
  const child = fork(import.meta.filename, ['--serve', ...process.argv.slice(2)], {
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_CPU_PROF] : [])],
    env: { ...process.env, ...(postgres ? { BENCH_POSTGRES_URL: postgres } : {}) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>(key: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: Record<string, unknown>) => {
        if (key in message) {
          child.off('message', onMessage);
          resolve(message[key] as T);
        }
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    });
  const server = await next<Ready>('ready');

  const login = (await (
    await fetch(`${server.url}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: signed('/api/user/login', LISTER),
    })
  ).json()) as { code: number; data: { accessToken: string } };
  if (login.code !== 0) throw new Error(`the second user could not log in: ${JSON.stringify(login)}`);

  if (ADDRESSES) {
    // Each legitimate user signs in once from its address first (as it did yesterday), then the runs measured.
    await legitLogins(server.url, 120, 0, LEGIT_USERS);
    const alone = await legitLogins(server.url, Math.min(SECONDS, 10), 1);
    const [underFlood, logins] = await Promise.all([legitLogins(server.url, SECONDS, 2), flood(server.url, server.floodEmail, server.floodPassword)]);
    child.send('stats');
    const hashing = await next<{ completed: number; pushedOut: number }>('stats');
    child.send('stop');
    console.log(
      JSON.stringify(
        {
          bench: `login flood from ${ADDRESSES} addresses vs legitimate logins`,
          database: server.database,
          scryptCost: server.scryptCost,
          seconds: SECONDS,
          legitAlone: alone,
          legitUnderFlood: underFlood,
          loginFlood: logins,
          scryptRunsInServer: hashing.completed,
          waitingRunsPushedOut: hashing.pushedOut,
          goal: { legitP99UnderFloodMs: GOAL_LOGIN_P99_MS, met: underFlood.latencyMs.p99 < GOAL_LOGIN_P99_MS && (underFlood.answeredByCode['0'] ?? 0) === underFlood.logins },
        },
        null,
        2,
      ),
    );
    const floodAnswered = Object.values(logins.answeredByCode).reduce((sum, n) => sum + n, 0);
    if (floodAnswered === 0 || (underFlood.answeredByCode['0'] ?? 0) === 0 || (alone.answeredByCode['0'] ?? 0) === 0) {
      console.error('a count is zero: the figures above measure nothing');
      process.exit(1);
    }
    return;
  }
  const alone = await measureList(server.url, login.data.accessToken);
  const [underFlood, logins] = await Promise.all([measureList(server.url, login.data.accessToken), flood(server.url, server.floodEmail, server.floodPassword)]);
  child.send('stats');
  const hashing = await next<{ completed: number }>('stats');
  child.send('stop');

  const report = {
    bench: 'login flood vs another user\'s GET /api/trade/list',
    database: server.database,
    scryptCost: server.scryptCost,
    seconds: SECONDS,
    listAlone: alone,
    listUnderFlood: underFlood,
    loginFlood: logins,
    scryptRunsInServer: hashing.completed,
    goal: { listP99UnderFloodMs: GOAL_P99_MS, met: underFlood.latencyMs.p99 <= GOAL_P99_MS },
  };
  console.log(JSON.stringify(report, null, 2));
  const loginsAnswered = Object.values(logins.answeredByCode).reduce((sum, n) => sum + n, 0);
  if (loginsAnswered === 0 || underFlood.answeredWithCode0 === 0 || alone.answeredWithCode0 === 0) {
    console.error('a count is zero: the figures above measure nothing');
    process.exit(1);
  }
};

if (process.argv.includes('--serve')) await serve();
else await main();
