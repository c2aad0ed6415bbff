import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperatorCommand } from '../src/cli/operator';
import type { ChannelSender, DeliveryOutcome } from '../src/notify/channel';
import { recordEvents } from '../src/notify/events';
import { runOutboxOnce } from '../src/notify/outbox';
import { BACKENDS, registerUser, startServer, type TestServer } from './harness';

/** A linked channel answering what the test says (then success), counting what it sent. */
const scriptedSender = (channel: ChannelSender['channel'], answers: DeliveryOutcome[]) => {
  const sent: string[][] = [];
  const sender: ChannelSender = {
    channel,
    isLinked: async () => true,
    deliver: async (_db, message) => {
      const outcome = answers.shift() ?? { ok: true };
      if (outcome.ok) sent.push(message.eventIds);
      return outcome;
    },
    disable: async () => undefined,
  };
  return { sender, sent };
};

describe.each(BACKENDS)('the console’s notification deliveries (%s)', (backend) => {
  let server: TestServer;
  let op: { id: string; token: string };
  let bob: { id: string; token: string };
  const get = (path: string, token = op.token) => server.call('GET', path, undefined, { token });
  const list = (params: object) =>
    get(`/api/admin/notification-deliveries?${new URLSearchParams(Object.entries(params).map(([key, value]) => [key, JSON.stringify(value)])).toString()}`);

  beforeAll(async () => {
    server = await startServer(backend);
    const o = await registerUser(server, { email: 'op-notify@example.com' });
    const b = await registerUser(server, { email: 'bob-notify@example.com' });
    op = { id: o.user.id, token: o.accessToken };
    bob = { id: b.user.id, token: b.accessToken };
    expect(await runOperatorCommand(server.db, ['op-notify@example.com'], { log: () => undefined, error: () => undefined })).toBe(0);
  }, 120_000);
  afterAll(async () => server?.close());

  it('lists dead deliveries with user, channel, kind, attempts and last error, counts them per channel, and retries one with an audit line', async () => {
    await server.db.transaction().execute((trx) =>
      recordEvents(trx, [{ userId: bob.id, kind: 'trade.cycle_closed', taskId: null, payload: { cycle: 1, profit: '0.5', roi: '1', seconds: 60, symbol: 'BTC/USDT' } }]),
    );
    // The webhook refuses for good (dead after one attempt), the e-mail goes out.
    const webhook = scriptedSender('webhook', [{ ok: false, retry: false, error: 'HTTP 400 Bad Request' }]);
    const email = scriptedSender('email', []);
    await runOutboxOnce(server.db, { senders: [webhook.sender, email.sender], quietMs: 0 });
    expect(webhook.sent).toHaveLength(0);

    const dead = await list({ filter: { status: 'dead' }, sort: ['createdAt', 'DESC'], range: [0, 9] });
    expect(dead.status).toBe(200);
    expect(dead.headers['content-range']).toBe('notification-deliveries 0-0/1');
    const [row] = dead.body.data;
    expect(row).toMatchObject({ userId: bob.id, userEmail: 'bob-notify@example.com', channel: 'webhook', kind: 'trade.cycle_closed', events: 1, status: 'dead', attempts: 1, lastError: 'HTTP 400 Bad Request', sentAt: null });
    expect(Date.parse(row.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(Date.parse(row.lastAttemptAt)).toBeGreaterThanOrEqual(Date.parse(row.createdAt));

    expect((await get('/api/admin/notification-counts')).body.data).toEqual([
      { channel: 'email', pending: 0, sent: 1, dead: 0 },
      { channel: 'webhook', pending: 0, sent: 0, dead: 1 },
    ]);
    // Filters and sorts are the schema's: an unknown one is refused (10008), so is a non-operator (11005).
    expect((await list({ filter: { channel: 'inapp' } })).body.code).toBe(10008);
    expect((await list({ sort: ['lastError', 'ASC'] })).body.code).toBe(10008);
    expect((await get('/api/admin/notification-counts', bob.token)).body.code).toBe(11005);
    expect((await server.call('PUT', `/api/admin/notification-deliveries/${row.id}`, { status: 'pending' }, { token: bob.token })).body.code).toBe(11005);
    expect((await list({ filter: { channel: 'email', status: 'sent' } })).body.data.map((d: { channel: string }) => d.channel)).toEqual(['email']);

    // Only "back to pending" is a retry; a sent delivery cannot be retried; an unknown one does not exist.
    const retry = (id: string, body: object = { status: 'pending' }) => server.call('PUT', `/api/admin/notification-deliveries/${id}`, body, { token: op.token });
    expect((await retry(row.id, { status: 'sent' })).body.code).toBe(10008);
    const sentId = (await list({ filter: { status: 'sent' } })).body.data[0].id;
    expect((await retry(sentId)).body).toMatchObject({ code: 10008 });
    expect((await retry('999999999')).body.code).toBe(10006);
    expect((await retry('x')).body.code).toBe(10006);
    expect(await server.db.selectFrom('audit_log').select('id').where('action', '=', 'notification.retry').execute()).toEqual([]);

    const retried = await retry(row.id);
    expect(retried.body.data).toMatchObject({ id: row.id, status: 'pending', attempts: 0, lastError: 'HTTP 400 Bad Request' });
    const audit = await server.db.selectFrom('audit_log').selectAll().where('action', '=', 'notification.retry').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ operator_id: op.id, target_type: 'notification_delivery', target_id: row.id });
    expect(audit[0]!.data).toMatchObject({ channel: 'webhook', userId: bob.id, before: { status: 'dead', attempts: 1, lastError: 'HTTP 400 Bad Request' } });
    // Twice is refused: it is no longer dead.
    expect((await retry(row.id)).body.code).toBe(10008);

    // The next pass sends it, once.
    await runOutboxOnce(server.db, { senders: [webhook.sender, email.sender], quietMs: 0 });
    expect(webhook.sent).toHaveLength(1);
    expect(email.sent).toHaveLength(1);
    expect((await get(`/api/admin/notification-deliveries/${row.id}`)).body.data).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect((await get('/api/admin/notification-counts')).body.data).toEqual([
      { channel: 'email', pending: 0, sent: 1, dead: 0 },
      { channel: 'webhook', pending: 0, sent: 1, dead: 0 },
    ]);
  });

  it('retries a dead hourly digest while the channel already gathers the next one', async () => {
    const ids = await server.db.transaction().execute(async (trx) => {
      await recordEvents(trx, [1, 2].map((cycle) => ({ userId: bob.id, kind: 'trade.cycle_closed', taskId: null, payload: { cycle, profit: '0.5', roi: '1', seconds: 60, symbol: 'BTC/USDT' } })));
      return (await trx.selectFrom('notification_events').select('id').where('user_id', '=', bob.id).orderBy('id', 'desc').limit(2).execute()).map((e) => e.id);
    });
    const digest = (eventId: string, extra: object) => ({ message_key: eventId, event_ids: [eventId], user_id: bob.id, channel: 'telegram', digest: true, ...extra });
    const [deadDigest] = await server.db
      .insertInto('notification_deliveries')
      .values([digest(ids[1]!, { status: 'dead', attempts: 8, last_attempt_at: new Date(), last_error: 'timeout' }), digest(ids[0]!, {})])
      .returning('id')
      .execute();
    const retried = await server.call('PUT', `/api/admin/notification-deliveries/${deadDigest!.id}`, { status: 'pending' }, { token: op.token });
    expect(retried.body).toMatchObject({ code: 0, data: { status: 'pending', attempts: 0, channel: 'telegram' } });
    expect((await list({ filter: { channel: 'telegram', status: 'pending' } })).headers['content-range']).toBe('notification-deliveries 0-1/2');
  });
});
