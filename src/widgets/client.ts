import { Endpoint } from '../api/endpoints';
import type { ProfitOverview } from '../api/member';
import { DEV_SIGN_SECRET } from '../api/signing';
import type { ProfitSummary, TradeTask } from '../api/trade';
import type { LocaleCode, Page, RefreshResponse } from '../api/types';
import type { WalletBalances } from '../api/wallet';
import { sessionStore } from '../authProvider/session';
import { createHttpClient, type TokenStore } from '../dataProvider/httpClient';

/** A token handed out by a partner backend: kept in memory only, never refreshed. */
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
  /** Bearer token from a partner backend; absent = the dashboard's own session. */
  token?: string | undefined;
  locale: LocaleCode;
  onSessionExpired: () => void;
  fetch?: typeof fetch;
}

const trimSlash = (value: string) => value.replace(/\/+$/, '');

/** The widgets' calls, on the same HTTP client as the dashboard. */
export const createWidgetClient = (options: WidgetClientOptions) => {
  const tokens = options.token ? createMemoryTokenStore(options.token) : sessionStore;
  const http = createHttpClient({
    baseUrl: trimSlash(options.apiBase ?? ''),
    signSecret: import.meta.env.VITE_API_SIGN_SECRET || DEV_SIGN_SECRET,
    tokens,
    getLocale: () => options.locale,
    onSessionExpired: options.onSessionExpired,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const timeZone = (() => {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || 'Asia/Shanghai';
    } catch {
      return 'Asia/Shanghai';
    }
  })();
  return {
    /** False when there is no token to send at all: the widget shows "log in" without calling. */
    hasSession: () => tokens.getAccessToken() !== null || tokens.getRefreshToken() !== null,
    profitSummary: (signal?: AbortSignal) =>
      http.request<ProfitSummary>('GET', Endpoint.tradeProfitSummary, { query: { timeZone }, signal }),
    /** Profit per day (the profit card's chart), oldest first, in the browser's time zone. */
    profitOverview: (days: number, signal?: AbortSignal) =>
      http.request<ProfitOverview>('GET', Endpoint.profitSummary, { query: { timeZone, days }, signal }),
    runningTasks: (pageSize: number, signal?: AbortSignal) =>
      http.request<Page<TradeTask>>('GET', Endpoint.tradeList, { query: { page: 1, pageSize, running: true }, signal }),
    walletBalances: (signal?: AbortSignal) => http.request<WalletBalances>('GET', Endpoint.walletBalances, { signal }),
  };
};

export type WidgetClient = ReturnType<typeof createWidgetClient>;

/** `<dashboard-url or api-base>/#/auth/login` */
export const loginUrl = (dashboardUrl?: string, apiBase?: string) => `${trimSlash(dashboardUrl || apiBase || '')}/#/auth/login`;
export const walletUrl = (dashboardUrl: string) => `${trimSlash(dashboardUrl)}/#/profile/wallet`;
export const taskUrl = (dashboardUrl: string, id: string) => `${trimSlash(dashboardUrl)}/#/trade/detail/${encodeURIComponent(id)}`;
