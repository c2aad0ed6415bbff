import type { Static, TProperties } from 'typebox';
import type { ChangeEmailPayload, ChangePasswordPayload, ProfileEditPayload, UserSession } from '../../../src/api/member';
import type { SignatureFields } from '../../../src/api/signing';
import type { LoginPayload, LoginResponse, RefreshResponse, RegisterFields, ResetPasswordPayload, User, VerifyCodePayload } from '../../../src/api/types';
import { Body, SameShape as sameShape, SecretText, StringEnum, Type, UNSAFE_CHARACTERS, Uuid, envelope, type Same } from '../http/schemas';
import { signatureProperties } from '../http/signature';

/** Field rules of the account calls (documented in the README). */
export const emailSchema = Type.String({ format: 'email', minLength: 3, maxLength: 254 });
/** A new password; the service also refuses common ones (10008) and counts characters, not UTF-16 units (10004). */
export const passwordSchema = SecretText({ minLength: 8, maxLength: 128 });
/** A password being checked against the stored one (login, the current one): any text, the hash decides. */
export const givenPasswordSchema = Type.String({ minLength: 1, maxLength: 128 });
/** 2-20 characters: no control characters, no markup, and no invisible formatting (zero-width and bidi controls such as U+202E). */
export const nicknameSchema = Type.String({ minLength: 2, maxLength: 20, pattern: `^[^<>${UNSAFE_CHARACTERS}]*$` });
export const captchaSchema = Type.String({ pattern: '^[0-9]{6}$' });
export const inviteCodeSchema = Type.String({ maxLength: 16, pattern: '^[A-Za-z0-9]*$' });
export const verifyCodeTypeSchema = StringEnum(['register', 'reset', 'change_email'] as const);
export const refreshTokenSchema = Type.String({ minLength: 20, maxLength: 200 });

/** The app's 64 KB body limit cannot carry a 48 KB image as base64 (4/3 larger): the profile call alone allows more. */
export const PROFILE_BODY_LIMIT = 80 * 1024;
/** An avatar data URL, or null to remove it (one `type` list, not anyOf: its refusals keep their codes). The service checks the image. */
const avatarSchema = Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: PROFILE_BODY_LIMIT });

/** A signed call's body: its fields and the signature's (unknown fields refused). */
const signed = <P extends TProperties>(properties: P) => Body({ ...properties, ...signatureProperties });

export const loginBody = signed({ email: emailSchema, password: givenPasswordSchema });
export const registerBody = signed({
  email: emailSchema,
  nickname: nicknameSchema,
  password: passwordSchema,
  secondPassword: passwordSchema,
  captcha: captchaSchema,
  inviteCode: Type.Optional(inviteCodeSchema),
  rememberMe: Type.Optional(Type.Boolean()),
});
export const verifyCodeBody = signed({ email: emailSchema, type: verifyCodeTypeSchema });
export const resetPasswordBody = signed({ email: emailSchema, newPassword: passwordSchema, captcha: captchaSchema });
export const refreshBody = signed({ refreshToken: refreshTokenSchema });
export const profileEditBody = Body({ nickname: nicknameSchema, avatar: Type.Optional(avatarSchema) });
export const changePasswordBody = signed({ oldPassword: givenPasswordSchema, newPassword: passwordSchema, secondPassword: passwordSchema });
export const revokeSessionBody = Body({ id: Uuid() });
export const changeEmailBody = signed({ email: emailSchema, captcha: captchaSchema, password: givenPasswordSchema });

export type LoginBody = Static<typeof loginBody>;
export type RegisterBody = Static<typeof registerBody>;
export type VerifyCodeBody = Static<typeof verifyCodeBody>;
export type ResetPasswordBody = Static<typeof resetPasswordBody>;
export type ProfileEditBody = Static<typeof profileEditBody>;
export type ChangePasswordBody = Static<typeof changePasswordBody>;
export type ChangeEmailBody = Static<typeof changeEmailBody>;

// The contract's payloads (src/api, what the dashboard sends) and these schemas describe the same values.
sameShape<Same<LoginBody, LoginPayload & SignatureFields>>();
// The dashboard always says whether to remember the session; the server does not need to know.
sameShape<Same<RegisterBody, Omit<RegisterFields, 'rememberMe'> & Partial<Pick<RegisterFields, 'rememberMe'>> & SignatureFields>>();
sameShape<Same<VerifyCodeBody, VerifyCodePayload & SignatureFields>>();
sameShape<Same<ResetPasswordBody, ResetPasswordPayload & SignatureFields>>();
sameShape<Same<Static<typeof refreshBody>, Pick<RefreshResponse, 'refreshToken'> & SignatureFields>>();
sameShape<Same<ProfileEditBody, ProfileEditPayload>>();
sameShape<Same<ChangePasswordBody, ChangePasswordPayload & SignatureFields>>();
sameShape<Same<ChangeEmailBody, ChangeEmailPayload & SignatureFields>>();
sameShape<Same<Static<typeof revokeSessionBody>, Pick<UserSession, 'id'>>>();

/** Answers. They list every field of the contract's type (checked below): the serializer sends only what a schema lists. */
const nullableText = { type: ['string', 'null'] } as const;

export const userSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    nickname: { type: 'string' },
    avatar: nullableText,
    inviteCode: { type: 'string' },
    level: { type: 'integer' },
    activated: { type: 'boolean' },
    role: { type: 'string', enum: ['user', 'operator'] },
  },
} as const;

const tokenPairProperties = { accessToken: { type: 'string' }, refreshToken: { type: 'string' } } as const;
const loginAnswerSchema = { type: 'object', properties: { ...tokenPairProperties, user: userSchema } } as const;
const refreshAnswerSchema = { type: 'object', properties: tokenPairProperties } as const;

export const sessionSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    userAgent: nullableText,
    ip: nullableText,
    createdAt: { type: 'string' },
    lastSeenAt: { type: 'string' },
    current: { type: 'boolean' },
  },
} as const;

/** Compile time: a response schema lists exactly the fields of the contract's type, so none the dashboard reads is dropped. */
type ListsFieldsOf<S extends { properties: object }, T> = Same<keyof S['properties'], keyof T>;
sameShape<ListsFieldsOf<typeof userSchema, User>>();
sameShape<ListsFieldsOf<typeof loginAnswerSchema, LoginResponse>>();
sameShape<ListsFieldsOf<typeof refreshAnswerSchema, RefreshResponse>>();
sameShape<ListsFieldsOf<typeof sessionSchema, UserSession>>();

const nullAnswer = { 200: envelope({ type: 'null' }) };

export const loginSchema = {
  summary: 'Log in (signed: email, password)',
  body: loginBody,
  response: { 200: envelope(loginAnswerSchema) },
};

export const registerSchema = {
  summary: 'Register (signed: email, nickname, password, secondPassword, captcha, inviteCode)',
  body: registerBody,
  response: { 200: envelope(loginAnswerSchema) },
};

export const verifyCodeSchema = {
  summary:
    "Send an email verification code (signed: email, type). Type change_email needs the bearer token: the code goes to the new address and is good only for the signed-in user's e-mail change",
  body: verifyCodeBody,
  response: { 200: envelope({ type: 'object', properties: { expiresIn: { type: 'integer' }, resendAfter: { type: 'integer' } } }) },
};

export const resetPasswordSchema = {
  summary: 'Reset the password with an email code; ends every session (signed: email, newPassword, captcha)',
  body: resetPasswordBody,
  response: nullAnswer,
};

export const refreshSchema = {
  summary: 'Rotate the token pair (signed: refreshToken)',
  body: refreshBody,
  response: { 200: envelope(refreshAnswerSchema) },
};

export const logoutSchema = {
  summary: 'End the current session',
  security: [{ bearer: [] }],
  response: nullAnswer,
};

export const demoSchema = {
  summary: "The shared demo account's published login, or null when this server has none (no bearer token)",
  response: { 200: envelope({ anyOf: [{ type: 'null' }, { type: 'object', properties: { email: { type: 'string' }, password: { type: 'string' } } }] }) },
};

export const meSchema = {
  summary: 'The signed-in user',
  security: [{ bearer: [] }],
  response: { 200: envelope(userSchema) },
};

export const profileEditSchema = {
  summary: 'Edit the nickname and avatar (a PNG, JPEG or WebP data URL up to 48 KB, or null to remove it)',
  body: profileEditBody,
  response: { 200: envelope(userSchema) },
};

export const changePasswordSchema = {
  summary: 'Change the password; ends every other session (signed: oldPassword, newPassword; step-up: X-Second-Factor once a factor is on)',
  body: changePasswordBody,
  response: nullAnswer,
};

export const changeEmailSchema = {
  summary:
    "Move the account to a new e-mail address with the code mailed to it (verify-code type change_email) and the current password; ends every other session, holds withdrawals and transfers 24 hours and tells the old address; refused to the demo account (11005) (signed: email, captcha, password; step-up: X-Second-Factor once a factor is on)",
  security: [{ bearer: [] }],
  body: changeEmailBody,
  response: { 200: envelope(userSchema) },
};

export const sessionsSchema = {
  summary: "The user's active login sessions, the current one flagged",
  response: { 200: envelope({ type: 'array', items: sessionSchema }) },
};

export const revokeSessionSchema = {
  summary: "End one of the user's sessions (the current one too: a logout)",
  body: revokeSessionBody,
  response: nullAnswer,
};

/** The anti-phishing phrase: trimmed, at most 20 characters (checked after the trim), no markup; '' removes it. */
export const antiPhishingBody = Body({ phrase: Type.String({ maxLength: 64, pattern: '^[^\\u0000-\\u001f\\u007f\\ud800-\\udfff]*$' }) });
const antiPhishingAnswer = { 200: envelope({ type: 'object', properties: { phrase: { type: ['string', 'null'] } } }) };

export const antiPhishingSchema = {
  summary: "The caller's anti-phishing phrase (shown first in every mail; the app shows it only in its own setting)",
  response: antiPhishingAnswer,
};

export const antiPhishingEditSchema = {
  summary: "Set the anti-phishing phrase ('' removes it): a security change; refused to the demo account (11005)",
  body: antiPhishingBody,
  response: antiPhishingAnswer,
};
