/**
 * Notifications at scale (issue 25): BENCH_TASKS paper tasks (default
 * 10 000, the engine bench's tasks and users, paperTasks.ts) trading in the
 * real runner, a tick every BENCH_TICK_MS (100 ms: ten times the server's
 * pace, one second of market time a tick), with the outbox worker draining
 * in the same process between the ticks, as the server does on PGlite (ticks
 * back to back would starve it: PGlite answers within the event loop's turn). Every user has e-mail (to the outbox folder) and a webhook (a local
 * receiver), fills by webhook too; in-app is the inbox, read back by a poll.
 *
 * The ticks take turns by blocks of BENCH_BLOCK (10): notifications off (the
 * tick writes no event; the worker keeps draining) and on, so both see the
 * same market and the same machine. After the last tick the outbox drains.
 * Prints the events produced, per channel the events delivered, their rate
 * and the delay from the event's commit to its delivery (p50 / p99; e-mail
 * and webhook include the coalescing window BENCH_QUIET_MS / BENCH_MAX_WAIT_MS),
 * and the tick p50 with notifications on and off.
 *
 * Goals: the tick p50 grows by at most 10 %, the in-app p99 is at most 2 s,
 * nothing is lost. Exits 1 when nothing was produced or delivered on a
 * channel, or when an event is missing from a channel or delivered twice.
 *
 *   npm run bench:notify     (BENCH_TASKS, BENCH_TICKS, BENCH_TICK_MS, BENCH_BLOCK, BENCH_QUIET_MS, BENCH_MAX_WAIT_MS, BENCH_DATABASE_URL)
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { dropSchema, migrate, openDatabase } from '../server/src/db/database';
import { createRunner } from '../server/src/engine/runner/runner';
import type { EngineDomains } from '../server/src/engine/store/journal';
import { engineDomains } from '../server/src/engineDomains';
import { createMailer } from '../server/src/mail/mailer';
import { createWebhookSender, EVENT_ID_HEADER, sealWebhookSecret } from '../server/src/notify/channels/webhook';
import { emailSender } from '../server/src/notify/email';
import { recordEngineEvents } from '../server/src/notify/events';
import { startOutboxWorker } from '../server/src/notify/outbox';
import { seed } from './paperTasks';

const taskCount = Number(process.env.BENCH_TASKS ?? 10_000);
const tickCount = Number(process.env.BENCH_TICKS ?? 300);
const tickEveryMs = Number(process.env.BENCH_TICK_MS ?? 100);
const block = Number(process.env.BENCH_BLOCK ?? 10);
const quietMs = Number(process.env.BENCH_QUIET_MS ?? 1000);
const maxWaitMs = Number(process.env.BENCH_MAX_WAIT_MS ?? 3000);
const url = process.env.BENCH_DATABASE_URL;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Number((sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0).toFixed(1));
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const silent = Fastify({ logger: { level: 'silent' } }).log;

/** The webhook receiver: the event id and arrival of each POST. */
const startReceiver = async () => {
  const received: { id: string; at: number }[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push({ id: String(request.headers[EVENT_ID_HEADER]), at: Date.now() });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};

const schema = url ? `bench_notify_${process.pid}` : 'public';
const db = url ? await openDatabase({ url, schema }) : await openDatabase({ pglite: new PGlite() });
await migrate(db, schema);
const outboxDir = await mkdtemp(join(tmpdir(), 'bench-notify-'));
const receiver = await startReceiver();
const failures: string[] = [];
let report: Record<string, unknown> = {};
try {
  await seed(db, taskCount);
  const masterKey = randomBytes(32).toString('hex');
  const users = (await db.selectFrom('users').select('id').execute()).map((row) => row.id);
  await db.insertInto('webhooks').values(users.map((user) => ({ user_id: user, url: receiver.url, secret_ciphertext: sealWebhookSecret(masterKey, user, `whsec_${user}`) }))).execute();
  await db.insertInto('notification_preferences').values(users.map((user) => ({ user_id: user, kind: 'trade.fill', channel: 'webhook', enabled: true }))).execute();

  const mailer = createMailer({ outboxDir, from: 'Quant Trader <no-reply@quant-trader.local>', log: silent });
  const senders = [emailSender(mailer, { secret: 'bench' }), createWebhookSender({ masterKey, allowPrivateAddresses: true })];
  const worker = startOutboxWorker(db, { senders, pollMs: 200, quietMs, maxWaitMs, batch: 200 });

  // In-app: an event is delivered when the inbox shows it; read back every 100 ms.
  const inapp: number[] = [];
  let lastSeen = '0';
  let reading = true;
  const reader = (async () => {
    while (reading) {
      const rows = await db.selectFrom('notification_events').select(['id', 'created_at']).where('id', '>', lastSeen).orderBy('id').execute();
      const now = Date.now();
      for (const row of rows) inapp.push(now - row.created_at.getTime());
      if (rows.length > 0) lastSeen = String(rows.at(-1)!.id);
      await sleep(100);
    }
  })();

  const domains: EngineDomains = { ...engineDomains, recordEvents: undefined };
  const runner = createRunner({ db, domains, log: silent, seed: 42, tickMs: 0, cluster: Boolean(url) });
  await runner.start();
  // The first ticks open every task's first order at once (notifications off: a burst the steady ticks do not have).
  for (let i = 0; i < 3; i += 1) await runner.tick();
  const ticks = { on: [] as number[], off: [] as number[] };
  const started = Date.now();
  for (let i = 0; i < tickCount; i += 1) {
    const on = Math.floor(i / block) % 2 === 1;
    domains.recordEvents = on ? recordEngineEvents : undefined;
    const t = performance.now();
    await runner.tick();
    const took = performance.now() - t;
    ticks[on ? 'on' : 'off'].push(took);
    await sleep(Math.max(1, tickEveryMs - took));
  }
  const tickSeconds = (Date.now() - started) / 1000;
  await runner.stop();

  // Drain: every event planned, every delivery settled, the inbox read to the end.
  const produced = Number((await sql<{ n: string }>`select count(*) as n from notification_events`.execute(db)).rows[0]!.n);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { rows } = await sql<{ unplanned: string; pending: string }>`
      select (select count(*) from notification_events where planned_at is null) as unplanned,
             (select count(*) from notification_deliveries where status = 'pending') as pending`.execute(db);
    if (Number(rows[0]!.unplanned) === 0 && Number(rows[0]!.pending) === 0 && inapp.length >= produced) break;
    if (Date.now() > deadline) {
      failures.push(`the outbox did not drain in 120 s: ${JSON.stringify(rows[0])}`);
      break;
    }
    await sleep(200);
  }
  reading = false;
  await reader;
  await worker.stop();
  mailer.close();

  const { rows: delivered } = await sql<{ channel: string; status: string; messages: string; events: string; distinct_events: string; seconds: number }>`
    select d.channel, d.status, count(distinct d.id) as messages, count(*) as events, count(distinct e.id) as distinct_events,
           extract(epoch from max(d.sent_at) - min(e.created_at))::float8 as seconds
    from notification_deliveries d join notification_events e on e.id = any(d.event_ids)
    group by d.channel, d.status order by d.channel, d.status`.execute(db);
  const { rows: delays } = await sql<{ channel: string; ms: number }>`
    select d.channel, (extract(epoch from d.sent_at - e.created_at) * 1000)::float8 as ms
    from notification_deliveries d join notification_events e on e.id = any(d.event_ids) where d.status = 'sent'`.execute(db);
  const byKind = (await sql<{ kind: string; n: string }>`select kind, count(*) as n from notification_events group by kind order by kind`.execute(db)).rows;
  const nonFills = byKind.filter((row) => row.kind !== 'trade.fill').reduce((sum, row) => sum + Number(row.n), 0);
  const mails = (await readdir(outboxDir)).filter((file) => file.endsWith('.eml')).length;

  const channel = (name: string, expected: number) => {
    const sent = delivered.find((row) => row.channel === name && row.status === 'sent');
    const other = delivered.filter((row) => row.channel === name && row.status !== 'sent');
    const events = Number(sent?.events ?? 0);
    const ms = delays.filter((row) => row.channel === name).map((row) => row.ms);
    if (events === 0) failures.push(`${name}: nothing delivered`);
    if (Number(sent?.distinct_events ?? 0) !== expected) failures.push(`${name}: ${sent?.distinct_events ?? 0} events delivered of ${expected}`);
    if (events !== Number(sent?.distinct_events ?? 0)) failures.push(`${name}: an event was in two messages`);
    if (other.length > 0) failures.push(`${name}: deliveries not sent: ${JSON.stringify(other)}`);
    return {
      messages: Number(sent?.messages ?? 0),
      events,
      eventsPerSecond: Math.round(events / Math.max(sent?.seconds ?? 1, 0.001)),
      delayMs: { p50: percentile(ms, 50), p99: percentile(ms, 99), max: percentile(ms, 100) },
    };
  };
  const email = channel('email', nonFills);
  const webhook = channel('webhook', produced);
  if (mails !== email.messages) failures.push(`e-mail: ${mails} mails in the outbox folder for ${email.messages} messages`);
  const hookIds = receiver.received.map((hook) => hook.id);
  if (hookIds.length !== webhook.messages || new Set(hookIds).size !== hookIds.length) failures.push(`webhook: ${hookIds.length} POSTs (${new Set(hookIds).size} event ids) for ${webhook.messages} messages`);
  if (produced === 0) failures.push('no event produced');
  if (inapp.length !== produced) failures.push(`in-app: ${inapp.length} events read of ${produced}`);

  const p50 = { off: percentile(ticks.off, 50), on: percentile(ticks.on, 50) };
  const growth = Number((((p50.on - p50.off) / p50.off) * 100).toFixed(1));
  const inappDelay = { p50: percentile(inapp, 50), p99: percentile(inapp, 99), max: percentile(inapp, 100) };
  report = {
    database: url ? 'postgresql' : 'pglite',
    tasks: taskCount,
    ticks: tickCount,
    tickEveryMs,
    block,
    tickSeconds: Number(tickSeconds.toFixed(1)),
    outbox: { quietMs, maxWaitMs },
    eventsProduced: produced,
    byKind: Object.fromEntries(byKind.map((row) => [row.kind, Number(row.n)])),
    delivered: {
      inapp: { events: inapp.length, eventsPerSecond: Math.round(inapp.length / tickSeconds), delayMs: inappDelay },
      email: { ...email, mails },
      webhook: { ...webhook, posts: hookIds.length },
    },
    tickMs: { off: { p50: p50.off, p99: percentile(ticks.off, 99) }, on: { p50: p50.on, p99: percentile(ticks.on, 99) }, p50GrowthPercent: growth },
    goals: { tickP50GrowthAtMost10Percent: growth <= 10, inappP99AtMost2s: inappDelay.p99 <= 2000, nothingLost: failures.length === 0 },
  };
} finally {
  await receiver.close();
  await rm(outboxDir, { recursive: true, force: true });
  if (url) await dropSchema(db, schema);
  await db.destroy();
}
console.log(JSON.stringify(report, null, 2));
if (failures.length > 0) {
  console.error(`Lost or missing: ${failures.join('; ')}`);
  process.exit(1);
}
