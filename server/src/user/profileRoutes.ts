import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { ErrorCode } from '../../../src/api/errors';
import type { ChangePasswordPayload, ProfileEditPayload, UserSession } from '../../../src/api/member';
import type { Db } from '../db/database';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { signatureProperties, signatureRequired } from '../http/signature';
import { hashPassword, passwordProblem, verifyPassword } from './passwords';
import { toUser } from './routes';
import { nicknameSchema, passwordSchema, userSchema } from './schemas';
import type { Limit, Throttle } from './throttle';

export interface ProfileDeps {
  db: Db;
  throttle: Throttle;
  scryptCost: number;
}

/** Largest avatar, decoded. */
export const AVATAR_MAX_BYTES = 48 * 1024;
/** The app's 64 KB body limit cannot carry a 48 KB image as base64 (4/3 larger): this call alone allows more. */
const PROFILE_BODY_LIMIT = 80 * 1024;
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

const envelope = (data: object) => ({ type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' }, data } });

/** Profile edit, password change and the user's login sessions. */
export const profileRoutes = (deps: ProfileDeps) => async (app: FastifyInstance) => {
  const { db, throttle } = deps;
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/api/user/profile',
    {
      bodyLimit: PROFILE_BODY_LIMIT,
      schema: {
        summary: 'Edit the nickname and avatar (a PNG, JPEG or WebP data URL up to 48 KB, or null to remove it)',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['nickname'],
          properties: { nickname: nicknameSchema, avatar: { type: ['string', 'null'], maxLength: PROFILE_BODY_LIMIT } },
        },
        response: { 200: envelope(userSchema) },
      },
    },
    async (request) => {
      const body = request.body as ProfileEditPayload;
      const nickname = body.nickname.trim();
      if ([...nickname].length < 2) fail(ErrorCode.PARAM_LENGTH, 'nickname must be 2 to 20 characters', { field: 'nickname' });
      const changes: { nickname: string; avatar?: string | null } = { nickname };
      if (body.avatar !== undefined) changes.avatar = body.avatar === null ? null : checkAvatar(body.avatar);
      const row = await db
        .updateTable('users')
        .set(changes)
        .where('id', '=', request.user!.id)
        .returning(['id', 'email', 'nickname', 'invite_code', 'avatar', 'level', 'activated', 'role'])
        .executeTakeFirst();
      if (!row) fail(ErrorCode.USER_NOT_EXIST, 'user does not exist');
      return ok(toUser(row!));
    },
  );

  app.post(
    '/api/user/change-password',
    {
      schema: {
        summary: 'Change the password; ends every other session (signed: oldPassword, newPassword)',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['oldPassword', 'newPassword', 'secondPassword', ...signatureRequired],
          properties: {
            oldPassword: { type: 'string', minLength: 1, maxLength: 128 },
            newPassword: passwordSchema,
            secondPassword: passwordSchema,
            ...signatureProperties,
          },
        },
      },
    },
    async (request) => {
      const body = request.body as ChangePasswordPayload;
      const { id: userId, sessionId } = request.user!;
      const key = `change-password:user:${userId}`;
      // Reserved before the old password is checked; a right one gives its slot back.
      const attempt = await throttle.take([{ key, limits: OLD_PASSWORD_LIMITS }], { waitMs: OLD_PASSWORD_WAIT_MS });
      let me;
      let right = false;
      try {
        me = await db.selectFrom('users').select(['email', 'password_hash']).where('id', '=', userId).executeTakeFirst();
        right = !!me && (await verifyPassword(body.oldPassword, me.password_hash));
      } catch (error) {
        await attempt.release();
        throw error;
      }
      if (!me) {
        await attempt.release();
        return fail(ErrorCode.USER_NOT_EXIST, 'user does not exist');
      }
      if (!right) {
        await attempt.settle();
        fail(ErrorCode.PASSWORD_ERROR, 'the current password is incorrect', { field: 'oldPassword' });
      }
      await attempt.release();
      if (body.newPassword !== body.secondPassword) fail(ErrorCode.INVALID, 'the two passwords differ', { field: 'secondPassword' });
      // The same rules as at registration.
      const problem = passwordProblem(body.newPassword, me.email);
      if (problem === 'length') fail(ErrorCode.PARAM_LENGTH, 'password must be 8 to 128 characters', { field: 'newPassword' });
      if (problem === 'common') fail(ErrorCode.INVALID, 'password is too common or too easy to guess', { field: 'newPassword', rule: 'common' });
      const passwordHash = await hashPassword(body.newPassword, deps.scryptCost);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ password_hash: passwordHash, password_changed_at: new Date() }).where('id', '=', userId).execute();
        // Every other session ends now; this one stays.
        await trx
          .updateTable('sessions')
          .set({ revoked_at: sql`now()` })
          .where('user_id', '=', userId)
          .where('id', '<>', sessionId)
          .where('revoked_at', 'is', null)
          .execute();
        await trx
          .updateTable('refresh_tokens')
          .set({ revoked_at: sql`now()` })
          .where('user_id', '=', userId)
          .where('family_id', '<>', sessionId)
          .where('revoked_at', 'is', null)
          .execute();
      });
      return ok(null);
    },
  );

  app.get('/api/user/sessions', { schema: { summary: "The user's active login sessions, the current one flagged" } }, async (request) => {
    const { id: userId, sessionId } = request.user!;
    const rows = await db
      .selectFrom('sessions')
      .select(['id', 'user_agent', 'ip', 'created_at', 'last_seen_at'])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
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
    return ok(
      rows.map(
        (row): UserSession => ({
          id: row.id,
          userAgent: row.user_agent,
          ip: row.ip,
          createdAt: new Date(row.created_at).toISOString(),
          lastSeenAt: new Date(row.last_seen_at).toISOString(),
          current: row.id === sessionId,
        }),
      ),
    );
  });

  app.post(
    '/api/user/sessions/revoke',
    {
      schema: {
        summary: "End one of the user's sessions (the current one too: a logout)",
        body: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } },
      },
    },
    async (request) => {
      const { id } = request.body as { id: string };
      const userId = request.user!.id;
      await db.transaction().execute(async (trx) => {
        const own = await trx.selectFrom('sessions').select('id').where('id', '=', id).where('user_id', '=', userId).forUpdate().executeTakeFirst();
        if (!own) fail(ErrorCode.PARAM_NOT_EXIST, 'session does not exist', { field: 'id' });
        await trx.updateTable('sessions').set({ revoked_at: sql`now()` }).where('id', '=', id).where('revoked_at', 'is', null).execute();
        await trx.updateTable('refresh_tokens').set({ revoked_at: sql`now()` }).where('family_id', '=', id).where('revoked_at', 'is', null).execute();
      });
      return ok(null);
    },
  );
};
