import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWebhookHost, isForbiddenAddress, lookupGuarded } from '../src/notify/channels/addressGuard';
import { createWebhookSender, retryAfterMs, sealWebhookSecret, webhookOutcome } from '../src/notify/channels/webhook';
import { startWebhookReceiver } from './fakes/webhookReceiver';
import { BACKENDS } from './harness';
import { channelDb, message } from './notifyFixtures';

describe('the webhook address guard', () => {
  it('refuses loopback, private, shared, link-local, metadata, multicast and reserved addresses, v4 and v6, mapped ones included', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '0.0.0.0',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd00:ec2::254',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '::ffff:10.0.0.1',
      '64:ff9b::10.0.0.1',
      '::127.0.0.1',
      'not-an-address',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8']) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
  });

  it('checks what a name resolves to at save time, and allows anything with the operator setting', async () => {
    const resolve = async (host: string) =>
      host === 'inside.example' ? [{ address: '10.0.0.5', family: 4 }] : host === 'outside.example' ? [{ address: '93.184.216.34', family: 4 }] : Promise.reject(new Error('ENOTFOUND'));
    expect(await checkWebhookHost(new URL('https://inside.example/h'), false, resolve)).toBe('forbidden');
    expect(await checkWebhookHost(new URL('https://outside.example/h'), false, resolve)).toBe('ok');
    expect(await checkWebhookHost(new URL('https://nowhere.example/h'), false, resolve)).toBe('unresolved');
    expect(await checkWebhookHost(new URL('http://[::ffff:127.0.0.1]:80/h'), false, resolve)).toBe('forbidden');
    expect(await checkWebhookHost(new URL('http://169.254.169.254/latest/meta-data'), false, resolve)).toBe('forbidden');
    expect(await checkWebhookHost(new URL('http://127.0.0.1/h'), true, resolve)).toBe('ok');
  });

  it('fails the connection when a name resolves to a forbidden address at send time (DNS rebinding)', async () => {
    const lookup = lookupGuarded(false, async () => [{ address: '127.0.0.1', family: 4 }]);
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => lookup('rebind.example', { family: 0 }, (failure) => resolve(failure)));
    expect(error?.code).toBe('EFORBIDDENADDRESS');
    const allowed = lookupGuarded(true, async () => [{ address: '127.0.0.1', family: 4 }]);
    const address = await new Promise<string>((resolve) => allowed('rebind.example', { family: 0 }, (_failure, found) => resolve(found as string)));
    expect(address).toBe('127.0.0.1');
  });
});

describe('webhook outcomes', () => {
  it('sends on 2xx, retries 5xx and 429 (after Retry-After), gives up on other answers', () => {
    const now = Date.parse('2026-11-26T00:00:00Z');
    expect(webhookOutcome({ status: 204 })).toEqual({ ok: true });
    expect(webhookOutcome({ status: 503 })).toMatchObject({ ok: false, retry: true });
    expect(webhookOutcome({ status: 429, retryAfter: '7' })).toMatchObject({ ok: false, retry: true, retryAfterMs: 7000 });
    expect(webhookOutcome({ status: 429, retryAfter: 'Thu, 26 Nov 2026 00:00:30 GMT' }, now)).toMatchObject({ retry: true, retryAfterMs: 30_000 });
    expect(webhookOutcome({ status: 404 })).toMatchObject({ ok: false, retry: false });
    expect(webhookOutcome({ status: 302 })).toMatchObject({ ok: false, retry: false });
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});

describe.each(BACKENDS)('the webhook sender (%s)', (backend) => {
  let fixture: Awaited<ReturnType<typeof channelDb>>;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  const masterKey = randomBytes(32).toString('hex');
  const secret = 'whsec_test_secret';

  beforeAll(async () => {
    fixture = await channelDb(backend);
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await fixture.close();
  });

  const save = async (url: string) => {
    await fixture.db.deleteFrom('webhooks').execute();
    await fixture.db
      .insertInto('webhooks')
      .values({ user_id: fixture.userId, url, secret_ciphertext: sealWebhookSecret(masterKey, fixture.userId, secret) })
      .execute();
  };

  it('POSTs the signed event, retries 5xx, 429 and timeouts, gives up on 4xx and does not follow redirects', async () => {
    const sender = createWebhookSender({ masterKey, allowPrivateAddresses: true, timeoutMs: 300, now: () => new Date('2026-11-26T10:00:00Z') });
    expect(await sender.isLinked(fixture.db, fixture.userId)).toBe(false);
    await save(receiver.url);
    expect(await sender.isLinked(fixture.db, fixture.userId)).toBe(true);

    const sent = message(fixture.userId);
    expect(await sender.deliver(fixture.db, sent)).toEqual({ ok: true });
    const hook = receiver.received.at(-1)!;
    expect(JSON.parse(hook.body)).toEqual({ id: sent.eventIds[0], kind: sent.kind, createdAt: '2026-11-26T10:00:00.000Z', data: sent.data });
    expect(hook.headers['x-qt-event-id']).toBe(sent.eventIds[0]);
    expect(hook.headers['x-qt-signature']).toBe(`sha256=${createHmac('sha256', secret).update(hook.body).digest('hex')}`);
    expect(hook.headers['content-type']).toBe('application/json');

    receiver.answer({ status: 500 });
    expect(await sender.deliver(fixture.db, sent)).toMatchObject({ ok: false, retry: true });
    receiver.answer({ status: 429, headers: { 'Retry-After': '12' } });
    expect(await sender.deliver(fixture.db, sent)).toMatchObject({ ok: false, retry: true, retryAfterMs: 12_000 });
    receiver.answer({ status: 410 });
    expect(await sender.deliver(fixture.db, sent)).toMatchObject({ ok: false, retry: false });
    const before = receiver.received.length;
    receiver.answer({ status: 301, headers: { Location: `${receiver.url}/elsewhere` } });
    expect(await sender.deliver(fixture.db, sent)).toMatchObject({ ok: false, retry: false });
    expect(receiver.received.length).toBe(before + 1);
    receiver.answer('hang');
    expect(await sender.deliver(fixture.db, sent)).toMatchObject({ ok: false, retry: true, error: expect.stringContaining('ETIMEDOUT') });

    for (const outcome of [await sender.deliver(fixture.db, sent)]) {
      expect(JSON.stringify(outcome)).not.toContain(secret);
    }
    await sender.disable(fixture.db, fixture.userId, 'webhook answered 410');
    expect(await sender.isLinked(fixture.db, fixture.userId)).toBe(false);
    expect(await sender.deliver(fixture.db, sent)).toMatchObject({ ok: false, retry: false });
  });

  it('never reaches a loopback address (literal or by name) without the operator setting', async () => {
    const sender = createWebhookSender({ masterKey, timeoutMs: 1000 });
    const before = receiver.received.length;
    for (const url of [receiver.url, `http://localhost:${receiver.port}/hook`, `http://[::ffff:127.0.0.1]:${receiver.port}/hook`]) {
      await save(url);
      expect(await sender.deliver(fixture.db, message(fixture.userId)), url).toMatchObject({ ok: false, retry: false, error: expect.stringContaining('private') });
    }
    expect(receiver.received.length).toBe(before);
  });
});
