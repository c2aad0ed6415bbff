import englishMessages from 'ra-language-english';
import { convertRaTranslationsToI18next } from 'ra-i18n-i18next';
import type { LocaleCode } from '../api/types';
import enUS from './messages/en-US';
import { errorMessages } from './messages/errors';
import zhCN from './messages/zh-CN';
import zhTW from './messages/zh-TW';
import raZhCN from './ra/zh-CN';
import raZhTW from './ra/zh-TW';

/** The texts every page needs: the app frame, page titles, menus, locales and the error catalogue. The dashboard's areas add their own (addMessages). */
export const appMessages: Record<LocaleCode, object> = { 'zh-CN': zhCN, 'en-US': enUS, 'zh-TW': zhTW };
export const raMessages: Record<LocaleCode, object> = { 'zh-CN': raZhCN, 'en-US': englishMessages, 'zh-TW': raZhTW };

/** react-admin's `ra.*` keys (converted from polyglot to i18next syntax) with the product's own texts. */
export const resources = Object.fromEntries(
  (Object.keys(appMessages) as LocaleCode[]).map((code) => [
    code,
    { translation: { ...convertRaTranslationsToI18next(raMessages[code]), ...appMessages[code], ...errorMessages[code] } as Record<string, unknown> },
  ]),
) as Record<LocaleCode, { translation: Record<string, unknown> }>;
