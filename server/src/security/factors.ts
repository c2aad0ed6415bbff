import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import { ErrorCode } from '../../../src/api/errors';
import {
  PASSKEY_PREFIX,
  RECOVERY_CODE_COUNT,
  TRUSTED_DEVICE_DAYS,
  WITHDRAWAL_HOLD_HOURS,
  type FactorKind,
  type RecoveryCodes,
  type SecurityStatus,
  type TotpSetup,
} from '../../../src/api/security';
import type { Db } from '../db/database';
import type { SecretBox } from '../engine/venues/exchangeAccess';
import { fail } from '../http/errors';
import { recordEvents } from '../notify/events';
import { isDemoUser, refuseDemo } from '../shared/demoGuard';
import type { Limit, Throttle } from '../shared/throttle';
import { createPasskeys, type RelyingParty } from './passkeys';
import { matchedStep, newTotp } from './totp';

/** Wrong second factors: 5 in 15 minutes per user (login's second step and step-up calls together), then 10009. */
const FACTOR_LIMITS: Limit[] = [{ max: 5, windowSeconds: 900 }];
/** A login ticket (password checked, second step pending) lives 5 minutes. */
const TICKET_SECONDS = 300;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const sealContext = (userId: string) => `second_factors:${userId}:totp`;
const normalizeRecovery = (code: string) => code.replace(/-/g, '').toUpperCase();
const newRecoveryCode = () => {
  const chars = Array.from(randomBytes(10), (b) => BASE32[b & 31]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
};

export interface SecondFactorDeps {
  db: Db;
  throttle: Throttle;
  /** Seals TOTP secrets at rest (the exchange keys' master key). */
  box: SecretBox;
  /** Signs login tickets and peppers recovery-code hashes (the token secret). */
  secret: string;
  now?: () => number;
}

/** What verified a second step: an authenticator code, a recovery code (used up) or a passkey. */
export type Verified = 'totp' | 'recovery' | 'passkey';

/** Where a passkey's assertion is checked: the action its challenge was bound to, and the relying party of the request. */
export interface PasskeyContext {
  action: string;
  rp: RelyingParty;
}

/** The assertion of a `passkey:` factor, or null when it is not one. */
const assertionOf = (code: string): Record<string, unknown> | null => {
  if (!code.startsWith(PASSKEY_PREFIX)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(code.slice(PASSKEY_PREFIX.length), 'base64url').toString());
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

/**
 * A user's second factors (README "Second factors"): turning TOTP on and off,
 * recovery codes, login tickets, trusted devices, the operator's reset, and
 * one step-up check for every call that needs a factor; passkeys
 * (passkeys.ts) are one more kind, checked by `verify` when the factor is
 * `passkey:` and an assertion.
 */
export const createSecondFactors = (deps: SecondFactorDeps) => {
  const { db, throttle, box } = deps;
  const now = deps.now ?? Date.now;
  const pepper = createHmac('sha256', deps.secret).update('recovery-codes').digest();
  const ticketKey = createHmac('sha256', deps.secret).update('login-tickets').digest();
  const hashRecovery = (code: string) => createHmac('sha256', pepper).update(normalizeRecovery(code)).digest('hex');
  const passkeys = createPasskeys(db);

  const enabledKinds = async (userId: string, trx: Db = db): Promise<FactorKind[]> =>
    (await trx.selectFrom('second_factors').select('kind').distinct().where('user_id', '=', userId).where('enabled_at', 'is not', null).execute()).map(
      (row) => row.kind,
    );

  const refuseDemoFactors = async (userId: string) => {
    if (await isDemoUser(db, userId)) refuseDemo('change its security settings');
  };

  const issueRecoveryCodes = async (trx: Db, userId: string): Promise<string[]> => {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await trx.insertInto('recovery_codes').values(codes.map((code) => ({ user_id: userId, code_hash: hashRecovery(code) }))).execute();
    return codes;
  };

  /** Takes a TOTP code for an enabled (or, while turning on, the pending) factor: its step must be later than the last one taken. */
  const takeTotp = async (trx: Db, userId: string, code: string, pending = false): Promise<boolean> => {
    const row = await trx
      .selectFrom('second_factors')
      .select(['id', 'secret_sealed'])
      .where('user_id', '=', userId)
      .where('kind', '=', 'totp')
      .where('enabled_at', pending ? 'is' : 'is not', null)
      .executeTakeFirst();
    if (!row?.secret_sealed) return false;
    const step = matchedStep(box.open(row.secret_sealed, sealContext(userId)), code, now());
    if (step === null) return false;
    // One statement: of two requests with the same code at once, one takes it.
    const taken = await trx
      .updateTable('second_factors')
      .set({ last_step: step })
      .where('id', '=', row.id)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', String(step))]))
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  };

  const takeRecovery = async (trx: Db, userId: string, code: string): Promise<boolean> => {
    const used = await trx
      .updateTable('recovery_codes')
      .set({ used_at: sql`now()` })
      .where('user_id', '=', userId)
      .where('code_hash', '=', hashRecovery(code))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1;
  };

  /**
   * Checks a second factor of the user, throttled per user: 11101 when it is
   * wrong, expired or already used. `recovery`: a recovery code is accepted
   * too (the login's second step only).
   */
  const verify = async (userId: string, code: string, options: { recovery?: boolean; pending?: boolean; passkey?: PasskeyContext } = {}): Promise<Verified> => {
    const attempt = await throttle.take([{ key: `second-factor:user:${userId}`, limits: FACTOR_LIMITS }]);
    let outcome: Verified | null = null;
    const assertion = assertionOf(code);
    try {
      if (code.startsWith(PASSKEY_PREFIX)) {
        const { passkey } = options;
        outcome = assertion && passkey && (await passkeys.assert(userId, passkey.action, assertion as never, passkey.rp)) === userId ? 'passkey' : null;
      } else if (/^[0-9]{6}$/.test(code)) outcome = (await takeTotp(db, userId, code, options.pending)) ? 'totp' : null;
      else if (options.recovery && new RegExp('^[A-Za-z2-7]{5}-?[A-Za-z2-7]{5}$').test(code)) outcome = (await takeRecovery(db, userId, code)) ? 'recovery' : null;
    } catch (error) {
      await attempt.release();
      throw error;
    }
    if (!outcome) {
      await attempt.settle();
      if (code.startsWith(PASSKEY_PREFIX)) return fail(ErrorCode.PASSKEY_INVALID, 'the passkey is not one of this account, or its challenge expired or was used', { field: 'passkey' });
      return fail(ErrorCode.SECOND_FACTOR_INVALID, 'the second factor is wrong, expired or already used', { field: 'code' });
    }
    await attempt.release();
    return outcome;
  };

  const holdWithdrawals = (trx: Db, userId: string) =>
    trx
      .updateTable('users')
      .set({ withdrawals_held_until: sql`now() + make_interval(hours => ${WITHDRAWAL_HOLD_HOURS})` })
      .where('id', '=', userId)
      .execute();

  const securityChanged = (trx: Db, userId: string, change: string) =>
    recordEvents(trx, [{ userId, kind: 'user.security_changed', taskId: null, payload: { change } }]);

  return {
    enabledKinds: (userId: string) => enabledKinds(userId),

    async status(userId: string): Promise<SecurityStatus> {
      const [factors, left, user, locked] = await Promise.all([
        db.selectFrom('second_factors').select(['kind', 'enabled_at']).where('user_id', '=', userId).where('enabled_at', 'is not', null).execute(),
        db.selectFrom('recovery_codes').select(db.fn.countAll<string>().as('n')).where('user_id', '=', userId).where('used_at', 'is', null).executeTakeFirstOrThrow(),
        db
          .selectFrom('users')
          .select(sql<Date | null>`case when withdrawals_held_until > now() then withdrawals_held_until end`.as('held'))
          .where('id', '=', userId)
          .executeTakeFirst(),
        isDemoUser(db, userId),
      ]);
      return {
        factors: factors.map((row) => ({ kind: row.kind, enabledAt: new Date(row.enabled_at!).toISOString() })),
        recoveryCodesLeft: Number(left.n),
        withdrawalsHeldUntil: user?.held ? new Date(user.held).toISOString() : null,
        locked,
        passkeys: await passkeys.list(userId),
      };
    },

    /** A new pending authenticator (replacing a pending one); 10007 while one is on. */
    async setupTotp(userId: string): Promise<TotpSetup> {
      await refuseDemoFactors(userId);
      const user = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow();
      const setup = newTotp(user.email);
      await db.transaction().execute(async (trx) => {
        const existing = await trx.selectFrom('second_factors').select(['id', 'enabled_at']).where('user_id', '=', userId).where('kind', '=', 'totp').forUpdate().executeTakeFirst();
        if (existing?.enabled_at) fail(ErrorCode.ALREADY_EXISTS, 'an authenticator app is already on; turn it off first');
        if (existing) await trx.deleteFrom('second_factors').where('id', '=', existing.id).execute();
        await trx.insertInto('second_factors').values({ user_id: userId, kind: 'totp', secret_sealed: box.seal(setup.secret, sealContext(userId)) }).execute();
      });
      return setup;
    },

    /** Confirms the pending authenticator with a first code: on, with ten new recovery codes (shown once). */
    async enableTotp(userId: string, code: string): Promise<RecoveryCodes> {
      await refuseDemoFactors(userId);
      const pending = await db.selectFrom('second_factors').select('id').where('user_id', '=', userId).where('kind', '=', 'totp').where('enabled_at', 'is', null).executeTakeFirst();
      if (!pending) fail(ErrorCode.PARAM_NOT_EXIST, 'no authenticator app is waiting for its first code; start again');
      await verify(userId, code, { pending: true });
      return db.transaction().execute(async (trx) => {
        await trx.updateTable('second_factors').set({ enabled_at: sql`now()` }).where('id', '=', pending!.id).execute();
        const recoveryCodes = await issueRecoveryCodes(trx, userId);
        await securityChanged(trx, userId, 'totp_enabled');
        return { recoveryCodes };
      });
    },

    /** Turns the authenticator off (the caller passed step-up): its recovery codes and trusted devices go with it. */
    async disableTotp(userId: string): Promise<void> {
      await refuseDemoFactors(userId);
      await db.transaction().execute(async (trx) => {
        const removed = await trx.deleteFrom('second_factors').where('user_id', '=', userId).where('kind', '=', 'totp').executeTakeFirst();
        if (Number(removed.numDeletedRows) === 0) fail(ErrorCode.PARAM_NOT_EXIST, 'no authenticator app is on');
        if ((await enabledKinds(userId, trx)).length === 0) {
          await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
          await trx.deleteFrom('trusted_devices').where('user_id', '=', userId).execute();
        }
        await securityChanged(trx, userId, 'totp_disabled');
      });
    },

    /** Options to register a passkey (its challenge bound to the user, 5 minutes). */
    async passkeyRegistrationOptions(userId: string, rp: RelyingParty) {
      await refuseDemoFactors(userId);
      return passkeys.registrationOptions(userId, rp);
    },

    /**
     * Keeps a passkey (the caller passed step-up when a factor was on). The
     * account's first factor comes with ten new recovery codes (shown once);
     * otherwise recoveryCodes is null.
     */
    async registerPasskey(userId: string, name: string, response: Record<string, unknown>, rp: RelyingParty): Promise<{ recoveryCodes: string[] | null }> {
      await refuseDemoFactors(userId);
      const credential = await passkeys.verifyRegistration(userId, response as never, rp);
      return db.transaction().execute(async (trx) => {
        const first = (await enabledKinds(userId, trx)).length === 0;
        await passkeys.keep(trx, userId, name, credential);
        const recoveryCodes = first ? await issueRecoveryCodes(trx, userId) : null;
        await securityChanged(trx, userId, 'passkey_added');
        return { recoveryCodes };
      });
    },

    /** Removes a passkey (the caller passed step-up); the last factor gone takes recovery codes and trusted devices with it. */
    async removePasskey(userId: string, id: string): Promise<void> {
      await refuseDemoFactors(userId);
      await db.transaction().execute(async (trx) => {
        if (!(await passkeys.remove(trx, userId, id))) fail(ErrorCode.PARAM_NOT_EXIST, 'no such passkey');
        if ((await enabledKinds(userId, trx)).length === 0) {
          await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
          await trx.deleteFrom('trusted_devices').where('user_id', '=', userId).execute();
        }
        await securityChanged(trx, userId, 'passkey_removed');
      });
    },

    /** Options to assert one of the user's passkeys for an action (the login's second step: 'login'). */
    passkeyOptions: (userId: string, action: string, rp: RelyingParty) => passkeys.authenticationOptions(userId, action, rp),

    /** Options for the passkey login: any discoverable passkey of this site. */
    passkeyLoginOptions: (rp: RelyingParty) => passkeys.authenticationOptions(null, 'passkey-login', rp),

    /** The user of a passkey login's assertion, or 11103. */
    async passkeyLogin(response: Record<string, unknown>, rp: RelyingParty): Promise<string> {
      const userId = await passkeys.assert(null, 'passkey-login', response as never, rp);
      return userId ?? fail(ErrorCode.PASSKEY_INVALID, 'the passkey is not known here, or its challenge expired or was used', { field: 'passkey' });
    },

    /** The operator's reset: every factor, recovery code and trusted device gone, withdrawals held. Returns the kinds removed. */
    async reset(trx: Db, userId: string): Promise<FactorKind[]> {
      const kinds = await enabledKinds(userId, trx);
      await trx.deleteFrom('second_factors').where('user_id', '=', userId).execute();
      await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await trx.deleteFrom('trusted_devices').where('user_id', '=', userId).execute();
      await holdWithdrawals(trx, userId);
      await securityChanged(trx, userId, 'factors_reset');
      return kinds;
    },

    verify,

    /**
     * Step-up: a call that needs a second factor when one is on. `code` is the
     * X-Second-Factor header: 11100 without it, 11101 when it is not right.
     */
    async stepUp(userId: string, code: string | undefined, options: { recovery?: boolean; passkey?: PasskeyContext } = {}): Promise<void> {
      const kinds = await enabledKinds(userId);
      if (kinds.length === 0) return;
      if (!code) {
        // A passkey answers a challenge of this call: it comes with the refusal.
        const passkey = kinds.includes('passkey') && options.passkey ? await passkeys.authenticationOptions(userId, options.passkey.action, options.passkey.rp) : undefined;
        fail(ErrorCode.SECOND_FACTOR_REQUIRED, 'this call needs a second factor (the X-Second-Factor header)', { kinds, ...(passkey ? { passkey } : {}) });
      }
      await verify(userId, code!, options);
    },

    /** 11102 while money may not leave the wallet. */
    async refuseHeld(userId: string): Promise<void> {
      const row = await db
        .selectFrom('users')
        .select(sql<Date | null>`case when withdrawals_held_until > now() then withdrawals_held_until end`.as('held'))
        .where('id', '=', userId)
        .executeTakeFirst();
      if (row?.held) {
        const until = new Date(row.held);
        const hours = Math.max(1, Math.ceil((until.getTime() - now()) / 3_600_000));
        fail(ErrorCode.WITHDRAWALS_HELD, 'withdrawals and transfers are held after a security change (a factor reset, a recovery code, an e-mail change)', { until: until.toISOString(), hours });
      }
    },

    /** A login ticket: the password was right, the second step is due within 5 minutes. */
    issueTicket(userId: string): string {
      const body = `${userId}.${Math.floor(now() / 1000) + TICKET_SECONDS}`;
      return `${Buffer.from(body).toString('base64url')}.${createHmac('sha256', ticketKey).update(body).digest('base64url')}`;
    },

    /** The user of a live ticket, or 11101. */
    openTicket(ticket: string): string {
      const [encoded = '', mac = ''] = ticket.split('.');
      const body = Buffer.from(encoded, 'base64url').toString();
      const expected = createHmac('sha256', ticketKey).update(body).digest();
      const given = Buffer.from(mac, 'base64url');
      const [userId, expires] = body.split('.');
      if (given.length !== expected.length || !timingSafeEqual(given, expected) || !userId || Number(expires) * 1000 < now()) {
        return fail(ErrorCode.SECOND_FACTOR_INVALID, 'the login has expired; log in again', { field: 'ticket', expired: true });
      }
      return userId;
    },

    /** After a recovery-code login: withdrawals held, and the user told. */
    async recoveryUsed(trx: Db, userId: string): Promise<void> {
      await holdWithdrawals(trx, userId);
      await securityChanged(trx, userId, 'recovery_code_used');
    },

    /** After an e-mail change: withdrawals held as after a factor reset, and the user told. */
    async emailChanged(trx: Db, userId: string): Promise<void> {
      await holdWithdrawals(trx, userId);
      await securityChanged(trx, userId, 'email_changed');
    },

    /** A device trusted for 30 days: its token (for the cookie), stored as a hash. */
    async trustDevice(trx: Db, userId: string): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      await trx
        .insertInto('trusted_devices')
        .values({ user_id: userId, token_hash: sha256(token), expires_at: sql<Date>`now() + make_interval(days => ${TRUSTED_DEVICE_DAYS})` })
        .execute();
      return token;
    },

    async isTrusted(userId: string, token: string | undefined): Promise<boolean> {
      if (!token) return false;
      const row = await db
        .selectFrom('trusted_devices')
        .select('id')
        .where('token_hash', '=', sha256(token))
        .where('user_id', '=', userId)
        .where('expires_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      return !!row;
    },
  };
};

export type SecondFactors = ReturnType<typeof createSecondFactors>;
