import { createTheme, type Theme } from '@mui/material/styles';
import { defaultTheme } from 'react-admin';
import type { LocaleCode } from '../../api/types';
import { localeInfo } from '../../i18n/locales';

/** react-admin's default theme in our colours, with MUI's language pack of the current locale. */
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
      typography: {
        fontFamily:
          '-apple-system, BlinkMacSystemFont, "Segoe UI", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", Roboto, sans-serif',
      },
    },
    localeInfo(locale).uiLang,
  );
