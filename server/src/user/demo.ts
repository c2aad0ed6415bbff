import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Asset } from '../../../src/api/wallet';
import type { Db } from '../db/database';
import { once, post, system, user } from '../wallet/ledger';
import { hashPassword, verifyPassword } from './passwords';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'Demo-Trader-2026';

/** What the demo wallet starts with, so every page has something to show. */
export const DEMO_FUNDS: Partial<Record<Asset, string>> = { USDT: '1000', CARD: '2', FUEL: '100' };

/** Credits the demo funds once (an adjustment from the system's adjustments account), whatever the restarts. */
const fundDemoAccount = async (db: Db) => {
  const demo = await db.selectFrom('users').select('id').where('email', '=', DEMO_EMAIL).executeTakeFirst();
  if (!demo) return;
  await once(db, { userId: demo.id, key: 'demo-account-funds', call: 'demo', request: DEMO_FUNDS }, async (trx) => {
    await post(trx, {
      kind: 'adjustment',
      userId: null,
      moves: Object.entries(DEMO_FUNDS).map(([asset, amount]) => ({ from: system('adjustments', asset as Asset), to: user(demo.id, asset as Asset), amount })),
      memo: { reason: 'demo account' },
    });
    return null;
  });
};

const ensureDemoUser = async (db: Db, scryptCost: number) => {
  const existing = await db.selectFrom('users').select('password_hash').where('email', '=', DEMO_EMAIL).executeTakeFirst();
  if (!existing) {
    await db
      .insertInto('users')
      .values({
        email: DEMO_EMAIL,
        nickname: 'Demo',
        password_hash: await hashPassword(DEMO_PASSWORD, scryptCost),
        invite_code: `DEMO${randomBytes(3).toString('hex').toUpperCase()}`,
        inviter_id: null,
        avatar: null,
        activated: true,
        activated_at: sql<Date>`now()`,
      })
      .onConflict((oc) => oc.column('email').doNothing())
      .execute();
    return { email: DEMO_EMAIL, password: DEMO_PASSWORD };
  }
  return (await verifyPassword(DEMO_PASSWORD, existing.password_hash)) ? { email: DEMO_EMAIL, password: DEMO_PASSWORD } : null;
};

/**
 * The demo account of `npm start`: created on first start, already activated
 * and with wallet funds. Returns its credentials while its password is still
 * the documented one.
 */
export const ensureDemoAccount = async (db: Db, scryptCost: number) => {
  const result = await ensureDemoUser(db, scryptCost);
  await fundDemoAccount(db);
  return result;
};
