import type { RefreshResponse, Session } from '../api/types';
import type { TokenStore } from '../dataProvider/httpClient';

export const ACCESS_TOKEN_KEY = 'accessToken';
export const REFRESH_TOKEN_KEY = 'refreshToken';

const safe = <T>(read: () => T, fallback: T): T => {
  try {
    return read();
  } catch {
    return fallback;
  }
};
const local = (): Storage | undefined => safe(() => globalThis.localStorage, undefined);
const session = (): Storage | undefined => safe(() => globalThis.sessionStorage, undefined);

/**
 * Where the session's tokens live (spec section 4):
 * - remember me on: access and refresh token in localStorage (long-term);
 * - remember me off: only the access token, in sessionStorage. The refresh
 *   token then stays in this page's memory only, so a 401 can still be cured
 *   while the page lives, and closing the tab ends the session.
 */
export const createSessionStore = (): TokenStore & {
  save(session: Session): void;
  isRemembered(): boolean;
} => {
  let memoryRefreshToken: string | null = null;

  const store = {
    getAccessToken: (): string | null =>
      safe(() => local()?.getItem(ACCESS_TOKEN_KEY) ?? session()?.getItem(ACCESS_TOKEN_KEY) ?? null, null),
    getRefreshToken: (): string | null =>
      safe(() => local()?.getItem(REFRESH_TOKEN_KEY) ?? null, null) ?? memoryRefreshToken,
    isRemembered: (): boolean => safe(() => local()?.getItem(REFRESH_TOKEN_KEY) != null, false),
    save({ accessToken, refreshToken, rememberMe }: Session): void {
      store.clear();
      if (rememberMe) {
        local()?.setItem(ACCESS_TOKEN_KEY, accessToken);
        local()?.setItem(REFRESH_TOKEN_KEY, refreshToken);
      } else {
        session()?.setItem(ACCESS_TOKEN_KEY, accessToken);
        memoryRefreshToken = refreshToken;
      }
    },
    updateTokens({ accessToken, refreshToken }: RefreshResponse): void {
      store.save({ accessToken, refreshToken, rememberMe: store.isRemembered() });
    },
    clear(): void {
      memoryRefreshToken = null;
      for (const storage of [local(), session()]) {
        safe(() => {
          storage?.removeItem(ACCESS_TOKEN_KEY);
          storage?.removeItem(REFRESH_TOKEN_KEY);
        }, undefined);
      }
    },
  };
  return store;
};

/** The page's session (dashboard and same-origin widgets share it). */
export const sessionStore = createSessionStore();
