import { DEV_SIGN_SECRET } from '../api/signing';
import type { LocaleCode, RefreshResponse } from '../api/types';
import { sessionStore } from '../authProvider/session';
import { createReadCalls } from '../dataProvider/api';
import { createHttpClient, type TokenStore } from '../dataProvider/httpClient';
import { browserTimeZone } from '../dataProvider/timeZone';

/**
 * A token handed out by a partner backend (a widget token, README "Widget
 * tokens"): kept in memory only. The widget cannot refresh it; when it ends,
 * `qt-session-expired` tells the page, which sets a fresh one.
 */
export const createMemoryTokenStore = (token: string): TokenStore => {
  let access: string | null = token;
  return {
    getAccessToken: () => access,
    getRefreshToken: () => null,
    updateTokens: ({ accessToken }: RefreshResponse) => {
      access = accessToken;
    },
    clear: () => {
      access = null;
    },
  };
};

export interface WidgetClientOptions {
  /** API base address; '' or absent = same origin. */
  apiBase?: string | undefined;
  /** Widget token from a partner backend; absent = the dashboard's own session. */
  token?: string | undefined;
  locale: LocaleCode;
  fetch?: typeof fetch;
}

const trimSlash = (value: string) => value.replace(/\/+$/, '');

/** The widgets' calls: the dashboard's typed calls on the same HTTP client (only the read calls a widget token opens). */
export const createWidgetClient = (options: WidgetClientOptions) => {
  const tokens = options.token ? createMemoryTokenStore(options.token) : sessionStore;
  const http = createHttpClient({
    baseUrl: trimSlash(options.apiBase ?? ''),
    signSecret: import.meta.env.VITE_API_SIGN_SECRET || DEV_SIGN_SECRET,
    tokens,
    getLocale: () => options.locale,
    // The widget that sees the session end tells the page, once for all widgets of that session (useWidgetData).
    onSessionExpired: () => undefined,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const api = createReadCalls(http);
  const timeZone = browserTimeZone();
  const base = trimSlash(options.apiBase ?? '');
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  return {
    /**
     * After a call got no answer the page may read: is the API's origin
     * reachable at all? A no-cors load of the widgets' manifest (sent to any
     * origin) answers; if it arrives, the browser withheld the call's answer
     * because the API did not open it to this page's origin. False on the
     * API's own origin, where no answer means no connection.
     */
    apiReachable: async (): Promise<boolean> => {
      if (typeof location === 'undefined' || base === '') return false;
      let target: URL;
      try {
        target = new URL(`${base}/widgets/qt-widgets.manifest.json`, location.href);
      } catch {
        return false;
      }
      if (target.origin === location.origin) return false;
      try {
        await doFetch(target.href, { mode: 'no-cors', cache: 'no-store', credentials: 'omit' });
        return true;
      } catch {
        return false;
      }
    },
    /** False when there is no token to send at all: the widget shows "log in" without calling. */
    hasSession: () => tokens.getAccessToken() !== null || tokens.getRefreshToken() !== null,
    profitSummary: (signal?: AbortSignal) => api.tradeProfitSummary(timeZone, signal),
    /** Profit per day (the profit card's chart), oldest first, in the browser's time zone. */
    profitOverview: (days: number, signal?: AbortSignal) => api.profitSummary({ timeZone, days }, signal),
    runningTasks: (pageSize: number, signal?: AbortSignal) => api.tradeList({ page: 1, pageSize, running: true }, signal),
    walletBalances: (signal?: AbortSignal) => api.walletBalances(signal),
  };
};

export type WidgetClient = ReturnType<typeof createWidgetClient>;

/** `<dashboard-url or api-base>/#/auth/login` */
export const loginUrl = (dashboardUrl?: string, apiBase?: string) => `${trimSlash(dashboardUrl || apiBase || '')}/#/auth/login`;
export const walletUrl = (dashboardUrl: string) => `${trimSlash(dashboardUrl)}/#/profile/wallet`;
export const taskUrl = (dashboardUrl: string, id: string) => `${trimSlash(dashboardUrl)}/#/trade/detail/${encodeURIComponent(id)}`;
