/**
 * The external notification channels a user links (issue 25): a Telegram
 * chat, this browser's web push, a signed webhook. `/api/notifications/channels/*`.
 */
export const NotifyChannelEndpoint = {
  state: '/api/notifications/channels',
  telegramLink: '/api/notifications/channels/telegram/link',
  telegramUnlink: '/api/notifications/channels/telegram/unlink',
  pushKey: '/api/notifications/channels/push/key',
  pushSubscribe: '/api/notifications/channels/push/subscribe',
  pushUnsubscribe: '/api/notifications/channels/push/unsubscribe',
  webhookSave: '/api/notifications/channels/webhook',
  webhookDelete: '/api/notifications/channels/webhook/delete',
  webhookTest: '/api/notifications/channels/webhook/test',
} as const;

export interface NotifyChannelsState {
  /** Null when the server has no Telegram bot (no option anywhere). */
  telegram: { linked: boolean; linkedAt: string | null; disabledReason: string | null } | null;
  push: { publicKey: string; subscriptions: number };
  /** The saved webhook, its secret never (shown once, when made). */
  webhook: { url: string; enabled: boolean; disabledReason: string | null } | null;
}

export interface TelegramLinkAnswer {
  /** `https://t.me/<bot>?start=<one-time code>` */
  url: string;
  expiresAt: string;
}

export interface PushSubscriptionPayload {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface WebhookSavePayload {
  url: string;
  /** A new secret even if one exists. */
  newSecret?: boolean;
}

export interface WebhookSaveAnswer {
  url: string;
  /** Shown once: set when the webhook is made or its secret renewed, null otherwise. */
  secret: string | null;
}

export interface WebhookTestAnswer {
  ok: boolean;
  /** What went wrong, e.g. `webhook answered 404`. */
  error: string | null;
}

/** The longest webhook address. */
export const WEBHOOK_URL_MAX = 500;
