import { Secret, TOTP } from 'otpauth';

/**
 * TOTP (RFC 6238) through `otpauth`: SHA-1, 6 digits, 30-second steps, the
 * parameters every authenticator app reads from the QR code. A code is
 * accepted one step either side of now (clock drift), and the step it
 * matched is returned so that the caller refuses it, and every earlier one,
 * afterwards (no replay inside the window).
 */
const ISSUER = 'Quant Trader';
const PERIOD = 30;
const WINDOW = 1;

const totpOf = (secret: string, label = '') =>
  new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });

/** A new secret (160 random bits, base32) and the otpauth:// URI an app scans. */
export const newTotp = (label: string): { secret: string; uri: string } => {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totpOf(secret, label).toString() };
};

/** The time step a code matches now (within the window), or null. */
export const matchedStep = (secret: string, code: string, nowMs: number): number | null => {
  if (!/^[0-9]{6}$/.test(code)) return null;
  const delta = totpOf(secret).validate({ token: code, timestamp: nowMs, window: WINDOW });
  return delta === null ? null : Math.floor(nowMs / 1000 / PERIOD) + delta;
};
