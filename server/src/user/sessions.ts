import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { ErrorCode } from '../../../src/api/errors';
import type { RefreshResponse } from '../../../src/api/types';
import type { Db } from '../db/database';
import type { AccessTokens } from '../http/auth';
import { fail } from '../http/errors';
import { recordEvents } from '../notify/events';
import { isDemoUser } from '../shared/demoGuard';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const newRefreshToken = () => randomBytes(32).toString('base64url');

/**
 * A sign-in from a device not seen before tells its user (by e-mail, always):
 * "new" is a user agent and address pair that none of the user's sessions
 * (ended ones included) had; the first session of an account tells nothing,
 * nor does the shared demo account (its inbox would show each visitor's
 * address to every other visitor).
 */
const noticeNewDevice = async (trx: Db, userId: string, meta: { userAgent?: string | undefined; ip?: string | undefined }) => {
  const userAgent = meta.userAgent?.slice(0, 300) ?? null;
  const ip = meta.ip ?? null;
  const seen = await trx
    .selectFrom('sessions')
    .select((eb) => [eb.fn.countAll<string>().as('all'), eb.fn.count<string>(sql`case when user_agent is not distinct from ${userAgent} and ip is not distinct from ${ip} then 1 end`).as('same')])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(seen.all) > 0 && Number(seen.same) === 0 && !(await isDemoUser(trx, userId))) {
    await recordEvents(trx, [{ userId, kind: 'user.new_login', taskId: null, payload: { userAgent: userAgent?.slice(0, 120) ?? '', ip: ip ?? '' } }]);
  }
};

export interface SessionOptions {
  refreshTokenTtlDays: number;
  refreshGraceSeconds: number;
}

/**
 * Login sessions. Each session is a family of refresh tokens: opaque random
 * strings stored as SHA-256 hashes, rotated on every refresh. Presenting a
 * token that was already rotated revokes the whole family (reuse detection),
 * except within the grace period after its rotation, when a second tab that
 * refreshed at the same moment gets a sibling token of the same family.
 */
export const createSessions = (db: Db, tokens: AccessTokens, options: SessionOptions) => {
  const expiry = () => sql<Date>`now() + make_interval(days => ${options.refreshTokenTtlDays})`;

  const issuePair = async (trx: Db, user: { id: string; role: 'user' | 'operator' }, sessionId: string, parentId: string | null) => {
    const refreshToken = newRefreshToken();
    await trx
      .insertInto('refresh_tokens')
      .values({ family_id: sessionId, user_id: user.id, token_hash: hashToken(refreshToken), parent_id: parentId, expires_at: expiry() })
      .execute();
    const accessToken = await tokens.issue({ id: user.id, sessionId, role: user.role });
    return { accessToken, refreshToken };
  };

  const revokeFamily = async (trx: Db, sessionId: string): Promise<boolean> => {
    const ended = await trx
      .updateTable('sessions')
      .set({ revoked_at: sql`now()` })
      .where('id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    await trx.updateTable('refresh_tokens').set({ revoked_at: sql`now()` }).where('family_id', '=', sessionId).where('revoked_at', 'is', null).execute();
    return Number(ended.numUpdatedRows) === 1;
  };

  return {
    async start(trx: Db, user: { id: string; role: 'user' | 'operator' }, meta: { userAgent?: string | undefined; ip?: string | undefined }) {
      const sessionId = randomUUID();
      await noticeNewDevice(trx, user.id, meta);
      await trx
        .insertInto('sessions')
        .values({ id: sessionId, user_id: user.id, user_agent: meta.userAgent?.slice(0, 300) ?? null, ip: meta.ip ?? null, last_seen_at: sql<Date>`now()` })
        .execute();
      return issuePair(trx, user, sessionId, null);
    },

    async refresh(refreshToken: string): Promise<RefreshResponse> {
      const outcome = await db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('refresh_tokens')
          .innerJoin('sessions', 'sessions.id', 'refresh_tokens.family_id')
          .innerJoin('users', 'users.id', 'refresh_tokens.user_id')
          .select([
            'refresh_tokens.id',
            'refresh_tokens.family_id',
            'refresh_tokens.user_id',
            'refresh_tokens.rotated_at',
            'refresh_tokens.revoked_at',
            'sessions.revoked_at as session_revoked_at',
            'users.role',
            'users.disabled',
            sql<boolean>`refresh_tokens.expires_at < now()`.as('expired'),
            sql<boolean>`refresh_tokens.rotated_at > now() - make_interval(secs => ${options.refreshGraceSeconds})`.as('in_grace'),
          ])
          .where('refresh_tokens.token_hash', '=', hashToken(refreshToken))
          .forUpdate('refresh_tokens')
          .executeTakeFirst();
        if (!row || row.revoked_at || row.session_revoked_at || row.expired || row.disabled) return { status: 'invalid' as const };
        if (row.rotated_at && !row.in_grace) {
          // Reuse of a rotated token: someone else may hold this family. End it (committed, then refused).
          await revokeFamily(trx, row.family_id);
          return { status: 'reused' as const };
        }
        if (!row.rotated_at) {
          await trx.updateTable('refresh_tokens').set({ rotated_at: sql`now()` }).where('id', '=', row.id).execute();
        }
        await trx.updateTable('sessions').set({ last_seen_at: sql`now()` }).where('id', '=', row.family_id).execute();
        return { status: 'ok' as const, pair: await issuePair(trx, { id: row.user_id, role: row.role }, row.family_id, row.id) };
      });
      if (outcome.status === 'invalid') return fail(ErrorCode.UNAUTHORIZED, 'refresh token is not valid');
      if (outcome.status === 'reused') return fail(ErrorCode.UNAUTHORIZED, 'refresh token reuse detected; the session has been ended');
      return outcome.pair;
    },

    /** Ends one session; false when it was already ended. */
    revoke: (sessionId: string): Promise<boolean> => db.transaction().execute((trx) => revokeFamily(trx, sessionId)),

    async revokeAllOf(trx: Db, userId: string): Promise<void> {
      await trx.updateTable('sessions').set({ revoked_at: sql`now()` }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
      await trx.updateTable('refresh_tokens').set({ revoked_at: sql`now()` }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
    },
  };
};
export type Sessions = ReturnType<typeof createSessions>;

/** Ends every session of the user but `keep` (the caller's own), with their refresh tokens: after a password or e-mail change. */
export const revokeOtherSessions = async (trx: Db, userId: string, keep: string): Promise<void> => {
  await trx.updateTable('sessions').set({ revoked_at: sql`now()` }).where('user_id', '=', userId).where('id', '<>', keep).where('revoked_at', 'is', null).execute();
  await trx.updateTable('refresh_tokens').set({ revoked_at: sql`now()` }).where('user_id', '=', userId).where('family_id', '<>', keep).where('revoked_at', 'is', null).execute();
};
