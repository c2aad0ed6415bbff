import type { Static } from 'typebox';
import { WIDGET_GRANT_NAME_MAX, WIDGET_ORIGIN_MAX, WIDGET_TOKEN_MAX_TTL_SECONDS, WIDGET_TOKEN_MIN_TTL_SECONDS, type WidgetTokenRefresh, type WidgetTokenRequest } from '../../../src/api/widget';
import { Body, SameShape, Type, UNSAFE_CHARACTERS, Uuid, type Same } from '../http/schemas';

/** Field rules of the widget-token calls (README "Widget tokens"). */
const nameSchema = Type.String({ minLength: 1, maxLength: WIDGET_GRANT_NAME_MAX, pattern: `^[^<>${UNSAFE_CHARACTERS}]*\\S[^<>${UNSAFE_CHARACTERS}]*$` });
const ttlSchema = Type.Integer({ minimum: WIDGET_TOKEN_MIN_TTL_SECONDS, maximum: WIDGET_TOKEN_MAX_TTL_SECONDS });
const keySchema = Type.String({ minLength: 20, maxLength: 200 });
/** Checked as an origin by the service (10003 for a path, another scheme...): parseWidgetOrigin. */
const originSchema = Type.String({ minLength: 1, maxLength: WIDGET_ORIGIN_MAX });

const issueBody = Body({ name: nameSchema, origin: originSchema, ttlSeconds: Type.Optional(ttlSchema) });
const refreshBody = Body({ key: keySchema, ttlSeconds: Type.Optional(ttlSchema) });
SameShape<Same<Static<typeof issueBody>, WidgetTokenRequest>>();
SameShape<Same<Static<typeof refreshBody>, WidgetTokenRefresh>>();
const envelope = (data: object) => ({ type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' }, data } });

const token = { id: { type: 'string' }, token: { type: 'string' }, expiresAt: { type: 'string' } } as const;
const grant = {
  type: 'object',
  properties: { id: { type: 'string' }, name: { type: 'string' }, origin: { type: ['string', 'null'] }, createdAt: { type: 'string' }, lastIssuedAt: { type: 'string' }, expiresAt: { type: 'string' } },
} as const;

export const issueSchema = {
  summary:
    'Allow a site’s widgets to read my data from its origin: a new grant, its embed token (lives until revoked), its first widget token and its partner key (shown once)',
  security: [{ bearer: [] }],
  body: issueBody,
  response: { 200: envelope({ type: 'object', properties: { ...token, name: { type: 'string' }, origin: { type: 'string' }, embedToken: { type: 'string' }, key: { type: 'string' } } }) },
};

export const refreshSchema = {
  summary: 'A partner backend trades its partner key for a fresh widget token (at most an hour)',
  body: refreshBody,
  response: { 200: envelope({ type: 'object', properties: token }) },
};

export const listSchema = {
  summary: 'My live widget grants, newest first',
  security: [{ bearer: [] }],
  response: { 200: envelope({ type: 'array', items: grant }) },
};

export const revokeSchema = {
  summary: 'Revoke a widget grant: its embed token, its tokens and its partner key stop working at once',
  security: [{ bearer: [] }],
  body: Body({ id: Uuid() }),
  response: { 200: envelope({ type: 'null' }) },
};
