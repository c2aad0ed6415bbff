import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ALERT_ACTIONS } from '../../src/api/conditions';
import { TRADINGVIEW_ADDRESSES } from '../../src/api/webhook';
import { ConfigError, loadConfig } from '../src/config';
import { eventLine } from '../src/notify/texts';
import { readAlertBody, type WebhookDeps } from '../src/trade/webhook';
import { tradingViewHook } from '../src/trade/webhookRoutes';

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

  it('takes alerts only from the configured addresses, refusing others before reading them', async () => {
    // Nothing of the database or the engine is reached by these requests: a refused address stops first, an allowed one at its unreadable message.
    const deps = { masterKey: randomBytes(32).toString('hex') } as WebhookDeps;
    const answer = async (addresses: readonly string[] | null) => {
      const app = Fastify();
      await app.register(tradingViewHook({ ...deps, addresses }));
      try {
        const response = await app.inject({ method: 'POST', url: '/hooks/tradingview/abc', headers: { 'content-type': 'text/plain' }, payload: 'not json' });
        return { status: response.statusCode, body: response.json() };
      } finally {
        await app.close();
      }
    };
    expect(await answer(['52.89.214.238'])).toEqual({ status: 403, body: { code: 11005, message: 'alerts are taken from TradingView addresses only', data: null } });
    expect((await answer(['52.89.214.238', '127.0.0.1'])).status).toBe(400);
    expect((await answer(null)).status).toBe(400);
  });
});
