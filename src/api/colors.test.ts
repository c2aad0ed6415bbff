import { afterEach, describe, expect, it, vi } from 'vitest';
import { getStoredPriceColors, priceColorsFor, storePriceColors, subscribePriceColors } from '../i18n/priceColors';
import { PRICE_COLORS_STORAGE_KEY, defaultPriceColors, trendHue, upDownColors } from './colors';

afterEach(() => localStorage.clear());

describe('red-up / green-up setting', () => {
  it('defaults by language: red up in Chinese, green up in English', () => {
    expect(defaultPriceColors('zh-CN')).toBe('red-up');
    expect(defaultPriceColors('zh-TW')).toBe('red-up');
    expect(defaultPriceColors('en-US')).toBe('green-up');
    expect(priceColorsFor('zh-CN')).toBe('red-up');
    expect(priceColorsFor('en-US')).toBe('green-up');
  });

  it('a rising figure is red under 红涨绿跌 and green under 绿涨红跌; a flat one has no colour', () => {
    expect(trendHue('up', 'red-up')).toBe('red');
    expect(trendHue('down', 'red-up')).toBe('green');
    expect(trendHue('up', 'green-up')).toBe('green');
    expect(trendHue('down', 'green-up')).toBe('red');
    expect(trendHue('flat', 'red-up')).toBeNull();
    expect(upDownColors('red-up').up).toBe(upDownColors('green-up').down);
  });

  it('the stored choice wins over the language, is told to listeners and ignores junk', () => {
    const listener = vi.fn();
    const stop = subscribePriceColors(listener);
    storePriceColors('green-up');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(PRICE_COLORS_STORAGE_KEY)).toBe('green-up');
    expect(priceColorsFor('zh-CN')).toBe('green-up');
    stop();
    storePriceColors('red-up');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(priceColorsFor('en-US')).toBe('red-up');
    localStorage.setItem(PRICE_COLORS_STORAGE_KEY, 'purple');
    expect(getStoredPriceColors()).toBeNull();
  });
});
