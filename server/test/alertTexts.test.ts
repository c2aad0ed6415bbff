import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALERT_ACTIONS } from '../../src/api/conditions';
import { TRADINGVIEW_ADDRESSES } from '../../src/api/webhook';
import { ConfigError, loadConfig } from '../src/config';
import { eventLine } from '../src/notify/texts';
import { readAlertBody } from '../src/trade/webhook';

describe('TradingView alerts: texts, the message, the addresses', () => {
  it('tells a received alert by its action in every language of the channels outside the dashboard', () => {
    expect(eventLine('en-US', 'trade.alert', { symbol: 'BTC/USDT', action: 'buy_level' })).toBe('BTC/USDT: a TradingView alert arrived to buy the next level');
    expect(eventLine('zh-CN', 'trade.alert', { symbol: 'BTC/USDT', action: 'start_cycle' })).toBe('BTC/USDT 收到 TradingView 警报：开始新一轮');
    expect(eventLine('zh-TW', 'trade.alert', { symbol: 'BTC/USDT', action: 'close_position' })).toBe('BTC/USDT 收到 TradingView 警報：平倉');
    for (const locale of ['zh-CN', 'en-US', 'zh-TW'] as const) {
      for (const action of ALERT_ACTIONS) expect(eventLine(locale, 'trade.alert', { symbol: 'X/USDT', action })).toMatch(/^X\/USDT.*TradingView/);
    }
  });

  it("reads the template's message: TradingView's time, a numeric price, the action optional", () => {
    const base = { secret: 's', id: '2026-11-27T10:00:00Z-BTCUSDT', time: '2026-11-27T10:00:00Z', ticker: 'BINANCE:BTCUSDT', price: '43250.5' };
    expect(readAlertBody(JSON.stringify(base))).toEqual({ ...base, time: Date.parse('2026-11-27T10:00:00Z'), action: null });
    // Unix time in seconds or milliseconds; numbers where TradingView prints them bare; an empty action is the webhook's own.
    expect(readAlertBody({ ...base, time: 1796205600, price: 0.5, action: '' })).toMatchObject({ time: 1796205600000, price: '0.5', action: null });
    expect(readAlertBody({ ...base, time: '1796205600000', action: 'close_position' })).toMatchObject({ time: 1796205600000, action: 'close_position' });
    for (const bad of [{ ...base, id: ' ' }, { ...base, id: 'x'.repeat(101) }, { ...base, time: '2026-11-27' }, { ...base, ticker: 'BTC USDT' }, { ...base, price: '-1' }]) {
      expect(() => readAlertBody(bad)).toThrow();
    }
  });

  it('takes TRADINGVIEW_ADDRESSES as any (unset), the documented list, or a list of IP addresses', () => {
    const root = mkdtempSync(join(tmpdir(), 'qt-config-'));
    try {
      expect(loadConfig({}, root).tradingViewAddresses).toBeNull();
      expect(loadConfig({ TRADINGVIEW_ADDRESSES: 'tradingview' }, root).tradingViewAddresses).toEqual(TRADINGVIEW_ADDRESSES);
      expect(loadConfig({ TRADINGVIEW_ADDRESSES: '203.0.113.7, 2001:db8::1' }, root).tradingViewAddresses).toEqual(['203.0.113.7', '2001:db8::1']);
      expect(() => loadConfig({ TRADINGVIEW_ADDRESSES: 'tradingview.com' }, root)).toThrow(ConfigError);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
