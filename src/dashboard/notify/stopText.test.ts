import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import type { Notification } from '../../api/notify';
import type { LocaleCode } from '../../api/types';
import { messages } from './messages';
import { notificationText } from './text';

const translatorFor = (locale: LocaleCode) => {
  const i18n = createInstance();
  void i18n.init({ lng: locale, resources: { [locale]: { translation: messages[locale] } }, interpolation: { escapeValue: false }, initImmediate: false });
  return (key: string, options?: Record<string, unknown>) => i18n.t(key, options ?? {});
};
const notice = (payload: Record<string, unknown>): Notification => ({
  id: '1',
  kind: 'trade.stop_loss',
  taskId: 't',
  payload: { symbol: 'BTC/USDT', price: '92', profit: '-4.1', cycle: 1, ...payload },
  createdAt: '2026-11-27T04:00:00.000Z',
  read: false,
});

describe('a stop-loss notification in the inbox', () => {
  it('names the stop that fired in three languages; one without a name reads as before', () => {
    expect(notificationText(notice({ stop: 'loss_last_level' }), translatorFor('zh-CN'), 'zh-CN')).toMatch(/^BTC\/USDT 止损（自末档），价格 92/);
    expect(notificationText(notice({ stop: 'break_even' }), translatorFor('zh-TW'), 'zh-TW')).toMatch(/^BTC\/USDT 保本停損，價格 92/);
    expect(notificationText(notice({ stop: 'time' }), translatorFor('en-US'), 'en-US')).toMatch(/^BTC\/USDT time stop at 92/);
    expect(notificationText(notice({}), translatorFor('zh-CN'), 'zh-CN')).toMatch(/^BTC\/USDT 止损，价格 92/);
  });
});
