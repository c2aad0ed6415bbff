import type { Static } from 'typebox';
import { WEBHOOK_URL_MAX, type PushSubscriptionPayload, type WebhookSavePayload } from '../../../src/api/notifyChannels';
import { Body, SameShape, Type, envelope, type Same } from '../http/schemas';

const nullableText = { type: ['string', 'null'] } as const;
const nullAnswer = { 200: envelope({ type: 'null' }) };

export const stateSchema = {
  summary: "The caller's notification channels: Telegram (null without a bot), web push, webhook",
  response: {
    200: envelope({
      type: 'object',
      properties: {
        telegram: {
          type: ['object', 'null'],
          properties: { linked: { type: 'boolean' }, linkedAt: nullableText, disabledReason: nullableText },
        },
        push: { type: 'object', properties: { publicKey: { type: 'string' }, subscriptions: { type: 'integer' } } },
        webhook: {
          type: ['object', 'null'],
          properties: { url: { type: 'string' }, enabled: { type: 'boolean' }, disabledReason: nullableText },
        },
      },
    }),
  },
};

export const telegramLinkSchema = {
  summary: 'A one-time Telegram deep link that links the chat which opens it (15 minutes)',
  response: { 200: envelope({ type: 'object', properties: { url: { type: 'string' }, expiresAt: { type: 'string' } } }) },
};

export const telegramUnlinkSchema = { summary: 'Unlink the Telegram chat', response: nullAnswer };

export const pushKeySchema = {
  summary: "The server's VAPID public key, for PushManager.subscribe",
  response: { 200: envelope({ type: 'object', properties: { publicKey: { type: 'string' } } }) },
};

const base64url = (maxLength: number) => Type.String({ minLength: 16, maxLength, pattern: '^[A-Za-z0-9_-]+=*$' });
const endpoint = Type.String({ minLength: 12, maxLength: 1000, pattern: '^https://[^\\s]+$' });

export const pushSubscribeBody = Body({ endpoint, keys: Body({ p256dh: base64url(200), auth: base64url(100) }) });
export const pushSubscribeSchema = { summary: "Web push to this browser (its PushSubscription's JSON)", body: pushSubscribeBody, response: nullAnswer };

export const pushUnsubscribeBody = Body({ endpoint });
export const pushUnsubscribeSchema = { summary: 'No more web push to this browser', body: pushUnsubscribeBody, response: nullAnswer };

export const webhookSaveBody = Body({
  url: Type.String({ minLength: 10, maxLength: WEBHOOK_URL_MAX, pattern: '^https?://[^\\s]+$' }),
  newSecret: Type.Optional(Type.Boolean()),
});
export const webhookSaveSchema = {
  summary: 'Save the webhook address; the secret is answered once, when made or renewed',
  body: webhookSaveBody,
  response: { 200: envelope({ type: 'object', properties: { url: { type: 'string' }, secret: nullableText } }) },
};

export const webhookDeleteSchema = { summary: 'Remove the webhook', response: nullAnswer };

export const webhookTestSchema = {
  summary: 'Send a test event to the webhook now and tell what it answered',
  response: { 200: envelope({ type: 'object', properties: { ok: { type: 'boolean' }, error: nullableText } }) },
};

SameShape<Same<Static<typeof pushSubscribeBody>, PushSubscriptionPayload>>();
SameShape<Same<Static<typeof webhookSaveBody>, WebhookSavePayload>>();
