import Big from 'big.js';
import type { Db } from '../db/database';
import { readSettings } from '../settings';
import { accountKey, post, system, user } from '../wallet/ledger';
import { levelRule } from './levels';

/** Fuel amounts are kept to 8 decimals, rounded down (never more than the rate). */
const FUEL_DECIMALS = 8;

/** The share of realized profit charged in fuel for a level, percent: base rate less the level's discount. */
export const effectiveFuelRate = (baseRatePercent: string, discountPercent: string): string =>
  new Big(baseRatePercent).times(new Big(100).minus(discountPercent)).div(100).toFixed();

/**
 * Charges the fuel of a closed cycle inside the engine's transaction (the one
 * that stores the cycle): rate x profit, at most the user's fuel balance, so
 * the balance never goes negative. Answers the amount charged ("0" when the
 * profit is not positive or there is no fuel).
 */
export const chargeFuel = async (trx: Db, request: { userId: string; taskId: string; cycle: number; profit: string }): Promise<string> => {
  const profit = new Big(request.profit);
  if (profit.lte(0)) return '0';
  const settings = await readSettings(trx);
  const owner = await trx.selectFrom('users').select('level').where('id', '=', request.userId).executeTakeFirst();
  const rule = levelRule(settings.levels, owner?.level ?? 0);
  const rate = effectiveFuelRate(settings.fuelRatePercent, rule?.fuelDiscountPercent ?? '0');
  const due = profit.times(rate).div(100).round(FUEL_DECIMALS, Big.roundDown);
  if (due.lte(0)) return '0';
  // The balance under its row lock: nothing can spend it between this read and the charge.
  const account = await trx
    .selectFrom('ledger_accounts')
    .select('balance')
    .where('key', '=', accountKey(user(request.userId, 'FUEL')))
    .forUpdate()
    .executeTakeFirst();
  const balance = new Big(account?.balance ?? '0');
  const charged = due.gt(balance) ? balance.round(FUEL_DECIMALS, Big.roundDown) : due;
  if (charged.lte(0)) return '0';
  await post(trx, {
    kind: 'fuel_charge',
    userId: request.userId,
    moves: [{ from: user(request.userId, 'FUEL'), to: system('fuel', 'FUEL'), amount: charged.toFixed() }],
    memo: { taskId: request.taskId, cycle: String(request.cycle), profit: profit.toFixed(), ratePercent: rate },
  });
  return charged.toFixed();
};

/** Whether the user has fuel to open a new cycle (a balance above 0). */
export const hasFuel = async (db: Db, userId: string): Promise<boolean> => {
  const row = await db.selectFrom('ledger_accounts').select('balance').where('key', '=', accountKey(user(userId, 'FUEL'))).executeTakeFirst();
  return row !== undefined && new Big(row.balance).gt(0);
};
