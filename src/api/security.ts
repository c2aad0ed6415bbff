/**
 * Second factors (issue 26): the contract of /api/security/* and of the
 * login's second step. A factor is of a kind; 'totp' (an authenticator app)
 * now, 'passkey' later. A call that moves money, changes keys or the
 * account's security carries the factor in one header (step-up).
 */

export type FactorKind = 'totp' | 'passkey';

/** The header a step-up call carries: a TOTP code (6 digits). */
export const SECOND_FACTOR_HEADER = 'X-Second-Factor';

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
  /** A TOTP code or a recovery code (used up). */
  code: string;
  /** Trust this device for TRUSTED_DEVICE_DAYS days (an httpOnly cookie). */
  trustDevice: boolean;
}
