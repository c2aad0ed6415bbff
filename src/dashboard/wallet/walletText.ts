import Big from 'big.js';
import type { TranslateFunction as Translate } from 'react-admin';
import type { Asset, DepositStatus, LedgerKind, SwapRate, WalletRefusalReason, WithdrawalStatus } from '../../api/wallet';
import { isApiError } from '../../dataProvider/ApiError';
import { formatAsset, formatQuantity } from '../../api/format';
import { trendColor } from '../kit/trend';

/** Most decimal places an amount of each asset may have when typed (activation cards are whole). */
export const ASSET_PLACES: Record<Asset, number> = { USDT: 8, CARD: 0, POINTS: 8, FUEL: 8 };

/** The records page of each asset that has one. */
export const RECORDS_PATH: Partial<Record<Asset, string>> = {
  USDT: '/profile/wallet/usdt-records',
  CARD: '/profile/wallet/card-records',
  POINTS: '/profile/wallet/points-records',
};

/** The ledger kinds that can appear on each asset's records page (the kind filter offers these). */
export const KINDS_BY_ASSET: Record<Asset, readonly LedgerKind[]> = {
  USDT: ['recharge', 'withdraw_hold', 'withdraw_reject', 'transfer_out', 'transfer_in', 'swap_out', 'swap_in', 'activation', 'invite_reward', 'adjustment'],
  CARD: ['swap_in', 'swap_out', 'activation', 'invite_reward', 'adjustment'],
  POINTS: ['points_out', 'points_in', 'swap_out', 'swap_in', 'invite_reward', 'adjustment'],
  FUEL: ['swap_in', 'fuel_charge', 'adjustment'],
};

export const assetName = (asset: Asset, translate: Translate) => translate(`wallet.assets.${asset}`);

const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * An amount as the decimal string to send, trimmed, with a leading "." completed ("0.5"), or
 * the message key (and values) telling what is wrong: required, not a number, not positive,
 * too many decimals, below the minimum.
 */
export const checkAmount = (
  text: string,
  { places, min }: { places: number; min?: string | undefined },
): { amount: string; error: null } | { amount: null; error: [string, Record<string, unknown>?] } => {
  const value = text.trim().replace(/^\./, '0.');
  if (value === '') return { amount: null, error: ['ra.validation.required'] };
  if (!DECIMAL.test(value)) return { amount: null, error: ['wallet.validation.number'] };
  const number = new Big(value);
  if (number.lte(0)) return { amount: null, error: ['wallet.validation.positive'] };
  const decimals = value.includes('.') ? value.split('.')[1]!.replace(/0+$/, '').length : 0;
  if (decimals > places) {
    return { amount: null, error: places === 0 ? ['wallet.validation.whole'] : ['wallet.validation.places', { places }] };
  }
  if (min !== undefined && number.lt(min)) return { amount: null, error: ['wallet.validation.min', { min }] };
  // Sent as typed (less trailing zeros): the server reads decimal strings.
  return { amount: number.toFixed(), error: null };
};

/** A chain transaction id: 64 hex characters, optionally 0x-prefixed (what the server accepts). */
export const TX_HASH = /^(0x)?[0-9a-fA-F]{64}$/;

/** The shape of an address on the given network (TRC20: base58, 34 characters from "T"); the server checks the checksum. */
export const looksLikeAddress = (address: string, network: string | undefined) =>
  network?.toUpperCase() === 'TRC20' ? /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address) : address.length > 0;

/** What a conversion gives: `amount` of `from` times the rate, rounded down to the places of `to`. */
export const swapPreview = (amount: string, rate: SwapRate): { receive: string; whole: boolean } => {
  const exact = new Big(amount).times(rate.rate);
  const places = ASSET_PLACES[rate.to];
  const receive = exact.round(places, Big.roundDown);
  return { receive: receive.toFixed(), whole: receive.eq(exact) };
};

/**
 * The smallest spend of `from` that gives one whole unit of `to` when `to` is counted in whole
 * units (1 / rate), or null when any amount works.
 */
export const swapStep = (rate: SwapRate): string | null => {
  if (ASSET_PLACES[rate.to] > 0 || new Big(rate.rate).lte(0)) return null;
  return new Big(1).div(rate.rate).toFixed();
};

/** The hold of a withdrawal: the amount plus the fee. */
export const withdrawHold = (amount: string, fee: string) => new Big(amount).plus(fee).toFixed();

/** "All" of a withdrawal: what is available once the fee is set aside, to the asset's places (rounded down); null when nothing is left. */
export const withdrawAllAmount = (available: string, fee: string, places: number = ASSET_PLACES.USDT): string | null => {
  const left = new Big(available).minus(fee).round(places, Big.roundDown);
  return left.gt(0) ? left.toFixed() : null;
};

/** Whether `need` is more than `available` (decimal strings). */
export const exceeds = (need: string, available: string) => new Big(need).gt(available);

/**
 * A wallet amount in the asset's own decimals (src/api/format.ts formatAsset,
 * as the widgets show it); `plain` (rates, steps): the digits it has, no padding.
 */
export const formatAmount = (value: string | null | undefined, asset: Asset | null, locale: string, { signed = false, plain = false } = {}) => {
  if (asset === null || plain) return formatQuantity(value, locale, { signed });
  return formatAsset(value, asset, locale, { signed });
};

/** Money in or out: up or down by the user's 红涨绿跌 / 绿涨红跌 setting. */
export const amountColor = trendColor;

export const isPositive = (value: string | null | undefined) => value !== null && value !== undefined && value !== '' && new Big(value).gt(0);

export const formatDateTime = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false }).format(new Date(iso));

export const STATUS_COLOR: Record<DepositStatus | WithdrawalStatus, 'warning' | 'success' | 'error'> = {
  pending: 'warning',
  confirmed: 'success',
  approved: 'success',
  rejected: 'error',
};

/** Refusals whose `data.reason` has its own explanation under `wallet.refusal.*` (it says what to do). */
const EXPLAINED_REASONS = { demo_account: true, own_address: true, not_whitelisted: true, address_waiting: true } as const satisfies Record<WalletRefusalReason, true>;

/** The display text of a failed call, in the current language: the reason's explanation when the server gives one we know. */
export const errorMessage = (error: unknown, translate: Translate, locale = 'zh-CN') => {
  if (isApiError(error)) {
    const data = typeof error.data === 'object' && error.data !== null ? (error.data as { reason?: unknown; usableAt?: unknown }) : {};
    const reason = data.reason;
    // A new address says the exact time it becomes usable, in the reader's zone.
    const usableAt = typeof data.usableAt === 'string' && !Number.isNaN(Date.parse(data.usableAt)) ? formatDateTime(data.usableAt, locale) : '';
    if (typeof reason === 'string' && Object.hasOwn(EXPLAINED_REASONS, reason)) return translate(`wallet.refusal.${reason}`, { usableAt });
    return error.localizedMessage();
  }
  return error instanceof Error && error.message ? error.message : translate('error.fallback');
};
