/**
 * Widget tokens: scoped bearer tokens for the embeddable widgets
 * (`qt-profit-card`, `qt-task-list`, `qt-wallet-balance`). A widget token is
 * good only for the read calls below; every other call refuses it with 11005.
 *
 * A user creates a grant on the security page (`POST /api/user/widget-token`)
 * for a site's origin: the widgets' read calls carrying the grant's tokens are
 * opened (CORS) to that origin and answered there only. The grant comes with
 * an embed token, which the embed code carries and which lives until the
 * grant is revoked, and with a partner key: a partner's backend trades it for
 * short-lived tokens (`PUT /api/user/widget-token`) and writes them into the
 * `token` attribute of the widgets on its pages. Revoking the grant (or a
 * password change) ends all of them at once.
 */
import { Endpoint } from './endpoints';

/** `METHOD path` of the calls the widgets make: the only ones a widget token opens. */
export const WIDGET_READ_CALLS: readonly string[] = [
  `GET ${Endpoint.tradeProfitSummary}`,
  `GET ${Endpoint.profitSummary}`,
  `GET ${Endpoint.tradeList}`,
  `GET ${Endpoint.walletBalances}`,
];

/** `METHOD path` a widget token opens, HEAD being answered as GET; false for anything else. */
export const isWidgetReadCall = (method: string | undefined, path: string): boolean =>
  method !== undefined && WIDGET_READ_CALLS.includes(`${method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase()} ${path}`);

/** The longest origin a grant is bound to. */
export const WIDGET_ORIGIN_MAX = 200;

/**
 * The origin a grant is bound to, as browsers send it in `Origin`: scheme
 * (http or https), host and port, nothing else (a trailing `/` is dropped).
 * Null for anything else: a path, a query, a fragment, user info, another
 * scheme, or text that is no address at all.
 */
export const parseWidgetOrigin = (input: string): string | null => {
  const text = input.trim().replace(/\/$/, '');
  if (text === '' || text.length > WIDGET_ORIGIN_MAX || /[\s\\]/.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // Scheme and authority only: no path (not even "/."), query, fragment or user info.
  if (!/^https?:\/\/[^/?#@]+$/i.test(text) || url.username || url.password) return null;
  return url.origin;
};

/** The token an embed code carries: it lives until its grant is revoked (not a JWT; stored hashed). */
export const WIDGET_EMBED_TOKEN_PREFIX = 'qtw_';

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
  /** The site's origin (`https://blog.example`, scheme + host + port): the only origin its widgets may call from. */
  origin: string;
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

/**
 * The answer to a new grant, shown this once only: its embed token (for the
 * embed code; it lives until the grant is revoked), its first short-lived
 * token and its partner key (to renew short-lived tokens on the partner's server).
 */
export interface WidgetGrantIssued extends WidgetToken {
  name: string;
  origin: string;
  embedToken: string;
  key: string;
}

/** GET /api/user/widget-tokens: the user's live grants, newest first. */
export interface WidgetGrant {
  id: string;
  name: string;
  /** The origin its widgets may call from (null for a grant made before grants had one: no other origin). */
  origin: string | null;
  createdAt: string;
  /** When a token was last issued for it (on creation or by the partner). */
  lastIssuedAt: string;
  /** When the newest token issued for it expires. */
  expiresAt: string;
}
