import type { Messages as LocaleMessages } from '../../i18n/i18nProvider';

/** Texts of the notifications: the bell, the inbox and the preferences. Loaded at start: the bell is in the app bar. */
const enUS = {
  notify: {
    bell: 'Notifications, {{count}} unread',
    all: 'All',
    unread: 'Unread only',
    kindFilter: 'Kind',
    markRead: 'Mark read',
    markAllRead: 'Mark all read',
    empty: 'No notifications yet.',
    openTask: 'Open the task',
    preferences: 'What reaches you where',
    saved: 'Saved',
    kind: {
      trade_fill: 'Order filled',
      trade_cycle_closed: 'Cycle closed',
      trade_stop_loss: 'Stop-loss',
      trade_attention: 'Task needs attention',
      member_fuel_empty: 'Fuel empty',
    },
    channel: { inapp: 'In app', email: 'E-mail', telegram: 'Telegram', push: 'Push', webhook: 'Webhook' },
    text: {
      fillBuy: '{{symbol}} bought level {{level}}: {{amount}} USDT at {{price}}',
      fillSell: '{{symbol}} sold {{quantity}} at {{price}}: {{amount}} USDT',
      cycleClosed: '{{symbol}} cycle {{cycle}} closed: {{profit}} USDT ({{roi}} %)',
      stopLoss: '{{symbol}} stop-loss at {{price}}: {{profit}} USDT',
      attention: '{{symbol}} stopped and needs attention ({{reason}})',
      fuelEmpty: '{{symbol}} waits for fuel to open cycle {{cycle}}',
    },
  },
};

const zhCN: typeof enUS = {
  notify: {
    bell: '通知，{{count}} 条未读',
    all: '全部',
    unread: '仅未读',
    kindFilter: '类型',
    markRead: '标为已读',
    markAllRead: '全部已读',
    empty: '暂无通知。',
    openTask: '查看任务',
    preferences: '通知方式',
    saved: '已保存',
    kind: {
      trade_fill: '订单成交',
      trade_cycle_closed: '一轮完成',
      trade_stop_loss: '止损',
      trade_attention: '任务需要处理',
      member_fuel_empty: '燃料耗尽',
    },
    channel: { inapp: '站内', email: '邮件', telegram: 'Telegram', push: '推送', webhook: 'Webhook' },
    text: {
      fillBuy: '{{symbol}} 第 {{level}} 档买入：{{amount}} USDT，价格 {{price}}',
      fillSell: '{{symbol}} 卖出 {{quantity}}，价格 {{price}}：{{amount}} USDT',
      cycleClosed: '{{symbol}} 第 {{cycle}} 轮完成：{{profit}} USDT（{{roi}}%）',
      stopLoss: '{{symbol}} 止损，价格 {{price}}：{{profit}} USDT',
      attention: '{{symbol}} 已暂停，需要处理（{{reason}}）',
      fuelEmpty: '{{symbol}} 等待燃料以开始第 {{cycle}} 轮',
    },
  },
};

const zhTW: typeof enUS = {
  notify: {
    bell: '通知，{{count}} 則未讀',
    all: '全部',
    unread: '僅未讀',
    kindFilter: '類型',
    markRead: '標為已讀',
    markAllRead: '全部已讀',
    empty: '尚無通知。',
    openTask: '查看任務',
    preferences: '通知方式',
    saved: '已儲存',
    kind: {
      trade_fill: '訂單成交',
      trade_cycle_closed: '一輪完成',
      trade_stop_loss: '停損',
      trade_attention: '任務需要處理',
      member_fuel_empty: '燃料耗盡',
    },
    channel: { inapp: '站內', email: '郵件', telegram: 'Telegram', push: '推播', webhook: 'Webhook' },
    text: {
      fillBuy: '{{symbol}} 第 {{level}} 檔買入：{{amount}} USDT，價格 {{price}}',
      fillSell: '{{symbol}} 賣出 {{quantity}}，價格 {{price}}：{{amount}} USDT',
      cycleClosed: '{{symbol}} 第 {{cycle}} 輪完成：{{profit}} USDT（{{roi}}%）',
      stopLoss: '{{symbol}} 停損，價格 {{price}}：{{profit}} USDT',
      attention: '{{symbol}} 已暫停，需要處理（{{reason}}）',
      fuelEmpty: '{{symbol}} 等待燃料以開始第 {{cycle}} 輪',
    },
  },
};

export const messages = { 'zh-CN': zhCN, 'en-US': enUS, 'zh-TW': zhTW } satisfies LocaleMessages;
