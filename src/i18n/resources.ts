import englishMessages from 'ra-language-english';
import { convertRaTranslationsToI18next } from 'ra-i18n-i18next';
import type { LocaleCode } from '../api/types';
import enUS from './messages/en-US';
import { adminMessages } from './messages/admin';
import { exchangeMessages } from './messages/exchange';
import { profileMessages } from './messages/profile';
import { walletMessages } from './messages/wallet';
import { tradePageMessages } from './messages/tradePages';
import { widgetMessages } from './messages/widgets';
import zhCN from './messages/zh-CN';
import zhTW from './messages/zh-TW';
import raZhCN from './ra/zh-CN';
import raZhTW from './ra/zh-TW';

/** react-admin's `ra.*` keys (converted from polyglot to i18next syntax) merged with the product's own texts. */
export const appMessages: Record<LocaleCode, object> = { 'zh-CN': zhCN, 'en-US': enUS, 'zh-TW': zhTW };
export const raMessages: Record<LocaleCode, object> = { 'zh-CN': raZhCN, 'en-US': englishMessages, 'zh-TW': raZhTW };

export const resources = Object.fromEntries(
  (Object.keys(appMessages) as LocaleCode[]).map((code) => [
    code,
    {
      translation: {
        ...convertRaTranslationsToI18next(raMessages[code]),
        ...appMessages[code],
        exchange: exchangeMessages[code].exchange,
        tasks: tradePageMessages[code].tasks,
        home: tradePageMessages[code].home,
        widgets: widgetMessages[code].widgets,
        wallet: walletMessages[code].wallet,
        profile: profileMessages[code].profile,
        admin: adminMessages[code].admin,
      } as Record<string, unknown>,
    },
  ]),
) as Record<LocaleCode, { translation: Record<string, unknown> }>;
