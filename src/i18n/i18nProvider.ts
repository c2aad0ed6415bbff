import { createInstance, type TOptions } from 'i18next';
import { getI18nProvider } from 'ra-i18n-i18next';
import type { I18nProvider } from 'ra-core';
import { DEFAULT_LOCALE, SUPPORTED_LOCALES, isLocaleCode } from '../api/defaults';
import type { LocaleCode } from '../api/types';
import { setErrorTranslator } from '../dataProvider/errorText';
import { LOCALES, localeInfo } from './locales';
import { resources } from './resources';
import { getStoredLocale, storeLocale } from './storage';

/**
 * One i18next instance for the page. Resources are bundled and init runs
 * synchronously (initImmediate: false), so `translate` works for code outside
 * React (the HTTP client's error texts) as soon as this module is loaded.
 */
export const i18next = createInstance();

const applyDocumentLocale = (code: LocaleCode) => {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = code;
  document.documentElement.dir = localeInfo(code).direction;
};

const baseProvider: Promise<I18nProvider> = getI18nProvider(
  i18next,
  {
    resources,
    lng: getStoredLocale(),
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...SUPPORTED_LOCALES],
    load: 'currentOnly',
    initImmediate: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  },
  LOCALES.map((l) => ({ locale: l.code, name: `${l.flag} ${l.nativeLabel}` })),
);

export class LocaleSwitchInProgressError extends Error {
  constructor() {
    super('A locale switch is already in progress');
    this.name = 'LocaleSwitchInProgressError';
  }
}

let switching: Promise<void> | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

/** True while a locale switch runs; the UI disables its switchers meanwhile. */
export const isSwitchingLocale = (): boolean => switching !== null;
export const subscribeLocaleSwitching = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export const currentLocale = (): LocaleCode => {
  const lng = i18next.language;
  return isLocaleCode(lng) ? lng : DEFAULT_LOCALE;
};

/** The react-admin i18nProvider: ra-i18n-i18next's provider with guarded, persisted switching. */
export const createI18nProvider = async (): Promise<I18nProvider> => {
  const provider = await baseProvider;
  applyDocumentLocale(currentLocale());
  return {
    ...provider,
    getLocale: currentLocale,
    changeLocale: (locale: string) => {
      if (switching) return Promise.reject(new LocaleSwitchInProgressError());
      if (!isLocaleCode(locale)) return Promise.reject(new Error(`Unsupported locale: ${locale}`));
      switching = provider
        .changeLocale(locale)
        .then(() => {
          storeLocale(locale);
          applyDocumentLocale(locale);
        })
        .finally(() => {
          switching = null;
          emit();
        });
      emit();
      return switching;
    },
  };
};

/** Nested texts per locale; every locale has the same keys (a test checks). */
export type Messages = Record<LocaleCode, Record<string, unknown>>;

/**
 * Adds an area's texts (per locale, nested) to the page's i18next: the
 * dashboard's areas bring their own (src/dashboard/<area>/messages.ts).
 */
export const addMessages = (messages: Messages): void => {
  for (const code of SUPPORTED_LOCALES) i18next.addResourceBundle(code, 'translation', messages[code], true, true);
};

/** Translation for code outside React components. */
export const translate = (key: string, options?: TOptions): string => String(i18next.t(key, options ?? {}));

// The HTTP client's error texts speak the page's language.
setErrorTranslator(translate);
