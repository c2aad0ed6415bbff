/**
 * The notifications' durable outbox, drained by a worker in the server
 * process (a poll, and the `qt_notify` notice as a wake-up). The engine only
 * writes events (events.ts); this worker plans their deliveries and sends
 * them, so a tick never waits on a channel.
 *
 * 1. Plan: a user's unplanned events, once the burst has settled (no new one
 *    for `quietMs`, or the oldest waited `maxWaitMs`), become one message per
 *    channel the user enabled and linked: one `notification_deliveries` row,
 *    unique per (first event id, channel), so nothing is queued twice. The
 *    kinds the user gathers into the hourly digest go to that channel's open
 *    digest instead (a message due at the next hour boundary, not yet
 *    attempted), or start one: at most one digest an hour per user and
 *    channel, listing everything that arrived in the hour.
 * 2. Deliver, channel by channel and concurrently (one channel's outage only
 *    delays that channel): a batch is claimed with FOR UPDATE SKIP LOCKED and
 *    leased (next_attempt_at pushed forward), so with several processes on
 *    PostgreSQL each delivery is attempted by one of them; a failure is tried
 *    again after an exponential backoff, and is dead after `maxAttempts`.
 *
 * One outbox on PGlite and PostgreSQL: the kept queues (pg-boss,
 * graphile-worker) need a PostgreSQL server and its LISTEN connection, which
 * the embedded PGlite is not.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database';
import { listenChanges } from '../db/database';
import { NOTIFY_CHANNEL } from '../db/migrations/022_notifications';
import { isAlwaysByEmail } from '../../../src/api/notify';
import type { ChannelSender, DeliveryOutcome, NotifyChannel, OutgoingMessage } from './channel';
import { defaultEnabled, recordEvents } from './events';
import { coalescedText, digestTitle, notifyLocale } from './texts';

export interface OutboxOptions {
  senders: readonly ChannelSender[];
  /** A user's events wait this long without a newer one before they are sent together. */
  quietMs?: number;
  /** ... but never longer than this after the first. */
  maxWaitMs?: number;
  /** The digest's period: a digest is due at the next multiple of it (since the epoch); an hour. */
  digestIntervalMs?: number;
  maxAttempts?: number;
  /** Backoff after the n-th failed attempt: baseBackoffMs * 2^(n-1), at most an hour. */
  baseBackoffMs?: number;
  /** A claimed delivery is another worker's again after this (a process died mid-send). */
  leaseMs?: number;
  batch?: number;
  log?: { warn: (data: object, message: string) => void };
}

const DEFAULTS = { quietMs: 20_000, maxWaitMs: 120_000, digestIntervalMs: 3_600_000, maxAttempts: 8, baseBackoffMs: 30_000, leaseMs: 120_000, batch: 50 };

/** Queues the deliveries of settled bursts; answers how many messages were queued (or digests added to). */
export const planDeliveries = async (db: Db, options: OutboxOptions): Promise<number> => {
  const { quietMs, maxWaitMs, digestIntervalMs } = { ...DEFAULTS, ...options };
  return db.transaction().execute(async (trx) => {
    const { rows: events } = await sql<{ id: string; user_id: string; kind: string }>`
      select e.id, e.user_id, e.kind from notification_events e
      where e.planned_at is null
        and e.user_id in (
          select user_id from notification_events where planned_at is null group by user_id
          having max(created_at) <= now() - make_interval(secs => ${quietMs / 1000}) or min(created_at) <= now() - make_interval(secs => ${maxWaitMs / 1000}))
      order by e.id limit 1000
      for update skip locked`.execute(trx);
    if (events.length === 0) return 0;
    const users = [...new Set(events.map((e) => e.user_id))];
    const [prefs, digestKinds] = await Promise.all([
      trx.selectFrom('notification_preferences').select(['user_id', 'kind', 'channel', 'enabled']).where('user_id', 'in', users).execute(),
      trx.selectFrom('notification_digest_kinds').select(['user_id', 'kind']).where('user_id', 'in', users).execute(),
    ]);
    const stored = new Map(prefs.map((p) => [`${p.user_id} ${p.kind} ${p.channel}`, p.enabled]));
    const digested = new Set(digestKinds.filter((d) => !isAlwaysByEmail(d.kind)).map((d) => `${d.user_id} ${d.kind}`));
    const rows: { message_key: string; event_ids: string[]; user_id: string; channel: string }[] = [];
    const digests: { event_ids: string[]; user_id: string; channel: string }[] = [];
    for (const user of users) {
      const mine = events.filter((e) => e.user_id === user);
      for (const sender of options.senders) {
        const wanted = mine.filter(
          (e) => (sender.channel === 'email' && isAlwaysByEmail(e.kind)) || (stored.get(`${user} ${e.kind} ${sender.channel}`) ?? defaultEnabled(e.kind, sender.channel)),
        );
        if (wanted.length === 0 || !(await sender.isLinked(trx, user))) continue;
        const now = wanted.filter((e) => !digested.has(`${user} ${e.kind}`));
        const later = wanted.filter((e) => digested.has(`${user} ${e.kind}`));
        if (now.length > 0) rows.push({ message_key: now[0]!.id, event_ids: now.map((e) => e.id), user_id: user, channel: sender.channel });
        if (later.length > 0) digests.push({ event_ids: later.map((e) => e.id), user_id: user, channel: sender.channel });
      }
    }
    if (rows.length > 0) {
      await trx
        .insertInto('notification_deliveries')
        .values(rows.map((r) => ({ ...r, event_ids: sql<string[]>`${r.event_ids}::bigint[]` as unknown as string[] })))
        .onConflict((oc) => oc.columns(['message_key', 'channel']).doNothing())
        .execute();
    }
    for (const digest of digests) await addToDigest(trx, digest, digestIntervalMs);
    await trx.updateTable('notification_events').set({ planned_at: sql`now()` }).where('id', 'in', events.map((e) => e.id)).execute();
    return rows.length + digests.length;
  });
};

/**
 * Digest events join their channel's open digest (pending, never attempted:
 * one being sent, or retried after it failed, is left alone), or
 * open one due at the next boundary of `intervalMs`: one upsert on the unique
 * index of open digests (migration 024), so two planners never open two.
 */
const addToDigest = async (trx: Db, digest: { event_ids: string[]; user_id: string; channel: string }, intervalMs: number) => {
  await sql`
    insert into notification_deliveries (message_key, event_ids, user_id, channel, digest, next_attempt_at)
    values (${digest.event_ids[0]!}, ${digest.event_ids}::bigint[], ${digest.user_id}, ${digest.channel}, true,
      to_timestamp((floor(extract(epoch from now()) * 1000 / ${intervalMs}::numeric) + 1) * ${intervalMs}::numeric / 1000))
    on conflict (user_id, channel) where digest and status = 'pending' and last_attempt_at is null
    do update set event_ids = notification_deliveries.event_ids || excluded.event_ids`.execute(trx);
};

interface Claimed {
  id: string;
  message_key: string;
  event_ids: string[];
  user_id: string;
  attempts: number;
  digest: boolean;
}

/** Takes up to `batch` due deliveries of one channel for this worker (skipping those another worker holds). */
export const claimDeliveries = async (db: Db, channel: NotifyChannel, options: Pick<OutboxOptions, 'batch' | 'leaseMs'> = {}): Promise<Claimed[]> => {
  const { batch, leaseMs } = { ...DEFAULTS, ...options };
  const { rows } = await sql<Claimed>`
    update notification_deliveries d set attempts = d.attempts + 1, last_attempt_at = now(), next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000})
    where d.id in (
      select id from notification_deliveries
      where channel = ${channel} and status = 'pending' and next_attempt_at <= now()
      order by id limit ${batch}
      for update skip locked)
    returning d.id, d.message_key, d.event_ids::text[] as event_ids, d.user_id, d.attempts, d.digest`.execute(db);
  return rows;
};

/** The message a claimed delivery carries, in its user's language. */
export const messageOf = async (db: Db, claimed: Claimed): Promise<OutgoingMessage> => {
  const [user, events] = await Promise.all([
    db.selectFrom('users').select('locale').where('id', '=', claimed.user_id).executeTakeFirst(),
    db.selectFrom('notification_events').select(['id', 'kind', 'task_id', 'payload']).where('id', 'in', claimed.event_ids).orderBy('id').execute(),
  ]);
  const locale = notifyLocale(user?.locale ?? 'zh-CN');
  const { title: burstTitle, text } = coalescedText(locale, events);
  // A digest is titled as one, however few it lists.
  const title = claimed.digest ? digestTitle(locale, events.length) : burstTitle;
  const first = events[0];
  const tasks = new Set(events.map((e) => e.task_id));
  const link = first?.task_id && tasks.size === 1 ? `#/trade/detail/${first.task_id}` : '#/notifications';
  return {
    eventIds: events.map((e) => String(e.id)),
    userId: claimed.user_id,
    locale,
    kind: first?.kind ?? 'unknown',
    title,
    text,
    link,
    data: events.length === 1 ? { ...first!.payload, taskId: first!.task_id } : { events: events.map((e) => ({ kind: e.kind, taskId: e.task_id, ...e.payload })) },
  };
};

const settle = async (db: Db, claimed: Claimed, outcome: DeliveryOutcome, options: OutboxOptions, sender: ChannelSender) => {
  const { maxAttempts, baseBackoffMs } = { ...DEFAULTS, ...options };
  const update = db.updateTable('notification_deliveries').where('id', '=', claimed.id);
  if (outcome.ok) {
    await update.set({ status: 'sent', sent_at: sql`now()`, last_error: null }).execute();
    return;
  }
  const error = outcome.error.slice(0, 500);
  if (!outcome.retry && outcome.disable) {
    // The channel refuses the user for good (a blocked bot, gone subscriptions, a webhook gone): turned off, and the notice saying so (in the app, and by e-mail) lands with it, once.
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('notification_deliveries').where('id', '=', claimed.id).set({ status: 'dead', last_error: error }).execute();
      const wasLinked = await sender.isLinked(trx, claimed.user_id);
      await sender.disable(trx, claimed.user_id, error);
      if (wasLinked) await recordEvents(trx, [{ userId: claimed.user_id, kind: 'user.channel_disabled', taskId: null, payload: { channel: sender.channel } }]);
    });
    return;
  }
  if (!outcome.retry || claimed.attempts >= maxAttempts) {
    await update.set({ status: 'dead', last_error: error }).execute();
    return;
  }
  const waitMs = outcome.retryAfterMs ?? Math.min(baseBackoffMs * 2 ** (claimed.attempts - 1), 3_600_000);
  await update.set({ last_error: error, next_attempt_at: sql`now() + make_interval(secs => ${waitMs / 1000})` }).execute();
};

/** Sends the due deliveries of one channel; answers how many were attempted. A sender's throw counts as a retryable failure. */
export const drainChannel = async (db: Db, sender: ChannelSender, options: OutboxOptions): Promise<number> => {
  const claimed = await claimDeliveries(db, sender.channel, options);
  for (const delivery of claimed) {
    let outcome: DeliveryOutcome;
    try {
      outcome = await sender.deliver(db, await messageOf(db, delivery));
    } catch (error) {
      outcome = { ok: false, retry: true, error: error instanceof Error ? error.message : String(error) };
    }
    await settle(db, delivery, outcome, options, sender);
    if (!outcome.ok) options.log?.warn({ channel: sender.channel, delivery: delivery.id, attempts: delivery.attempts, error: outcome.error }, 'notification not delivered');
  }
  return claimed.length;
};

/** One pass: plan, then every channel at once (each on its own: one that fails or hangs does not hold the others' results). */
export const runOutboxOnce = async (db: Db, options: OutboxOptions): Promise<void> => {
  await planDeliveries(db, options);
  const results = await Promise.allSettled(options.senders.map((sender) => drainChannel(db, sender, options)));
  for (const result of results) if (result.status === 'rejected') options.log?.warn({ error: String(result.reason) }, 'notification channel pass failed');
};

/** The worker: a pass every `pollMs`, and soon after a new event is announced; never two passes at once in this process. */
export const startOutboxWorker = (db: Db, options: OutboxOptions & { pollMs: number }) => {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const pass = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = runOutboxOnce(db, options)
      .catch((error: unknown) => options.log?.warn({ error: String(error) }, 'notification outbox pass failed'))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          pass();
        }
      });
  };
  const timer = setInterval(pass, options.pollMs);
  timer.unref();
  // A new event: its burst settles after quietMs; look again then.
  const subscription = listenChanges(db, NOTIFY_CHANNEL, {
    message: () => setTimeout(pass, (options.quietMs ?? DEFAULTS.quietMs) + 100).unref(),
    reset: () => undefined,
  });
  return {
    pass,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await subscription.close();
      await running;
    },
  };
};
