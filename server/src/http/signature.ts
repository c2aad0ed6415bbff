import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { ErrorCode } from '../../../src/api/errors';
import { SIGN_WINDOW_SECONDS, computeSign, isSignedCall, keyFieldsOf, unixSeconds, type SignatureFields } from '../../../src/api/signing';
import type { Db } from '../db/database';
import { fail } from './errors';
import { Type } from './schemas';

/** With the u flag a surrogate pair is one code point: only a lone half matches. */
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** The fields every signed body carries (TypeBox: JSON schema and type). */
export const signatureProperties = {
  uuid: Type.String({ pattern: '^[0-9a-f]{32}$' }),
  timestamp: Type.Integer({ minimum: 0 }),
  sign: Type.String({ pattern: '^[0-9a-f]{64}$' }),
};
export const signatureRequired = ['uuid', 'timestamp', 'sign'] as const;

/** A body carrying the signature's fields (every signed call's schema requires them, so a validated one does). */
const isSignedBody = (body: unknown): body is Record<string, unknown> & SignatureFields =>
  typeof body === 'object' &&
  body !== null &&
  'uuid' in body &&
  typeof body.uuid === 'string' &&
  'timestamp' in body &&
  typeof body.timestamp === 'number' &&
  'sign' in body &&
  typeof body.sign === 'string';

/**
 * Signed calls (the key-field table of src/api): a wrong sign, a timestamp
 * outside +-60 s and a uuid seen before are refused. Used uuids are kept in
 * the database for twice the window, so processes sharing it share the check.
 */
export const registerSignatureCheck = (app: FastifyInstance, db: Db, secret: string, now: () => number = Date.now) => {
  let lastPurge = 0;
  const check = async (request: FastifyRequest) => {
    const path = request.routeOptions.url!;
    // A route of several methods is signed for some of them only.
    if (!isSignedCall(request.method, path)) return;
    const body = request.body;
    if (!isSignedBody(body)) return fail(ErrorCode.INVALID, 'bad request signature');
    // The sign hashes UTF-8: a lone surrogate has none, so such a field can only be a forged or broken request.
    for (const field of keyFieldsOf(request.method, path)) {
      const value = body[field];
      if (typeof value === 'string' && LONE_SURROGATE.test(value)) fail(ErrorCode.PARAM_FORMAT, `${field} is not valid text`, { field, rule: 'format' });
    }
    const expected = computeSign(request.method, path, body, body.uuid, body.timestamp, secret);
    if (expected !== body.sign) fail(ErrorCode.INVALID, 'bad request signature');
    const nowMs = now();
    if (Math.abs(unixSeconds(nowMs) - body.timestamp) > SIGN_WINDOW_SECONDS) {
      fail(ErrorCode.PARAM_RANGE, 'request timestamp outside the allowed window');
    }
    const expires = new Date(nowMs + 2 * SIGN_WINDOW_SECONDS * 1000);
    const inserted = await db
      .insertInto('request_nonces')
      .values({ uuid: body.uuid, expires_at: expires })
      .onConflict((oc) => oc.column('uuid').doNothing())
      .returning('uuid')
      .executeTakeFirst();
    if (!inserted) fail(ErrorCode.ALREADY_EXISTS, 'request uuid already used');
    if (nowMs - lastPurge > 60_000) {
      lastPurge = nowMs;
      await db.deleteFrom('request_nonces').where('expires_at', '<', sql<Date>`now()`).execute();
    }
  };
  // Only the signed calls' routes carry the check: the others, reads above all, pay nothing for it.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => isSignedCall(method, route.url))) return;
    const own = route.preHandler ? (Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler]) : [];
    route.preHandler = [check, ...own];
  });
};
