import type { AttentionReason } from './trade';

/**
 * Why a task stopped and what the user does about it, in one line: the
 * notifications' text of `trade.attention` (the inbox, e-mail, Telegram, push),
 * shared by the server's senders and the dashboard so they never disagree.
 * The task page says the same at length, with its figures (AttentionPanel).
 */
const REMEDIES: Record<'zh-CN' | 'en-US' | 'zh-TW', Record<AttentionReason, string>> = {
  'zh-CN': {
    insufficient_funds: '余额不足：请向交易所账户充值后恢复任务',
    below_min_order: '订单低于交易所最小下单量：请调整策略或首单金额，或平仓',
    above_max_order: '订单超过交易所最大下单量：请在策略中调低首单金额或倍数后恢复任务',
    exchange_canceled: '交易所连续撤销订单：请在交易所检查交易对与账户后恢复任务',
    order_refused: '交易所拒绝下单：请检查交易所账户后恢复任务',
    permission_denied: 'API Key 无效或无交易权限：请重新绑定 Key 后恢复任务',
    engine_error: '机器人连续出错已暂停：排除原因后恢复任务',
  },
  'en-US': {
    insufficient_funds: 'insufficient balance: add funds to the exchange account, then resume the task',
    below_min_order: 'an order is below the exchange minimum: adjust the strategy or the first order, or close the position',
    above_max_order: 'an order is above the exchange maximum: lower the first order or the multiples in the strategy, then resume',
    exchange_canceled: 'the exchange keeps cancelling the orders: check the pair and the account on the exchange, then resume',
    order_refused: 'the exchange refused the order: check the exchange account, then resume',
    permission_denied: 'the API key is invalid or may not trade: bind the key again, then resume',
    engine_error: 'the robot failed again and again: fix the cause, then resume',
  },
  'zh-TW': {
    insufficient_funds: '餘額不足：請向交易所帳戶入金後恢復任務',
    below_min_order: '訂單低於交易所最小下單量：請調整策略或首單金額，或平倉',
    above_max_order: '訂單超過交易所最大下單量：請在策略中調低首單金額或倍數後恢復任務',
    exchange_canceled: '交易所連續撤銷訂單：請在交易所檢查交易對與帳戶後恢復任務',
    order_refused: '交易所拒絕下單：請檢查交易所帳戶後恢復任務',
    permission_denied: 'API Key 無效或無交易權限：請重新綁定 Key 後恢復任務',
    engine_error: '機器人連續出錯已暫停：排除原因後恢復任務',
  },
};

/** The reason with its remedy in the reader's language; the code itself for a reason this table does not know. */
export const attentionRemedy = (reason: unknown, locale: string): string => {
  const texts = REMEDIES[locale === 'en-US' || locale === 'zh-TW' ? locale : 'zh-CN'];
  return typeof reason === 'string' && Object.hasOwn(texts, reason) ? texts[reason as AttentionReason] : String(reason ?? '');
};
