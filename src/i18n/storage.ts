import { DEFAULT_LOCALE, LOCALE_STORAGE_KEY, isLocaleCode } from '../api/defaults';
import type { LocaleCode } from '../api/types';

/**
 * The chosen locale lives under the plain `locale` key of localStorage, not in
 * react-admin's store (which is emptied on logout), so it survives logout.
 */
export const getStoredLocale = (): LocaleCode => {
  try {
    const value = globalThis.localStorage?.getItem(LOCALE_STORAGE_KEY);
    return isLocaleCode(value) ? value : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
};

export const storeLocale = (code: LocaleCode): void => {
  try {
    globalThis.localStorage?.setItem(LOCALE_STORAGE_KEY, code);
  } catch {
    // Storage can be unavailable (private mode, sandboxed iframe): the choice then lasts for the page only.
  }
};
