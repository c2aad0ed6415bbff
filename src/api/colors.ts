/**
 * Which colour means "up": 红涨绿跌 (red up, green down), as Chinese markets
 * show prices, or 绿涨红跌 (green up, red down), as most others do. A user
 * setting; until it is set, the language decides: red-up for zh-CN and
 * zh-TW, green-up for en-US. Every coloured figure (profits, changes, the
 * candlestick chart, the widgets) takes its colour from here.
 */
import type { Trend } from './format';
import type { LocaleCode } from './types';

export const PRICE_COLOR_SCHEMES = ['red-up', 'green-up'] as const;
export type PriceColorScheme = (typeof PRICE_COLOR_SCHEMES)[number];

/** localStorage key of the setting, shared by the dashboard and the widgets on its origin. */
export const PRICE_COLORS_STORAGE_KEY = 'priceColors';

export const isPriceColorScheme = (value: unknown): value is PriceColorScheme => PRICE_COLOR_SCHEMES.includes(value as PriceColorScheme);

/** The scheme a language starts with. */
export const defaultPriceColors = (locale: LocaleCode | string): PriceColorScheme => (locale.startsWith('zh') ? 'red-up' : 'green-up');

/** 'red' or 'green' for a rising or falling figure; null for a flat one. */
export const trendHue = (trend: Trend, scheme: PriceColorScheme): 'red' | 'green' | null => {
  if (trend === 'flat') return null;
  return (trend === 'up') === (scheme === 'red-up') ? 'red' : 'green';
};

/** The two colours, light and dark backgrounds (the same red and green the dashboard's theme and the widgets use). */
export const HUES = {
  light: { red: '#dc2626', green: '#16a34a' },
  dark: { red: '#f87171', green: '#34d399' },
} as const;

/** The colours of up and down under a scheme, for charts that need plain colours. */
export const upDownColors = (scheme: PriceColorScheme, mode: 'light' | 'dark' = 'light') => {
  const hues = HUES[mode];
  return scheme === 'red-up' ? { up: hues.red, down: hues.green } : { up: hues.green, down: hues.red };
};

/** The brand colour (the dashboard's primary, the app icon, the widgets' buttons), on light and dark backgrounds. */
export const BRAND = { light: '#0b7a75', dark: '#2bb3a9' } as const;
