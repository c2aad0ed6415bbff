import { createTheme, type Theme } from '@mui/material/styles';
import { defaultTheme } from 'react-admin';
import type { LocaleCode } from '../../api/types';
import { localeInfo } from '../../i18n/locales';

/**
 * Fonts per language: Latin fonts first for English (a CJK font's full-width
 * punctuation would show in English text), the Simplified or Traditional
 * Chinese glyph set first for Chinese.
 */
const FONTS: Record<LocaleCode, string> = {
  'zh-CN': '-apple-system, BlinkMacSystemFont, "Segoe UI", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", Roboto, sans-serif',
  'zh-TW': '-apple-system, BlinkMacSystemFont, "Segoe UI", "PingFang TC", "Microsoft JhengHei", "Noto Sans CJK TC", Roboto, sans-serif',
  'en-US': '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "PingFang SC", "Noto Sans CJK SC", sans-serif',
};

/** react-admin's default theme in our colours and the language's fonts, with MUI's language pack of the current locale. */
export const themeFor = (locale: LocaleCode): Theme =>
  createTheme(
    {
      ...defaultTheme,
      palette: {
        mode: 'light',
        primary: { main: '#0b7a75' },
        secondary: { main: '#1f2a44' },
        success: { main: '#16a34a' },
        error: { main: '#dc2626' },
        background: { default: '#f4f6f8' },
      },
      shape: { borderRadius: 10 },
      typography: { fontFamily: FONTS[locale] },
    },
    localeInfo(locale).uiLang,
  );
