import { useEffect, useState, useSyncExternalStore } from 'react';
import type { PriceColorScheme } from '../../api/colors';
import { currentLocale, i18next } from '../../i18n/i18nProvider';
import { priceColorsFor, subscribePriceColors } from '../../i18n/priceColors';

/** The language in force, following switches. */
export const useCurrentLocale = () => {
  const [locale, setLocale] = useState(currentLocale);
  useEffect(() => {
    const onChange = () => setLocale(currentLocale());
    i18next.on('languageChanged', onChange);
    return () => i18next.off('languageChanged', onChange);
  }, []);
  return locale;
};

/** The 红涨绿跌 / 绿涨红跌 scheme in force: the stored choice, else the language's default. */
export const usePriceColors = (): PriceColorScheme => {
  const locale = useCurrentLocale();
  return useSyncExternalStore(subscribePriceColors, () => priceColorsFor(locale), () => priceColorsFor(locale));
};
