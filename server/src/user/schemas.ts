import { SecretText, UNSAFE_CHARACTERS } from '../http/schemas';
import { signatureProperties, signatureRequired } from '../http/signature';

/** Field rules of the account calls (documented in the README). */
export const emailSchema = { type: 'string', format: 'email', minLength: 3, maxLength: 254 } as const;
export const passwordSchema = SecretText({ minLength: 8, maxLength: 128 });
/** 2-20 characters: no control characters, no markup, and no invisible formatting (zero-width and bidi controls such as U+202E). */
export const nicknameSchema = { type: 'string', minLength: 2, maxLength: 20, pattern: `^[^<>${UNSAFE_CHARACTERS}]*$` } as const;
export const captchaSchema = { type: 'string', pattern: '^[0-9]{6}$' } as const;
export const inviteCodeSchema = { type: 'string', maxLength: 16, pattern: '^[A-Za-z0-9]*$' } as const;

const signed = <P extends Record<string, unknown>, R extends readonly string[]>(properties: P, required: R) =>
  ({
    type: 'object',
    additionalProperties: false,
    properties: { ...properties, ...signatureProperties },
    required: [...required, ...signatureRequired],
  }) as const;

export const userSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    nickname: { type: 'string' },
    avatar: { type: ['string', 'null'] },
    inviteCode: { type: 'string' },
    level: { type: 'integer' },
    activated: { type: 'boolean' },
    role: { type: 'string', enum: ['user', 'operator'] },
  },
} as const;

const envelope = (data: object) => ({
  type: 'object',
  properties: { code: { type: 'integer' }, message: { type: 'string' }, data },
});

const loginAnswer = envelope({
  type: 'object',
  properties: { accessToken: { type: 'string' }, refreshToken: { type: 'string' }, user: userSchema },
});

export const loginSchema = {
  summary: 'Log in (signed: email, password)',
  body: signed({ email: emailSchema, password: { type: 'string', minLength: 1, maxLength: 128 } }, ['email', 'password']),
  response: { 200: loginAnswer },
};

export const registerSchema = {
  summary: 'Register (signed: email, nickname, password, secondPassword, captcha, inviteCode)',
  body: signed(
    {
      email: emailSchema,
      nickname: nicknameSchema,
      password: passwordSchema,
      secondPassword: passwordSchema,
      captcha: captchaSchema,
      inviteCode: inviteCodeSchema,
      rememberMe: { type: 'boolean' },
    },
    ['email', 'nickname', 'password', 'secondPassword', 'captcha'],
  ),
  response: { 200: loginAnswer },
};

export const verifyCodeSchema = {
  summary: 'Send an email verification code (signed: email, type)',
  body: signed({ email: emailSchema, type: { type: 'string', enum: ['register', 'reset'] } }, ['email', 'type']),
  response: { 200: envelope({ type: 'object', properties: { expiresIn: { type: 'integer' }, resendAfter: { type: 'integer' } } }) },
};

export const resetPasswordSchema = {
  summary: 'Reset the password with an email code; ends every session (signed: email, newPassword, captcha)',
  body: signed({ email: emailSchema, newPassword: passwordSchema, captcha: captchaSchema }, ['email', 'newPassword', 'captcha']),
  response: { 200: envelope({ type: 'null' }) },
};

export const refreshSchema = {
  summary: 'Rotate the token pair (signed: refreshToken)',
  body: signed({ refreshToken: { type: 'string', minLength: 20, maxLength: 200 } }, ['refreshToken']),
  response: { 200: envelope({ type: 'object', properties: { accessToken: { type: 'string' }, refreshToken: { type: 'string' } } }) },
};

export const logoutSchema = {
  summary: 'End the current session',
  security: [{ bearer: [] }],
  response: { 200: envelope({ type: 'null' }) },
};

export const meSchema = {
  summary: 'The signed-in user',
  security: [{ bearer: [] }],
  response: { 200: envelope(userSchema) },
};
