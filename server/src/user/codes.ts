import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import { ErrorCode } from '../../../src/api/errors';
import type { VerifyCodeType } from '../../../src/api/types';
import type { Db } from '../db/database';
import { fail } from '../http/errors';

export const CODE_TTL_MINUTES = 10;
export const CODE_MAX_ATTEMPTS = 5;

/**
 * Email verification codes: 6 digits from a CSPRNG, stored as an HMAC (the
 * server secret as key), valid 10 minutes, single use, dead after 5 wrong
 * tries. A new code replaces the previous ones for the same email and purpose.
 * A code may be bound to a scope (the signed-in user who asked for an e-mail
 * change): it is then good only with that scope.
 */
export const createVerificationCodes = (db: Db, secret: string) => {
  const digest = (email: string, purpose: VerifyCodeType, code: string, scope?: string) =>
    createHmac('sha256', secret).update(scope === undefined ? `${purpose}:${email}:${code}` : `${purpose}:${scope}:${email}:${code}`).digest('hex');

  /** Retires every open code of an address and purpose. */
  const retireOpen = (executor: Db, email: string, purpose: VerifyCodeType) =>
    executor
      .updateTable('verification_codes')
      .set({ consumed_at: sql`now()` })
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .execute();

  return {
    async issue(email: string, purpose: VerifyCodeType, scope?: string): Promise<string> {
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await db.transaction().execute(async (trx) => {
        await retireOpen(trx, email, purpose);
        await trx
          .insertInto('verification_codes')
          .values({
            email,
            purpose,
            code_hash: digest(email, purpose, code, scope),
            expires_at: sql<Date>`now() + make_interval(mins => ${CODE_TTL_MINUTES})`,
          })
          .execute();
      });
      return code;
    },

    /** Retires every open code of an address and purpose (one that could not be delivered). */
    async discard(email: string, purpose: VerifyCodeType): Promise<void> {
      await retireOpen(db, email, purpose);
    },

    /**
     * Checks and consumes a code in a transaction of its own, so a wrong try
     * is counted even though the request is refused; then refuses with 10100
     * (none, expired, used up) or 10101 (wrong, or asked for by another scope).
     */
    async consume(email: string, purpose: VerifyCodeType, code: string, scope?: string): Promise<void> {
      const outcome = await db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('verification_codes')
          .select(['id', 'code_hash', 'attempts', sql<boolean>`expires_at < now()`.as('expired')])
          .where('email', '=', email)
          .where('purpose', '=', purpose)
          .where('consumed_at', 'is', null)
          .orderBy('created_at', 'desc')
          .limit(1)
          .forUpdate()
          .executeTakeFirst();
        if (!row || row.expired || row.attempts >= CODE_MAX_ATTEMPTS) return { status: 'expired' as const };
        const matches = timingSafeEqual(Buffer.from(row.code_hash, 'hex'), Buffer.from(digest(email, purpose, code, scope), 'hex'));
        if (!matches) {
          await trx.updateTable('verification_codes').set({ attempts: sql`attempts + 1` }).where('id', '=', row.id).execute();
          return { status: 'wrong' as const, attemptsLeft: Math.max(0, CODE_MAX_ATTEMPTS - row.attempts - 1) };
        }
        await trx.updateTable('verification_codes').set({ consumed_at: sql`now()` }).where('id', '=', row.id).execute();
        return { status: 'ok' as const };
      });
      if (outcome.status === 'expired') fail(ErrorCode.CAPTCHA_EXPIRED, 'verification code does not exist or has expired');
      if (outcome.status === 'wrong') fail(ErrorCode.CAPTCHA_ERROR, 'wrong verification code', { attemptsLeft: outcome.attemptsLeft });
    },
  };
};
export type VerificationCodes = ReturnType<typeof createVerificationCodes>;
