import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import type { LocaleCode } from '../../api/types';
import type { TaskEvent } from '../../api/trade';
import { messages } from './messages';
import { eventText, eventTone } from './taskText';

/** The task page's own texts in one language, through i18next as the page uses it. */
const translatorFor = (locale: LocaleCode) => {
  const i18n = createInstance();
  void i18n.init({ lng: locale, resources: { [locale]: { translation: messages[locale] } }, interpolation: { escapeValue: false }, initImmediate: false });
  return ((key: string, options?: Record<string, unknown>) => i18n.t(key, options ?? {})) as Parameters<typeof eventText>[1];
};
const event = (kind: string, data: Record<string, unknown>): TaskEvent => ({ id: '1', kind, data, createdAt: '2026-11-27T04:00:00.000Z' });
const stopLoss = (stop?: string) => event('stop_loss', { price: '92', profit: '-4.1', reason: 'stop_loss', remainder: '0', ...(stop ? { stop } : {}) });
const market = { tickSize: '0.01', amountStep: '0.00001' };

describe('the task log names the stop that sold and the target that sold part', () => {
  it('says which stop fired, in three languages', () => {
    const zhCN = translatorFor('zh-CN');
    expect(eventText(stopLoss('loss_last_level'), zhCN, 'zh-CN', market)).toBe('止损（自末档）：卖出成交 92.00，收益 -4.10 USDT');
    expect(eventText(stopLoss('loss_average'), zhCN, 'zh-CN', market)).toMatch(/^止损（自均价）：/);
    expect(eventText(stopLoss('break_even'), zhCN, 'zh-CN', market)).toMatch(/^保本止损：/);
    expect(eventText(stopLoss('time'), zhCN, 'zh-CN', market)).toMatch(/^时间止损：/);
    const zhTW = translatorFor('zh-TW');
    expect(eventText(stopLoss('loss_last_level'), zhTW, 'zh-TW', market)).toMatch(/^停損（自末檔）：賣出成交 92\.00/);
    expect(eventText(stopLoss('time'), zhTW, 'zh-TW', market)).toMatch(/^時間停損：/);
    const enUS = translatorFor('en-US');
    expect(eventText(stopLoss('break_even'), enUS, 'en-US', market)).toMatch(/^Break-even stop: sold at 92\.00, profit -4\.10 USDT$/);
    expect(eventText(stopLoss('loss_average'), enUS, 'en-US', market)).toMatch(/^Stop loss \(from the average\): /);
    // An event from before stops were named, or a name this page does not know, reads as the plain stop loss.
    expect(eventText(stopLoss(), zhCN, 'zh-CN', market)).toBe('止损卖出 92.00，收益 -4.10 USDT');
    expect(eventText(stopLoss('meteor'), zhCN, 'zh-CN', market)).toBe('止损卖出 92.00，收益 -4.10 USDT');
    expect(eventTone(stopLoss('time'))).toBe('error');
  });

  it("says a target's partial sale and what is still held, not a remainder for the next cycle", () => {
    const partial = event('sold', { price: '23517.58', profit: '0.19', sold: '0.01052', remainder: '0.01053', reason: 'take_profit', partial: true, target: 1 });
    expect(eventText(partial, translatorFor('zh-CN'), 'zh-CN', market)).toBe('止盈目标 1：卖出 0.01052，成交价 23,517.58，收益 +0.19 USDT；其余 0.01053 继续持有');
    expect(eventText(partial, translatorFor('en-US'), 'en-US', market)).toBe('Take-profit target 1: sold 0.01052 at 23,517.58, profit +0.19 USDT; 0.01053 still held');
    expect(eventText(partial, translatorFor('zh-TW'), 'zh-TW', market)).toMatch(/^停利目標 1：賣出 0\.01052/);
    // The last target sells the rest and closes the cycle.
    const last = event('sold', { price: '23916.88', profit: '0.5', sold: '0.01053', remainder: '0', reason: 'take_profit', target: 2 });
    expect(eventText(last, translatorFor('zh-CN'), 'zh-CN', market)).toBe('止盈目标 2：卖出成交 23,916.88，收益 +0.50 USDT');
    // A single take profit reads as before.
    expect(eventText(event('sold', { price: '100', profit: '1', remainder: '0', reason: 'take_profit' }), translatorFor('zh-CN'), 'zh-CN', market)).toMatch(/^卖出成交 100\.00/);
  });
});
