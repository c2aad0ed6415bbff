import { PASSKEY_HEADER_PATTERN, PASSKEY_NAME_MAX, RECOVERY_CODE_PATTERN, TOTP_CODE_PATTERN } from '../../../src/api/security';
import { Body, envelope, Type } from '../http/schemas';

/** Field rules and answers of /api/security/* and the login's second step (README "Second factors"). */
const security = [{ bearer: [] }];
const totpCode = Type.String({ pattern: TOTP_CODE_PATTERN });
/** The login's second step takes an authenticator code or a recovery code. */
const loginCode = Type.String({ maxLength: 12_008, pattern: `${TOTP_CODE_PATTERN}|${RECOVERY_CODE_PATTERN}|${PASSKEY_HEADER_PATTERN}` });
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
      maxLength: 12_008,
      pattern: `${TOTP_CODE_PATTERN}|${RECOVERY_CODE_PATTERN}|${PASSKEY_HEADER_PATTERN}`,
      description:
        'A second factor, required once the user has one on: a 6-digit authenticator code (turning the factor off also takes a recovery code), or `passkey:` and the base64url JSON of a passkey assertion answering the challenge of the call’s 11100 refusal (data.passkey)',
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
        passkeys: {
          type: 'array',
          items: {
            type: 'object',
            properties: { id: { type: 'string' }, name: { type: 'string' }, createdAt: { type: 'string' }, lastUsedAt: { type: ['string', 'null'] } },
          },
        },
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

/** A browser's WebAuthn response (JSON, binary fields base64url): checked by @simplewebauthn/server, bounded here. */
const webauthnResponse = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 1024, pattern: '^[A-Za-z0-9_-]+$' }),
    rawId: Type.String({ maxLength: 1024 }),
    type: Type.Literal('public-key'),
    response: Type.Object({ clientDataJSON: Type.String({ maxLength: 8192 }) }, { additionalProperties: true, maxProperties: 12 }),
    clientExtensionResults: Type.Optional(Type.Object({}, { additionalProperties: true })),
    authenticatorAttachment: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: false },
);
/** WebAuthn options as the browser part takes them. */
const passkeyOptions = envelope({ type: 'object', additionalProperties: true, properties: { challenge: { type: 'string' } } });

export const passkeyRegistrationOptionsSchema = {
  summary: 'Options to create a passkey (a discoverable credential); its challenge is bound to the caller and lives 5 minutes',
  security,
  response: { 200: passkeyOptions },
};

export const passkeyRegisterSchema = {
  summary:
    'Keep a passkey: its name and the browser’s registration response (step-up: X-Second-Factor once a factor is on); the account’s first factor answers ten recovery codes (shown once), else null',
  security,
  headers: stepUpHeaders,
  body: Body({ name: Type.String({ minLength: 1, maxLength: PASSKEY_NAME_MAX, pattern: '\\S' }), response: webauthnResponse }),
  response: { 200: envelope({ type: 'object', properties: { recoveryCodes: { type: ['array', 'null'], items: { type: 'string' } } } }) },
};

export const passkeyRemoveSchema = {
  summary: 'Remove a passkey (step-up: X-Second-Factor); the last factor gone takes the recovery codes and trusted devices with it',
  security,
  headers: stepUpHeaders,
  body: Body({ id: Type.String({ format: 'uuid' }) }),
  response: nullAnswer,
};

export const passkeyLoginOptionsSchema = {
  summary:
    'Options to assert a passkey at login: with the ticket of a login answered 11100, one of that user’s passkeys (the second step); without, any discoverable passkey of this site (the passkey login)',
  body: Body({ ticket: Type.Optional(ticket) }),
  response: { 200: passkeyOptions },
};

export const passkeyLoginBody = Body({ response: webauthnResponse });

export const passkeyLoginSchema = {
  summary: 'Log in with a passkey alone (a discoverable credential whose authenticator checked its user): it stands for the password and the second factor',
  body: passkeyLoginBody,
};
