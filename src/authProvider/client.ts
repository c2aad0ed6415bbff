import { DEV_SIGN_SECRET } from '../api/signing';
import { sessionStore } from './session';
import { currentLocale } from '../i18n/i18nProvider';
import { createHttpClient } from '../dataProvider/httpClient';

export const LOGIN_HASH = '#/auth/login';

const expiryListeners = new Set<() => void>();

/**
 * Lets the mounted app react to a session that could not be refreshed (the
 * dashboard logs out through react-admin's router). Without a listener the
 * page goes to #/auth/login itself.
 */
export const subscribeSessionExpired = (listener: () => void): (() => void) => {
  expiryListeners.add(listener);
  return () => expiryListeners.delete(listener);
};

/** The page's HTTP client: same-origin API (or VITE_API_BASE), the page's session and locale. */
export const http = createHttpClient({
  baseUrl: import.meta.env.VITE_API_BASE ?? '',
  signSecret: import.meta.env.VITE_API_SIGN_SECRET || DEV_SIGN_SECRET,
  tokens: sessionStore,
  getLocale: currentLocale,
  onSessionExpired: () => {
    if (expiryListeners.size > 0) expiryListeners.forEach((listener) => listener());
    else if (typeof window !== 'undefined' && window.location.hash !== LOGIN_HASH) window.location.hash = LOGIN_HASH;
  },
});
