/**
 * Decimal helpers for the paper exchange. Money and prices are decimal strings
 * on the outside and big.js inside (design section 3); nothing here touches a
 * JavaScript float.
 */
import Big from 'big.js';
import type { DecimalString } from '../../../../src/api/types';

/** Plain decimal notation only: no sign, no exponent, no spaces ("12", "0.005"). */
const DECIMAL = /^(0|[1-9]\d*)(\.\d+)?$/;

export const isDecimalString = (value: unknown): value is DecimalString => typeof value === 'string' && DECIMAL.test(value);

/** Number of fraction digits of a step or tick size: '0.01' -> 2, '1' -> 0, '0.5' -> 1. */
export const decimalsOf = (step: DecimalString): number => {
  const plain = new Big(step).toFixed();
  const dot = plain.indexOf('.');
  return dot < 0 ? 0 : plain.length - dot - 1;
};

const toStep = (value: Big, step: DecimalString, mode: Big.RoundingMode): Big => {
  const size = new Big(step);
  return value.div(size).round(0, mode).times(size);
};

/** Largest multiple of `step` not above `value` (amounts are rounded down, as exchanges do). */
export const floorToStep = (value: Big, step: DecimalString): Big => toStep(value, step, Big.roundDown);

/** Smallest multiple of `step` not below `value`. */
export const ceilToStep = (value: Big, step: DecimalString): Big => toStep(value, step, Big.roundUp);

/** True when `value` is an exact multiple of `step`. */
export const isOnStep = (value: DecimalString, step: DecimalString): boolean => new Big(value).mod(step).eq(0);

/** Plain notation with no exponent and no trailing zeros: the canonical form of a balance or a cost. */
export const plain = (value: Big): DecimalString => value.toFixed();

/** Fixed fraction digits for a value that lives on a grid (prices at their tick, amounts at their step). */
export const atStep = (value: Big, step: DecimalString): DecimalString => value.toFixed(decimalsOf(step));
