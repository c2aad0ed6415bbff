import { createHmac, randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { Db } from '../../db/database';
import { createSecretBox } from '../../engine/venues/exchangeAccess';
import type { ChannelSender, DeliveryOutcome, OutgoingMessage } from '../channel';
import { hostOf, isForbiddenAddress, lookupGuarded } from './addressGuard';

/**
 * A user's webhook (issue 25): each message is POSTed as JSON
 * `{ id, kind, createdAt, data }` with `X-QT-Event-Id` (the idempotency key
 * on the receiver's side) and `X-QT-Signature: sha256=<hex>`, the
 * HMAC-SHA256 of the raw body under the user's secret. 2xx: sent; 5xx, a
 * timeout or a network fault: retried; 429: retried after Retry-After; 410:
 * turned off; any other answer (4xx, 3xx: redirects are not followed): not retried. Private
 * addresses are refused on the address actually connected to.
 */
export interface WebhookSenderOptions {
  /** The key that seals webhook secrets at rest (the exchange master key of the configuration). */
  masterKey: string;
  /** Lets webhooks reach loopback and private addresses: tests and closed networks only. */
  allowPrivateAddresses?: boolean;
  timeoutMs?: number;
  /** The time the payload says it was sent at (tests). */
  now?: () => Date;
}

export const SIGNATURE_HEADER = 'x-qt-signature';
export const EVENT_ID_HEADER = 'x-qt-event-id';

/** A new webhook secret (shown to its user once). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('hex')}`;

export const signWebhookBody = (secret: string, body: string): string => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

const sealContext = (userId: string) => `webhook:${userId}`;

export const sealWebhookSecret = (masterKey: string, userId: string, secret: string): string =>
  createSecretBox(masterKey).seal(secret, sealContext(userId));

/** Seconds or an HTTP date, as Retry-After carries them; undefined when absent or unreadable. */
export const retryAfterMs = (value: string | undefined, now: number = Date.now()): number | undefined => {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
};

export interface WebhookAnswer {
  status: number;
  retryAfter?: string | undefined;
}

/** One POST, no redirects followed, the connection refused to forbidden addresses. */
export const postWebhook = (
  target: URL,
  body: string,
  headers: Record<string, string>,
  { allowPrivateAddresses = false, timeoutMs = 10_000 }: { allowPrivateAddresses?: boolean; timeoutMs?: number },
): Promise<WebhookAnswer> =>
  new Promise((resolve, reject) => {
    const host = hostOf(target);
    if (!allowPrivateAddresses && isIP(host) && isForbiddenAddress(host)) {
      reject(Object.assign(new Error(`${host} is an address webhooks may not reach`), { code: 'EFORBIDDENADDRESS' }));
      return;
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body).toString(), 'user-agent': 'QuantTrader-Webhook/1', ...headers },
        lookup: lookupGuarded(allowPrivateAddresses),
        timeout: timeoutMs,
      },
      (response: IncomingMessage) => {
        // The answer's body is not read beyond draining it.
        response.resume();
        const retryAfter = response.headers['retry-after'];
        resolve({ status: response.statusCode ?? 0, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter });
      },
    );
    request.on('timeout', () => request.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })));
    request.on('error', reject);
    request.end(body);
  });

/** The outcome of a webhook's answer (pure). */
export const webhookOutcome = (answer: WebhookAnswer, now: number = Date.now()): DeliveryOutcome => {
  const { status } = answer;
  if (status >= 200 && status < 300) return { ok: true };
  if (status === 429) {
    const wait = retryAfterMs(answer.retryAfter, now);
    return { ok: false, retry: true, ...(wait !== undefined ? { retryAfterMs: wait } : {}), error: 'webhook answered 429 (too many requests)' };
  }
  if (status >= 500) return { ok: false, retry: true, error: `webhook answered ${status}` };
  // The receiver says the hook is gone for good: it is turned off (and the user told).
  if (status === 410) return { ok: false, retry: false, disable: true, error: 'webhook answered 410 (gone)' };
  if (status >= 300 && status < 400) return { ok: false, retry: false, error: `webhook answered ${status} (redirects are not followed)` };
  return { ok: false, retry: false, error: `webhook answered ${status}` };
};

export const webhookBody = (message: OutgoingMessage, createdAt: Date) =>
  JSON.stringify({ id: message.eventIds[0], kind: message.kind, createdAt: createdAt.toISOString(), data: message.data });

export const createWebhookSender = (options: WebhookSenderOptions): ChannelSender & {
  /** Sends to the user's saved webhook now, whatever its state (the "send test" button). */
  send(db: Db, message: OutgoingMessage): Promise<DeliveryOutcome>;
} => {
  const box = createSecretBox(options.masterKey);
  const now = options.now ?? (() => new Date());
  const send = async (db: Db, message: OutgoingMessage, mustBeEnabled: boolean): Promise<DeliveryOutcome> => {
    const row = await db.selectFrom('webhooks').selectAll().where('user_id', '=', message.userId).executeTakeFirst();
    if (!row) return { ok: false, retry: false, error: 'no webhook' };
    if (mustBeEnabled && !row.enabled) return { ok: false, retry: false, error: 'the webhook is turned off' };
    let secret: string;
    try {
      secret = box.open(row.secret_ciphertext, sealContext(message.userId));
    } catch {
      return { ok: false, retry: false, error: 'the webhook secret does not open (master key changed?)' };
    }
    const body = webhookBody(message, now());
    const headers = { 'X-QT-Event-Id': message.eventIds[0] ?? '', 'X-QT-Signature': signWebhookBody(secret, body) };
    try {
      return webhookOutcome(await postWebhook(new URL(row.url), body, headers, options), now().getTime());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EFORBIDDENADDRESS') return { ok: false, retry: false, error: 'the webhook address resolves to a private or reserved address' };
      // Timeouts, refused connections, names that do not resolve (yet): tried again.
      return { ok: false, retry: true, error: `webhook unreachable (${code ?? 'network error'})` };
    }
  };
  return {
    channel: 'webhook',
    isLinked: async (db, userId) =>
      !!(await db.selectFrom('webhooks').select('user_id').where('user_id', '=', userId).where('enabled', '=', true).executeTakeFirst()),
    deliver: (db, message) => send(db, message, true),
    send: (db, message) => send(db, message, false),
    disable: async (db, userId, reason) => {
      await db.updateTable('webhooks').set({ enabled: false, disabled_reason: reason.slice(0, 500) }).where('user_id', '=', userId).execute();
    },
  };
};
