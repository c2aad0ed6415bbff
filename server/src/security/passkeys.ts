import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { sql } from 'kysely';
import { ErrorCode } from '../../../src/api/errors';
import { PASSKEY_CHALLENGE_SECONDS, PASSKEY_NAME_MAX, type PasskeyInfo } from '../../../src/api/security';
import type { Db } from '../db/database';
import { fail } from '../http/errors';

/** Where the browser speaks from: the relying party's id (a host name) and the page's origin. */
export interface RelyingParty {
  id: string;
  origin: string;
}

/** The relying party: the configured public address when there is one, else the request's own host. */
export const relyingPartyOf = (publicUrl: string | undefined, request: { protocol: string; host: string }): RelyingParty => {
  const origin = new URL(publicUrl ?? `${request.protocol}://${request.host}`);
  return { id: origin.hostname, origin: origin.origin };
};

const RP_NAME = 'Quant Trader';

/** The challenge a response answers, read from its client data (checked again by the library against the stored one). */
const challengeOf = (response: { response?: { clientDataJSON?: unknown } }): string | null => {
  try {
    const data = JSON.parse(Buffer.from(String(response.response?.clientDataJSON ?? ''), 'base64url').toString()) as { challenge?: unknown };
    return typeof data.challenge === 'string' && data.challenge.length > 0 ? data.challenge : null;
  } catch {
    return null;
  }
};

const refused = (message: string): never => fail(ErrorCode.PASSKEY_INVALID, message, { field: 'passkey' });

/**
 * Passkeys (WebAuthn) through @simplewebauthn/server: registration, and
 * assertions for the login's second step, step-up and the passkey login.
 * Every challenge is stored here, bound to its user and action, lives
 * PASSKEY_CHALLENGE_SECONDS and is taken (deleted) by the first response that
 * names it, right or wrong. A counter that does not grow marks a clone.
 */
export const createPasskeys = (db: Db) => {
  const storeChallenge = async (userId: string | null, action: string, challenge: string) => {
    await db.deleteFrom('webauthn_challenges').where('expires_at', '<', sql<Date>`now()`).execute();
    await db
      .insertInto('webauthn_challenges')
      .values({ user_id: userId, action, challenge, expires_at: sql<Date>`now() + make_interval(secs => ${PASSKEY_CHALLENGE_SECONDS})` })
      .execute();
  };

  /** Takes a live challenge of this user (null: a passkey login) and action; false when none. */
  const takeChallenge = async (userId: string | null, action: string, challenge: string): Promise<boolean> => {
    const taken = await db
      .deleteFrom('webauthn_challenges')
      .where('challenge', '=', challenge)
      .where('action', '=', action)
      .where('user_id', userId === null ? 'is' : '=', userId)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning('id')
      .executeTakeFirst();
    return taken !== undefined;
  };

  const credentialsOf = (userId: string) =>
    db
      .selectFrom('second_factors')
      .select(['id', 'name', 'credential_id', 'public_key', 'counter', 'transports', 'created_at', 'last_used_at'])
      .where('user_id', '=', userId)
      .where('kind', '=', 'passkey')
      .where('enabled_at', 'is not', null)
      .orderBy('created_at')
      .execute();

  const transportsOf = (text: string | null) => (text ? (JSON.parse(text) as AuthenticatorTransport[]) : undefined);

  return {
    async list(userId: string): Promise<PasskeyInfo[]> {
      return (await credentialsOf(userId)).map((row) => ({
        id: row.id,
        name: row.name ?? '',
        createdAt: new Date(row.created_at).toISOString(),
        lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
      }));
    },

    /** Options to create a discoverable passkey for the user (its existing ones excluded). */
    async registrationOptions(userId: string, rp: RelyingParty): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const user = await db.selectFrom('users').select(['email', 'nickname']).where('id', '=', userId).executeTakeFirstOrThrow();
      const existing = await credentialsOf(userId);
      const options = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID: rp.id,
        userName: user.email,
        userDisplayName: user.nickname || user.email,
        userID: new TextEncoder().encode(userId),
        attestationType: 'none',
        excludeCredentials: existing.map((row) => ({ id: row.credential_id!, transports: transportsOf(row.transports) })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
        timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
      });
      await storeChallenge(userId, 'register', options.challenge);
      return options;
    },

    /** Checks a registration response against the user's stored challenge (taken, right or wrong): the credential to keep. */
    async verifyRegistration(userId: string, response: RegistrationResponseJSON, rp: RelyingParty) {
      const challenge = challengeOf(response);
      if (!challenge || !(await takeChallenge(userId, 'register', challenge))) refused('no live registration request of this user matches the passkey');
      let info;
      try {
        const verified = await verifyRegistrationResponse({ response, expectedChallenge: challenge!, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: false });
        info = verified.verified ? verified.registrationInfo : undefined;
      } catch {
        info = undefined;
      }
      return info?.credential ?? refused('the passkey could not be verified');
    },

    /** Keeps a verified credential as an enabled passkey of the user. */
    async keep(trx: Db, userId: string, name: string, credential: { id: string; publicKey: Uint8Array; counter: number; transports?: string[] | undefined }): Promise<void> {
      const taken = await trx.selectFrom('second_factors').select('id').where('credential_id', '=', credential.id).executeTakeFirst();
      if (taken) fail(ErrorCode.ALREADY_EXISTS, 'this passkey is already registered');
      await trx
        .insertInto('second_factors')
        .values({
          user_id: userId,
          kind: 'passkey',
          name: name.trim().slice(0, PASSKEY_NAME_MAX),
          credential_id: credential.id,
          public_key: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: credential.transports ? JSON.stringify(credential.transports) : null,
          enabled_at: sql<Date>`now()`,
        })
        .execute();
    },

    /** Options to assert a passkey: the user's own (a second factor), or any discoverable one (userId null: a passkey login). */
    async authenticationOptions(userId: string | null, action: string, rp: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const allow = userId ? (await credentialsOf(userId)).map((row) => ({ id: row.credential_id!, transports: transportsOf(row.transports) })) : undefined;
      const options = await generateAuthenticationOptions({
        rpID: rp.id,
        userVerification: userId ? 'preferred' : 'required',
        timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
        ...(allow ? { allowCredentials: allow } : {}),
      });
      await storeChallenge(userId, action, options.challenge);
      return options;
    },

    /**
     * Checks an assertion: its challenge must be a live one of this user (null:
     * a passkey login) and action, its credential one of the user's (any
     * user's for a login), its signature right and its counter grown. Returns
     * the credential's user, or null when it is refused.
     */
    async assert(userId: string | null, action: string, response: AuthenticationResponseJSON, rp: RelyingParty): Promise<string | null> {
      const challenge = challengeOf(response);
      if (!challenge || typeof response.id !== 'string' || !(await takeChallenge(userId, action, challenge))) return null;
      let query = db
        .selectFrom('second_factors')
        .select(['id', 'user_id', 'credential_id', 'public_key', 'counter', 'transports'])
        .where('kind', '=', 'passkey')
        .where('enabled_at', 'is not', null)
        .where('credential_id', '=', response.id);
      if (userId) query = query.where('user_id', '=', userId);
      const row = await query.executeTakeFirst();
      if (!row) return null;
      let newCounter: number;
      try {
        const verified = await verifyAuthenticationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          credential: { id: row.credential_id!, publicKey: Buffer.from(row.public_key!, 'base64url'), counter: Number(row.counter ?? 0), transports: transportsOf(row.transports) },
          // A login of its own stands for the password too: the authenticator must have checked its user.
          requireUserVerification: userId === null,
        });
        if (!verified.verified) return null;
        newCounter = verified.authenticationInfo.newCounter;
      } catch {
        return null;
      }
      // Compare-and-set: of two assertions with the same counter, one wins.
      const updated = await db
        .updateTable('second_factors')
        .set({ counter: newCounter, last_used_at: sql<Date>`now()` })
        .where('id', '=', row.id)
        .where((eb) => (newCounter > 0 ? eb('counter', '<', String(newCounter)) : eb('counter', '=', '0')))
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1 ? row.user_id : null;
    },

    async remove(trx: Db, userId: string, id: string): Promise<boolean> {
      const removed = await trx.deleteFrom('second_factors').where('id', '=', id).where('user_id', '=', userId).where('kind', '=', 'passkey').executeTakeFirst();
      return Number(removed.numDeletedRows) === 1;
    },
  };
};

export type Passkeys = ReturnType<typeof createPasskeys>;
