import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelSender, OutgoingMessage } from '../src/notify/channel';
import { recordEvents, type NotifyEvent } from '../src/notify/events';
import { runOutboxOnce } from '../src/notify/outbox';
import { BACKENDS, registerUser, startServer, type TestServer } from './harness';

/** The digest's period in this test: a boundary every 2.5 s instead of every hour. */
const INTERVAL_MS = 2500;

const recordingSender = (channel: ChannelSender['channel']) => {
  const sent: OutgoingMessage[] = [];
  const sender: ChannelSender = {
    channel,
    isLinked: async () => true,
    deliver: async (_db, message) => {
      sent.push(message);
      return { ok: true };
    },
    disable: async () => undefined,
  };
  return { sender, sent };
};

describe.each(BACKENDS)('the hourly digest (%s)', (backend) => {
  let server: TestServer;
  let userId: string;
  let token: string;
  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token });
  const closed = (cycle: number): NotifyEvent => ({ userId, kind: 'trade.cycle_closed', taskId: null, payload: { cycle, profit: '1.5', roi: '2', seconds: 600, symbol: 'ETH/USDT' } });
  const stopLoss: () => NotifyEvent = () => ({ userId, kind: 'trade.stop_loss', taskId: null, payload: { price: '1800', profit: '-3', symbol: 'ETH/USDT' } });
  const record = (events: NotifyEvent[]) => server.db.transaction().execute((trx) => recordEvents(trx, events));
  const digests = () => server.db.selectFrom('notification_deliveries').select(['id', 'event_ids', 'status', 'next_attempt_at', 'sent_at']).where('digest', '=', true).orderBy('id').execute();
  const timingOf = async (kind: string) => ((await call('GET', '/api/notifications/preferences')).body.data.timing as { kind: string; timing: string }[]).find((t) => t.kind === kind)?.timing;

  beforeAll(async () => {
    server = await startServer(backend);
    const registered = await registerUser(server, { email: `digest-${backend}@example.com` });
    userId = registered.user.id;
    token = registered.accessToken;
  }, 120_000);
  afterAll(async () => server?.close());

  it('is chosen per kind, never for security kinds, all or nothing', async () => {
    expect(await timingOf('trade.cycle_closed')).toBe('immediate');
    expect(await timingOf('user.new_login')).toBeUndefined();
    const refused = await call('PUT', '/api/notifications/preferences', {
      timing: [
        { kind: 'trade.cycle_closed', timing: 'hourly' },
        { kind: 'user.new_login', timing: 'hourly' },
      ],
    });
    expect(refused.body).toMatchObject({ code: 10008, data: { field: 'timing', kind: 'user.new_login' } });
    expect(await timingOf('trade.cycle_closed')).toBe('immediate');
    expect((await call('PUT', '/api/notifications/preferences', {})).body.code).not.toBe(0);
    expect((await call('PUT', '/api/notifications/preferences', { timing: [{ kind: 'trade.cycle_closed', timing: 'weekly' }] })).body.code).not.toBe(0);

    const saved = await call('PUT', '/api/notifications/preferences', { timing: [{ kind: 'trade.cycle_closed', timing: 'hourly' }] });
    expect(saved.body.code).toBe(0);
    expect(saved.body.data.timing).toContainEqual({ kind: 'trade.cycle_closed', timing: 'hourly' });
    expect(saved.body.data.timing).toContainEqual({ kind: 'trade.stop_loss', timing: 'immediate' });
  });

  it('holds digest kinds until the next boundary, gathers what arrives meanwhile into one message, and sends at most one per interval', async () => {
    // Set by the previous test: closed cycles in the digest, stop-losses at once.
    expect(await timingOf('trade.cycle_closed')).toBe('hourly');
    const push = recordingSender('push');
    const run = () => runOutboxOnce(server.db, { senders: [push.sender], quietMs: 0, digestIntervalMs: INTERVAL_MS });
    // Start just after a boundary, so the steps below fall inside one interval.
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS - (Date.now() % INTERVAL_MS) + 20));

    await record([closed(1), stopLoss()]);
    await run();
    // The stop-loss goes at once; the closed cycle waits for the boundary. The inbox has both at once.
    expect(push.sent.map((m) => m.kind)).toEqual(['trade.stop_loss']);
    expect((await call('GET', '/api/notifications/unread-count')).body.data.count).toBe(2);
    const [held] = await digests();
    expect(held!.status).toBe('pending');
    const due = new Date(held!.next_attempt_at).getTime();
    expect(due % INTERVAL_MS).toBe(0);
    expect(due).toBeGreaterThan(Date.now());

    await record([closed(2)]);
    await run();
    expect(push.sent).toHaveLength(1);
    // The second cycle joined the same held message.
    expect((await digests()).map((d) => d.event_ids.length)).toEqual([2]);

    await new Promise((resolve) => setTimeout(resolve, due - Date.now() + 30));
    await run();
    expect(push.sent).toHaveLength(2);
    const digest = push.sent[1]!;
    expect(digest.title).toBe('每小时摘要：2 条通知');
    expect(digest.text.split('\n')).toEqual(['ETH/USDT 第 1 轮完成：+1.50 USDT（+2.00%）', 'ETH/USDT 第 2 轮完成：+1.50 USDT（+2.00%）']);
    expect(digest.eventIds).toHaveLength(2);

    // One arriving after the digest went out waits for the next boundary: never two digests in one interval.
    await record([closed(3)]);
    await run();
    expect(push.sent).toHaveLength(2);
    const [sent, next] = await digests();
    expect(sent!.status).toBe('sent');
    expect(next!.status).toBe('pending');
    expect(new Date(next!.next_attempt_at).getTime()).toBe(due + INTERVAL_MS);
    await run();
    expect(push.sent).toHaveLength(2);

    // Back to at once: the next closed cycle is its own message straight away.
    await call('PUT', '/api/notifications/preferences', { timing: [{ kind: 'trade.cycle_closed', timing: 'immediate' }] });
    await record([closed(4)]);
    await run();
    expect(push.sent.map((m) => m.title).at(-1)).toBe('ETH/USDT 第 4 轮完成：+1.50 USDT（+2.00%）');
  });
});
