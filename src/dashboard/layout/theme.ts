import { createTheme, type Theme } from '@mui/material/styles';
import { defaultTheme } from 'react-admin';
import { BRAND, HUES, upDownColors, type PriceColorScheme } from '../../api/colors';
import type { LocaleCode } from '../../api/types';
import { localeInfo } from '../../i18n/locales';

declare module '@mui/material/styles' {
  interface Palette {
    /** A rising figure's colour: red or green by the user's 红涨绿跌 / 绿涨红跌 setting (src/api/colors.ts). */
    up: Palette['primary'];
    /** A falling figure's colour. */
    down: Palette['primary'];
  }
  interface PaletteOptions {
    up?: PaletteOptions['primary'];
    down?: PaletteOptions['primary'];
  }
}

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

export type ThemeMode = 'light' | 'dark';

/**
 * react-admin's default theme in our colours and the language's fonts, with
 * MUI's language pack of the current locale; `up` and `down` in the palette
 * follow the price colour scheme, so every figure coloured with `up.main` /
 * `down.main` (kit/trend.ts) turns with the setting.
 */
export const themeFor = (locale: LocaleCode, mode: ThemeMode = 'light', scheme: PriceColorScheme = 'green-up'): Theme => {
  const { up, down } = upDownColors(scheme, mode);
  const dark = mode === 'dark';
  return createTheme(
    {
      ...defaultTheme,
      palette: {
        mode,
        primary: { main: BRAND[mode] },
        secondary: { main: dark ? '#90a4c8' : '#1f2a44' },
        success: { main: HUES[mode].green },
        error: { main: HUES[mode].red },
        up: { main: up },
        down: { main: down },
        background: dark ? { default: '#121417', paper: '#1b1e23' } : { default: '#f4f6f8' },
      },
      shape: { borderRadius: 10 },
      // Buttons, tabs and toggles in sentence case: MUI's capitals shout in English (and do nothing in Chinese).
      typography: { fontFamily: FONTS[locale], button: { textTransform: 'none' } },
    },
    localeInfo(locale).uiLang,
  );
};
