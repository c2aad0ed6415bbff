/** The guard of the shared demo account: what nobody may do to it (the account itself is seeded by demo/). */
import { DEMO_EMAIL } from '../../../src/api/demo';
import { ErrorCode } from '../../../src/api/errors';
import type { Db } from '../db/database';
import { fail } from '../http/errors';

/** Whether the user is the shared demo account. */
export const isDemoUser = async (db: Db, userId: string): Promise<boolean> =>
  (await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst())?.email === DEMO_EMAIL;

/**
 * The demo account is shared by every visitor: nobody may take it over or
 * change it for the others (its password, its e-mail, its profile, its
 * sessions and widget grants). Answered 11005 with `data.reason: 'demo_account'`,
 * as its wallet's refusals are.
 */
export const refuseDemo = (what: string): never => fail(ErrorCode.UNAUTHORIZED, `the shared demo account cannot ${what}`, { reason: 'demo_account' });

export const refuseDemoUser = async (db: Db, userId: string, what: string) => {
  if (await isDemoUser(db, userId)) refuseDemo(what);
};
