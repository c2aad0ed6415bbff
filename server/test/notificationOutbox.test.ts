import { sql } from 'kysely';
import { DEMO_EMAIL } from '../../src/api/demo';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Mail, Mailer } from '../src/mail/mailer';
import type { ChannelSender, DeliveryOutcome, OutgoingMessage } from '../src/notify/channel';
import { emailSender, unsubscribePath } from '../src/notify/email';
import { recordEvents, type NotifyEvent } from '../src/notify/events';
import { claimDeliveries, runOutboxOnce, startOutboxWorker, type OutboxOptions } from '../src/notify/outbox';
import { BACKENDS, registerUser, startServer, type TestServer } from './harness';

/** A channel that answers what the test says, and keeps what it was given. */
const fakeSender = (channel: ChannelSender['channel'], answers: DeliveryOutcome[] = []) => {
  const sent: OutgoingMessage[] = [];
  const disabled: string[] = [];
  const sender: ChannelSender = {
    channel,
    isLinked: async () => true,
    deliver: async (_db, message) => {
      const outcome = answers.shift() ?? { ok: true };
      if (outcome.ok) sent.push(message);
      return outcome;
    },
    disable: async (_db, userId) => {
      disabled.push(userId);
    },
  };
  return { sender, sent, disabled };
};

const fakeMailer = () => {
  const mails: Mail[] = [];
  const mailer: Mailer = { send: async (mail) => void mails.push(mail), close: () => undefined };
  return { mailer, mails };
};

describe.each(BACKENDS)('the notifications outbox (%s)', (backend) => {
  let server: TestServer;
  let userId: string;
  const fill = (price: string): NotifyEvent => ({ userId, kind: 'trade.fill', taskId: null, payload: { side: 'buy', level: 0, price, amount: '10', cycle: 3, symbol: 'BTC/USDT' } });
  const closed: () => NotifyEvent = () => ({ userId, kind: 'trade.cycle_closed', taskId: null, payload: { cycle: 3, profit: '1.82', roi: '0.91', seconds: 600, symbol: 'BTC/USDT' } });
  const record = (events: NotifyEvent[]) => server.db.transaction().execute((trx) => recordEvents(trx, events));
  const deliveries = () => server.db.selectFrom('notification_deliveries').select(['channel', 'status', 'attempts', 'last_error', 'event_ids']).orderBy('id').execute();
  const run = (senders: ChannelSender[], extra: Partial<OutboxOptions> = {}) => runOutboxOnce(server.db, { senders, quietMs: 0, ...extra });

  beforeAll(async () => {
    server = await startServer(backend);
    userId = (await registerUser(server, { email: 'outbox@example.com' })).user.id;
  }, 120_000);
  afterAll(async () => server?.close());
  beforeEach(async () => {
    await server.db.deleteFrom('notification_deliveries').execute();
    await server.db.deleteFrom('notification_events').execute();
    await server.db.deleteFrom('notification_preferences').execute();
  });

  it('waits for a burst to settle, then sends it as one message per channel, by the preferences', async () => {
    await server.db.insertInto('notification_preferences').values({ user_id: userId, kind: 'trade.fill', channel: 'push', enabled: true }).execute();
    await record([fill('100'), fill('99'), fill('98'), closed()]);
    const push = fakeSender('push');
    const { mailer, mails } = fakeMailer();
    const senders = [emailSender(mailer, { secret: 'test-secret', publicUrl: 'https://app.example' }), push.sender];

    // Still in the burst's quiet window: nothing is queued yet.
    await run(senders, { quietMs: 60_000 });
    expect(await deliveries()).toEqual([]);

    await run(senders);
    expect(push.sent).toHaveLength(1);
    expect(push.sent[0]).toMatchObject({ userId, locale: 'zh-CN', kind: 'trade.fill', title: 'BTC/USDT 3 笔成交，BTC/USDT 第 3 轮完成：+1.82 USDT（+0.91%）' });
    expect(push.sent[0]!.eventIds).toHaveLength(4);
    // Fills do not go by e-mail by default: the mail carries the closed cycle only, with its unsubscribe link.
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'outbox@example.com', subject: 'BTC/USDT 第 3 轮完成：+1.82 USDT（+0.91%）' });
    expect(mails[0]!.text).toContain(`https://app.example${unsubscribePath('test-secret', userId, 'trade.cycle_closed')}`);
    expect((await deliveries()).map((d) => [d.channel, d.status])).toEqual([
      ['email', 'sent'],
      ['push', 'sent'],
    ]);
    // A second pass sends nothing again.
    await run(senders);
    expect(push.sent).toHaveLength(1);
    expect(mails).toHaveLength(1);
  });

  it('tries again after a backoff, gives up after the last attempt, and one channel failing does not hold another', async () => {
    await record([closed()]);
    const flaky = fakeSender('push', [{ ok: false, retry: true, error: 'HTTP 503' }]);
    const down = fakeSender('webhook', [1, 2].map(() => ({ ok: false, retry: true, error: 'connection refused' }) as const));
    const broken: ChannelSender = { ...fakeSender('telegram').sender, deliver: async () => Promise.reject(new Error('socket hang up')) };
    const { mailer, mails } = fakeMailer();
    const senders = [emailSender(mailer, { secret: 's' }), flaky.sender, down.sender, broken];
    await run(senders, { maxAttempts: 2, baseBackoffMs: 60_000 });
    expect(mails).toHaveLength(1);
    const after = Object.fromEntries((await deliveries()).map((d) => [d.channel, d]));
    expect(after['push']).toMatchObject({ status: 'pending', attempts: 1, last_error: 'HTTP 503' });
    expect(after['telegram']).toMatchObject({ status: 'pending', attempts: 1, last_error: 'socket hang up' });

    // Not due before its backoff.
    await run(senders, { maxAttempts: 2 });
    expect(flaky.sent).toHaveLength(0);
    // The backoff passes.
    await sql`update notification_deliveries set next_attempt_at = now() where status = 'pending'`.execute(server.db);
    await run(senders, { maxAttempts: 2 });
    expect(flaky.sent).toHaveLength(1);
    const final = Object.fromEntries((await deliveries()).map((d) => [d.channel, d]));
    expect(final['push']).toMatchObject({ status: 'sent', attempts: 2 });
    expect(final['webhook']).toMatchObject({ status: 'dead', attempts: 2, last_error: 'connection refused' });
    expect(final['telegram']).toMatchObject({ status: 'dead', attempts: 2 });
  });

  it('turns a channel off when it says the user is gone', async () => {
    await record([closed()]);
    const blocked = fakeSender('telegram', [{ ok: false, retry: false, disable: true, error: 'bot blocked by the user' }]);
    await run([blocked.sender]);
    expect(blocked.disabled).toEqual([userId]);
    expect((await deliveries())[0]).toMatchObject({ status: 'dead', attempts: 1 });
    // The inbox says which channel went off; the notice goes by e-mail too, whatever the preferences, with how to fix it.
    const notice = await server.db.selectFrom('notification_events').select(['kind', 'payload']).where('kind', '=', 'user.channel_disabled').execute();
    expect(notice).toEqual([{ kind: 'user.channel_disabled', payload: { channel: 'telegram' } }]);
    await server.db.insertInto('notification_preferences').values({ user_id: userId, kind: 'user.channel_disabled', channel: 'email', enabled: false }).execute();
    const { mailer, mails } = fakeMailer();
    await run([emailSender(mailer, { secret: 'test-secret' })]);
    expect(mails.map((mail) => mail.text)).toEqual([expect.stringContaining('请解除屏蔽，再到通知渠道中重新绑定 Telegram')]);
    expect(mails[0]!.text).not.toContain('unsubscribe');
  });

  it('hands each due delivery to one worker only when two claim at once', async () => {
    const { rows } = await sql<{ id: string }>`select id from users where id = ${userId}`.execute(server.db);
    expect(rows).toHaveLength(1);
    await server.db
      .insertInto('notification_deliveries')
      .values(Array.from({ length: 40 }, (_, i) => ({ message_key: String(1000 + i), event_ids: sql<string[]>`array[${1000 + i}]::bigint[]` as unknown as string[], user_id: userId, channel: 'push' })))
      .execute();
    const [a, b] = await Promise.all([claimDeliveries(server.db, 'push', { batch: 25 }), claimDeliveries(server.db, 'push', { batch: 25 })]);
    const ids = [...a, ...b].map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(40);
    // Claimed ones are leased: a third worker finds none due.
    expect(await claimDeliveries(server.db, 'push')).toEqual([]);
  });

  it("turns a kind's e-mail off from the mail's link on a page in the user's language, without signing in; a forged link changes nothing", async () => {
    const path = unsubscribePath(server.config.signSecret, userId, 'trade.cycle_closed');
    const query = Object.fromEntries(new URL(path, 'http://x').searchParams);
    const page = (method: 'GET' | 'POST', url: string, form?: Record<string, string>, language = 'en-US') =>
      fetch(`${server.base}${url}`, {
        method,
        headers: { 'Accept-Language': language, ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}) },
        ...(form ? { body: new URLSearchParams(form).toString() } : {}),
      }).then(async (response) => ({ status: response.status, type: response.headers.get('content-type'), html: await response.text() }));
    const stored = () => server.db.selectFrom('notification_preferences').select(['kind', 'channel', 'enabled']).execute();

    // Opening the link only asks (a mail scanner following it changes nothing), in the user's language (zh-CN here).
    const ask = await page('GET', path);
    expect(ask).toMatchObject({ status: 200, type: expect.stringMatching(/^text\/html/) });
    expect(ask.html).toContain('<h1>不再通过邮件接收“一轮完成”？</h1>');
    expect(ask.html).toContain('<a href="/#/notifications">打开通知设置</a>');
    expect(ask.html).toContain(`name="token" value="${query['token']}"`);
    expect(await stored()).toEqual([]);

    // Forged or altered links: a readable page in the visitor's language, nothing changed.
    for (const [method, url, form] of [
      ['GET', path.replace(/token=[^&]+/, `token=${'A'.repeat(43)}`), undefined],
      ['GET', path.replace('trade.cycle_closed', 'trade.stop_loss'), undefined],
      ['GET', '/unsubscribe?user=x&kind=trade.fill&token=y', undefined],
      ['GET', '/unsubscribe?user=x&user=y&kind=toString', undefined],
      ['POST', '/unsubscribe', { ...query, kind: 'user.password_changed' }],
      ['POST', '/unsubscribe', { ...query, token: 'A'.repeat(43) }],
    ] as const) {
      const refused = await page(method, url, form);
      expect(refused.status, url).toBe(400);
      expect(refused.html).toContain('<h1>This link is not valid</h1>');
    }
    expect((await page('GET', '/unsubscribe', undefined, 'zh-TW')).html).toContain('<h1>此連結無效</h1>');
    expect(await stored()).toEqual([]);

    const done = await page('POST', '/unsubscribe', query);
    expect(done.status).toBe(200);
    expect(done.html).toContain('<h1>已不再通过邮件发送“一轮完成”</h1>');
    expect(done.html).toContain('<a href="/#/notifications">');
    expect(await stored()).toEqual([{ kind: 'trade.cycle_closed', channel: 'email', enabled: false }]);

    // The shared demo account's choices are every visitor's: its links change nothing.
    const { email } = await server.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow();
    await server.db.updateTable('users').set({ email: DEMO_EMAIL }).where('id', '=', userId).execute();
    try {
      const demo = Object.fromEntries(new URL(unsubscribePath(server.config.signSecret, userId, 'trade.fill'), 'http://x').searchParams);
      expect((await page('POST', '/unsubscribe', demo)).status).toBe(400);
      expect(await stored()).toEqual([{ kind: 'trade.cycle_closed', channel: 'email', enabled: false }]);
    } finally {
      await server.db.updateTable('users').set({ email }).where('id', '=', userId).execute();
    }
  });

  it('the worker sends on its own, and stops', async () => {
    const push = fakeSender('push');
    const worker = startOutboxWorker(server.db, { senders: [push.sender], pollMs: 50, quietMs: 0 });
    try {
      await record([closed()]);
      await vi.waitFor(() => expect(push.sent).toHaveLength(1), { timeout: 5000, interval: 50 });
    } finally {
      await worker.stop();
    }
    expect((await deliveries()).map((d) => d.status)).toEqual(['sent']);
  });
});
