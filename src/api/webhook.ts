/**
 * A task's TradingView webhook (issue 29): the address and secret the user
 * pastes into a TradingView alert, the alert message template, and the rules
 * an alert meets before it reaches the engine.
 */
import type { AlertAction } from './conditions';

/** Create or rotate a task's webhook (a new secret each time), choosing what its alerts do by default. */
export interface TaskWebhookPayload {
  id: string;
  action: AlertAction;
}

/** What an alert the webhook received came to. */
export const ALERT_OUTCOMES = ['accepted', 'task_stopped', 'undelivered'] as const;
export type AlertOutcome = (typeof ALERT_OUTCOMES)[number];

/** One alert a task's webhook received (newest first in TaskWebhook.alerts). */
export interface TaskAlertRecord {
  /** The alert's own id (the template's `id`), unique per task. */
  alertId: string;
  action: AlertAction;
  outcome: AlertOutcome;
  ticker: string | null;
  price: string | null;
  /** The alert's time as TradingView sent it, and when it arrived. */
  time: string;
  receivedAt: string;
}

/** A task's webhook as its owner sees it; the secret is shown to the owner only. */
export interface TaskWebhook {
  taskId: string;
  url: string;
  secret: string;
  action: AlertAction;
  /** The alert message to paste into TradingView (JSON with its placeholders). */
  template: string;
  createdAt: string;
  rotatedAt: string;
  alerts: TaskAlertRecord[];
}

/** An alert older than this (by its `time`) is refused as a replay. */
export const ALERT_MAX_AGE_MS = 5 * 60_000;
/** An alert's time may run this far ahead of ours (clock skew). */
export const ALERT_MAX_AHEAD_MS = 60_000;
/** Alerts per task: at most this many a minute and an hour. */
export const ALERT_LIMITS = [
  { max: 5, windowSeconds: 60 },
  { max: 30, windowSeconds: 3600 },
] as const;
/** The largest alert message accepted, in bytes. */
export const ALERT_BODY_LIMIT = 4096;
/** Alerts a webhook's answer lists. */
export const ALERTS_SHOWN = 20;

/** The public path TradingView posts a task's alerts to. */
export const tradingViewHookPath = (hookId: string) => `/hooks/tradingview/${encodeURIComponent(hookId)}`;

/**
 * The addresses TradingView sends webhooks from, as its documentation lists
 * them ("About webhooks"); TRADINGVIEW_ADDRESSES=tradingview accepts only these.
 */
export const TRADINGVIEW_ADDRESSES = ['52.89.214.238', '34.212.75.30', '54.218.53.128', '52.32.178.7'] as const;

/**
 * The alert message for TradingView: JSON with its documented placeholders
 * ({{timenow}}, {{ticker}}, {{close}}); `id` makes each alert unique.
 */
export const alertTemplate = (secret: string, action: AlertAction): string =>
  JSON.stringify({ secret, id: '{{timenow}}-{{ticker}}', time: '{{timenow}}', ticker: '{{ticker}}', price: '{{close}}', action });
