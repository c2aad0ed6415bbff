/** Notifications (issue 25): the inbox, its unread count and the preferences per kind and channel. */

export const NOTIFICATION_KINDS = [
  'trade.fill',
  'trade.cycle_closed',
  'trade.stop_loss',
  'trade.attention',
  'trade.ladder_full',
  // A paper account on a live price source: it fell back to simulated prices, or came back (one notice per account and change).
  'trade.paper_fallback',
  'trade.paper_live',
  // A TradingView alert reached a task's webhook and was handed to the robot (issue 29).
  'trade.alert',
  'member.fuel_low',
  'member.fuel_empty',
  'wallet.deposit_credited',
  'wallet.withdrawal_approved',
  'wallet.withdrawal_refused',
  'wallet.transfer_received',
  'user.new_login',
  'user.password_changed',
  'user.email_changed',
  'user.security_changed',
  'user.widget_grant_created',
  // A withdrawal address entered the book (added, or first named by a withdrawal): usable from payload.usableAt.
  'user.withdrawal_address_added',
  // A channel turned off by a fault (a blocked bot, a subscription or webhook gone): the inbox and e-mail say which and how to fix it.
  'user.channel_disabled',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The notices about a paper account's prices (not a task's): they link to the exchange accounts. */
export const isPaperPriceNotice = (kind: string) => kind === 'trade.paper_fallback' || kind === 'trade.paper_live';

/**
 * Below this much fuel (1 FUEL = 1 USDT by the default swap rate: the fuel of
 * 20 USDT of profit at the default 10 % rate, a tenth of the activation gift)
 * the user is told once, when a charge takes the balance across it.
 */
export const FUEL_LOW_THRESHOLD = '2';

/** Security notices always go by e-mail: that choice cannot be turned off. */
export const isAlwaysByEmail = (kind: string) => kind.startsWith('user.');

export const NOTIFICATION_CHANNELS = ['inapp', 'email', 'telegram', 'push', 'webhook'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** One event of the inbox; its figures are decimal strings in `payload`. */
export interface Notification {
  id: string;
  kind: NotificationKind;
  taskId: string | null;
  payload: Record<string, unknown>;
  createdAt: string;
  read: boolean;
}

export interface UnreadCount {
  count: number;
}

/** Marks the given events read, or all of the caller's. */
export interface MarkReadRequest {
  ids?: string[];
  all?: boolean;
}

export interface NotificationPreference {
  kind: NotificationKind;
  channel: NotificationChannel;
  enabled: boolean;
}

/** When a kind reaches the channels outside the app: at once, or gathered into one message an hour per channel (the inbox is always at once). */
export const NOTIFICATION_TIMINGS = ['immediate', 'hourly'] as const;
export type NotificationTiming = (typeof NOTIFICATION_TIMINGS)[number];

export interface NotificationKindTiming {
  kind: NotificationKind;
  timing: NotificationTiming;
}

/** The preferences table; `channels` are those the user may choose (in-app, e-mail, and those linked); `timing` has every kind but the security ones (always at once). */
export interface NotificationPreferences {
  channels: NotificationChannel[];
  list: NotificationPreference[];
  timing: NotificationKindTiming[];
}

/** A change of preferences: some cells of the table, some kinds' timing, or both. */
export interface NotificationPreferencesChange {
  list?: NotificationPreference[];
  timing?: NotificationKindTiming[];
}
