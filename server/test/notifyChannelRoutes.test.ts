import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NotifyChannelEndpoint as Path } from '../../src/api/notifyChannels';
import { startFakeBotApi } from './fakes/telegramBotApi';
import { startWebhookReceiver } from './fakes/webhookReceiver';
import { BACKENDS, registerUser, startServer, type TestServer } from './harness';

const TOKEN = '7000000001:AAH-route-test-token-0123456789';

describe.each(BACKENDS)('notification channel routes (%s)', (backend) => {
  let plain: TestServer;
  let linked: TestServer;
  let api: Awaited<ReturnType<typeof startFakeBotApi>>;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let plainUser: Awaited<ReturnType<typeof registerUser>>;
  let user: Awaited<ReturnType<typeof registerUser>>;

  beforeAll(async () => {
    api = await startFakeBotApi(TOKEN);
    receiver = await startWebhookReceiver();
    plain = await startServer(backend);
    linked = await startServer(backend, { telegramBotToken: TOKEN, telegramApiRoot: api.apiRoot, webhookAllowPrivateAddresses: true });
    plainUser = await registerUser(plain, { email: 'plain@example.com' });
    user = await registerUser(linked, { email: 'pat@example.com' });
  });
  afterAll(async () => {
    await linked?.close();
    await plain?.close();
    await receiver?.close();
    await api?.close();
  });

  const onPlain = (method: string, path: string, body?: unknown) => plain.call(method, path, body, { token: plainUser.accessToken });
  const onLinked = (method: string, path: string, body?: unknown) => linked.call(method, path, body, { token: user.accessToken });

  it('without a bot token offers no Telegram; refuses private webhook and push addresses with a reason, saving nothing', async () => {
    const state = (await onPlain('GET', Path.state)).body;
    expect(state).toMatchObject({ code: 0, data: { telegram: null, push: { subscriptions: 0 }, webhook: null } });
    expect(state.data.push.publicKey).toMatch(/^[A-Za-z0-9_-]{80,}$/);
    expect((await onPlain('GET', Path.pushKey)).body.data.publicKey).toBe(state.data.push.publicKey);
    expect((await onPlain('POST', Path.telegramLink, {})).body).toMatchObject({ code: 20003, data: { reason: 'telegram_unavailable' } });

    for (const url of [receiver.url, 'http://169.254.169.254/latest/meta-data', 'http://[::ffff:10.0.0.1]/hook', 'http://[fd00::1]/hook']) {
      expect((await onPlain('POST', Path.webhookSave, { url })).body, url).toMatchObject({ code: 10003, data: { field: 'url', reason: 'private_address' } });
    }
    const push = { endpoint: 'https://127.0.0.1:9/push/x', keys: { p256dh: 'B'.repeat(87), auth: 'a'.repeat(22) } };
    expect((await onPlain('POST', Path.pushSubscribe, push)).body).toMatchObject({ code: 10003, data: { field: 'endpoint', reason: 'private_address' } });
    expect((await onPlain('GET', Path.state)).body.data).toMatchObject({ push: { subscriptions: 0 }, webhook: null });
  });

  it('refuses malformed bodies with a clear code, never a 500', async () => {
    for (const [path, body] of [
      [Path.webhookSave, { url: 'ftp://example.com/hook' }],
      [Path.webhookSave, { url: 'https://example.com/hook', extra: 1 }],
      [Path.webhookSave, {}],
      [Path.pushSubscribe, { endpoint: 'http://push.example/x', keys: { p256dh: 'x', auth: 'y' } }],
      [Path.pushSubscribe, { endpoint: 'https://push.example/x' }],
    ] as const) {
      const answer = await onPlain('POST', path, body);
      expect(answer.status, JSON.stringify(body)).toBeLessThan(500);
      expect(answer.body.code, JSON.stringify(body)).toBeGreaterThanOrEqual(10000);
    }
    expect((await onPlain('POST', Path.webhookTest, {})).body.code).toBe(10006);
    expect((await plain.call('GET', Path.state)).status).toBe(401);
  });

  it('links Telegram through the deep link the bot receives, and unlinks', async () => {
    expect((await onLinked('GET', Path.state)).body.data.telegram).toEqual({ linked: false, linkedAt: null, disabledReason: null });
    const link = (await onLinked('POST', Path.telegramLink, {})).body;
    expect(link.data.url).toMatch(/^https:\/\/t\.me\/qt_notify_bot\?start=[A-Za-z0-9_-]+$/);
    const code = new URL(link.data.url).searchParams.get('start');
    api.userWrites(31337, `/start ${code}`);
    await vi.waitFor(async () => expect((await onLinked('GET', Path.state)).body.data.telegram.linked).toBe(true), { timeout: 5000 });
    // The chat id is not the user's to see.
    expect(JSON.stringify((await onLinked('GET', Path.state)).body)).not.toContain('31337');
    expect((await onLinked('POST', Path.telegramUnlink, {})).body.code).toBe(0);
    expect((await onLinked('GET', Path.state)).body.data.telegram.linked).toBe(false);
  });

  it('saves a webhook with a secret shown once, sends a signed test event, renews the secret and deletes', async () => {
    const saved = (await onLinked('POST', Path.webhookSave, { url: receiver.url })).body;
    expect(saved).toMatchObject({ code: 0, data: { url: receiver.url } });
    const secret = saved.data.secret as string;
    expect(secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    const state = (await onLinked('GET', Path.state)).body;
    expect(state.data.webhook).toEqual({ url: receiver.url, enabled: true, disabledReason: null });
    expect(JSON.stringify(state)).not.toContain(secret);
    expect(linked.logs.join('')).not.toContain(secret);
    const row = await linked.db.selectFrom('webhooks').select('secret_ciphertext').executeTakeFirstOrThrow();
    expect(row.secret_ciphertext).not.toContain(secret);

    expect((await onLinked('POST', Path.webhookTest, {})).body).toMatchObject({ code: 0, data: { ok: true, error: null } });
    const hook = receiver.received.at(-1)!;
    expect(JSON.parse(hook.body)).toMatchObject({ kind: 'test', data: { test: true } });
    expect(hook.headers['x-qt-signature']).toBe(`sha256=${createHmac('sha256', secret).update(hook.body).digest('hex')}`);
    receiver.answer({ status: 404 });
    expect((await onLinked('POST', Path.webhookTest, {})).body.data).toEqual({ ok: false, error: 'webhook answered 404' });

    expect((await onLinked('POST', Path.webhookSave, { url: `${receiver.url}?v=2` })).body.data).toEqual({ url: `${receiver.url}?v=2`, secret: null });
    const renewed = (await onLinked('POST', Path.webhookSave, { url: receiver.url, newSecret: true })).body.data.secret;
    expect(renewed).toMatch(/^whsec_/);
    expect(renewed).not.toBe(secret);
    expect((await onLinked('POST', Path.webhookDelete, {})).body.code).toBe(0);
    expect((await onLinked('GET', Path.state)).body.data.webhook).toBeNull();
  });

  it('subscribes this browser to web push and unsubscribes it', async () => {
    const push = { endpoint: 'https://127.0.0.1:9/push/browser-1', keys: { p256dh: 'B'.repeat(87), auth: 'a'.repeat(22) } };
    expect((await onLinked('POST', Path.pushSubscribe, push)).body.code).toBe(0);
    expect((await onLinked('POST', Path.pushSubscribe, push)).body.code).toBe(0);
    expect((await onLinked('GET', Path.state)).body.data.push.subscriptions).toBe(1);
    expect((await onLinked('POST', Path.pushUnsubscribe, { endpoint: push.endpoint })).body.code).toBe(0);
    expect((await onLinked('GET', Path.state)).body.data.push.subscriptions).toBe(0);
  });
});
