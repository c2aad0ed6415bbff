import Big from 'big.js';
import type { Db } from '../db/database';
import { FUEL_LOW_THRESHOLD } from '../../../src/api/notify';
import { recordEvents, type NotifyEvent } from '../notify/events';
import { readSettings } from '../settings';
import { accountKey, postBatch, system, user, type PostRequest } from '../wallet/ledger';
import { levelRule } from './levels';

/** Fuel amounts are kept to 8 decimals, rounded down (never more than the rate). */
const FUEL_DECIMALS = 8;

/** The share of realized profit charged in fuel for a level, percent: base rate less the level's discount. */
export const effectiveFuelRate = (baseRatePercent: string, discountPercent: string): string =>
  new Big(baseRatePercent).times(new Big(100).minus(discountPercent)).div(100).toFixed();

/** What one closed cycle owes in fuel. */
export interface FuelDue {
  userId: string;
  taskId: string;
  cycle: number;
  profit: string;
}

/**
 * Charges the fuel of closed cycles inside the engine's transaction (the one
 * that stores them): rate x profit (the base rate less the user's level
 * discount), at most what is left of the user's fuel, so the balance never
 * goes negative; nothing for a cycle without profit. One ledger transaction
 * per charged cycle, all posted together (ledger.ts postBatch). Answers the
 * amount charged per cycle, in order ("0" when none). A balance the charges
 * take to FUEL_LOW_THRESHOLD or below is told (`member.fuel_low`) in the same
 * transaction.
 */
export const chargeFuelBatch = async (trx: Db, dues: FuelDue[]): Promise<string[]> => {
  const charged = dues.map(() => '0');
  const profitable = dues.map((due, i) => ({ ...due, i })).filter((due) => new Big(due.profit).gt(0));
  if (profitable.length === 0) return charged;
  const settings = await readSettings(trx);
  const userIds = [...new Set(profitable.map((due) => due.userId))];
  const levels = new Map((await trx.selectFrom('users').select(['id', 'level']).where('id', 'in', userIds).execute()).map((row) => [row.id, row.level]));
  const keys = userIds.map((id) => accountKey(user(id, 'FUEL')));
  // The balances under their row locks: nothing can spend them between this read and the charges.
  const rows = await trx.selectFrom('ledger_accounts').select(['key', 'balance']).where('key', 'in', keys).orderBy('key').forUpdate().execute();
  const left = new Map(rows.map((row) => [row.key, new Big(row.balance)]));
  const posts: PostRequest[] = [];
  for (const due of profitable) {
    const rule = levelRule(settings.levels, levels.get(due.userId) ?? 0);
    const rate = effectiveFuelRate(settings.fuelRatePercent, rule?.fuelDiscountPercent ?? '0');
    const owed = new Big(due.profit).times(rate).div(100).round(FUEL_DECIMALS, Big.roundDown);
    const key = accountKey(user(due.userId, 'FUEL'));
    const balance = left.get(key) ?? new Big(0);
    const amount = owed.gt(balance) ? balance.round(FUEL_DECIMALS, Big.roundDown) : owed;
    if (amount.lte(0)) continue;
    left.set(key, balance.minus(amount));
    charged[due.i] = amount.toFixed();
    posts.push({
      kind: 'fuel_charge',
      userId: due.userId,
      moves: [{ from: user(due.userId, 'FUEL'), to: system('fuel', 'FUEL'), amount: amount.toFixed() }],
      memo: { taskId: due.taskId, cycle: String(due.cycle), profit: new Big(due.profit).toFixed(), ratePercent: rate },
    });
  }
  await postBatch(trx, posts);
  // Told once per crossing: only the charge that takes a balance from above the threshold to it or below.
  const low: NotifyEvent[] = [];
  for (const row of rows) {
    const after = left.get(row.key)!;
    if (new Big(row.balance).gt(FUEL_LOW_THRESHOLD) && after.lte(FUEL_LOW_THRESHOLD)) {
      const userId = profitable.find((due) => accountKey(user(due.userId, 'FUEL')) === row.key)!.userId;
      low.push({ userId, kind: 'member.fuel_low', taskId: null, payload: { balance: after.toFixed(), asset: 'FUEL', threshold: FUEL_LOW_THRESHOLD } });
    }
  }
  await recordEvents(trx, low);
  return charged;
};
