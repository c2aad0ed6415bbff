import { DEFAULT_LOCALE, isLocaleCode } from '../api/defaults';
import type { LocaleCode } from '../api/types';
import { displayMessage, type ApiErrorInit } from '../dataProvider/ApiError';
import { setErrorTranslator } from '../dataProvider/errorText';
import { errorMessages } from '../i18n/messages/errors';
import { widgetMessages } from './messages';

/**
 * A tiny translator for the widgets: their own texts and the dashboard's
 * error catalogue texts, read directly (no i18next, no react-admin), with
 * `{{name}}` placeholders.
 */
export type Translate = (key: string, values?: Record<string, unknown>) => string;

const messages: Record<LocaleCode, Record<string, unknown>> = {
  'zh-CN': { ...errorMessages['zh-CN'], ...widgetMessages['zh-CN'] },
  'en-US': { ...errorMessages['en-US'], ...widgetMessages['en-US'] },
  'zh-TW': { ...errorMessages['zh-TW'], ...widgetMessages['zh-TW'] },
};

const lookup = (locale: LocaleCode, key: string): string | undefined => {
  let node: unknown = messages[locale];
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
};

/** i18next's plural keys (`key_one`, `key_other`) by the locale's plural rules, then the plain key. */
const pluralLookup = (locale: LocaleCode, key: string, count: unknown): string | undefined => {
  if (typeof count === 'number') {
    const category = new Intl.PluralRules(locale).select(count);
    const text = lookup(locale, `${key}_${category}`) ?? lookup(locale, `${key}_other`);
    if (text !== undefined) return text;
  }
  return lookup(locale, key);
};

export const createTranslator =
  (locale: LocaleCode): Translate =>
  (key, values = {}) => {
    const text = pluralLookup(locale, key, values.count) ?? pluralLookup(DEFAULT_LOCALE, key, values.count) ?? key;
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (values[name] === undefined ? whole : String(values[name])));
  };

/** The `locale` attribute, else the page's `<html lang>`, else zh-CN. */
export const resolveLocale = (attribute?: string | null): LocaleCode => {
  if (isLocaleCode(attribute)) return attribute;
  const lang = typeof document === 'undefined' ? undefined : document.documentElement.lang;
  return isLocaleCode(lang) ? lang : DEFAULT_LOCALE;
};

/** The display text of a failed call in the widget's language: the dashboard's rules (ApiError), this translator. */
export const errorText = (error: unknown, t: Translate): string =>
  displayMessage(error !== null && typeof error === 'object' && 'kind' in error ? (error as ApiErrorInit) : { kind: 'local' }, t);

/**
 * The shared HTTP client builds each ApiError's `message` with the translator
 * registered in src/dataProvider/errorText; the dashboard registers i18next's.
 * The widgets bundle has no i18next: it registers this small one, in the
 * page's language (the widgets show their own locale's text via errorText).
 */
setErrorTranslator((key, values) => createTranslator(resolveLocale())(key, values));
