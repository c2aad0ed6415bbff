import { RECOVERY_CODE_PATTERN, TOTP_CODE_PATTERN } from '../../../src/api/security';
import { Body, envelope, Type } from '../http/schemas';

/** Field rules and answers of /api/security/* and the login's second step (README "Second factors"). */
const security = [{ bearer: [] }];
const totpCode = Type.String({ pattern: TOTP_CODE_PATTERN });
/** The login's second step takes an authenticator code or a recovery code. */
const loginCode = Type.String({ maxLength: 11, pattern: `${TOTP_CODE_PATTERN}|${RECOVERY_CODE_PATTERN}` });
const ticket = Type.String({ minLength: 20, maxLength: 200, pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$' });

/**
 * The step-up header of the calls that need a second factor once one is on
 * (withdrawals, transfers, real exchange keys, password change, widget
 * grants, turning the factor off): a code of the user's authenticator app.
 * Without it they answer 11100, with a wrong or used code 11101.
 */
export const stepUpHeaders = Type.Object({
  'x-second-factor': Type.Optional(
    Type.String({
      maxLength: 11,
      pattern: `${TOTP_CODE_PATTERN}|${RECOVERY_CODE_PATTERN}`,
      description: 'A second factor, required once the user has one on: a 6-digit authenticator code (turning the factor off also takes a recovery code)',
    }),
  ),
});

const nullAnswer = { 200: envelope({ type: 'null' }) };

export const statusSchema = {
  summary: 'The caller’s second factors, recovery codes left and any hold on withdrawals',
  security,
  response: {
    200: envelope({
      type: 'object',
      properties: {
        factors: {
          type: 'array',
          items: { type: 'object', properties: { kind: { type: 'string', enum: ['totp', 'passkey'] }, enabledAt: { type: 'string' } } },
        },
        recoveryCodesLeft: { type: 'integer' },
        withdrawalsHeldUntil: { type: ['string', 'null'] },
        locked: { type: 'boolean' },
      },
    }),
  },
};

export const totpSetupSchema = {
  summary: 'Start turning on an authenticator app: a new secret and its otpauth:// URI (the QR code), pending until a first code confirms it',
  security,
  response: { 200: envelope({ type: 'object', properties: { secret: { type: 'string' }, uri: { type: 'string' } } }) },
};

export const totpEnableSchema = {
  summary: 'Confirm the pending authenticator app with its first code: on, with ten one-time recovery codes (shown once)',
  security,
  body: Body({ code: totpCode }),
  response: { 200: envelope({ type: 'object', properties: { recoveryCodes: { type: 'array', items: { type: 'string' } } } }) },
};

export const totpDisableSchema = {
  summary: 'Turn the authenticator app off (step-up: X-Second-Factor); its recovery codes and trusted devices go with it',
  security,
  headers: stepUpHeaders,
  response: nullAnswer,
};

export const loginSecondFactorBody = Body({ ticket, code: loginCode, trustDevice: Type.Boolean() });

export const loginSecondFactorSchema = {
  summary:
    'The login’s second step: the ticket of a login answered 11100 and an authenticator or recovery code (a recovery code is used up and holds withdrawals 24 h); trustDevice sets an httpOnly cookie that skips this step for 30 days',
  body: loginSecondFactorBody,
};
