import Big from 'big.js';
import type { TranslateFunction as Translate } from 'react-admin';
import { cycleLabel } from '../../api/cycles';
import { isTaskStop, type TaskEvent, type TradeOrder, type TradeTask } from '../../api/trade';
import { ErrorCode } from '../../api/errors';
import { isApiError } from '../../dataProvider/ApiError';
import { formatMoney, formatPercent, formatQuantity as formatQuantityShared } from '../../api/format';
import { formatPrice, formatQuantity, formatQuote, formatSigned, quoteOf, baseOf } from '../kit/money';
import { formatDateTime } from '../kit/time';

/** Decimals a fee in the quote shows: a fee is often below a cent. */
const FEE_DECIMALS = 4;

/** A fee's quote value: a fee in the quote as it is, one in the coin at the order's fill price; null for a third asset (no price here). */
export const feeInQuote = (order: Pick<TradeOrder, 'fee' | 'feeCurrency' | 'price' | 'symbol'>): Big | null => {
  if (order.feeCurrency === null || order.feeCurrency === quoteOf(order.symbol)) return new Big(order.fee || 0);
  if (order.feeCurrency === baseOf(order.symbol) && order.price !== null) return new Big(order.fee || 0).times(order.price);
  return null;
};

/**
 * A fee in its asset and, when it was paid in the coin, its quote value:
 * "0.0195 USDT", "0.00000011 BTC ≈ 0.0099 USDT", "0.00004 BNB". Figures in
 * the one number format.
 */
export const feeText = (order: Pick<TradeOrder, 'fee' | 'feeCurrency' | 'price' | 'symbol'>, locale: string) => {
  const quote = quoteOf(order.symbol);
  if (order.feeCurrency === null || order.feeCurrency === quote) return `${formatMoney(order.fee, locale, { decimals: FEE_DECIMALS })} ${quote}`;
  const own = `${formatQuantityShared(order.fee, locale)} ${order.feeCurrency}`;
  const value = feeInQuote(order);
  return value === null ? own : `${own} ≈ ${formatMoney(value.toFixed(), locale, { decimals: FEE_DECIMALS })} ${quote}`;
};

/** The fees of some orders: each asset's sum, and the quote value of them all (null when a third asset has no price here). */
export const feesOf = (orders: readonly Pick<TradeOrder, 'fee' | 'feeCurrency' | 'price' | 'symbol'>[]) => {
  const byAsset = new Map<string, Big>();
  let total: Big | null = new Big(0);
  for (const order of orders) {
    const asset = order.feeCurrency ?? quoteOf(order.symbol);
    byAsset.set(asset, (byAsset.get(asset) ?? new Big(0)).plus(order.fee || 0));
    const value = feeInQuote(order);
    total = total === null || value === null ? null : total.plus(value);
  }
  return { byAsset, total };
};

/** A moment of the task log: the one time format (kit/time.ts). */
export const formatTime = (iso: string, locale: string) => formatDateTime(iso, locale);

/** The cycle under way (or the last one when finished) and the total, 9999 being "until stopped". */
export const cycleText = (task: Pick<TradeTask, 'cyclesDone' | 'cycleCount' | 'finished'> & Partial<Pick<TradeTask, 'running' | 'phase'>>, translate: Translate) => cycleLabel(task, translate, 'tasks.cycle');

/** The ladder levels bought in the cycle under way: none outside a cycle (after a take-profit or a close), whatever the last cycle reached. */
export const levelsText = (task: Pick<TradeTask, 'phase' | 'levelsFilled' | 'levelsTotal'>) => `${task.phase === 'open' ? task.levelsFilled : 0} / ${task.levelsTotal}`;

export type TaskState = 'finished' | 'stopped' | TradeTask['phase'];

/** What the robot is doing for a task: finished and stopped win over the cycle's phase. */
export const taskState = (task: Pick<TradeTask, 'finished' | 'running' | 'phase'>): TaskState => {
  if (task.finished) return 'finished';
  if (!task.running) return 'stopped';
  return task.phase;
};

export const orderReasonText = (order: Pick<TradeOrder, 'reason' | 'level'>, translate: Translate) =>
  translate(`tasks.orders.reasons.${order.reason}`, { level: order.level, _: order.reason });

const errorReasonText = (data: Record<string, unknown>, translate: Translate, locale: string) => {
  const reason = String(data.reason ?? '');
  if (reason === 'insufficient_funds' && data.required !== undefined) {
    const figures = figuresOf(data, locale);
    return translate('tasks.errorReason.insufficientDetail', { required: figures.required ?? '', asset: data.asset ?? '', available: figures.available ?? '' });
  }
  return translate(`tasks.errorReason.${reason}`, { _: reason });
};

/** One line of the task's activity, with its numbers formatted (prices to the market's tick, amounts to its step, when known). */
export const eventText = (event: TaskEvent, translate: Translate, locale: string, market: Partial<Pick<TradeTask, 'tickSize' | 'amountStep'>> = {}) => {
  const data = event.data ?? {};
  const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');
  switch (event.kind) {
    case 'stopped':
      return translate(data.by === 'close' ? 'tasks.event.stoppedByClose' : 'tasks.event.stopped');
    case 'cycle_started':
    case 'replenished':
      return translate(`tasks.event.${event.kind}`, {
        cycle: text(data.cycle),
        level: text(data.level),
        amount: formatQuote(text(data.amount), locale),
        price: formatPrice(text(data.price), locale, market.tickSize),
      });
    case 'sold':
    case 'stop_loss': {
      const values = { price: formatPrice(text(data.price), locale, market.tickSize), profit: formatSigned(text(data.profit), locale) };
      const remainder = () => formatQuantity(text(data.remainder), locale, market.amountStep);
      // A take-profit target sold its share: what it sold and what is still held.
      if (event.kind === 'sold' && data.partial === true) return translate('tasks.event.soldPartial', { ...values, target: text(data.target), sold: formatQuantity(text(data.sold), locale, market.amountStep), remainder: remainder() });
      // What the sale left below the exchange's step is named: it stays for the next cycle.
      if (event.kind === 'sold' && Number(data.remainder ?? 0) > 0) return translate('tasks.event.soldRemainder', { ...values, remainder: remainder() });
      if (event.kind === 'sold' && data.target !== undefined) return translate('tasks.event.soldTarget', { ...values, target: text(data.target) });
      // Which stop fired, when the engine named it (events before it did not).
      if (event.kind === 'stop_loss' && isTaskStop(data.stop)) return translate('tasks.event.stopLossBy', { ...values, stop: translate(`tasks.stops.${data.stop}`) });
      return translate(`tasks.event.${event.kind}`, values);
    }
    case 'cycle_complete':
      return translate('tasks.event.cycle_complete', { cycle: text(data.cycle), profit: formatSigned(text(data.profit), locale) });
    case 'replenish_touched':
      return translate('tasks.event.replenish_touched', { level: text(data.level) });
    case 'error':
      if (data.reason === 'engine_error') return translate('tasks.event.engineError', { message: text(data.message) });
      return translate('tasks.event.error', { reason: errorReasonText(data, translate, locale) });
    case 'paused':
      return translate('tasks.event.paused', { failures: text(data.failures) });
    case 'exchange_canceled':
      return translate('tasks.event.exchange_canceled', {
        side: translate(`tasks.orders.sides.${data.side === 'sell' ? 'sell' : 'buy'}`),
        filled: formatQuantity(text(data.filled) || '0', locale, market.amountStep),
      });
    case 'exchange_down': {
      // An outage of the whole exchange: why, and until when it asked us to wait.
      const cause = ['banned', 'rate_limited', 'maintenance'].includes(String(data.cause)) ? String(data.cause) : 'unreachable';
      return translate(`tasks.event.exchange_down_${cause}`, { until: typeof data.until === 'string' ? formatTime(data.until, locale) : '—' });
    }
    case 'exchange_up':
      return translate('tasks.event.exchange_up', { seconds: text(data.seconds) });
    case 'alert_received': {
      // A TradingView alert (issue 29): what it asked, with its ticker and price when the message carried them.
      const action = translate(`tasks.alertActions.${text(data.action)}`, { _: text(data.action) });
      if (!text(data.price)) return translate('tasks.event.alert_received', { action });
      return translate('tasks.event.alert_received_price', { action, ticker: text(data.ticker) || '—', price: formatPrice(text(data.price), locale, market.tickSize) });
    }
    case 'alert_acted':
    case 'alert_ignored':
      return alertOutcomeText(event, translate);
    case 'created':
    case 'started':
    case 'updated':
    case 'take_profit_armed':
    case 'take_profit_disarmed':
    case 'cycle_wait':
    case 'condition_wait':
    case 'fuel_empty':
    case 'finished':
    case 'resumed':
      return translate(`tasks.event.${event.kind}`);
    default:
      return translate('tasks.event.unknown', { kind: event.kind });
  }
};

/** What the robot did with a TradingView alert (issue 29): the action taken (a level bought names it), or why not. */
export const alertOutcomeText = ({ kind, data }: Pick<TaskEvent, 'kind' | 'data'>, translate: Translate) => {
  const action = translate(`tasks.alertActions.${String(data.action)}`, { _: String(data.action ?? '') });
  if (kind === 'alert_acted') return data.action === 'buy_level' && data.level !== undefined ? translate('tasks.event.alert_acted_level', { level: String(data.level) }) : translate('tasks.event.alert_acted', { action });
  const reason = translate(`tasks.signals.webhook.ignored.${String(data.reason)}`, { _: String(data.reason ?? '') });
  return translate('tasks.event.alert_ignored', { action, reason });
};

export type EventTone = 'success' | 'error' | 'warning' | 'info' | 'default';

/** The dot beside an event: a sale or a cycle's end is green or red by its profit. */
export const eventTone = ({ kind, data }: Pick<TaskEvent, 'kind' | 'data'>): EventTone => {
  if (kind === 'error' || kind === 'stop_loss' || kind === 'paused') return 'error';
  if (kind === 'resumed' || kind === 'exchange_up') return 'success';
  if (kind === 'exchange_down' || kind === 'exchange_canceled') return 'warning';
  if (kind === 'sold' || kind === 'cycle_complete') return Number(data?.profit ?? 0) < 0 ? 'error' : 'success';
  if (kind === 'take_profit_armed') return 'success';
  if (kind === 'cycle_started' || kind === 'replenished' || kind === 'alert_received' || kind === 'alert_acted') return 'info';
  if (kind === 'alert_ignored') return 'warning';
  if (kind === 'replenish_touched' || kind === 'take_profit_disarmed' || kind === 'cycle_wait' || kind === 'condition_wait' || kind === 'fuel_empty') return 'warning';
  return 'default';
};

const QUOTE_FIELDS = ['amount', 'minCost', 'minFirstOrder', 'value', 'investAmount'] as const;
const QUANTITY_FIELDS = ['quantity', 'sellable', 'minAmount'] as const;
const PERCENT_FIELDS = ['takeProfit', 'floor'] as const;
const isNumeric = (value: unknown): value is string | number => typeof value === 'string' || typeof value === 'number';

/**
 * The figures a refusal or an attention carries (server decimals such as
 * '22022' or '9969.8082138'), in the one number format before they go into
 * a sentence: quote amounts to the cent, base quantities to their digits,
 * percentages with their sign; `required` / `available` in the asset they
 * are about (quote unless `asset` names a coin).
 */
export const figuresOf = (data: Record<string, unknown>, locale: string): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...data };
  const inQuote = data.asset === undefined || data.asset === null || data.asset === 'USDT';
  for (const key of QUOTE_FIELDS) if (isNumeric(data[key])) out[key] = formatMoney(data[key], locale);
  for (const key of QUANTITY_FIELDS) if (isNumeric(data[key])) out[key] = formatQuantityShared(data[key], locale);
  for (const key of PERCENT_FIELDS) if (isNumeric(data[key])) out[key] = formatPercent(data[key], locale);
  for (const key of ['required', 'available'] as const)
    if (isNumeric(data[key])) out[key] = inQuote ? formatMoney(data[key], locale) : formatQuantityShared(data[key], locale);
  return out;
};

/**
 * The text of a refused call: the catalogue text the error already carries, or,
 * when the server says why in `data.reason`, that explanation (it says what to
 * do), its figures in the page's number format.
 */
export const refusalText = (error: unknown, translate: Translate, locale: string) => {
  if (isApiError(error) && typeof error.data === 'object' && error.data !== null) {
    const data = error.data as Record<string, unknown>;
    const reason = typeof data.reason === 'string' ? data.reason : null;
    if (reason) {
      // A ladder whose sale (not a buy) is below the exchange's minimum has its own explanation.
      // A position too small to sell now (closing it) has no first order to raise.
      const key =
        reason === 'below_min_order' && (data.minFirstOrder === undefined || data.minFirstOrder === null)
          ? 'below_min_order_position'
          : reason === 'below_min_order' && data.side === 'sell'
            ? 'below_min_order_sell'
            : reason;
      const explained = translate(`tasks.refusal.${key}`, { ...figuresOf(data, locale), _: '' });
      if (explained) return explained;
    }
  }
  return error instanceof Error ? error.message : translate('error.fallback');
};

/** The wizard fields a refusal is about, where the page shows it. */
export type WizardField = 'selectedApi' | 'selectedPairs' | 'firstOrderAmount' | 'selectedTemplate';

/**
 * Which field of the wizard a refusal is about, from its code and the reason
 * the server sent: the first order for a ladder below the exchange minimum or
 * a cycle the balance does not cover, the template for its exits, the pairs
 * for a coin without prices or with its tasks full, the account for one that
 * needs activation or is missing. Null: about nothing the form can change.
 */
export const refusalField = (error: unknown): WizardField | null => {
  if (!isApiError(error)) return null;
  const data = typeof error.data === 'object' && error.data !== null ? (error.data as Record<string, unknown>) : {};
  switch (data.reason) {
    case 'below_min_order':
    case 'insufficient_funds':
    case 'invest_too_small':
      return 'firstOrderAmount';
    case 'take_profit_floor':
    case 'stop_loss_deeper':
      return 'selectedTemplate';
    case 'no_price':
      return 'selectedPairs';
    case 'real_exchange':
      return 'selectedApi';
    default:
      break;
  }
  if (error.code === ErrorCode.INSUFFICIENT_BALANCE) return 'firstOrderAmount';
  if (error.code === ErrorCode.TASK_PER_COIN_LIMIT) return 'selectedPairs';
  if (error.code === ErrorCode.USER_NOT_ACTIVATED || error.code === ErrorCode.API_KEY_NOT_BOUND) return 'selectedApi';
  return null;
};
