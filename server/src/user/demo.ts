import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database';
import { hashPassword, verifyPassword } from './passwords';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'Demo-Trader-2026';

/**
 * The demo account of `npm start`: created on first start, already activated.
 * Returns its credentials while its password is still the documented one.
 */
export const ensureDemoAccount = async (db: Db, scryptCost: number) => {
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
      })
      .onConflict((oc) => oc.column('email').doNothing())
      .execute();
    return { email: DEMO_EMAIL, password: DEMO_PASSWORD };
  }
  return (await verifyPassword(DEMO_PASSWORD, existing.password_hash)) ? { email: DEMO_EMAIL, password: DEMO_PASSWORD } : null;
};
