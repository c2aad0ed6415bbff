import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';
import { ErrorCode } from '../../../src/api/errors';
import type { Db } from '../db/database';
import { sendEnvelope } from './envelope';

export interface AuthUser {
  id: string;
  sessionId: string;
  role: 'user' | 'operator';
  /** Set when a widget token authenticated the call (its grant); the session id is then ''. */
  widgetGrantId?: string;
}

/**
 * Checks a bearer token that is not an access token (widget tokens,
 * server/src/widget): its user, or null when it is no live token either.
 * It may refuse the call itself (11005).
 */
export type OtherTokens = (token: string, request: FastifyRequest) => Promise<AuthUser | null>;

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
  interface FastifyInstance {
    /** onRequest hook of protected routes: 401 unless a live access token is presented. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

const ISSUER = 'quant-trader';

export const createAccessTokens = (secret: string, ttlSeconds: number) => {
  const key = new TextEncoder().encode(secret);
  return {
    issue: (user: AuthUser, nowSeconds = Math.floor(Date.now() / 1000)) =>
      new SignJWT({ sid: user.sessionId, role: user.role })
        .setJti(randomUUID())
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuer(ISSUER)
        .setIssuedAt(nowSeconds)
        .setExpirationTime(nowSeconds + ttlSeconds)
        .sign(key),
    verify: async (token: string): Promise<AuthUser | null> => {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
        return { id: payload.sub, sessionId: payload.sid, role: payload.role === 'operator' ? 'operator' : 'user' };
      } catch {
        return null;
      }
    },
  };
};
export type AccessTokens = ReturnType<typeof createAccessTokens>;

const unauthorized = (reply: FastifyReply, message: string) => sendEnvelope(reply, 401, ErrorCode.UNAUTHORIZED, message);

export const registerAuth = (app: FastifyInstance, db: Db, tokens: AccessTokens, otherTokens?: OtherTokens) => {
  app.decorateRequest('user', null);
  app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (!token) return unauthorized(reply, 'missing access token');
    const user = await tokens.verify(token);
    if (!user) {
      const other = await otherTokens?.(token, request);
      if (!other) return unauthorized(reply, 'invalid or expired access token');
      request.user = other;
      return;
    }
    // A logged-out session or a disabled account stops working at once, not when the token expires.
    const live = await db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['users.disabled', 'users.role'])
      .where('sessions.id', '=', user.sessionId)
      .where('sessions.user_id', '=', user.id)
      .where('sessions.revoked_at', 'is', null)
      .executeTakeFirst();
    if (!live || live.disabled) return unauthorized(reply, 'session ended');
    request.user = { ...user, role: live.role };
  });
};
