import { afterEach, describe, expect, it } from 'vitest';
import type { ExchangeCatalogEntry } from '../../api/exchange';
import type { LocaleCode } from '../../api/types';
import { addMessages, createI18nProvider } from '../../i18n/i18nProvider';
import { messages } from './messages';
import { priceSourceText } from './PriceSourceChip';

const catalog: ExchangeCatalogEntry[] = [
  { id: 'paper', name: 'Paper trading', kind: 'paper', credentials: [], checksPermissions: false, startBalances: { USDT: '10000' }, priceSources: ['binance', 'simulator'] },
  { id: 'binance', name: 'Binance', kind: 'real', credentials: ['apiKey', 'secret'], checksPermissions: true, startBalances: null, priceSources: null },
];

const labels = async (locale: LocaleCode) => {
  const provider = await createI18nProvider();
  addMessages(messages);
  await provider.changeLocale(locale);
  const translate = (key: string, options?: Record<string, unknown>) => provider.translate(key, options);
  return {
    live: priceSourceText({ source: 'binance', live: true }, catalog, translate),
    fallback: priceSourceText({ source: 'binance', live: false }, catalog, translate),
    simulator: priceSourceText({ source: 'simulator', live: false }, catalog, translate),
  };
};

afterEach(async () => {
  await (await createI18nProvider()).changeLocale('zh-CN');
});

describe('the prices a task trades on', () => {
  it('zh-CN: live only while the exchange is reached', async () => {
    expect(await labels('zh-CN')).toEqual({ live: 'Binance 实时行情', fallback: '模拟行情', simulator: '模拟行情' });
  });

  it('en-US', async () => {
    expect(await labels('en-US')).toEqual({ live: 'Binance live prices', fallback: 'Simulated prices', simulator: 'Simulated prices' });
  });

  it('zh-TW', async () => {
    expect(await labels('zh-TW')).toEqual({ live: 'Binance 即時行情', fallback: '模擬行情', simulator: '模擬行情' });
  });
});
