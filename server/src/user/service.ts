import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { DemoAccount } from '../../../src/api/demo';
import { ErrorCode } from '../../../src/api/errors';
import type { LocaleCode, LoginResponse, RefreshResponse, User, VerifyCodeType } from '../../../src/api/types';
import type { Db } from '../db/database';
import type { UsersTable } from '../db/schema';
import { BusinessError, fail } from '../http/errors';
import type { Mailer } from '../mail/mailer';
import { CODE_TTL_MINUTES, type VerificationCodes } from './codes';
import { DEMO_EMAIL } from '../../../src/api/demo';
import { refuseDemo } from '../shared/demoGuard';
import { verificationMail } from './mailTexts';
import { decoyHash, hashPassword, hashQueue, passwordProblem, verifyPassword } from '../shared/passwords';
import type { LoginBody, RegisterBody, ResetPasswordBody, VerifyCodeBody } from './schemas';
import type { Sessions } from './sessions';
import type { Limit, Throttle } from '../shared/throttle';
import { recordEvents } from '../notify/events';
import { createLoginGuard, type LoginGuard } from './loginGuard';
import type { SecondFactors } from '../security/factors';
import type { RelyingParty } from '../security/passkeys';
import type { SecondFactorLoginPayload } from '../../../src/api/security';

/** Refused passkey logins per address: 20 in 15 minutes, then 10009. */
const PASSKEY_LOGIN_LIMITS: Limit[] = [{ max: 20, windowSeconds: 900 }];

/**
 * The account calls' rules (README "Accounts (server rules)"): registration, login, codes,
 * password reset, token rotation and logout. Routes check the fields' format;
 * these check everything else, in this order: throttles before any lookup,
 * a verification code spent only when the hashing queue has room.
 */

export interface UserDeps {
  db: Db;
  sessions: Sessions;
  codes: VerificationCodes;
  throttle: Throttle;
  mailer: Mailer;
  scryptCost: number;
  /** The shared demo account's published login, when this server has one. */
  demo?: DemoAccount | null;
  /** Wrong logins' delays (one is made when not given). */
  loginGuard?: LoginGuard;
  /** Second factors: a login with one on takes a second step (security/factors.ts). */
  factors: SecondFactors;
}

/** Who is calling, as the request tells. */
export interface Caller {
  ip: string;
  userAgent: string | undefined;
  locale: LocaleCode;
  log: FastifyBaseLogger;
  /** The request's headers (a trusted-device token may let a login pass the account-wide delay). */
  headers?: Record<string, string | string[] | undefined>;
  /** The trusted-device cookie the browser sent, if any. */
  deviceToken?: string | undefined;
}

/** Sending codes: per email 1 a minute and 10 an hour; per IP 5 a minute and 30 an hour. */
export const CODE_LIMITS_EMAIL: Limit[] = [
  { max: 1, windowSeconds: 60 },
  { max: 10, windowSeconds: 3600 },
];
export const CODE_LIMITS_IP: Limit[] = [
  { max: 5, windowSeconds: 60 },
  { max: 30, windowSeconds: 3600 },
];
/**
 * Successful logins (each costs a scrypt run): per account from one address 10 in 15 minutes; per address 50 in 15 minutes.
 * Wrong ones are slowed by the login guard (loginGuard.ts): per account and address, per address, per account.
 */
const LOGIN_OK_LIMITS_PAIR: Limit[] = [{ max: 10, windowSeconds: 900 }];
const LOGIN_OK_LIMITS_IP: Limit[] = [{ max: 50, windowSeconds: 900 }];
/** Registration attempts (an answer tells whether an email is taken): per IP 10 in 10 minutes and 30 an hour. */
const REGISTER_LIMITS_IP: Limit[] = [
  { max: 10, windowSeconds: 600 },
  { max: 30, windowSeconds: 3600 },
];

/** The answer of a code request: how long the code lives and when another may be asked for. */
export const CODE_SENT = { expiresIn: CODE_TTL_MINUTES * 60, resendAfter: 60 };

/**
 * Issues a code and mails it in the caller's language; a code nobody received
 * is retired and the call answered 30000. `scope` binds the code to a user;
 * `antiPhishingPhrase`: the user's, when the address is not yet theirs.
 */
export const mailCode = async (
  deps: Pick<UserDeps, 'codes' | 'mailer'>,
  mail: { email: string; type: VerifyCodeType; scope?: string; antiPhishingPhrase?: string | null },
  caller: Pick<Caller, 'locale' | 'log'>,
): Promise<void> => {
  const { email, type, scope } = mail;
  const code = await deps.codes.issue(email, type, scope);
  try {
    await deps.mailer.send({
      to: email,
      locale: caller.locale,
      ...(mail.antiPhishingPhrase !== undefined ? { antiPhishingPhrase: mail.antiPhishingPhrase } : {}),
      ...verificationMail(caller.locale, type, code, CODE_TTL_MINUTES),
    });
  } catch (error) {
    caller.log.error({ err: error }, 'verification mail failed');
    // Nobody received this code: it must not stay usable in the database.
    await deps.codes.discard(email, type).catch((discardError: unknown) => caller.log.error({ err: discardError }, 'undelivered verification code could not be retired'));
    fail(ErrorCode.EMAIL_SERVICE_ERROR, 'the email service failed');
  }
};

const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const newInviteCode = () =>
  Array.from(randomBytes(8), (b) => INVITE_ALPHABET[b % INVITE_ALPHABET.length]).join('');

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The user columns an answer shows. */
export const USER_COLUMNS = ['id', 'email', 'nickname', 'invite_code', 'avatar', 'level', 'activated', 'role'] as const;

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

/** A nickname as stored: trimmed, 2 characters at least (the schema counts UTF-16 units before trimming). */
export const checkNickname = (nickname: string): string => {
  const trimmed = nickname.trim();
  if ([...trimmed].length < 2) fail(ErrorCode.PARAM_LENGTH, 'nickname must be 2 to 20 characters', { field: 'nickname' });
  return trimmed;
};

/** A new password's rules beyond the schema (registration, reset, change), refusals naming `field`. */
export const checkNewPassword = (password: string, email: string, field = 'password') => {
  const problem = passwordProblem(password, email);
  if (problem === 'length') fail(ErrorCode.PARAM_LENGTH, 'password must be 8 to 128 characters', { field });
  if (problem === 'common') fail(ErrorCode.INVALID, 'password is too common or too easy to guess', { field, rule: 'common' });
};

/**
 * A login attempt counts as a success until its password is judged (a wrong one gives the slots back).
 * Keyed by account and address, so nobody else's logins use up the owner's.
 */
const loginRules = (email: string, ip: string, demo: boolean) => {
  const keys = { okPairKey: `login-ok:pair:${email} ${ip}`, okIpKey: `login-ok:ip:${ip}` };
  const rules = [
    // The shared demo account has no cap of its own: its visitors (many behind one address) keep the address's.
    ...(demo ? [] : [{ key: keys.okPairKey, limits: LOGIN_OK_LIMITS_PAIR }]),
    { key: keys.okIpKey, limits: LOGIN_OK_LIMITS_IP },
  ];
  return { ...keys, rules };
};

export const createAccounts = (deps: UserDeps) => {
  const { db, sessions, codes, throttle, mailer } = deps;
  // Strangers' failures slow the account, but not its owner on a device trusted after a second factor.
  const guard = deps.loginGuard ?? createLoginGuard(db, { bypass: async ({ userId, deviceToken }) => userId !== null && (await deps.factors.isTrusted(userId, deviceToken)) });
  // Unknown emails are checked against this hash, so they cost what a known one does.
  const decoy = decoyHash(deps.scryptCost);
  const meta = (caller: Caller) => ({ userAgent: caller.userAgent, ip: caller.ip });

  return {
    /** A code to register or reset the password (an e-mail change's code is asked while signed in: emailChange.ts). */
    async sendCode(body: VerifyCodeBody & { type: 'register' | 'reset' }, caller: Caller) {
      const email = normalizeEmail(body.email);
      if (body.type === 'reset' && email === DEMO_EMAIL) refuseDemo('reset its password');
      // Counted before anything is looked up or sent, refusals included (they tell whether an email is taken).
      await throttle.take([
        { key: `code:${body.type}:email:${email}`, limits: CODE_LIMITS_EMAIL },
        { key: `code:ip:${caller.ip}`, limits: CODE_LIMITS_IP },
      ]);
      const existing = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
      if (body.type === 'register' && existing) fail(ErrorCode.ALREADY_EXISTS, 'this email is already registered', { field: 'email' });
      // A reset code for an unknown email is answered like any other, so the call does not reveal who is registered.
      if (body.type === 'register' || existing) await mailCode({ codes, mailer }, { email, type: body.type }, caller);
      return CODE_SENT;
    },

    async register(body: RegisterBody, caller: Caller): Promise<LoginResponse> {
      const email = normalizeEmail(body.email);
      const nickname = checkNickname(body.nickname);
      if (body.password !== body.secondPassword) fail(ErrorCode.INVALID, 'the two passwords differ', { field: 'secondPassword' });
      checkNewPassword(body.password, email);
      await throttle.take([{ key: `register:ip:${caller.ip}`, limits: REGISTER_LIMITS_IP }]);
      const taken = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
      if (taken) fail(ErrorCode.ALREADY_EXISTS, 'this email is already registered', { field: 'email' });
      let inviterId: string | null = null;
      if (body.inviteCode) {
        const inviter = await db.selectFrom('users').select('id').where('invite_code', '=', body.inviteCode.toUpperCase()).executeTakeFirst();
        if (!inviter) return fail(ErrorCode.PARAM_NOT_EXIST, 'invite code does not exist', { field: 'inviteCode' });
        inviterId = inviter.id;
      }
      // A code is single use: refuse while the hashing queue is full rather than spend it.
      hashQueue.ensureRoom();
      await codes.consume(email, 'register', body.captcha);
      const passwordHash = await hashPassword(body.password, deps.scryptCost);
      try {
        return await db.transaction().execute(async (trx) => {
          const row = await trx
            .insertInto('users')
            .values({
              email,
              nickname,
              password_hash: passwordHash,
              invite_code: newInviteCode(),
              inviter_id: inviterId,
              avatar: null,
              locale: caller.locale,
            })
            .returning([...USER_COLUMNS])
            .executeTakeFirstOrThrow();
          const pair = await sessions.start(trx, row, meta(caller));
          return { ...pair, user: toUser(row) };
        });
      } catch (error) {
        if ((error as { code?: string }).code === '23505') fail(ErrorCode.ALREADY_EXISTS, 'this email is already registered', { field: 'email' });
        throw error;
      }
    },

    /**
     * Before the body is validated: a flood on a locked account or IP is refused before anything is
     * stored for it (the signature's nonce included). The body is still whatever the client sent.
     */
    refuseLockedLogin(body: unknown, ip: string) {
      if (typeof body === 'object' && body !== null && 'email' in body && typeof body.email === 'string') {
        const email = normalizeEmail(body.email);
        guard.refuseIfKnownWaiting(email, ip);
        throttle.refuseIfKnownFull(loginRules(email, ip, email === DEMO_EMAIL).rules);
      }
    },

    async login(body: LoginBody, caller: Caller): Promise<LoginResponse> {
      const email = normalizeEmail(body.email);
      const demo = email === DEMO_EMAIL;
      // Delays of earlier failures first (the caller's own, and the account's unless the login may pass it).
      const check = await guard.check(email, caller.ip, {
        demo,
        headers: caller.headers ?? {},
        deviceToken: caller.deviceToken,
        userId: async () => (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst())?.id ?? null,
      });
      try {
        const { okPairKey, okIpKey, rules } = loginRules(email, caller.ip, demo);
        // Reserved as a success before the password is looked at; a wrong one gives it back.
        const attempt = await throttle.take(rules);
        let row;
        let valid: boolean;
        try {
          row = await db
            .selectFrom('users')
            .select([...USER_COLUMNS, 'password_hash', 'disabled'])
            .where('email', '=', email)
            .executeTakeFirst();
          // Unknown email and wrong password get the same answer after the same work. In the hashing line an
          // address the account signed in from before goes first, then new addresses, then those that keep guessing.
          const known =
            row !== undefined &&
            (await db.selectFrom('sessions').select('id').where('user_id', '=', row.id).where('ip', '=', caller.ip).limit(1).executeTakeFirst()) !== undefined;
          const ticket = { lane: caller.ip, penalty: known ? 0 : 1 + check.addressFailures };
          valid = await verifyPassword(body.password, row?.password_hash ?? (await decoy), ticket);
        } catch (error) {
          // Not judged (the hashing queue is full, the database failed): the attempt does not count.
          await attempt.release();
          throw error;
        }
        if (!row || !valid || row.disabled) {
          await attempt.release([okPairKey, okIpKey]);
          await guard.failed(email, caller.ip, demo);
          return fail(ErrorCode.PASSWORD_ERROR, 'email or password is incorrect');
        }
        // A success ends the account's run of failures (a later guess starts a new count).
        await guard.succeeded(email, caller.ip);
        const user = row;
        // A second factor on: the password alone opens no session, unless this device was trusted with one.
        const kinds = await deps.factors.enabledKinds(user.id);
        if (kinds.length > 0 && !(await deps.factors.isTrusted(user.id, caller.deviceToken))) {
          return fail(ErrorCode.SECOND_FACTOR_REQUIRED, 'a second factor is needed to log in', { ticket: deps.factors.issueTicket(user.id), kinds });
        }
        const pair = await db.transaction().execute((trx) => sessions.start(trx, user, meta(caller)));
        return { ...pair, user: toUser(user) };
      } finally {
        check.done();
      }
    },

    /**
     * The login's second step: a live ticket and an authenticator code or a
     * recovery code (used up; it holds withdrawals 24 hours and tells the
     * user). `deviceToken`: the new trusted device's cookie value, when asked.
     */
    async completeLogin(body: SecondFactorLoginPayload, caller: Caller, rp: RelyingParty): Promise<LoginResponse & { deviceToken?: string }> {
      const userId = deps.factors.openTicket(body.ticket);
      const verified = await deps.factors.verify(userId, body.code, { recovery: true, passkey: { action: 'login', rp } });
      return db.transaction().execute(async (trx) => {
        const user = await trx.selectFrom('users').select([...USER_COLUMNS, 'disabled']).where('id', '=', userId).executeTakeFirst();
        if (!user || user.disabled) return fail(ErrorCode.PASSWORD_ERROR, 'email or password is incorrect');
        if (verified === 'recovery') await deps.factors.recoveryUsed(trx, userId);
        const pair = await sessions.start(trx, user, meta(caller));
        const deviceToken = body.trustDevice ? await deps.factors.trustDevice(trx, userId) : undefined;
        return { ...pair, user: toUser(user), ...(deviceToken ? { deviceToken } : {}) };
      });
    },

    /** Passkey options: for the second step of a live ticket's user, or (no ticket) for a passkey login. */
    passkeyOptions(ticket: string | undefined, rp: RelyingParty) {
      return ticket ? deps.factors.passkeyOptions(deps.factors.openTicket(ticket), 'login', rp) : deps.factors.passkeyLoginOptions(rp);
    },

    /**
     * A login with a passkey alone (README "Passkeys"): the authenticator
     * checked its user, so it stands for the password and the second factor.
     * Refusals (11103) count against the address, 20 in 15 minutes.
     */
    async passkeyLogin(response: Record<string, unknown>, caller: Caller, rp: RelyingParty): Promise<LoginResponse> {
      const attempt = await throttle.take([{ key: `passkey-login:ip:${caller.ip}`, limits: PASSKEY_LOGIN_LIMITS }]);
      let userId: string;
      try {
        userId = await deps.factors.passkeyLogin(response, rp);
      } catch (error) {
        await attempt.settle();
        throw error;
      }
      await attempt.release();
      return db.transaction().execute(async (trx) => {
        const user = await trx.selectFrom('users').select([...USER_COLUMNS, 'disabled']).where('id', '=', userId).executeTakeFirst();
        if (!user || user.disabled) return fail(ErrorCode.PASSKEY_INVALID, 'the passkey is not known here', { field: 'passkey' });
        const pair = await sessions.start(trx, user, meta(caller));
        return { ...pair, user: toUser(user) };
      });
    },

    refresh: (refreshToken: string): Promise<RefreshResponse> => sessions.refresh(refreshToken),

    async resetPassword(body: ResetPasswordBody) {
      const email = normalizeEmail(body.email);
      if (email === DEMO_EMAIL) refuseDemo('reset its password');
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
        await recordEvents(trx, [{ userId: user.id, kind: 'user.password_changed', taskId: null, payload: {} }]);
      });
      await guard.forgetAccount(email);
    },

    /** Ends the caller's session; a failure to end it is logged and answered 10013. */
    async logout(sessionId: string, log: FastifyBaseLogger) {
      let ended = false;
      try {
        ended = await sessions.revoke(sessionId);
      } catch (error) {
        log.error({ err: error }, 'logout failed');
      }
      if (!ended) fail(ErrorCode.LOGOUT_FAILED, 'the session could not be ended');
    },

    async me(userId: string): Promise<User> {
      const row = await db.selectFrom('users').select([...USER_COLUMNS]).where('id', '=', userId).executeTakeFirst();
      if (!row) return fail(ErrorCode.USER_NOT_EXIST, 'user does not exist');
      return toUser(row);
    },
  };
};

export type Accounts = ReturnType<typeof createAccounts>;
