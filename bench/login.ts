/**
 * Login request latency: the real server (PGlite on disk in a temporary
 * folder, production scrypt cost) under autocannon on loopback. Every request
 * is signed afresh (the server refuses a reused uuid). Logins are limited per
 * account and per IP, so the requests take turns over 50 accounts (one
 * password) and each comes from its own address (X-Forwarded-For, with
 * TRUST_PROXY on): what is measured is the work of a login, not a refusal.
 *
 *   npm run bench:login
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { DEV_SIGN_SECRET, signBody } from '../src/api/signing';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { DEMO_EMAIL, DEMO_PASSWORD, ensureDemoAccount } from '../server/src/demo/account';
import { migrate, openDatabase } from '../server/src/db/database';

const dataDir = mkdtempSync(join(tmpdir(), 'qt-bench-'));
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', PORT: '0', DASHBOARD_DIR: join(dataDir, 'none'), TRUST_PROXY: 'true' });
const db = await openDatabase({ dataDir });
await migrate(db);
await ensureDemoAccount(db, config.scryptCost);
const ACCOUNTS = 50;
const { password_hash } = await db.selectFrom('users').select('password_hash').where('email', '=', DEMO_EMAIL).executeTakeFirstOrThrow();
const emails = Array.from({ length: ACCOUNTS }, (_, i) => `bench-${i}@example.com`);
await db
  .insertInto('users')
  .values(emails.map((email, i) => ({ email, nickname: `Bench ${i}`, password_hash, invite_code: `BENCH${String(i).padStart(3, '0')}`, inviter_id: null, avatar: null })))
  .execute();
let sent = 0;
const app = await buildApp(config, { db });
await app.listen({ port: 0, host: '127.0.0.1' });
const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

const run = async (connections: number) => {
  // A login counts when its envelope says so (code 0): a refusal is an HTTP 200 too.
  let loggedIn = 0;
  let refused = 0;
  const result = await autocannon({
    url,
    connections,
    duration: Number(process.env.BENCH_SECONDS ?? 15),
    requests: [
      {
        method: 'POST',
        path: '/api/user/login',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => {
          const n = sent++;
          return {
            ...request,
            headers: { ...request.headers, 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
            body: JSON.stringify(signBody('POST', '/api/user/login', { email: emails[n % ACCOUNTS], password: DEMO_PASSWORD }, DEV_SIGN_SECRET)),
          };
        },
        onResponse: (status: number, body: string) => {
          if (status === 200 && (JSON.parse(body) as { code: number }).code === 0) loggedIn += 1;
          else refused += 1;
        },
      },
    ],
  });
  return {
    connections,
    seconds: result.duration,
    requests: result.requests.total,
    loggedIn,
    failures: refused + result.errors,
    latencyMs: { median: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99 },
    requestsPerSecond: result.requests.average,
  };
};

const runs = [await run(1), await run(4)];
console.log(JSON.stringify({ bench: 'POST /api/user/login', scryptCost: config.scryptCost, runs }, null, 2));
await app.close();
await db.destroy();
rmSync(dataDir, { recursive: true, force: true });
// A run in which nobody logged in measured refusals, not logins.
if (runs.some((r) => r.loggedIn === 0)) {
  console.error('no login succeeded: the figures above do not measure logins');
  process.exit(1);
}
