/**
 * Second factors (issue 26): the contract of /api/security/* and of the
 * login's second step. A factor is of a kind; 'totp' (an authenticator app)
 * now, 'passkey' later. A call that moves money, changes keys or the
 * account's security carries the factor in one header (step-up).
 */

export type FactorKind = 'totp' | 'passkey';

/** The header a step-up call carries: a TOTP code (6 digits), or PASSKEY_PREFIX and a passkey's assertion. */
export const SECOND_FACTOR_HEADER = 'X-Second-Factor';

/** A passkey in the step-up header: `passkey:` and the base64url of the assertion's JSON (answering the challenge of the call's 11100). */
export const PASSKEY_PREFIX = 'passkey:';
export const PASSKEY_HEADER_PATTERN = '^passkey:[A-Za-z0-9_-]{20,12000}$';

/** Seconds a passkey challenge lives (it is taken once). */
export const PASSKEY_CHALLENGE_SECONDS = 300;

export const PASSKEY_NAME_MAX = 40;

/** A registered passkey as Profile Security lists it. */
export interface PasskeyInfo {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** Days a device stays trusted after a second step with "trust this device". */
export const TRUSTED_DEVICE_DAYS = 30;

/** Hours the wallet holds money leaving it after a factor reset or a recovery-code login. */
export const WITHDRAWAL_HOLD_HOURS = 24;

export const RECOVERY_CODE_COUNT = 10;

/** A recovery code as shown: two groups of five base32 characters (`7KQ2M-XH4PA`), case and dash ignored when typed. */
export const RECOVERY_CODE_PATTERN = '^[A-Za-z2-7]{5}-?[A-Za-z2-7]{5}$';

export const TOTP_CODE_PATTERN = '^[0-9]{6}$';

export interface SecurityStatus {
  /** The enabled factors. */
  factors: { kind: FactorKind; enabledAt: string }[];
  /** Unused recovery codes left. */
  recoveryCodesLeft: number;
  /** ISO time until which money does not leave the wallet, or null. */
  withdrawalsHeldUntil: string | null;
  /** The shared demo account: its security settings cannot be changed. */
  locked: boolean;
  /** The user's passkeys. */
  passkeys: PasskeyInfo[];
}

/** A pending authenticator: the base32 secret to type and the otpauth:// URI of the QR code. */
export interface TotpSetup {
  secret: string;
  uri: string;
}

export interface TotpEnablePayload {
  code: string;
}

/** Shown once, when the factor is turned on. */
export interface RecoveryCodes {
  recoveryCodes: string[];
}

/** The login's answer (code 11100) when a second factor is needed: the ticket to complete it with. */
export interface SecondFactorChallenge {
  ticket: string;
  kinds: FactorKind[];
}

export interface SecondFactorLoginPayload {
  ticket: string;
  /** A TOTP code, a recovery code (used up) or PASSKEY_PREFIX and a passkey's assertion. */
  code: string;
  /** Trust this device for TRUSTED_DEVICE_DAYS days (an httpOnly cookie). */
  trustDevice: boolean;
}

/** WebAuthn options as the browser part takes them (JSON, binary fields base64url). */
export type PasskeyOptions = Record<string, unknown> & { challenge: string };

/** A passkey's registration: the name the user gives it and the browser's response. */
export interface PasskeyRegisterPayload {
  name: string;
  response: Record<string, unknown>;
}

/** The passkey login: the browser's assertion (a discoverable credential) and "trust this device". */
export interface PasskeyLoginPayload {
  response: Record<string, unknown>;
}

/** The login's second step may ask for passkey options with its ticket; the passkey login without one. */
export interface PasskeyOptionsPayload {
  ticket?: string;
}
