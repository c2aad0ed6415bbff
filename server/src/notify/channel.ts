// server/src/notify/channel.ts
import type { Db } from '../db/database';

export type NotifyChannel = 'inapp' | 'email' | 'telegram' | 'push' | 'webhook';
export type NotifyLocale = 'zh-CN' | 'en-US' | 'zh-TW';

/** One message for one user on one channel: one event, or several coalesced. */
export interface OutgoingMessage {
  /** The event ids it carries (idempotency key: the first id + channel). */
  eventIds: string[];
  userId: string;
  locale: NotifyLocale;
  /** The event kind, e.g. 'trade.fill', 'trade.cycle_closed', 'wallet.deposit_credited'. */
  kind: string;
  /** Short localized title and plain-text body, figures already formatted. */
  title: string;
  text: string;
  /** A path in the dashboard (e.g. '#/tasks/<id>/show'), absolute URL built by the sender from config.publicUrl if any. */
  link?: string;
  /** The event's raw fields (JSON), for webhooks. */
  data: Record<string, unknown>;
}

export type DeliveryOutcome =
  | { ok: true }
  /** Try again later: after retryAfterMs if the channel said so, else the outbox's backoff. */
  | { ok: false; retry: true; retryAfterMs?: number; error: string }
  /** Never retry this message; if disable, the user's channel is turned off (blocked bot, gone subscription) and the inbox says so. */
  | { ok: false; retry: false; disable?: boolean; error: string };

export interface ChannelSender {
  channel: Exclude<NotifyChannel, 'inapp'>;
  /** Whether the user has linked this channel (no link: the message is not queued for it). */
  isLinked(db: Db, userId: string): Promise<boolean>;
  deliver(db: Db, message: OutgoingMessage): Promise<DeliveryOutcome>;
  /** Turns the user's link off (after a disable outcome). */
  disable(db: Db, userId: string, reason: string): Promise<void>;
}
