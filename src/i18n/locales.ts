import { enUS as muiEnUS, zhCN as muiZhCN, zhTW as muiZhTW, type Localization } from '@mui/material/locale';
import type { Locale, LocaleCode } from '../api/types';

/** Locale metadata (spec section 3); `uiLang` is MUI's language pack. */
export const LOCALES: readonly Locale<Localization>[] = [
  { code: 'zh-CN', label: 'Simplified Chinese', nativeLabel: '简体中文', flag: '🇨🇳', direction: 'ltr', uiLang: muiZhCN },
  { code: 'en-US', label: 'English', nativeLabel: 'English', flag: '🇺🇸', direction: 'ltr', uiLang: muiEnUS },
  { code: 'zh-TW', label: 'Traditional Chinese', nativeLabel: '繁體中文', flag: '🇹🇼', direction: 'ltr', uiLang: muiZhTW },
];

export const localeInfo = (code: LocaleCode): Locale<Localization> =>
  LOCALES.find((l) => l.code === code) ?? LOCALES[0]!;
