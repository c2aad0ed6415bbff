import Big from 'big.js';
import type { TradeTask } from '../../api/trade';
import { decimalsOf, formatMoney, formatPrice as formatPriceShared, formatQuantity as formatQuantityShared } from '../../api/format';
import { trendColor } from './trend';

/**
 * The pages' money and price formats: the shared ones of src/api/format.ts
 * (the widgets use the same), under the names the pages know, for every area.
 */
/** A price: the tick's decimals when known, else six significant digits. */
export const formatPrice = (value: string | null | undefined, locale: string, tick?: string | null) => formatPriceShared(value, locale, { tick });

/** Quote currency (USDT) amounts: to the cent. */
export const formatQuote = (value: string | null | undefined, locale: string) => formatMoney(value, locale);

/**
 * Base currency quantities: the step's decimals when known, else up to eight
 * digits, no padding. A quantity off the step (a fee paid in the coin, a
 * remainder below the step) keeps its digits rather than being rounded to it.
 */
export const formatQuantity = (value: string | null | undefined, locale: string, step?: string | null) =>
  formatQuantityShared(value, locale, { step: step && value && decimalsOf(value) <= decimalsOf(step) ? step : null });

/** A profit with its sign: "+1.23", "-0.50", "0.00". */
export const formatSigned = (value: string | null | undefined, locale: string) => formatMoney(value, locale, { signed: true });

/** A profit's colour: up or down by the user's 红涨绿跌 / 绿涨红跌 setting. */
export const profitColor = trendColor;

export const baseOf = (symbol: string) => symbol.split('/')[0] ?? symbol;
export const quoteOf = (symbol: string) => symbol.split('/')[1] ?? '';

/** Realized plus floating: how a task has done so far. */
export const taskResult = (task: Pick<TradeTask, 'realizedProfit' | 'floatingProfit'>) => new Big(task.realizedProfit).plus(task.floatingProfit);
