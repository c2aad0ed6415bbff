import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPushSender, generateVapidKeys } from '../src/notify/channels/webpush';
import { browserKeys, decryptPush, PUSH_SERVICE_CA, startPushService } from './fakes/pushService';
import { BACKENDS } from './harness';
import { channelDb, message } from './notifyFixtures';

describe.each(BACKENDS)('the web push channel against a local push service (%s)', (backend) => {
  let fixture: Awaited<ReturnType<typeof channelDb>>;
  let service: Awaited<ReturnType<typeof startPushService>>;
  const vapid = generateVapidKeys();
  const sender = () => createPushSender({ vapid, subject: 'mailto:ops@example.com', publicUrl: 'https://trader.example', allowPrivateAddresses: true, ca: PUSH_SERVICE_CA, timeoutMs: 2000 });

  beforeAll(async () => {
    fixture = await channelDb(backend);
    service = await startPushService();
  });
  afterAll(async () => {
    await service.close();
    await fixture.close();
  });

  const subscribe = async (name: string) => {
    const keys = browserKeys();
    await fixture.db.insertInto('push_subscriptions').values({ user_id: fixture.userId, endpoint: service.endpoint(name), p256dh: keys.p256dh, auth: keys.authText }).execute();
    return keys;
  };

  it('sends an encrypted, VAPID-signed payload that the browser decrypts; 404/410 remove the subscription', async () => {
    const push = sender();
    expect(await push.isLinked(fixture.db, fixture.userId)).toBe(false);
    const keys = await subscribe('laptop');
    expect(await push.isLinked(fixture.db, fixture.userId)).toBe(true);

    const sent = message(fixture.userId);
    expect(await push.deliver(fixture.db, sent)).toEqual({ ok: true });
    const delivery = service.received.at(-1)!;
    expect(delivery.path).toBe('/push/laptop');
    expect(delivery.headers['content-encoding']).toBe('aes128gcm');
    expect(delivery.headers.authorization).toMatch(new RegExp(`^vapid t=[\\w.-]+, k=${vapid.publicKey}$`));
    expect(JSON.parse(decryptPush(delivery.body, keys.ecdh, keys.auth))).toEqual({
      title: sent.title,
      body: sent.text,
      url: 'https://trader.example/#/tasks/abc/show',
      tag: sent.eventIds[0],
    });

    service.answer({ status: 429, headers: { 'Retry-After': '30' } });
    expect(await push.deliver(fixture.db, sent)).toMatchObject({ ok: false, retry: true, retryAfterMs: 30_000 });
    service.answer({ status: 503 });
    expect(await push.deliver(fixture.db, sent)).toMatchObject({ ok: false, retry: true });

    // Two browsers: one gone (410) is removed, the other still gets it.
    await subscribe('phone');
    service.answer({ status: 410 });
    expect(await push.deliver(fixture.db, sent)).toEqual({ ok: true });
    const left = await fixture.db.selectFrom('push_subscriptions').select('endpoint').execute();
    expect(left).toHaveLength(1);

    service.answer({ status: 404 });
    expect(await push.deliver(fixture.db, sent)).toMatchObject({ ok: false, retry: false, disable: true });
    expect(await push.isLinked(fixture.db, fixture.userId)).toBe(false);
  });

  it('refuses an endpoint on a private address without the operator setting', async () => {
    await subscribe('private');
    const guarded = createPushSender({ vapid, subject: 'mailto:ops@example.com', ca: PUSH_SERVICE_CA });
    const before = service.received.length;
    expect(await guarded.deliver(fixture.db, message(fixture.userId))).toMatchObject({ ok: false, retry: false });
    expect(service.received.length).toBe(before);
    await guarded.disable(fixture.db, fixture.userId, 'test');
    expect(await guarded.isLinked(fixture.db, fixture.userId)).toBe(false);
  });
});
