import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMailer } from '../src/mail/mailer';
import type { ChannelSender } from '../src/notify/channel';
import { createTelegramChannel } from '../src/notify/channels/telegram';
import { createWebhookSender, EVENT_ID_HEADER, sealWebhookSecret, signWebhookBody, SIGNATURE_HEADER } from '../src/notify/channels/webhook';
import { emailSender } from '../src/notify/email';
import { recordEvents } from '../src/notify/events';
import { startOutboxWorker } from '../src/notify/outbox';
import * as inbox from '../src/notify/service';
import { eventLine } from '../src/notify/texts';
import { FAULTS, startFakeBotApi } from './fakes/telegramBotApi';
import { startWebhookReceiver } from './fakes/webhookReceiver';
import { BACKENDS } from './harness';
import { channelDb } from './notifyFixtures';

/**
 * The outbox's faults, through the wired worker (startOutboxWorker) and the
 * real senders against local servers: an SMTP server that refuses for a
 * while, the fake Bot API answering 429 and 403, a webhook answering 500.
 * The outbox's timings are scaled down (a backoff of 100 ms instead of 30 s)
 * so that "a minute" of outage is a second here.
 */
const TOKEN = '7000000001:AAH-faults-token-never-logged';
const TIMINGS = { pollMs: 50, quietMs: 0, baseBackoffMs: 100, leaseMs: 10_000 };
const quietLog = Fastify({ logger: false }).log;

/** A local SMTP server; while `down`, it refuses every connection with 421. */
const startSmtp = async () => {
  const received: { to: string[]; raw: string }[] = [];
  const state = { down: true, refused: 0 };
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      if (!state.down) return callback();
      state.refused += 1;
      return callback(Object.assign(new Error('service not available, try again later'), { responseCode: 421 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const { port } = smtp.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received, state, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
};

describe.each(BACKENDS)('notification faults through the outbox worker (%s)', (backend) => {
  let fixture: Awaited<ReturnType<typeof channelDb>>;
  const masterKey = randomBytes(32).toString('hex');
  const closed = (userId: string, cycle: number) => ({ userId, kind: 'trade.cycle_closed' as const, taskId: null, payload: { cycle, profit: '1.82', roi: '0.91', seconds: 600, symbol: 'BTC/USDT' } });
  const record = (events: ReturnType<typeof closed>[]) => fixture.db.transaction().execute((trx) => recordEvents(trx, events));
  const deliveries = (channel: string) =>
    fixture.db.selectFrom('notification_deliveries').select(['user_id', 'status', 'attempts', 'last_error', 'message_key']).where('channel', '=', channel).orderBy('id').execute();
  const withWorker = async (senders: ChannelSender[], body: () => Promise<void>) => {
    const worker = startOutboxWorker(fixture.db, { senders, ...TIMINGS });
    try {
      await body();
    } finally {
      await worker.stop();
    }
  };

  beforeAll(async () => {
    fixture = await channelDb(backend);
  });
  afterAll(async () => fixture?.close());
  beforeEach(async () => {
    await fixture.db.deleteFrom('notification_deliveries').execute();
    await fixture.db.deleteFrom('notification_events').execute();
  });

  it('SMTP down, then back: the inbox and the webhook are on time meanwhile, and every mail arrives once afterwards', async () => {
    const smtp = await startSmtp();
    const receiver = await startWebhookReceiver();
    const users = [fixture.userId];
    for (let i = 0; i < 2; i += 1) {
      const row = await fixture.db
        .insertInto('users')
        .values({ email: `smtp${i}-${randomBytes(3).toString('hex')}@example.com`, nickname: `Pat ${i}`, password_hash: 'x', invite_code: randomBytes(4).toString('hex') })
        .returning('id')
        .executeTakeFirstOrThrow();
      users.push(row.id);
    }
    await fixture.db.insertInto('webhooks').values({ user_id: fixture.userId, url: receiver.url, secret_ciphertext: sealWebhookSecret(masterKey, fixture.userId, 'whsec_faults') }).execute();
    const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: '', from: 'Quant Trader <robot@quant-trader.test>', log: quietLog });
    const senders = [emailSender(mailer, { secret: 'faults' }), createWebhookSender({ masterKey, allowPrivateAddresses: true, timeoutMs: 2000 })];
    try {
      await withWorker(senders, async () => {
        const started = Date.now();
        await record(users.map((user, i) => closed(user, i + 1)));
        // In-app: in the inbox as soon as the change committed.
        expect((await inbox.list(fixture.db, fixture.userId, { page: 1, pageSize: 10 } as never)).total).toBe(1);
        // The webhook does not wait for the mail.
        await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 2000, interval: 20 });
        expect(Date.now() - started).toBeLessThan(2000);
        // The mails are refused, retried with the backoff, and kept pending.
        await vi.waitFor(async () => expect((await deliveries('email')).every((d) => d.status === 'pending' && d.attempts >= 3)).toBe(true), { timeout: 5000, interval: 50 });
        expect(await deliveries('email')).toHaveLength(3);
        expect(smtp.received).toEqual([]);
        expect(smtp.state.refused).toBeGreaterThanOrEqual(6);
        expect((await deliveries('email'))[0]!.last_error).toBeTruthy();

        smtp.state.down = false;
        await vi.waitFor(async () => expect((await deliveries('email')).map((d) => d.status)).toEqual(['sent', 'sent', 'sent']), { timeout: 8000, interval: 50 });
        // A few more passes send nothing again.
        await new Promise((resolve) => setTimeout(resolve, 300));
      });
      const emails = await fixture.db.selectFrom('users').select('email').where('id', 'in', users).execute();
      expect(smtp.received.map((mail) => mail.to[0]).sort()).toEqual(emails.map((row) => row.email).sort());
      expect(receiver.received).toHaveLength(1);
      expect((await deliveries('webhook')).map((d) => d.status)).toEqual(['sent']);
    } finally {
      mailer.close();
      await smtp.close();
      await receiver.close();
      await fixture.db.deleteFrom('webhooks').execute();
    }
  }, 20_000);

  it('Telegram: a 429 waits its retry_after, then delivers once; a 403 turns the chat off, the inbox says so, and the attempts stop', async () => {
    const api = await startFakeBotApi(TOKEN);
    const telegram = createTelegramChannel({ token: TOKEN, apiRoot: api.apiRoot, timeoutSeconds: 2 });
    await fixture.db.insertInto('telegram_links').values({ user_id: fixture.userId, chat_id: '4242', linked_at: new Date(), disabled_reason: null }).execute();
    const sends = () => api.calls.filter((call) => call.method === 'sendMessage');
    try {
      await withWorker([telegram.sender], async () => {
        api.fault(FAULTS.tooManyRequests(1));
        await record([closed(fixture.userId, 1)]);
        await vi.waitFor(async () => expect((await deliveries('telegram')).map((d) => d.status)).toEqual(['sent']), { timeout: 5000, interval: 50 });
        expect(sends()).toHaveLength(2);
        expect(sends()[1]!.at - sends()[0]!.at).toBeGreaterThanOrEqual(1000);
        expect(sends()[1]!.body.text).toBe(sends()[0]!.body.text);
        expect((await deliveries('telegram'))[0]).toMatchObject({ attempts: 2 });

        api.fault(FAULTS.blocked);
        await record([closed(fixture.userId, 2)]);
        await vi.waitFor(async () => expect((await deliveries('telegram')).map((d) => d.status)).toEqual(['sent', 'dead']), { timeout: 5000, interval: 50 });
        expect(sends()).toHaveLength(3);
        expect((await deliveries('telegram'))[1]).toMatchObject({ attempts: 1, last_error: 'telegram 403: Forbidden: bot was blocked by the user' });
        const link = await fixture.db.selectFrom('telegram_links').select('disabled_reason').executeTakeFirstOrThrow();
        expect(link.disabled_reason).toBe('telegram 403: Forbidden: bot was blocked by the user');
        expect(await telegram.sender.isLinked(fixture.db, fixture.userId)).toBe(false);
        // The inbox says so, once.
        const off = await inbox.list(fixture.db, fixture.userId, { page: 1, pageSize: 10, kind: 'user.channel_disabled' } as never);
        expect(off.list.map((item) => item.payload)).toEqual([{ channel: 'telegram' }]);
        expect(eventLine('zh-CN', 'user.channel_disabled', off.list[0]!.payload)).toBe('Telegram 通知已关闭：机器人无法联系你的会话（可能已被屏蔽）。请解除屏蔽，再到通知渠道中重新绑定 Telegram。');
        expect(eventLine('en-US', 'user.channel_disabled', { channel: 'push' })).toMatch(/^Web push is off: /);

        // The next events: in the inbox, and no message queued for the turned-off chat.
        await record([closed(fixture.userId, 3)]);
        await vi.waitFor(async () => expect(await fixture.db.selectFrom('notification_events').select('id').where('planned_at', 'is', null).execute()).toEqual([]), { timeout: 3000, interval: 50 });
        await new Promise((resolve) => setTimeout(resolve, 200));
      });
      expect(sends()).toHaveLength(3);
      expect(await deliveries('telegram')).toHaveLength(2);
      expect((await inbox.list(fixture.db, fixture.userId, { page: 1, pageSize: 10 } as never)).list.map((item) => item.kind)).toEqual([
        'trade.cycle_closed',
        'user.channel_disabled',
        'trade.cycle_closed',
        'trade.cycle_closed',
      ]);
    } finally {
      await api.close();
      await fixture.db.deleteFrom('telegram_links').execute();
    }
  }, 20_000);

  it('a webhook answering 500, then 200: delivered once, the same event id and signature on both attempts', async () => {
    const receiver = await startWebhookReceiver();
    await fixture.db.insertInto('webhooks').values({ user_id: fixture.userId, url: receiver.url, secret_ciphertext: sealWebhookSecret(masterKey, fixture.userId, 'whsec_faults') }).execute();
    const started = Date.now();
    try {
      receiver.answer({ status: 500 });
      await withWorker([createWebhookSender({ masterKey, allowPrivateAddresses: true, timeoutMs: 2000 })], async () => {
        await record([closed(fixture.userId, 7)]);
        await vi.waitFor(async () => expect((await deliveries('webhook')).map((d) => d.status)).toEqual(['sent']), { timeout: 5000, interval: 50 });
        await new Promise((resolve) => setTimeout(resolve, 300));
      });
      const [event] = await fixture.db.selectFrom('notification_events').select('id').execute();
      expect(receiver.received).toHaveLength(2);
      expect(receiver.received.map((hook) => hook.headers[EVENT_ID_HEADER])).toEqual([String(event!.id), String(event!.id)]);
      for (const hook of receiver.received) {
        expect(hook.headers[SIGNATURE_HEADER]).toBe(signWebhookBody('whsec_faults', hook.body));
        expect(JSON.parse(hook.body)).toMatchObject({ id: String(event!.id), kind: 'trade.cycle_closed', data: { cycle: 7, profit: '1.82' } });
      }
      expect((await deliveries('webhook'))[0]).toMatchObject({ attempts: 2, last_error: null });
      // The backoff, not a tight loop: the second attempt came after the first one's 100 ms.
      expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    } finally {
      await receiver.close();
      await fixture.db.deleteFrom('webhooks').execute();
    }
  }, 20_000);
});
