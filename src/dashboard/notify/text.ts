import type { Notification } from '../../api/notify';
import { attentionRemedy } from '../../api/attentionRemedy';
import { notificationFigures } from '../../api/notifyFigures';
import { isTaskStop } from '../../api/trade';
import { ALERT_ACTIONS, type AlertAction } from '../../api/conditions';

const isAlertAction = (value: unknown): value is AlertAction => ALERT_ACTIONS.includes(value as AlertAction);

type Translate = (key: string, options?: Record<string, unknown>) => string;

const field = (payload: Record<string, unknown>, name: string) => {
  const value = payload[name];
  return value === null || value === undefined ? '' : String(value);
};

/** A time to the minute in the reader's zone and language. */
const localTime = (iso: string, locale: string) => {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false }).format(new Date(time));
};

/** One notification as a line of text, its figures in the number format of the reader's language. */
export const notificationText = (item: Notification, translate: Translate, locale: string): string => {
  const p = item.payload;
  const values = {
    ...Object.fromEntries(['symbol', 'level', 'levels', 'amount', 'price', 'quantity', 'cycle', 'profit', 'roi', 'reason', 'asset', 'from', 'ip', 'userAgent', 'balance', 'origin', 'name', 'channel', 'account', 'sourceName', 'address', 'network'].map((name) => [name, field(p, name)])),
    ...notificationFigures(p, locale),
  };
  // The kind's second part: its namespace (trade, member) is not a text key.
  switch (item.kind.slice(item.kind.indexOf('.') + 1)) {
    case 'fill':
      return translate(p['side'] === 'sell' ? 'notify.text.fillSell' : 'notify.text.fillBuy', { ...values, level: Number(p['level'] ?? 0) + 1 });
    case 'cycle_closed':
      return translate('notify.text.cycleClosed', values);
    case 'stop_loss':
      // Which stop fired, when the engine named it (older events do not).
      if (isTaskStop(p['stop'])) return translate('notify.text.stopLossBy', { ...values, stop: translate(`notify.text.stops.${p['stop']}`) });
      return translate('notify.text.stopLoss', values);
    case 'attention':
      return translate('notify.text.attention', { ...values, reason: attentionRemedy(p['reason'], locale) });
    case 'fuel_empty':
      return translate('notify.text.fuelEmpty', values);
    case 'deposit_credited':
      return translate('notify.text.depositCredited', values);
    case 'withdrawal_approved':
      return translate('notify.text.withdrawalApproved', values);
    case 'withdrawal_refused':
      return translate('notify.text.withdrawalRefused', values);
    case 'transfer_received':
      return translate('notify.text.transferReceived', values);
    case 'new_login':
      return translate('notify.text.newLogin', values);
    case 'password_changed':
      return translate('notify.text.passwordChanged', values);
    case 'fuel_low':
      return translate('notify.text.fuelLow', values);
    case 'ladder_full':
      return translate('notify.text.ladderFull', values);
    case 'paper_fallback':
      return translate('notify.text.paperFallback', values);
    case 'paper_live':
      return translate('notify.text.paperLive', values);
    case 'alert':
      return translate(`notify.text.alert.${isAlertAction(p['action']) ? p['action'] : 'start_cycle'}`, values);
    case 'email_changed':
      return translate('notify.text.emailChanged', values);
    case 'security_changed':
      return translate('notify.text.securityChanged', values);
    case 'channel_disabled':
      return translate(`notify.channelOff.${['telegram', 'push', 'webhook'].includes(values['channel'] ?? '') ? values['channel'] : 'email'}`);
    case 'widget_grant_created':
      return translate('notify.text.widgetGrantCreated', values);
    case 'withdrawal_address_added':
      return translate('notify.text.withdrawalAddressAdded', { ...values, usableAt: localTime(field(p, 'usableAt'), locale) });
    default:
      return item.kind;
  }
};

/** The text key of a kind's name (notify.kind.<namespace>_<name>). */
export const kindLabelKey = (kind: string) => `notify.kind.${kind.replace('.', '_')}`;
