import { describe, expect, it } from 'vitest';
import { decimalsOf, formatAsset, formatCount, formatMoney, formatPercent, formatPrice, formatQuantity, trend } from './format';


describe('number format', () => {
  it('formats from the decimal string: huge money keeps every digit, no float on the way', () => {
    // 2^53 + 1 and beyond: a float would print 9,007,199,254,740,992.00.
    expect(formatMoney('9007199254740993.01', 'en-US')).toBe('9,007,199,254,740,993.01');
    expect(formatMoney('123456789012345678901234.125', 'zh-CN')).toBe('123,456,789,012,345,678,901,234.13');
    expect(formatAsset('0.12345678', 'USDT', 'en-US')).toBe('0.12345678');
    expect(formatAsset('10000', 'USDT', 'en-US')).toBe('10,000.00');
  });

  it('money has two decimals everywhere: 0 is 0.00, a negative rounding to zero is 0.00, profits signed', () => {
    for (const locale of ['zh-CN', 'en-US', 'zh-TW']) {
      expect(formatMoney('0', locale)).toBe('0.00');
      expect(formatMoney('-0.2218', locale)).toBe('-0.22');
      expect(formatMoney('-0.001', locale)).toBe('0.00');
      expect(formatMoney('1.5', locale, { signed: true })).toBe('+1.50');
      expect(formatMoney('-1.5', locale, { signed: true })).toBe('-1.50');
      expect(formatMoney('0.004', locale, { signed: true })).toBe('0.00');
      expect(formatMoney('58480', locale)).toBe('58,480.00');
    }
  });

  it('percentages: no space, sign on request, up to two decimals', () => {
    expect(formatPercent('10', 'zh-CN')).toBe('10%');
    expect(formatPercent('1.5', 'en-US')).toBe('1.5%');
    expect(formatPercent('-0.2218', 'zh-TW', { signed: true })).toBe('-0.22%');
    expect(formatPercent('2.5', 'en-US', { signed: true })).toBe('+2.5%');
    expect(formatPercent('0', 'en-US', { signed: true })).toBe('0%');
    expect(formatPercent('3', 'en-US', { decimals: 2 })).toBe('3.00%');
    expect(formatPercent(null, 'en-US')).toBe('—');
  });

  it('prices: the market tick when known, else six significant digits (BTC, ETH, SHIB)', () => {
    expect(formatPrice('58480.123', 'en-US', { tick: '0.01' })).toBe('58,480.12');
    expect(formatPrice('58480', 'en-US', { tick: '0.1' })).toBe('58,480.0');
    expect(formatPrice('0.00001234', 'en-US', { tick: '1e-8' })).toBe('0.00001234');
    expect(formatPrice('58480.123', 'zh-CN')).toBe('58,480.12');
    expect(formatPrice('3120.5', 'zh-TW')).toBe('3,120.50');
    expect(formatPrice('1.234567', 'en-US')).toBe('1.23457');
    expect(formatPrice('0.0000123456789', 'en-US')).toBe('0.0000123457');
    expect(formatPrice('0', 'en-US')).toBe('0.00');
  });

  it('quantities: the market step when known, else at most eight digits after the first (SHIB stays short)', () => {
    expect(formatQuantity('0.00012345', 'en-US')).toBe('0.00012345');
    expect(formatQuantity('1.5', 'en-US')).toBe('1.5');
    expect(formatQuantity('12345678.91234', 'en-US')).toBe('12,345,679');
    expect(formatQuantity('123456789012.5', 'zh-CN')).toBe('123,456,789,013');
    expect(formatQuantity('12345678.9', 'en-US', { step: '1' })).toBe('12,345,679');
    expect(formatQuantity('0.5', 'en-US', { step: '0.0001' })).toBe('0.5000');
  });

  it('wallet assets: cards whole, points whole unless fractional, alike in every language', () => {
    for (const locale of ['zh-CN', 'en-US', 'zh-TW']) {
      expect(formatAsset('1000', 'POINTS', locale)).toBe('1,000');
      expect(formatAsset('12.5', 'POINTS', locale)).toBe('12.5');
      expect(formatAsset('3', 'CARD', locale)).toBe('3');
      expect(formatAsset('-5', 'POINTS', locale, { signed: true })).toBe('-5');
      expect(formatAsset('5', 'POINTS', locale, { signed: true })).toBe('+5');
    }
  });

  it('empty and malformed values', () => {
    expect(formatMoney(undefined, 'en-US')).toBe('—');
    expect(formatMoney('', 'en-US')).toBe('—');
    expect(formatMoney('abc', 'en-US')).toBe('abc');
    expect(formatMoney('+2', 'en-US')).toBe('2.00');
    expect(formatCount(1234, 'zh-CN')).toBe('1,234');
  });

  it('trend and tick decimals', () => {
    expect(trend('0.0000001')).toBe('up');
    expect(trend('-0')).toBe('flat');
    expect(trend('-1e-9')).toBe('down');
    expect(trend(null)).toBe('flat');
    expect(decimalsOf('0.01')).toBe(2);
    expect(decimalsOf('1e-8')).toBe(8);
    expect(decimalsOf('10')).toBe(0);
  });
});
