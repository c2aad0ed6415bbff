import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Asset } from '../../../src/api/wallet';
import { DEMO_EMAIL } from '../../../src/api/demo';
import type { Db } from '../db/database';
import { once, post, system, user } from '../wallet/ledger';
import { hashPassword, verifyPassword } from '../shared/passwords';

export { DEMO_EMAIL };
export const DEMO_PASSWORD = 'Demo-Trader-2026';

/**
 * Whether this start creates the demo account, and why not: only on the
 * embedded database (a laptop trying the product), never in production, never
 * on PostgreSQL (a shared deployment), and not when DEMO_ACCOUNT=false. Its
 * password is public, so it could never keep real users' money safe.
 */
export type DemoDecision = { create: true } | { create: false; reason: 'production' | 'postgres' | 'disabled' };

export const demoAccountDecision = (config: { demoAccount: boolean; databaseUrl: string | undefined }, nodeEnv: string | undefined): DemoDecision => {
  if (nodeEnv === 'production') return { create: false, reason: 'production' };
  if (config.databaseUrl) return { create: false, reason: 'postgres' };
  if (!config.demoAccount) return { create: false, reason: 'disabled' };
  return { create: true };
};

/** The start log's line about the demo account: which path was taken. */
export const demoAccountLine = (decision: DemoDecision, created: { email: string; password: string } | null): string => {
  if (decision.create) {
    return created
      ? `  Demo account: ${created.email} / ${created.password} (embedded database only; it cannot move money out)`
      : '  Demo account: its password was changed (embedded database only; it cannot move money out)';
  }
  if (decision.reason === 'production') return '  No demo account: NODE_ENV=production';
  if (decision.reason === 'postgres') return '  No demo account: PostgreSQL (DATABASE_URL) never gets one, only the embedded database';
  return '  No demo account: DEMO_ACCOUNT=false';
};

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
      memo: { reason: 'demo_account' },
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
  if (!(await verifyPassword(DEMO_PASSWORD, existing.password_hash))) {
    // Changed before the demo was locked (or by hand): the published password is restored, and whoever changed it is logged out.
    const passwordHash = await hashPassword(DEMO_PASSWORD, scryptCost);
    await db.transaction().execute(async (trx) => {
      const row = await trx.updateTable('users').set({ password_hash: passwordHash, password_changed_at: new Date() }).where('email', '=', DEMO_EMAIL).returning('id').executeTakeFirstOrThrow();
      await trx.updateTable('sessions').set({ revoked_at: sql`now()` }).where('user_id', '=', row.id).where('revoked_at', 'is', null).execute();
      await trx.updateTable('refresh_tokens').set({ revoked_at: sql`now()` }).where('user_id', '=', row.id).where('revoked_at', 'is', null).execute();
    });
  }
  return { email: DEMO_EMAIL, password: DEMO_PASSWORD };
};

/**
 * The demo account of `npm start`: created on first start, already activated
 * and with wallet funds; its published password restored on every start.
 * Returns its credentials.
 */
export const ensureDemoAccount = async (db: Db, scryptCost: number) => {
  const result = await ensureDemoUser(db, scryptCost);
  await fundDemoAccount(db);
  return result;
};
