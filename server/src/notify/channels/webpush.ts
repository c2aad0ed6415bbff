import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { isIP } from 'node:net';
import webpush, { WebPushError } from 'web-push';
import type { ChannelSender, DeliveryOutcome, OutgoingMessage } from '../channel';
import { hostOf, isForbiddenAddress, lookupGuarded } from './addressGuard';
import { retryAfterMs } from './webhook';

/**
 * Web push through `web-push` (issue 25), signed with the server's VAPID
 * keys (config: generated into the data folder on first run). A message goes
 * to every browser the user subscribed; a subscription the push service
 * answers 404 or 410 for is gone and removed. Push endpoints come from the
 * browser, so they are held to the webhooks' address guard as well.
 */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export interface PushSenderOptions {
  vapid: VapidKeys;
  /** `mailto:` or `https:` contact the push services may use (VAPID `sub`). */
  subject: string;
  /** The dashboard's public address, to make a message's link absolute (else the service worker resolves it against its own origin). */
  publicUrl?: string;
  /** Lets endpoints on loopback and private addresses be reached: tests only. */
  allowPrivateAddresses?: boolean;
  /** Certificate authorities to trust besides the system's (PUSH_CA_FILE; tests: the local push service's). */
  ca?: string;
  timeoutMs?: number;
  /** Seconds a push service keeps an undelivered message. */
  ttlSeconds?: number;
}

/** What the service worker receives (public/sw.js shows it and opens `url` on click). */
export interface PushPayload {
  title: string;
  body: string;
  url?: string;
  tag: string;
}

export const pushPayload = (message: OutgoingMessage, publicUrl?: string): PushPayload => ({
  title: message.title,
  body: message.text,
  ...(message.link ? { url: publicUrl ? new URL(message.link, publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`).toString() : message.link } : {}),
  tag: message.eventIds[0] ?? message.kind,
});

export { generateVapidKeys } from './vapid';

type One = { ok: true } | { ok: false; gone: boolean; retry: boolean; retryAfterMs?: number; error: string };

export const createPushSender = (options: PushSenderOptions): ChannelSender => {
  const allowPrivate = options.allowPrivateAddresses ?? false;
  const agent = new Agent({ keepAlive: false, lookup: lookupGuarded(allowPrivate), ...(options.ca ? { ca: [...rootCertificates, options.ca] } : {}) });

  const sendOne = async (subscription: { endpoint: string; p256dh: string; auth: string }, payload: string): Promise<One> => {
    let endpoint: URL;
    try {
      endpoint = new URL(subscription.endpoint);
    } catch {
      return { ok: false, gone: true, retry: false, error: 'not a push endpoint' };
    }
    const host = hostOf(endpoint);
    if (endpoint.protocol !== 'https:' || (!allowPrivate && isIP(host) && isForbiddenAddress(host))) {
      return { ok: false, gone: true, retry: false, error: 'the push endpoint is not a public https address' };
    }
    try {
      await webpush.sendNotification({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } }, payload, {
        vapidDetails: { subject: options.subject, publicKey: options.vapid.publicKey, privateKey: options.vapid.privateKey },
        TTL: options.ttlSeconds ?? 24 * 3600,
        timeout: options.timeoutMs ?? 10_000,
        contentEncoding: 'aes128gcm',
        agent,
      });
      return { ok: true };
    } catch (error) {
      if (error instanceof WebPushError) {
        const status = error.statusCode;
        if (status === 404 || status === 410) return { ok: false, gone: true, retry: false, error: `push service answered ${status} (subscription gone)` };
        if (status === 429 || status >= 500) {
          const header = error.headers['retry-after'];
          const wait = retryAfterMs(Array.isArray(header) ? header[0] : header);
          return { ok: false, gone: false, retry: true, ...(wait !== undefined ? { retryAfterMs: wait } : {}), error: `push service answered ${status}` };
        }
        return { ok: false, gone: false, retry: false, error: `push service answered ${status}` };
      }
      if ((error as NodeJS.ErrnoException).code === 'EFORBIDDENADDRESS') return { ok: false, gone: true, retry: false, error: 'the push endpoint resolves to a private address' };
      return { ok: false, gone: false, retry: true, error: 'push service unreachable (network error or timeout)' };
    }
  };

  return {
    channel: 'push',
    isLinked: async (db, userId) => !!(await db.selectFrom('push_subscriptions').select('id').where('user_id', '=', userId).executeTakeFirst()),
    deliver: async (db, message): Promise<DeliveryOutcome> => {
      const subscriptions = await db.selectFrom('push_subscriptions').select(['id', 'endpoint', 'p256dh', 'auth']).where('user_id', '=', message.userId).execute();
      if (subscriptions.length === 0) return { ok: false, retry: false, error: 'no push subscription' };
      const payload = JSON.stringify(pushPayload(message, options.publicUrl));
      const results = await Promise.all(subscriptions.map((subscription) => sendOne(subscription, payload)));
      const gone = subscriptions.filter((_, index) => {
        const result = results[index]!;
        return !result.ok && result.gone;
      });
      if (gone.length > 0) await db.deleteFrom('push_subscriptions').where('id', 'in', gone.map((each) => each.id)).execute();
      // One browser reached is a delivered message: retrying would show it twice there.
      if (results.some((result) => result.ok)) return { ok: true };
      const failures = results.filter((result): result is Extract<One, { ok: false }> => !result.ok);
      const retryable = failures.filter((result) => result.retry);
      if (retryable.length > 0) {
        const waits = retryable.flatMap((result) => (result.retryAfterMs !== undefined ? [result.retryAfterMs] : []));
        return { ok: false, retry: true, ...(waits.length ? { retryAfterMs: Math.max(...waits) } : {}), error: retryable[0]!.error };
      }
      // Every subscription gone: nothing is left to send to (the rows are already removed).
      return { ok: false, retry: false, ...(gone.length === subscriptions.length ? { disable: true } : {}), error: failures[0]!.error };
    },
    disable: async (db, userId) => {
      await db.deleteFrom('push_subscriptions').where('user_id', '=', userId).execute();
    },
  };
};
