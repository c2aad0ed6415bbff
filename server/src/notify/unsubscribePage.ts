/**
 * The page an e-mail's unsubscribe link opens (issue 25): a small page of the
 * server, in the user's language, readable without signing in and without
 * the dashboard's script. Opening the link asks; the button (a POST) turns
 * that kind's e-mail off, so a mail scanner that follows links changes
 * nothing. Each page links to the notification preferences.
 */
import type { NotificationKind } from '../../../src/api/notify';
import type { NotifyLocale } from './channel';

/** The kinds a mail carries an unsubscribe link for: all but the security notices, which always go by e-mail. */
type Unsubscribable = Exclude<NotificationKind, `user.${string}`>;

type PageTexts = {
  title: string;
  ask: string;
  askNote: string;
  button: string;
  done: string;
  doneNote: string;
  invalid: string;
  invalidNote: string;
  preferences: string;
  kinds: Record<Unsubscribable, string>;
};

const TEXTS: Record<NotifyLocale, PageTexts> = {
  'zh-CN': {
    title: '邮件通知',
    ask: '不再通过邮件接收“{kind}”？',
    askNote: '应用内和你绑定的其他渠道仍会照常通知。',
    button: '不再接收此类邮件',
    done: '已不再通过邮件发送“{kind}”',
    doneNote: '可随时在通知设置中重新开启。',
    invalid: '此链接无效',
    invalidNote: '链接可能不完整或已被改动。你可以在通知设置中选择接收哪些通知。',
    preferences: '打开通知设置',
    kinds: {
      'trade.fill': '订单成交',
      'trade.cycle_closed': '一轮完成',
      'trade.stop_loss': '止损',
      'trade.attention': '任务需要处理',
      'trade.ladder_full': '已买满最后一档',
      'trade.paper_fallback': '模拟账户改按模拟行情',
      'trade.paper_live': '模拟账户恢复实时行情',
      'trade.alert': 'TradingView 警报',
      'member.fuel_low': '燃料不足',
      'member.fuel_empty': '燃料耗尽',
      'wallet.deposit_credited': '充值到账',
      'wallet.withdrawal_approved': '提现已发出',
      'wallet.withdrawal_refused': '提现被拒绝',
      'wallet.transfer_received': '收到转账',
    },
  },
  'en-US': {
    title: 'E-mail notifications',
    ask: 'Stop e-mails about “{kind}”?',
    askNote: 'The app and your other linked channels still tell you.',
    button: 'Stop these e-mails',
    done: 'E-mails about “{kind}” are off',
    doneNote: 'You can turn them on again in the notification settings at any time.',
    invalid: 'This link is not valid',
    invalidNote: 'It may be incomplete or changed. You can choose what reaches you in the notification settings.',
    preferences: 'Open the notification settings',
    kinds: {
      'trade.fill': 'Order filled',
      'trade.cycle_closed': 'Cycle closed',
      'trade.stop_loss': 'Stop-loss',
      'trade.attention': 'Task needs attention',
      'trade.ladder_full': 'Last level filled',
      'trade.paper_fallback': 'Paper account on simulated prices',
      'trade.paper_live': 'Paper account on live prices again',
      'trade.alert': 'TradingView alert',
      'member.fuel_low': 'Fuel low',
      'member.fuel_empty': 'Fuel empty',
      'wallet.deposit_credited': 'Deposit credited',
      'wallet.withdrawal_approved': 'Withdrawal sent',
      'wallet.withdrawal_refused': 'Withdrawal refused',
      'wallet.transfer_received': 'Transfer received',
    },
  },
  'zh-TW': {
    title: '郵件通知',
    ask: '不再透過郵件接收「{kind}」？',
    askNote: '應用程式內和你綁定的其他管道仍會照常通知。',
    button: '不再接收此類郵件',
    done: '已不再透過郵件傳送「{kind}」',
    doneNote: '可隨時在通知設定中重新開啟。',
    invalid: '此連結無效',
    invalidNote: '連結可能不完整或已被改動。你可以在通知設定中選擇接收哪些通知。',
    preferences: '開啟通知設定',
    kinds: {
      'trade.fill': '訂單成交',
      'trade.cycle_closed': '一輪完成',
      'trade.stop_loss': '停損',
      'trade.attention': '任務需要處理',
      'trade.ladder_full': '已買滿最後一檔',
      'trade.paper_fallback': '模擬帳戶改依模擬行情',
      'trade.paper_live': '模擬帳戶恢復即時行情',
      'trade.alert': 'TradingView 警報',
      'member.fuel_low': '燃料不足',
      'member.fuel_empty': '燃料耗盡',
      'wallet.deposit_credited': '儲值到帳',
      'wallet.withdrawal_approved': '提領已送出',
      'wallet.withdrawal_refused': '提領被拒絕',
      'wallet.transfer_received': '收到轉帳',
    },
  },
};

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** A kind's name in the user's language, as the mails and this page say it. */
export const kindName = (locale: NotifyLocale, kind: string): string => TEXTS[locale].kinds[kind as Unsubscribable] ?? kind;

/** The kinds a mail may carry an unsubscribe link for (security notices have none), with their names. */
export const unsubscribableKind = (kind: string): boolean => Object.hasOwn(TEXTS['en-US'].kinds, kind);

export type UnsubscribeView =
  | { state: 'ask'; kind: string; user: string; token: string }
  | { state: 'done'; kind: string }
  | { state: 'invalid' };

/** The whole page: `preferencesUrl` is the dashboard's notification settings. */
export const unsubscribePage = (locale: NotifyLocale, view: UnsubscribeView, preferencesUrl: string): string => {
  const t = TEXTS[locale];
  const kind = view.state === 'invalid' ? '' : (t.kinds[view.kind as Unsubscribable] ?? view.kind);
  const heading = view.state === 'ask' ? t.ask : view.state === 'done' ? t.done : t.invalid;
  const note = view.state === 'ask' ? t.askNote : view.state === 'done' ? t.doneNote : t.invalidNote;
  const form =
    view.state === 'ask'
      ? `<form method="post" action="unsubscribe">
<input type="hidden" name="user" value="${escape(view.user)}">
<input type="hidden" name="kind" value="${escape(view.kind)}">
<input type="hidden" name="token" value="${escape(view.token)}">
<button type="submit">${escape(t.button)}</button>
</form>`
      : '';
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escape(t.title)} · Quant Trader</title>
<style>
body{margin:0;padding:0 1rem;font-family:system-ui,-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f5f6f8;color:#1f2328}
main{max-width:32rem;margin:12vh auto 0;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
h1{font-size:1.25rem;line-height:1.5;margin:0 0 .5rem;overflow-wrap:anywhere}
p{margin:0 0 1.25rem;line-height:1.6;color:#57606a}
button{font:inherit;padding:.6rem 1.2rem;border:0;border-radius:8px;background:#1565c0;color:#fff;cursor:pointer;margin-bottom:1rem}
a{color:#1565c0}
</style>
</head>
<body>
<main>
<h1>${escape(heading.replace('{kind}', kind))}</h1>
<p>${escape(note)}</p>
${form}
<a href="${escape(preferencesUrl)}">${escape(t.preferences)}</a>
</main>
</body>
</html>
`;
};
