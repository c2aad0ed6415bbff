/**
 * Widget tokens: scoped, short-lived bearer tokens for the embeddable widgets
 * (`qt-profit-card`, `qt-task-list`, `qt-wallet-balance`). A widget token is
 * good only for the read calls below; every other call refuses it with 11005.
 *
 * A user creates a grant on the security page (`POST /api/user/widget-token`)
 * and gets a first token and the grant's partner key. The partner's backend
 * keeps the key and trades it for fresh tokens (`PUT /api/user/widget-token`),
 * which it writes into the `token` attribute of the widgets on its pages.
 * Revoking the grant (or a password change) ends its tokens at once.
 */
import { Endpoint } from './endpoints';

/** `METHOD path` of the calls the widgets make: the only ones a widget token opens. */
export const WIDGET_READ_CALLS: readonly string[] = [
  `GET ${Endpoint.tradeProfitSummary}`,
  `GET ${Endpoint.profitSummary}`,
  `GET ${Endpoint.tradeList}`,
  `GET ${Endpoint.walletBalances}`,
];

/** A widget token lives at most an hour (the default), at least a minute. */
export const WIDGET_TOKEN_MAX_TTL_SECONDS = 3600;
export const WIDGET_TOKEN_MIN_TTL_SECONDS = 60;
/** Grants a user may hold at once. */
export const WIDGET_GRANT_LIMIT = 20;
export const WIDGET_GRANT_NAME_MAX = 40;

/** POST /api/user/widget-token (a signed-in user, full access token). */
export interface WidgetTokenRequest {
  /** What the grant is for, e.g. the partner site's name. */
  name: string;
  ttlSeconds?: number;
}

/** PUT /api/user/widget-token (a partner backend): a fresh token for the grant of this key. */
export interface WidgetTokenRefresh {
  key: string;
  ttlSeconds?: number;
}

export interface WidgetToken {
  /** The grant's id. */
  id: string;
  token: string;
  /** ISO time the token stops working. */
  expiresAt: string;
}

/** The answer to a new grant: its first token and its partner key, shown this once only. */
export interface WidgetGrantIssued extends WidgetToken {
  name: string;
  key: string;
}

/** GET /api/user/widget-tokens: the user's live grants, newest first. */
export interface WidgetGrant {
  id: string;
  name: string;
  createdAt: string;
  /** When a token was last issued for it (on creation or by the partner). */
  lastIssuedAt: string;
  /** When the newest token issued for it expires. */
  expiresAt: string;
}
