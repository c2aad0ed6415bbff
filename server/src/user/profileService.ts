import { sql } from 'kysely';
import { ErrorCode } from '../../../src/api/errors';
import type { UserSession } from '../../../src/api/member';
import type { User } from '../../../src/api/types';
import type { Db } from '../db/database';
import { fail } from '../http/errors';
import { recordEvents } from '../notify/events';
import { isDemoUser, refuseDemoUser } from '../shared/demoGuard';
import { hashPassword, verifyPassword } from '../shared/passwords';
import type { ChangePasswordBody, ProfileEditBody } from './schemas';
import { USER_COLUMNS, checkNewPassword, checkNickname, toUser } from './service';
import type { Limit, Throttle } from '../shared/throttle';
import { revokeOtherSessions } from './sessions';

/** The signed-in user's own account (README "Membership, fuel, invites, profit", Security): profile edit, password change and login sessions. */

export interface ProfileDeps {
  db: Db;
  throttle: Throttle;
  scryptCost: number;
}

/** Largest avatar, decoded. */
export const AVATAR_MAX_BYTES = 48 * 1024;
/** Wrong old passwords: 5 in 15 minutes per user, then 10009. */
const OLD_PASSWORD_LIMITS: Limit[] = [{ max: 5, windowSeconds: 900 }];
/** How long a check waits for checks in flight when those fill the limit (a right one gives its slot back). */
const OLD_PASSWORD_WAIT_MS = 5000;

const AVATAR = /^data:(image\/(?:png|jpeg|webp));base64,([A-Za-z0-9+/]*={0,2})$/;

/** The image's own first bytes must say what its data URL says. */
const MAGIC: Record<string, (bytes: Buffer) => boolean> = {
  'image/png': (b) => b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/webp': (b) => b.length > 12 && b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

/** A valid avatar data URL as given, or a refusal: 10003 not a PNG/JPEG/WebP data URL, 10005 over 48 KB. */
export const checkAvatar = (avatar: string): string => {
  const match = AVATAR.exec(avatar);
  if (!match || match[2]!.length % 4 !== 0) {
    return fail(ErrorCode.PARAM_FORMAT, 'the avatar must be a PNG, JPEG or WebP image as a base64 data URL', { field: 'avatar' });
  }
  const bytes = Buffer.from(match[2]!, 'base64');
  if (bytes.length > AVATAR_MAX_BYTES) fail(ErrorCode.PARAM_SIZE, `the avatar must be at most ${AVATAR_MAX_BYTES / 1024} KB`, { field: 'avatar', max: AVATAR_MAX_BYTES });
  if (!MAGIC[match[1]!]!(bytes)) fail(ErrorCode.PARAM_FORMAT, 'the avatar is not the image its type says', { field: 'avatar' });
  return avatar;
};

/** The caller: the user and the session the request belongs to. */
export interface Me {
  id: string;
  sessionId: string;
}

/**
 * Checks the signed-in user's current password before a change of their
 * account (password, e-mail): 11002 naming `field` when wrong. Wrong ones are
 * counted per user across those calls (5 in 15 minutes, then 10009); a right
 * one gives its slot back. Returns the user's e-mail and hash.
 */
export const confirmCurrentPassword = async (deps: Pick<ProfileDeps, 'db' | 'throttle'>, userId: string, password: string, field: string) => {
  const key = `change-password:user:${userId}`;
  // Reserved before the password is checked; a right one gives its slot back.
  const attempt = await deps.throttle.take([{ key, limits: OLD_PASSWORD_LIMITS }], { waitMs: OLD_PASSWORD_WAIT_MS });
  let user;
  let right = false;
  try {
    user = await deps.db.selectFrom('users').select(['email', 'password_hash']).where('id', '=', userId).executeTakeFirst();
    right = !!user && (await verifyPassword(password, user.password_hash));
  } catch (error) {
    await attempt.release();
    throw error;
  }
  if (!user) {
    await attempt.release();
    return fail(ErrorCode.USER_NOT_EXIST, 'user does not exist');
  }
  if (!right) {
    await attempt.settle();
    fail(ErrorCode.PASSWORD_ERROR, 'the current password is incorrect', { field });
  }
  await attempt.release();
  return user;
};

export const createProfile = (deps: ProfileDeps) => {
  const { db } = deps;

  return {
    /** New nickname; the avatar replaced, removed (null) or, when absent, kept. */
    async edit(userId: string, body: ProfileEditBody): Promise<User> {
      // Every visitor of the shared demo sees its nickname and avatar: nobody changes them for the others.
      await refuseDemoUser(db, userId, 'change its profile');
      const nickname = checkNickname(body.nickname);
      const changes: { nickname: string; avatar?: string | null } = { nickname };
      if (body.avatar !== undefined) changes.avatar = body.avatar === null ? null : checkAvatar(body.avatar);
      const row = await db.updateTable('users').set(changes).where('id', '=', userId).returning([...USER_COLUMNS]).executeTakeFirst();
      if (!row) return fail(ErrorCode.USER_NOT_EXIST, 'user does not exist');
      return toUser(row);
    },

    /** Checks the current password (throttled per user), sets the new one and ends every other session. */
    async changePassword(me: Me, body: ChangePasswordBody) {
      const { id: userId, sessionId } = me;
      // Its password is published: refused before anything is checked or counted.
      await refuseDemoUser(db, userId, 'change its password');
      const user = await confirmCurrentPassword(deps, userId, body.oldPassword, 'oldPassword');
      if (body.newPassword !== body.secondPassword) fail(ErrorCode.INVALID, 'the two passwords differ', { field: 'secondPassword' });
      // The same rules as at registration.
      checkNewPassword(body.newPassword, user.email, 'newPassword');
      const passwordHash = await hashPassword(body.newPassword, deps.scryptCost);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ password_hash: passwordHash, password_changed_at: new Date() }).where('id', '=', userId).execute();
        await recordEvents(trx, [{ userId, kind: 'user.password_changed', taskId: null, payload: {} }]);
        // Every other session ends now; this one stays.
        await revokeOtherSessions(trx, userId, sessionId);
      });
    },

    /** The user's sessions still alive, most recently seen first, the caller's own flagged; the shared demo's visitors see only their own. */
    async sessions(me: Me): Promise<UserSession[]> {
      const { id: userId, sessionId } = me;
      const demo = await isDemoUser(db, userId);
      const rows = await db
        .selectFrom('sessions')
        .select(['id', 'user_agent', 'ip', 'created_at', 'last_seen_at'])
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .$if(demo, (query) => query.where('id', '=', sessionId))
        // A session whose refresh tokens all expired is over, even if nobody logged it out.
        .where((eb) =>
          eb.or([
            eb('id', '=', sessionId),
            eb.exists(
              eb
                .selectFrom('refresh_tokens')
                .select('refresh_tokens.id')
                .whereRef('refresh_tokens.family_id', '=', 'sessions.id')
                .where('refresh_tokens.revoked_at', 'is', null)
                .where('refresh_tokens.expires_at', '>', sql<Date>`now()`),
            ),
          ]),
        )
        .orderBy('last_seen_at', 'desc')
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        userAgent: row.user_agent,
        ip: row.ip,
        createdAt: new Date(row.created_at).toISOString(),
        lastSeenAt: new Date(row.last_seen_at).toISOString(),
        current: row.id === sessionId,
      }));
    },

    /**
     * Ends one of the user's own sessions and its refresh tokens (10006 for anyone else's). In the shared
     * demo another visitor's session is someone else's: answered as unknown.
     */
    async revokeSession(me: Me, id: string) {
      const { id: userId } = me;
      const demo = await isDemoUser(db, userId);
      await db.transaction().execute(async (trx) => {
        const own =
          demo && id !== me.sessionId
            ? undefined
            : await trx.selectFrom('sessions').select('id').where('id', '=', id).where('user_id', '=', userId).forUpdate().executeTakeFirst();
        if (!own) fail(ErrorCode.PARAM_NOT_EXIST, 'session does not exist', { field: 'id' });
        await trx.updateTable('sessions').set({ revoked_at: sql`now()` }).where('id', '=', id).where('revoked_at', 'is', null).execute();
        await trx.updateTable('refresh_tokens').set({ revoked_at: sql`now()` }).where('family_id', '=', id).where('revoked_at', 'is', null).execute();
      });
    },
  };
};
