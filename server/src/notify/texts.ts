/** The notifications' texts for the channels outside the dashboard (e-mail, and the senders of part 2), in the user's language. */
import { attentionRemedy } from '../../../src/api/attentionRemedy';
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
    'wallet.deposit_credited': 'Deposit credited: {amount} {asset}',
    'wallet.withdrawal_approved': 'Withdrawal sent: {amount} {asset}',
    'wallet.withdrawal_refused': 'Withdrawal refused ({reason}): {amount} {asset} back in your wallet',
    'wallet.transfer_received': 'Received {amount} {asset} from {from}',
    'trade.fill.buy': '{symbol} bought level {levelNo}: {amount} USDT at {price}',
    'trade.fill.sell': '{symbol} sold {quantity} at {price}: {amount} USDT',
    'trade.cycle_closed': '{symbol} cycle {cycle} closed: {profit} USDT ({roi} %)',
    'trade.stop_loss': '{symbol} stop-loss at {price}: {profit} USDT',
    'trade.stop_loss.loss_average': '{symbol} stop-loss (from the average) at {price}: {profit} USDT',
    'trade.stop_loss.loss_last_level': '{symbol} stop-loss (from the last level) at {price}: {profit} USDT',
    'trade.stop_loss.break_even': '{symbol} break-even stop at {price}: {profit} USDT',
    'trade.stop_loss.time': '{symbol} time stop at {price}: {profit} USDT',
    'trade.attention': '{symbol} stopped and needs attention ({reason})',
    'member.fuel_empty': '{symbol} waits for fuel to open cycle {cycle}',
    'member.fuel_low': 'Fuel is low: {balance} left. Top it up so new cycles keep starting.',
    'trade.ladder_full': '{symbol} filled its last level ({levels}) in cycle {cycle}: no funds will be added to this position',
    'trade.paper_fallback': 'Paper account "{account}" trades on simulated prices: {sourceName} cannot be reached. Its tasks go on, and live prices return by themselves.',
    'trade.paper_live': 'Paper account "{account}" trades on {sourceName} live prices again.',
    'trade.alert.start_cycle': '{symbol}: a TradingView alert arrived to start a cycle',
    'trade.alert.buy_level': '{symbol}: a TradingView alert arrived to buy the next level',
    'trade.alert.close_position': '{symbol}: a TradingView alert arrived to close the position',
    'user.email_changed': 'The e-mail address of your account was changed. Not you? Reset your password now.',
    'user.security_changed': 'The security settings of your account were changed. Not you? Reset your password now.',
    'user.channel_disabled.telegram': 'Telegram notifications are off: the bot could not reach your chat (blocked?). Unblock the bot, then link Telegram again in the notification channels.',
    'user.channel_disabled.push': 'Web push is off: this browser\'s subscription ended. Turn push on again in the notification channels.',
    'user.channel_disabled.webhook': 'Your webhook is off: its address answered that it is gone. Save a working address in the notification channels.',
    'user.channel_disabled.email': 'E-mail notifications could not be delivered.',
    'user.widget_grant_created': 'A widget grant was created for {origin} ("{name}"). Not you? Revoke it in the widget settings.',
    'user.withdrawal_address_added': 'A withdrawal address was added: {address} ({network}){labelText}. It can be used from {usableAt}. Not you? Remove it and change your password now.',
    fills: '{symbol}: {count} fills',
    more: 'and {count} more',
    digest: 'Hourly digest: {count} notifications',
    unsubscribe: 'Stop these e-mails',
    open: 'Open',
  },
  'zh-CN': {
    'user.new_login': '你的账户在新设备登录：{ip}（{userAgent}）。如非本人操作，请立即修改密码。',
    'user.password_changed': '你的密码已修改。如非本人操作，请立即重置。',
    'wallet.deposit_credited': '充值到账：{amount} {asset}',
    'wallet.withdrawal_approved': '提现已发出：{amount} {asset}',
    'wallet.withdrawal_refused': '提现被拒绝（{reason}）：{amount} {asset} 已退回钱包',
    'wallet.transfer_received': '收到 {from} 转账 {amount} {asset}',
    'trade.fill.buy': '{symbol} 第 {levelNo} 档买入：{amount} USDT，价格 {price}',
    'trade.fill.sell': '{symbol} 卖出 {quantity}，价格 {price}：{amount} USDT',
    'trade.cycle_closed': '{symbol} 第 {cycle} 轮完成：{profit} USDT（{roi}%）',
    'trade.stop_loss': '{symbol} 止损，价格 {price}：{profit} USDT',
    'trade.stop_loss.loss_average': '{symbol} 止损（自均价），价格 {price}：{profit} USDT',
    'trade.stop_loss.loss_last_level': '{symbol} 止损（自末档），价格 {price}：{profit} USDT',
    'trade.stop_loss.break_even': '{symbol} 保本止损，价格 {price}：{profit} USDT',
    'trade.stop_loss.time': '{symbol} 时间止损，价格 {price}：{profit} USDT',
    'trade.attention': '{symbol} 已暂停，需要处理（{reason}）',
    'member.fuel_empty': '{symbol} 等待燃料以开始第 {cycle} 轮',
    'member.fuel_low': '燃料不足：仅剩 {balance}，请及时补充，以免新一轮无法开始。',
    'trade.ladder_full': '{symbol} 第 {cycle} 轮已买满最后一档（共 {levels} 档），不会再补仓',
    'trade.paper_fallback': '模拟账户「{account}」改按模拟行情交易：无法连接 {sourceName}。任务照常运行，恢复后自动切回实时行情。',
    'trade.paper_live': '模拟账户「{account}」已恢复 {sourceName} 实时行情。',
    'trade.alert.start_cycle': '{symbol} 收到 TradingView 警报：开始新一轮',
    'trade.alert.buy_level': '{symbol} 收到 TradingView 警报：买入下一档',
    'trade.alert.close_position': '{symbol} 收到 TradingView 警报：平仓',
    'user.email_changed': '你的账户邮箱已修改。如非本人操作，请立即重置密码。',
    'user.security_changed': '你的账户安全设置已修改。如非本人操作，请立即重置密码。',
    'user.channel_disabled.telegram': 'Telegram 通知已关闭：机器人无法联系你的会话（可能已被屏蔽）。请解除屏蔽，再到通知渠道中重新绑定 Telegram。',
    'user.channel_disabled.push': '推送已关闭：此浏览器的订阅已失效。请到通知渠道中重新开启推送。',
    'user.channel_disabled.webhook': 'Webhook 已关闭：该地址回复已不存在。请到通知渠道中保存可用的地址。',
    'user.channel_disabled.email': '邮件通知无法送达。',
    'user.widget_grant_created': '已为 {origin}（“{name}”）创建小组件授权。如非本人操作，请在小组件设置中撤销。',
    'user.withdrawal_address_added': '已添加提币地址：{address}（{network}）{labelText}。该地址从 {usableAt} 起可用。如非本人操作，请立即删除该地址并修改密码。',
    fills: '{symbol} {count} 笔成交',
    more: '另有 {count} 条',
    digest: '每小时摘要：{count} 条通知',
    unsubscribe: '不再接收此类邮件',
    open: '查看',
  },
  'zh-TW': {
    'user.new_login': '你的帳戶在新裝置登入：{ip}（{userAgent}）。如非本人操作，請立即修改密碼。',
    'user.password_changed': '你的密碼已修改。如非本人操作，請立即重設。',
    'wallet.deposit_credited': '儲值到帳：{amount} {asset}',
    'wallet.withdrawal_approved': '提領已送出：{amount} {asset}',
    'wallet.withdrawal_refused': '提領被拒絕（{reason}）：{amount} {asset} 已退回錢包',
    'wallet.transfer_received': '收到 {from} 轉帳 {amount} {asset}',
    'trade.fill.buy': '{symbol} 第 {levelNo} 檔買入：{amount} USDT，價格 {price}',
    'trade.fill.sell': '{symbol} 賣出 {quantity}，價格 {price}：{amount} USDT',
    'trade.cycle_closed': '{symbol} 第 {cycle} 輪完成：{profit} USDT（{roi}%）',
    'trade.stop_loss': '{symbol} 停損，價格 {price}：{profit} USDT',
    'trade.stop_loss.loss_average': '{symbol} 停損（自均價），價格 {price}：{profit} USDT',
    'trade.stop_loss.loss_last_level': '{symbol} 停損（自末檔），價格 {price}：{profit} USDT',
    'trade.stop_loss.break_even': '{symbol} 保本停損，價格 {price}：{profit} USDT',
    'trade.stop_loss.time': '{symbol} 時間停損，價格 {price}：{profit} USDT',
    'trade.attention': '{symbol} 已暫停，需要處理（{reason}）',
    'member.fuel_empty': '{symbol} 等待燃料以開始第 {cycle} 輪',
    'member.fuel_low': '燃料不足：僅剩 {balance}，請及時補充，以免新一輪無法開始。',
    'trade.ladder_full': '{symbol} 第 {cycle} 輪已買滿最後一檔（共 {levels} 檔），不會再補倉',
    'trade.paper_fallback': '模擬帳戶「{account}」改依模擬行情交易：無法連線 {sourceName}。任務照常運行，恢復後自動切回即時行情。',
    'trade.paper_live': '模擬帳戶「{account}」已恢復 {sourceName} 即時行情。',
    'trade.alert.start_cycle': '{symbol} 收到 TradingView 警報：開始新一輪',
    'trade.alert.buy_level': '{symbol} 收到 TradingView 警報：買入下一檔',
    'trade.alert.close_position': '{symbol} 收到 TradingView 警報：平倉',
    'user.email_changed': '你的帳戶信箱已修改。如非本人操作，請立即重設密碼。',
    'user.security_changed': '你的帳戶安全設定已修改。如非本人操作，請立即重設密碼。',
    'user.channel_disabled.telegram': 'Telegram 通知已關閉：機器人無法聯繫你的對話（可能已被封鎖）。請解除封鎖，再到通知管道中重新綁定 Telegram。',
    'user.channel_disabled.push': '推播已關閉：此瀏覽器的訂閱已失效。請到通知管道中重新開啟推播。',
    'user.channel_disabled.webhook': 'Webhook 已關閉：該位址回覆已不存在。請到通知管道中儲存可用的位址。',
    'user.channel_disabled.email': '郵件通知無法送達。',
    'user.widget_grant_created': '已為 {origin}（「{name}」）建立小工具授權。如非本人操作，請在小工具設定中撤銷。',
    'user.withdrawal_address_added': '已新增提領地址：{address}（{network}）{labelText}。該地址從 {usableAt} 起可用。如非本人操作，請立即刪除該地址並修改密碼。',
    fills: '{symbol} {count} 筆成交',
    more: '另有 {count} 則',
    digest: '每小時摘要：{count} 則通知',
    unsubscribe: '不再接收此類郵件',
    open: '查看',
  },
};

export const notifyLocale = (locale: string): NotifyLocale => (locale === 'en-US' || locale === 'zh-TW' ? locale : 'zh-CN');

export const uiText = (locale: NotifyLocale, key: 'unsubscribe' | 'open') => TEXTS[locale][key]!;

/** A new withdrawal address's time to the minute in UTC (a mail's reader may be anywhere), its label quoted. */
const addressFields = (locale: NotifyLocale, payload: Fields): Fields => {
  const usableAt = payload['usableAt'];
  if (typeof usableAt !== 'string') return {};
  const label = field(payload, 'label');
  return {
    usableAt: `${usableAt.slice(0, 10)} ${usableAt.slice(11, 16)} UTC`,
    labelText: label ? (locale === 'en-US' ? ` "${label}"` : locale === 'zh-TW' ? `「${label}」` : `“${label}”`) : '',
  };
};

/** One event as a line of text. */
export const eventLine = (locale: NotifyLocale, kind: string, payload: Fields): string => {
  const key =
    kind === 'trade.fill'
      ? `trade.fill.${payload['side'] === 'sell' ? 'sell' : 'buy'}`
      : kind === 'user.channel_disabled' || kind === 'trade.alert'
        ? `${kind}.${field(payload, kind === 'trade.alert' ? 'action' : 'channel')}`
        : kind === 'trade.stop_loss' && TEXTS[locale][`${kind}.${field(payload, 'stop')}`]
          ? `${kind}.${field(payload, 'stop')}`
          : kind;
  const reason = kind === 'trade.attention' ? { reason: attentionRemedy(payload['reason'], locale) } : {};
  return fill(TEXTS[locale][key] ?? kind, { ...payload, ...notificationFigures(payload, locale), ...addressFields(locale, payload), ...reason });
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

/** The title of an hourly digest of `count` events (its text lists them). */
export const digestTitle = (locale: NotifyLocale, count: number): string => fill(TEXTS[locale]['digest']!, { count });
