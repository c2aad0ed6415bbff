import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../../src/api/errors';
import type { LoginResponse, User, VerifyCodeType } from '../../../src/api/types';
import type { Db } from '../db/database';
import type { UsersTable } from '../db/schema';
import { ok } from '../http/envelope';
import { BusinessError, fail } from '../http/errors';
import { requestLocale } from '../http/locale';
import type { Mailer } from '../mail/mailer';
import { CODE_TTL_MINUTES, type VerificationCodes } from './codes';
import { verificationMail } from './mailTexts';
import { decoyHash, hashPassword, hashQueue, passwordProblem, verifyPassword } from './passwords';
import {
  loginSchema,
  logoutSchema,
  meSchema,
  refreshSchema,
  registerSchema,
  resetPasswordSchema,
  verifyCodeSchema,
} from './schemas';
import type { Sessions } from './sessions';
import type { Limit, Throttle } from './throttle';

export interface UserDeps {
  db: Db;
  sessions: Sessions;
  codes: VerificationCodes;
  throttle: Throttle;
  mailer: Mailer;
  scryptCost: number;
}

/** Sending codes: per email 1 a minute and 10 an hour; per IP 5 a minute and 30 an hour. */
const CODE_LIMITS_EMAIL: Limit[] = [
  { max: 1, windowSeconds: 60 },
  { max: 10, windowSeconds: 3600 },
];
const CODE_LIMITS_IP: Limit[] = [
  { max: 5, windowSeconds: 60 },
  { max: 30, windowSeconds: 3600 },
];
/** Failed logins: per account 5 in 15 minutes; per IP 20 in 15 minutes. */
const LOGIN_LIMITS_ACCOUNT: Limit[] = [{ max: 5, windowSeconds: 900 }];
const LOGIN_LIMITS_IP: Limit[] = [{ max: 20, windowSeconds: 900 }];
/** Successful logins (each costs a scrypt run): per account 10 in 15 minutes; per IP 50 in 15 minutes. */
const LOGIN_OK_LIMITS_ACCOUNT: Limit[] = [{ max: 10, windowSeconds: 900 }];
const LOGIN_OK_LIMITS_IP: Limit[] = [{ max: 50, windowSeconds: 900 }];
/** Registration attempts (an answer tells whether an email is taken): per IP 10 in 10 minutes and 30 an hour. */
const REGISTER_LIMITS_IP: Limit[] = [
  { max: 10, windowSeconds: 600 },
  { max: 30, windowSeconds: 3600 },
];

const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const newInviteCode = () =>
  Array.from(randomBytes(8), (b) => INVITE_ALPHABET[b % INVITE_ALPHABET.length]).join('');

const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const toUser = (row: Pick<UsersTable, 'email' | 'nickname' | 'invite_code' | 'avatar'> & {
  id: string;
  level: number;
  activated: boolean;
  role: 'user' | 'operator';
}): User => ({
  id: row.id,
  email: row.email,
  nickname: row.nickname,
  avatar: row.avatar,
  inviteCode: row.invite_code,
  level: row.level,
  activated: row.activated,
  role: row.role,
});

const meta = (request: FastifyRequest) => ({ userAgent: request.headers['user-agent'], ip: request.ip });

const checkNewPassword = (password: string, email: string) => {
  const problem = passwordProblem(password, email);
  if (problem === 'length') fail(ErrorCode.PARAM_LENGTH, 'password must be 8 to 128 characters', { field: 'password' });
  if (problem === 'common') fail(ErrorCode.INVALID, 'password is too common or too easy to guess', { field: 'password', rule: 'common' });
};

export const userRoutes = (deps: UserDeps) => async (app: FastifyInstance) => {
  const { db, sessions, codes, throttle, mailer } = deps;
  const decoy = decoyHash(deps.scryptCost);

  app.post('/api/user/verify-code', { schema: verifyCodeSchema }, async (request) => {
    const body = request.body as { email: string; type: VerifyCodeType };
    const email = normalizeEmail(body.email);
    // Counted before anything is looked up or sent, refusals included (they tell whether an email is taken).
    await throttle.take([
      { key: `code:${body.type}:email:${email}`, limits: CODE_LIMITS_EMAIL },
      { key: `code:ip:${request.ip}`, limits: CODE_LIMITS_IP },
    ]);
    const existing = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    if (body.type === 'register' && existing) fail(ErrorCode.ALREADY_EXISTS, 'this email is already registered', { field: 'email' });
    // A reset code for an unknown email is answered like any other, so the call does not reveal who is registered.
    if (body.type === 'register' || existing) {
      const code = await codes.issue(email, body.type);
      try {
        await mailer.send({ to: email, ...verificationMail(requestLocale(request), body.type, code, CODE_TTL_MINUTES) });
      } catch (error) {
        request.log.error({ err: error }, 'verification mail failed');
        // Nobody received this code: it must not stay usable in the database.
        await codes.discard(email, body.type).catch((discardError: unknown) =>
          request.log.error({ err: discardError }, 'undelivered verification code could not be retired'),
        );
        fail(ErrorCode.EMAIL_SERVICE_ERROR, 'the email service failed');
      }
    }
    return ok({ expiresIn: CODE_TTL_MINUTES * 60, resendAfter: 60 });
  });

  app.post('/api/user/register', { schema: registerSchema }, async (request): Promise<ReturnType<typeof ok<LoginResponse>>> => {
    const body = request.body as {
      email: string;
      nickname: string;
      password: string;
      secondPassword: string;
      captcha: string;
      inviteCode?: string;
    };
    const email = normalizeEmail(body.email);
    const nickname = body.nickname.trim();
    if ([...nickname].length < 2) fail(ErrorCode.PARAM_LENGTH, 'nickname must be 2 to 20 characters', { field: 'nickname' });
    if (body.password !== body.secondPassword) fail(ErrorCode.INVALID, 'the two passwords differ', { field: 'secondPassword' });
    checkNewPassword(body.password, email);
    await throttle.take([{ key: `register:ip:${request.ip}`, limits: REGISTER_LIMITS_IP }]);
    const taken = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    if (taken) fail(ErrorCode.ALREADY_EXISTS, 'this email is already registered', { field: 'email' });
    let inviterId: string | null = null;
    if (body.inviteCode) {
      const inviter = await db.selectFrom('users').select('id').where('invite_code', '=', body.inviteCode.toUpperCase()).executeTakeFirst();
      if (!inviter) fail(ErrorCode.PARAM_NOT_EXIST, 'invite code does not exist', { field: 'inviteCode' });
      inviterId = inviter!.id;
    }
    // A code is single use: refuse while the hashing queue is full rather than spend it.
    hashQueue.ensureRoom();
    await codes.consume(email, 'register', body.captcha);
    const passwordHash = await hashPassword(body.password, deps.scryptCost);
    try {
      return ok(
        await db.transaction().execute(async (trx) => {
          const row = await trx
            .insertInto('users')
            .values({
              email,
              nickname,
              password_hash: passwordHash,
              invite_code: newInviteCode(),
              inviter_id: inviterId,
              avatar: null,
              locale: requestLocale(request),
            })
            .returning(['id', 'email', 'nickname', 'invite_code', 'avatar', 'level', 'activated', 'role'])
            .executeTakeFirstOrThrow();
          const pair = await sessions.start(trx, row, meta(request));
          return { ...pair, user: toUser(row) };
        }),
      );
    } catch (error) {
      if ((error as { code?: string }).code === '23505') fail(ErrorCode.ALREADY_EXISTS, 'this email is already registered', { field: 'email' });
      throw error;
    }
  });

  /** A login attempt counts as a failure and as a success until its password is judged. */
  const loginRules = (email: string, ip: string) => {
    const keys = { accountKey: `login:email:${email}`, ipKey: `login:ip:${ip}`, okAccountKey: `login-ok:email:${email}`, okIpKey: `login-ok:ip:${ip}` };
    const rules = [
      { key: keys.accountKey, limits: LOGIN_LIMITS_ACCOUNT },
      { key: keys.ipKey, limits: LOGIN_LIMITS_IP },
      { key: keys.okAccountKey, limits: LOGIN_OK_LIMITS_ACCOUNT },
      { key: keys.okIpKey, limits: LOGIN_OK_LIMITS_IP },
    ];
    return { ...keys, rules };
  };

  app.post(
    '/api/user/login',
    {
      schema: loginSchema,
      // A flood on a locked account or IP is refused before anything is stored for it (the signature's nonce included).
      preValidation: async (request) => {
        const email = (request.body as { email?: unknown } | undefined)?.email;
        if (typeof email === 'string') throttle.refuseIfKnownFull(loginRules(normalizeEmail(email), request.ip).rules);
      },
    },
    async (request) => {
    const body = request.body as { email: string; password: string };
    const email = normalizeEmail(body.email);
    const { accountKey, ipKey, okAccountKey, okIpKey, rules } = loginRules(email, request.ip);
    // Reserved before the password is looked at, as a failure and as a success; the outcome gives the other back.
    const attempt = await throttle.take(rules);
    let row;
    let valid: boolean;
    try {
      row = await db
        .selectFrom('users')
        .select(['id', 'email', 'nickname', 'invite_code', 'avatar', 'level', 'activated', 'role', 'password_hash', 'disabled'])
        .where('email', '=', email)
        .executeTakeFirst();
      // Unknown email and wrong password get the same answer after the same work.
      valid = await verifyPassword(body.password, row?.password_hash ?? (await decoy));
    } catch (error) {
      // Not judged (the hashing queue is full, the database failed): the attempt does not count.
      await attempt.release();
      throw error;
    }
    if (!row || !valid || row.disabled) {
      await attempt.release([okAccountKey, okIpKey]);
      fail(ErrorCode.PASSWORD_ERROR, 'email or password is incorrect');
    }
    // A success is no failure, and it ends the account's run of failures (a later guess starts a new count).
    await attempt.release([accountKey, ipKey]);
    await throttle.clear(accountKey);
    const pair = await db.transaction().execute((trx) => sessions.start(trx, row!, meta(request)));
    return ok({ ...pair, user: toUser(row!) });
    },
  );

  app.put('/api/user/refresh', { schema: refreshSchema }, async (request) => {
    const { refreshToken } = request.body as { refreshToken: string };
    return ok(await sessions.refresh(refreshToken));
  });

  app.post('/api/user/reset-password', { schema: resetPasswordSchema }, async (request) => {
    const body = request.body as { email: string; newPassword: string; captcha: string };
    const email = normalizeEmail(body.email);
    checkNewPassword(body.newPassword, email);
    hashQueue.ensureRoom();
    await codes.consume(email, 'reset', body.captcha);
    const passwordHash = await hashPassword(body.newPassword, deps.scryptCost);
    await db.transaction().execute(async (trx) => {
      const user = await trx
        .updateTable('users')
        .set({ password_hash: passwordHash, password_changed_at: new Date() })
        .where('email', '=', email)
        .returning('id')
        .executeTakeFirst();
      if (!user) throw new BusinessError(ErrorCode.CAPTCHA_EXPIRED, 'verification code does not exist or has expired');
      await sessions.revokeAllOf(trx, user.id);
    });
    await throttle.clear(`login:email:${email}`);
    return ok(null);
  });

  app.register(async (protectedScope) => {
    protectedScope.addHook('onRequest', app.authenticate);

    protectedScope.post('/api/user/logout', { schema: logoutSchema }, async (request) => {
      let ended = false;
      try {
        ended = await sessions.revoke(request.user!.sessionId);
      } catch (error) {
        request.log.error({ err: error }, 'logout failed');
      }
      if (!ended) fail(ErrorCode.LOGOUT_FAILED, 'the session could not be ended');
      return ok(null);
    });

    protectedScope.get('/api/user/me', { schema: meSchema }, async (request) => {
      const row = await db
        .selectFrom('users')
        .select(['id', 'email', 'nickname', 'invite_code', 'avatar', 'level', 'activated', 'role'])
        .where('id', '=', request.user!.id)
        .executeTakeFirst();
      if (!row) fail(ErrorCode.USER_NOT_EXIST, 'user does not exist');
      return ok(toUser(row!));
    });
  });
};
