import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { PASSKEY_PREFIX, type PasskeyOptions } from '../../api/security';

/** The browser's part of a passkey ceremony (README "Passkeys"), through @simplewebauthn/browser. */
export const passkeysSupported = () => browserSupportsWebAuthn();

/** Creates a passkey for the server's options: the response to send back. */
export const createPasskey = async (options: PasskeyOptions): Promise<Record<string, unknown>> =>
  (await startRegistration({ optionsJSON: options as never })) as unknown as Record<string, unknown>;

/** Asks the authenticator to sign the server's challenge: the assertion to send back. */
export const assertPasskey = async (options: PasskeyOptions): Promise<Record<string, unknown>> =>
  (await startAuthentication({ optionsJSON: options as never })) as unknown as Record<string, unknown>;

/** An assertion as the X-Second-Factor header (and the login's second-step code) carries it. */
export const passkeyFactor = (assertion: Record<string, unknown>): string =>
  `${PASSKEY_PREFIX}${btoa(JSON.stringify(assertion)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;

/** The passkey options a refusal 11100 carries (data.passkey), when the user has a passkey. */
export const passkeyOptionsOf = (data: unknown): PasskeyOptions | null => {
  const options = (data as { passkey?: unknown } | null | undefined)?.passkey;
  return typeof options === 'object' && options !== null && typeof (options as { challenge?: unknown }).challenge === 'string' ? (options as PasskeyOptions) : null;
};

/** Which factors a refusal 11100 names (data.kinds). */
export const kindsOf = (data: unknown): string[] => {
  const kinds = (data as { kinds?: unknown } | null | undefined)?.kinds;
  return Array.isArray(kinds) ? kinds.filter((kind): kind is string => typeof kind === 'string') : [];
};
