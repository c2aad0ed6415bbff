/**
 * The one number format of the dashboard and the widgets (display only).
 *
 * Values are decimal strings as the API sends them (numbers are accepted for
 * counts). They are formatted from the string itself: Intl.NumberFormat takes
 * a decimal string and rounds it exactly (ECMA-402 "Intl.NumberFormat v3",
 * Node 20 and Chromium 106+), so no digit of money is lost to a float, however
 * long the number. Digits, grouping and signs follow the locale.
 *
 * | what                 | function         | decimals                                              | example (en-US)  |
 * |----------------------|------------------|-------------------------------------------------------|------------------|
 * | price                | formatPrice      | the market's tick; else 6 significant digits, 2 to 10  | 58,480.12        |
 * | base quantity        | formatQuantity   | the market's step; else up to 8 (fewer for big ones)   | 12,345,679       |
 * | money (USDT, profit) | formatMoney      | 2 (or `decimals`)                                      | +1.50            |
 * | wallet asset         | formatAsset      | the asset's own: USDT/FUEL 2-8, CARD 0, POINTS 0-8      | 1,000            |
 * | percentage           | formatPercent    | up to 2, or `decimals`; no space before %              | +1.5%            |
 * | count                | formatCount      | whole                                                  | 1,234            |
 *
 * `signed: true` writes '+' before a positive figure (never before a zero,
 * whatever the rounding makes of it); a negative that rounds to zero shows as
 * zero. An empty value shows '—'; a value that is not a number shows as is.
 * `trend()` tells whether a figure is up, down or flat, for its colour
 * (src/api/colors.ts: red-up or green-up, the user's setting).
 */
import Big from 'big.js';
import type { Asset } from './wallet';

export type NumberValue = string | number | null | undefined;

/** A plain decimal: sign, digits, optional fraction, optional exponent. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

const EMPTY = '—';

const cache = new Map<string, Intl.NumberFormat>();
const numberFormat = (locale: string, min: number, max: number, signed: boolean) => {
  const key = `${locale}|${min}|${max}|${signed ? 1 : 0}`;
  let format = cache.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      minimumFractionDigits: min,
      maximumFractionDigits: Math.max(min, max),
      // 'negative' never shows '-0' (a loss that rounds to nothing is zero).
      signDisplay: signed ? 'exceptZero' : 'negative',
    });
    cache.set(key, format);
  }
  return format;
};

/** The value as a decimal string, or null when it is not a finite number. */
const decimal = (value: string | number): string | null => {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  const text = value.trim();
  if (!DECIMAL.test(text)) return null;
  return text.startsWith('+') ? text.slice(1) : text;
};

const format = (value: NumberValue, locale: string, min: number, max: number | ((exact: string) => number), signed = false): string => {
  if (value === null || value === undefined || value === '') return EMPTY;
  const exact = decimal(value);
  if (exact === null) return String(value);
  const places = typeof max === 'number' ? max : max(exact);
  // Intl.NumberFormat.format takes the decimal string and keeps every digit; TypeScript's lib types say number only.
  return (numberFormat(locale, min, places, signed).format as (v: string) => string)(exact);
};

/** Decimals of a tick or step such as '0.01' or '1e-8' (0 for '1', '10'). */
export const decimalsOf = (increment: string | number): number => {
  const exact = decimal(increment);
  if (exact === null) return 0;
  const big = new Big(exact);
  if (big.eq(0)) return 0;
  const fixed = big.abs().toFixed();
  const dot = fixed.indexOf('.');
  return dot < 0 ? 0 : fixed.length - dot - 1;
};

/** Position of the first significant digit: 1 for 1-9.99, 5 for 58480, -4 for 0.00001234. */
const magnitude = (exact: string): number => {
  const big = new Big(exact).abs();
  if (big.eq(0)) return 1;
  return big.e + 1;
};

const PRICE_DIGITS = 6;
const PRICE_MAX_DECIMALS = 10;

export interface PriceOptions {
  /** The market's price tick ('0.01'): the price shows exactly its decimals. */
  tick?: string | null | undefined;
  signed?: boolean;
}

/**
 * A price. With the market's tick: that many decimals, always. Without: six
 * significant digits, at least 2 and at most 10 decimals, so 58,480.12, 1.23456
 * and 0.0000123456 (SHIB) all read right.
 */
export const formatPrice = (value: NumberValue, locale: string, { tick, signed = false }: PriceOptions = {}): string => {
  if (tick) {
    const places = decimalsOf(tick);
    return format(value, locale, places, places, signed);
  }
  return format(value, locale, 2, (exact) => Math.min(PRICE_MAX_DECIMALS, Math.max(2, PRICE_DIGITS - magnitude(exact))), signed);
};

const QUANTITY_DIGITS = 8;

export interface QuantityOptions {
  /** The market's amount step ('0.0001', '1'): the quantity shows exactly its decimals. */
  step?: string | null | undefined;
  signed?: boolean;
}

/**
 * A quantity of a base coin. With the market's step: that many decimals,
 * always. Without: no padding, and at most 8 decimals, fewer the bigger it is
 * (eight digits in all), so 0.00012345 BTC keeps its digits and 12,345,678 SHIB
 * stays short.
 */
export const formatQuantity = (value: NumberValue, locale: string, { step, signed = false }: QuantityOptions = {}): string => {
  if (step) {
    const places = decimalsOf(step);
    return format(value, locale, places, places, signed);
  }
  return format(value, locale, 0, (exact) => Math.max(0, Math.min(QUANTITY_DIGITS, QUANTITY_DIGITS - magnitude(exact))), signed);
};

export interface MoneyOptions {
  /** '+' before a positive amount (profits). */
  signed?: boolean;
  /** Decimals shown (default 2, cents). */
  decimals?: number;
}

/** Money in the quote currency (USDT): two decimals, always ('0.00', '1,234.50', '+0.12'). */
export const formatMoney = (value: NumberValue, locale: string, { signed = false, decimals = 2 }: MoneyOptions = {}): string =>
  format(value, locale, decimals, decimals, signed);

/** Decimals each wallet asset shows: at least `min` (padding), at most `max` (the ledger's own). */
export const ASSET_DECIMALS: Record<Asset, { min: number; max: number }> = {
  USDT: { min: 2, max: 8 },
  FUEL: { min: 2, max: 8 },
  CARD: { min: 0, max: 0 },
  POINTS: { min: 0, max: 8 },
};

/**
 * A wallet amount in the asset's own decimals: USDT and fuel to the cent and
 * every digit the ledger holds ('10,000.00', '0.12345678'), cards whole,
 * points whole unless they have a fraction ('1,000', '12.5').
 */
export const formatAsset = (value: NumberValue, asset: Asset, locale: string, { signed = false }: { signed?: boolean } = {}): string => {
  const { min, max } = ASSET_DECIMALS[asset];
  return format(value, locale, min, max, signed);
};

export interface PercentOptions {
  /** '+' before a positive percentage (changes, returns). */
  signed?: boolean;
  /** Fixed decimals; default: up to 2, no padding ('10%', '1.5%', '+2.35%'). */
  decimals?: number;
}

/** A percentage given in percent ('1.5' = 1.5 %), with no space before the sign: '1.5%', '+10%', '-0.22%'. */
export const formatPercent = (value: NumberValue, locale: string, { signed = false, decimals }: PercentOptions = {}): string => {
  const text = format(value, locale, decimals ?? 0, decimals ?? 2, signed);
  return text === EMPTY || decimal(String(value ?? '')) === null ? text : `${text}%`;
};

/** A whole count ('1,234'). */
export const formatCount = (value: NumberValue, locale: string): string => format(value, locale, 0, 0);

export type Trend = 'up' | 'down' | 'flat';

/** Up, down or flat (zero, empty or not a number): what colours a figure. */
export const trend = (value: NumberValue): Trend => {
  if (value === null || value === undefined || value === '') return 'flat';
  const exact = decimal(value);
  if (exact === null) return 'flat';
  const big = new Big(exact);
  return big.gt(0) ? 'up' : big.lt(0) ? 'down' : 'flat';
};
