import { DEFAULT_LOCALE, isLocaleCode } from '../api/defaults';
import { isCatalogueCode } from '../api/errors';
import type { LocaleCode } from '../api/types';
import type { ApiError } from '../dataProvider/ApiError';
import { setErrorTranslator } from '../dataProvider/errorText';
import enUS from '../i18n/messages/en-US';
import { widgetMessages } from '../i18n/messages/widgets';
import zhCN from '../i18n/messages/zh-CN';
import zhTW from '../i18n/messages/zh-TW';

/**
 * A tiny translator for the widgets: the same message files as the dashboard,
 * read directly (no i18next, no react-admin), with `{{name}}` placeholders.
 */
export type Translate = (key: string, values?: Record<string, unknown>) => string;

const messages: Record<LocaleCode, Record<string, unknown>> = {
  'zh-CN': { ...zhCN, ...widgetMessages['zh-CN'] },
  'en-US': { ...enUS, ...widgetMessages['en-US'] },
  'zh-TW': { ...zhTW, ...widgetMessages['zh-TW'] },
};

const lookup = (locale: LocaleCode, key: string): string | undefined => {
  let node: unknown = messages[locale];
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
};

export const createTranslator =
  (locale: LocaleCode): Translate =>
  (key, values = {}) => {
    const text = lookup(locale, key) ?? lookup(DEFAULT_LOCALE, key) ?? key;
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (values[name] === undefined ? whole : String(values[name])));
  };

/** The `locale` attribute, else the page's `<html lang>`, else zh-CN. */
export const resolveLocale = (attribute?: string | null): LocaleCode => {
  if (isLocaleCode(attribute)) return attribute;
  const lang = typeof document === 'undefined' ? undefined : document.documentElement.lang;
  return isLocaleCode(lang) ? lang : DEFAULT_LOCALE;
};

/** The display text of a failed call (the same rules as the dashboard's ApiError text). */
export const errorText = (error: unknown, t: Translate): string => {
  const e = error as Partial<ApiError> | null;
  if (e?.messageKey) return t(e.messageKey, { status: e.status });
  if (e?.code !== undefined && isCatalogueCode(e.code)) {
    return t(`error.${e.code}`, typeof e.data === 'object' && e.data !== null ? (e.data as Record<string, unknown>) : {});
  }
  if (e?.serverMessage) return e.serverMessage;
  if (e?.code !== undefined) return t('error.api', { code: e.code });
  return t('error.fallback');
};

/**
 * Stand-ins for the dashboard's i18next module in the widgets bundle (the
 * widgets build points `src/i18n/i18nProvider` here, so the shared HTTP
 * client does not pull react-admin in).
 */
export const currentLocale = (): LocaleCode => resolveLocale();
export const translate: Translate = (key, values) => createTranslator(currentLocale())(key, values);

// The shared HTTP client's error texts use this translator in the widgets bundle.
setErrorTranslator(translate);
