/** The notifications' texts for the channels outside the dashboard (e-mail, and the senders of part 2), in the user's language. */
import { notificationFigures } from '../../../src/api/notifyFigures';
import type { NotifyLocale } from './channel';

type Fields = Record<string, unknown>;

const field = (payload: Fields, name: string) => {
  const value = payload[name];
  return value === null || value === undefined ? '' : String(value);
};
const fill = (template: string, payload: Fields) => template.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'levelNo' ? String(Number(payload['level'] ?? 0) + 1) : field(payload, name)));

const TEXTS: Record<NotifyLocale, Record<string, string>> = {
  'en-US': {
    'user.new_login': 'New sign-in to your account from {ip} ({userAgent}). Not you? Change your password now.',
    'user.password_changed': 'Your password was changed. Not you? Reset it now.',
    'user.channel_off': '{channelName} notifications are turned off: it refused our messages (the bot blocked, or the subscription gone). Link it again in the notification settings.',
    'wallet.deposit_credited': 'Deposit credited: {amount} {asset}',
    'wallet.withdrawal_approved': 'Withdrawal sent: {amount} {asset}',
    'wallet.withdrawal_refused': 'Withdrawal refused ({reason}): {amount} {asset} back in your wallet',
    'wallet.transfer_received': 'Received {amount} {asset} from {from}',
    'trade.fill.buy': '{symbol} bought level {levelNo}: {amount} USDT at {price}',
    'trade.fill.sell': '{symbol} sold {quantity} at {price}: {amount} USDT',
    'trade.cycle_closed': '{symbol} cycle {cycle} closed: {profit} USDT ({roi} %)',
    'trade.stop_loss': '{symbol} stop-loss at {price}: {profit} USDT',
    'trade.attention': '{symbol} stopped and needs attention ({reason})',
    'member.fuel_empty': '{symbol} waits for fuel to open cycle {cycle}',
    fills: '{symbol}: {count} fills',
    more: 'and {count} more',
    unsubscribe: 'Stop these e-mails',
    open: 'Open',
    'channel.telegram': 'Telegram',
    'channel.push': 'Push',
    'channel.webhook': 'Webhook',
  },
  'zh-CN': {
    'user.new_login': '你的账户在新设备登录：{ip}（{userAgent}）。如非本人操作，请立即修改密码。',
    'user.password_changed': '你的密码已修改。如非本人操作，请立即重置。',
    'user.channel_off': '{channelName} 通知已关闭：消息被拒收（机器人被屏蔽或订阅已失效）。请在通知设置中重新绑定。',
    'wallet.deposit_credited': '充值到账：{amount} {asset}',
    'wallet.withdrawal_approved': '提现已发出：{amount} {asset}',
    'wallet.withdrawal_refused': '提现被拒绝（{reason}）：{amount} {asset} 已退回钱包',
    'wallet.transfer_received': '收到 {from} 转账 {amount} {asset}',
    'trade.fill.buy': '{symbol} 第 {levelNo} 档买入：{amount} USDT，价格 {price}',
    'trade.fill.sell': '{symbol} 卖出 {quantity}，价格 {price}：{amount} USDT',
    'trade.cycle_closed': '{symbol} 第 {cycle} 轮完成：{profit} USDT（{roi}%）',
    'trade.stop_loss': '{symbol} 止损，价格 {price}：{profit} USDT',
    'trade.attention': '{symbol} 已暂停，需要处理（{reason}）',
    'member.fuel_empty': '{symbol} 等待燃料以开始第 {cycle} 轮',
    fills: '{symbol} {count} 笔成交',
    more: '另有 {count} 条',
    unsubscribe: '不再接收此类邮件',
    open: '查看',
    'channel.telegram': 'Telegram',
    'channel.push': '推送',
    'channel.webhook': 'Webhook',
  },
  'zh-TW': {
    'user.new_login': '你的帳戶在新裝置登入：{ip}（{userAgent}）。如非本人操作，請立即修改密碼。',
    'user.password_changed': '你的密碼已修改。如非本人操作，請立即重設。',
    'user.channel_off': '{channelName} 通知已關閉：訊息被拒收（機器人被封鎖或訂閱已失效）。請在通知設定中重新綁定。',
    'wallet.deposit_credited': '儲值到帳：{amount} {asset}',
    'wallet.withdrawal_approved': '提領已送出：{amount} {asset}',
    'wallet.withdrawal_refused': '提領被拒絕（{reason}）：{amount} {asset} 已退回錢包',
    'wallet.transfer_received': '收到 {from} 轉帳 {amount} {asset}',
    'trade.fill.buy': '{symbol} 第 {levelNo} 檔買入：{amount} USDT，價格 {price}',
    'trade.fill.sell': '{symbol} 賣出 {quantity}，價格 {price}：{amount} USDT',
    'trade.cycle_closed': '{symbol} 第 {cycle} 輪完成：{profit} USDT（{roi}%）',
    'trade.stop_loss': '{symbol} 停損，價格 {price}：{profit} USDT',
    'trade.attention': '{symbol} 已暫停，需要處理（{reason}）',
    'member.fuel_empty': '{symbol} 等待燃料以開始第 {cycle} 輪',
    fills: '{symbol} {count} 筆成交',
    more: '另有 {count} 則',
    unsubscribe: '不再接收此類郵件',
    open: '查看',
    'channel.telegram': 'Telegram',
    'channel.push': '推播',
    'channel.webhook': 'Webhook',
  },
};

export const notifyLocale = (locale: string): NotifyLocale => (locale === 'en-US' || locale === 'zh-TW' ? locale : 'zh-CN');

export const uiText = (locale: NotifyLocale, key: 'unsubscribe' | 'open') => TEXTS[locale][key]!;

/** One event as a line of text. */
export const eventLine = (locale: NotifyLocale, kind: string, payload: Fields): string => {
  const key = kind === 'trade.fill' ? `trade.fill.${payload['side'] === 'sell' ? 'sell' : 'buy'}` : kind;
  const channelName = TEXTS[locale][`channel.${field(payload, 'channel')}`] ?? field(payload, 'channel');
  return fill(TEXTS[locale][key] ?? kind, { ...payload, ...notificationFigures(payload, locale), channelName });
};

/**
 * Several events of one user as one message: fills of a pair folded into a
 * count ("BTC/USDT 12 笔成交"), the other events a line each; the title is
 * the lines joined, cut after two.
 */
export const coalescedText = (locale: NotifyLocale, events: readonly { kind: string; payload: Fields }[]): { title: string; text: string } => {
  const lines: string[] = [];
  const fills = new Map<string, Fields[]>();
  for (const event of events) {
    if (event.kind === 'trade.fill') {
      const symbol = field(event.payload, 'symbol');
      fills.set(symbol, [...(fills.get(symbol) ?? []), event.payload]);
    }
  }
  for (const [symbol, list] of fills) lines.push(list.length === 1 ? eventLine(locale, 'trade.fill', list[0]!) : fill(TEXTS[locale]['fills']!, { symbol, count: list.length }));
  for (const event of events) if (event.kind !== 'trade.fill') lines.push(eventLine(locale, event.kind, event.payload));
  const separator = locale === 'en-US' ? '; ' : '，';
  const title = lines.length > 2 ? `${lines.slice(0, 2).join(separator)}${separator}${fill(TEXTS[locale]['more']!, { count: lines.length - 2 })}` : lines.join(separator);
  return { title, text: lines.join('\n') };
};
