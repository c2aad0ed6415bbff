/**
 * The operator console's calls, /api/admin/* (operator role only: 11005 for
 * anyone else). Its resources speak ra-data-simple-rest's dialect:
 * `GET /api/admin/<resource>?sort=["f","ASC"]&range=[0,24]&filter={...}`
 * (the records in the envelope, the total in `Content-Range`), `GET /:id`,
 * `POST`, `PUT /:id` (only the fields sent), `DELETE /:id`. Every change is
 * written to the audit log.
 */
import type { LocaleCode } from './types';
import type { Deposit, Withdrawal, SwapRate } from './wallet';
import type { MemberLevel } from './member';
import type { DecimalString } from './types';

/** /api/admin/users (filter q, level, activated, disabled, role); PUT {level?, activated?, disabled?} */
export interface AdminUser {
  id: string;
  email: string;
  nickname: string;
  role: 'user' | 'operator';
  level: number;
  activated: boolean;
  disabled: boolean;
  inviterEmail: string | null;
  usdt: DecimalString;
  createdAt: string;
}

/** /api/admin/deposits (filter status, userId); PUT {status: 'confirmed'} or {status: 'rejected', reason} */
export interface AdminDeposit extends Deposit {
  userId: string;
  userEmail: string;
}

/** /api/admin/withdrawals (filter status, userId); PUT {status: 'approved', txHash?} or {status: 'rejected', reason} */
export interface AdminWithdrawal extends Withdrawal {
  userId: string;
  userEmail: string;
  /** The payout's chain transaction id, when the approving operator gave one. */
  txHash?: string | null;
}

export interface ArticleTranslation {
  locale: LocaleCode;
  title: string;
  summary: string;
  /** HTML; sanitized when saved. */
  body: string;
}

/** /api/admin/articles (filter q, published); POST {translations, published?}; PUT {translations?, published?}; DELETE */
export interface AdminArticle {
  id: string;
  published: boolean;
  publishedAt: string | null;
  translations: ArticleTranslation[];
  createdAt: string;
  updatedAt: string;
}

/** /api/admin/levels: a membership level as a resource, its number as its id. POST adds one on top; DELETE removes the top one. */
export interface AdminLevel extends MemberLevel {
  id: number;
}

/** GET /api/admin/settings, POST /api/admin/settings/edit (partial, levels excepted): the configured rules. */
export interface ServiceSettings {
  levels: MemberLevel[];
  swapRates: SwapRate[];
  withdrawFee: DecimalString;
  withdrawMin: DecimalString;
  transferMin: DecimalString;
  activationCardPrice: DecimalString;
  activationUsdtPrice: DecimalString;
  fuelRatePercent: DecimalString;
  inviteRewardPoints: DecimalString;
  /** Fuel credited on activation, so a newly activated account can open its first cycles. */
  activationFuelGift: DecimalString;
  depositNetwork: string;
}

/** /api/admin/audit (filter operatorId, action, targetType, targetId), newest first; read only. */
export interface AuditEntry {
  id: string;
  operatorId: string;
  operatorEmail: string;
  action: string;
  targetType: string;
  targetId: string | null;
  data: Record<string, unknown>;
  createdAt: string;
}

/** The state of one message of the notifications' outbox on one channel. */
export const DELIVERY_STATUSES = ['pending', 'sent', 'dead'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** /api/admin/notification-deliveries: one message of the outbox on one channel (an operator retries a dead one). */
export interface AdminNotificationDelivery {
  id: string;
  userId: string;
  userEmail: string;
  /** telegram, email, push, webhook. */
  channel: string;
  /** The first event's kind; `events` says how many the message carries. */
  kind: string;
  events: number;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  /** When it was queued; when it is (or was last) due; when it was last attempted; when it was sent. */
  createdAt: string;
  nextAttemptAt: string;
  lastAttemptAt: string | null;
  sentAt: string | null;
}

/** /api/admin/notification-counts: the outbox's messages per channel and status. */
export interface NotificationDeliveryCount {
  channel: string;
  pending: number;
  sent: number;
  dead: number;
}
