import { describe, expect, it } from 'vitest';
import { ALERT_ACTIONS } from '../../api/conditions';
import type { Notification } from '../../api/notify';
import type { TaskEvent } from '../../api/trade';
import type { LocaleCode } from '../../api/types';
import { allMessages } from '../../testing/allMessages';
import { notificationText } from '../notify/text';
import { eventText, eventTone } from './taskText';

/** A translate over the product's own texts of one locale, filling {{name}} as i18next does. */
const translateIn = (locale: LocaleCode) => {
  const messages = allMessages(locale);
  return ((key: string, options: Record<string, unknown> = {}) => {
    const text = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], messages);
    if (typeof text !== 'string') return `MISSING ${key}`;
    return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(options[name] ?? ''));
  }) as Parameters<typeof eventText>[1];
};
const event = (data: Record<string, unknown>): TaskEvent => ({ id: '1', kind: 'alert_received', data, createdAt: '2026-11-27T04:00:00.000Z' });
const notice = (payload: Record<string, unknown>): Notification => ({ id: '1', kind: 'trade.alert', taskId: 't', payload, createdAt: '2026-11-27T04:00:00.000Z', read: false });

describe('TradingView alerts in the task log and the inbox', () => {
  it('says what each alert asked, with its ticker and price, in every language', () => {
    expect(eventText(event({ alertId: 'a', action: 'start_cycle', ticker: 'BTCUSDT', price: '43250.5' }), translateIn('en-US'), 'en-US', { tickSize: '0.01' })).toBe(
      'TradingView alert received: start a cycle (BTCUSDT at 43,250.50)',
    );
    expect(eventText(event({ alertId: 'a', action: 'close_position', ticker: null, price: null }), translateIn('zh-CN'), 'zh-CN')).toBe('收到 TradingView 警报：平仓');
    expect(eventText(event({ alertId: 'a', action: 'buy_level', ticker: 'ETHUSDT', price: '2000' }), translateIn('zh-TW'), 'zh-TW', { tickSize: '0.01' })).toBe(
      '收到 TradingView 警報：買入下一檔（ETHUSDT 價格 2,000.00）',
    );
    for (const locale of ['zh-CN', 'en-US', 'zh-TW'] as const) {
      for (const action of ALERT_ACTIONS) {
        expect(eventText(event({ action, ticker: 'X', price: '1' }), translateIn(locale), locale)).not.toMatch(/MISSING|tasks\./);
        expect(notificationText(notice({ symbol: 'BTC/USDT', action }), translateIn(locale), locale)).toMatch(/^BTC\/USDT.*TradingView/);
      }
    }
    expect(eventTone({ kind: 'alert_received', data: {} })).toBe('info');
  });
});
