import { PRICE_COLORS_STORAGE_KEY, defaultPriceColors, isPriceColorScheme, type PriceColorScheme } from '../api/colors';

/**
 * The 红涨绿跌 / 绿涨红跌 setting (src/api/colors.ts), kept in localStorage
 * beside the locale (it survives logout), read by the dashboard and by the
 * widgets on the dashboard's origin. Null until the user picks one: then the
 * language decides.
 */
export const getStoredPriceColors = (): PriceColorScheme | null => {
  try {
    const value = globalThis.localStorage?.getItem(PRICE_COLORS_STORAGE_KEY);
    return isPriceColorScheme(value) ? value : null;
  } catch {
    return null;
  }
};

const listeners = new Set<() => void>();

export const storePriceColors = (scheme: PriceColorScheme): void => {
  try {
    globalThis.localStorage?.setItem(PRICE_COLORS_STORAGE_KEY, scheme);
  } catch {
    // Storage can be unavailable (private mode, sandboxed iframe): the choice then lasts for the page only.
    memory = scheme;
  }
  for (const listener of [...listeners]) listener();
};

let memory: PriceColorScheme | null = null;

/** The scheme in force for a language: the stored choice, else the language's default. */
export const priceColorsFor = (locale: string): PriceColorScheme => getStoredPriceColors() ?? memory ?? defaultPriceColors(locale);

/** Calls `listener` when the setting changes, in this page or another tab. */
export const subscribePriceColors = (listener: () => void): (() => void) => {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === PRICE_COLORS_STORAGE_KEY) listener();
  };
  globalThis.addEventListener?.('storage', onStorage);
  return () => {
    listeners.delete(listener);
    globalThis.removeEventListener?.('storage', onStorage);
  };
};
