import { ErrorCode } from '../../../src/api/errors';
import { DEMO_EMAIL } from '../../../src/api/demo';
import { WITHDRAWAL_HOLD_HOURS } from '../../../src/api/security';
import type { User } from '../../../src/api/types';
import type { Db } from '../db/database';
import { fail } from '../http/errors';
import { maskEmail, type Mailer } from '../mail/mailer';
import { notifyLocale } from '../notify/texts';
import type { SecondFactors } from '../security/factors';
import { refuseDemoUser } from '../shared/demoGuard';
import type { Throttle } from '../shared/throttle';
import type { VerificationCodes } from './codes';
import { emailChangedMail } from './mailTexts';
import { confirmCurrentPassword, type Me } from './profileService';
import type { ChangeEmailBody } from './schemas';
import { CODE_LIMITS_EMAIL, CODE_LIMITS_IP, CODE_SENT, USER_COLUMNS, mailCode, normalizeEmail, toUser, type Caller } from './service';
import { revokeOtherSessions } from './sessions';

export interface EmailChangeDeps {
  db: Db;
  throttle: Throttle;
  codes: VerificationCodes;
  mailer: Mailer;
  factors: SecondFactors;
}

/**
 * Moving an account to a new e-mail address (issue 26, README "E-mail
 * change"): a code mailed to the new address, asked for while signed in and
 * good only for that user, then the code, the current password and (once a
 * factor is on) the step-up. The change ends every other session, holds money
 * leaving the wallet 24 hours, writes `user.security_changed` and tells the
 * old address. The shared demo account is refused (11005).
 */
export const createEmailChange = (deps: EmailChangeDeps) => {
  const { db, throttle, codes, mailer, factors } = deps;

  /** 10007 when the address is the caller's own, another account's, or the demo account's. */
  const refuseTaken = async (userId: string, email: string) => {
    const owner = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    if (owner?.id === userId) fail(ErrorCode.ALREADY_EXISTS, 'this is already the e-mail address of the account', { field: 'email', reason: 'same' });
    if (owner || email === DEMO_EMAIL) fail(ErrorCode.ALREADY_EXISTS, 'this email is already registered', { field: 'email' });
  };

  return {
    /** verify-code with type `change_email`: a code to the new address, bound to the caller. */
    async sendCode(me: Me, rawEmail: string, caller: Caller) {
      await refuseDemoUser(db, me.id, 'change its e-mail');
      const email = normalizeEmail(rawEmail);
      // Counted before anything is looked up or sent, refusals included (they tell whether an address is taken).
      await throttle.take([
        { key: `code:change_email:email:${email}`, limits: CODE_LIMITS_EMAIL },
        { key: `code:change_email:user:${me.id}`, limits: CODE_LIMITS_EMAIL },
        { key: `code:ip:${caller.ip}`, limits: CODE_LIMITS_IP },
      ]);
      await refuseTaken(me.id, email);
      const user = await db.selectFrom('users').select('anti_phishing_phrase').where('id', '=', me.id).executeTakeFirstOrThrow();
      // The new address is not the account's yet: its mail carries the account's phrase all the same.
      await mailCode({ codes, mailer }, { email, type: 'change_email', scope: me.id, antiPhishingPhrase: user.anti_phishing_phrase }, caller);
      return CODE_SENT;
    },

    /** The change itself (the route checked the step-up first). Nothing changes on a refusal. */
    async change(me: Me, body: ChangeEmailBody, caller: Pick<Caller, 'log'>): Promise<User> {
      await refuseDemoUser(db, me.id, 'change its e-mail');
      const email = normalizeEmail(body.email);
      await refuseTaken(me.id, email);
      await confirmCurrentPassword(deps, me.id, body.password, 'password');
      await codes.consume(email, 'change_email', body.captcha, me.id);
      const { before, row } = await db
        .transaction()
        .execute(async (trx) => {
          const old = await trx.selectFrom('users').select(['email', 'locale', 'anti_phishing_phrase']).where('id', '=', me.id).forUpdate().executeTakeFirstOrThrow();
          const updated = await trx.updateTable('users').set({ email }).where('id', '=', me.id).returning([...USER_COLUMNS]).executeTakeFirstOrThrow();
          // Every other session ends now, as after a password change; this one stays.
          await revokeOtherSessions(trx, me.id, me.sessionId);
          // Money leaving is held 24 hours and the user told (user.security_changed), as after a factor reset.
          await factors.emailChanged(trx, me.id);
          return { before: old, row: updated };
        })
        .catch((error: unknown) => {
          // Taken by a registration between the check and the change.
          if ((error as { code?: string }).code === '23505') fail(ErrorCode.ALREADY_EXISTS, 'this email is already registered', { field: 'email' });
          throw error;
        });
      const locale = notifyLocale(before.locale);
      try {
        // Sent to the address the account left, so the mailer cannot look its phrase up by it.
        await mailer.send({ to: before.email, locale, antiPhishingPhrase: before.anti_phishing_phrase, ...emailChangedMail(locale, maskEmail(email), new Date(), WITHDRAWAL_HOLD_HOURS) });
      } catch (error) {
        // The change stands; the in-app notice and the new address still tell the user.
        caller.log.error({ err: error }, 'the e-mail change notice to the old address failed');
      }
      return toUser(row);
    },
  };
};
export type EmailChange = ReturnType<typeof createEmailChange>;
