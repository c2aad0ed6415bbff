import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../../src/api/errors';
import type { Db } from '../db/database';
import { sendEnvelope } from './envelope';
import { signJwt, verifyJwt } from './jwt';
import { createSessionCache, type SessionCache } from './sessionCache';

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
    /** The sessions this process found live (http/sessionCache.ts). */
    sessionCache: SessionCache;
  }
}

const ISSUER = 'quant-trader';
const VERIFIED_MAX = 20_000;

/**
 * Access tokens: HS256 JWTs of a session (sid), its user (sub) and role,
 * checked synchronously on node:crypto (http/jwt.ts): algorithm, signature,
 * issuer, expiry, no audience (widget tokens name theirs and are signed with
 * another key).
 */
export const createAccessTokens = (secret: string, ttlSeconds: number) => {
  const key = new TextEncoder().encode(secret);
  /**
   * Tokens whose signature and claims passed, by their exact text, until
   * their expiry (checked on every call): a client sends the same token for
   * up to its whole lifetime, and the same bytes pass the same checks. Only
   * passed tokens are kept; it starts afresh above VERIFIED_MAX entries.
   */
  const verified = new Map<string, { user: AuthUser; exp: number }>();
  return {
    issue: async (user: AuthUser, nowSeconds = Math.floor(Date.now() / 1000)): Promise<string> =>
      signJwt({ sid: user.sessionId, role: user.role, jti: randomUUID(), sub: user.id, iss: ISSUER, iat: nowSeconds, exp: nowSeconds + ttlSeconds }, key),
    verify: (token: string, nowSeconds = Math.floor(Date.now() / 1000)): AuthUser | null => {
      const kept = verified.get(token);
      if (kept) {
        if (kept.exp > nowSeconds) return { ...kept.user };
        verified.delete(token);
        return null;
      }
      const payload = verifyJwt(token, key, { issuer: ISSUER, nowSeconds });
      if (!payload || typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
      const user: AuthUser = { id: payload.sub, sessionId: payload.sid, role: payload.role === 'operator' ? 'operator' : 'user' };
      if (payload.nbf === undefined) {
        if (verified.size >= VERIFIED_MAX) verified.clear();
        verified.set(token, { user, exp: payload.exp as number });
      }
      return { ...user };
    },
  };
};
export type AccessTokens = ReturnType<typeof createAccessTokens>;

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

const unauthorized = (reply: FastifyReply, message: string) => sendEnvelope(reply, 401, ErrorCode.UNAUTHORIZED, message);

export const registerAuth = (app: FastifyInstance, db: Db, tokens: AccessTokens, otherTokens?: OtherTokens) => {
  app.decorateRequest('user', null);
  // A logged-out session or a disabled account stops working at once, not when the token expires:
  // every call checks its session, in this process's memory while the database tells it of every change.
  const sessions = createSessionCache(db, app.log);
  app.addHook('onClose', () => sessions.close());
  app.decorate('sessionCache', sessions);
  // A call that may have written (anything but GET, HEAD, OPTIONS) answers only once this process has heard
  // every change notice committed before: by then every process has been told (http/sessionCache.ts), so a
  // logout or a task change holds in whichever process the client calls next. Nothing on the reads' path.
  const heardEverything = async () => sessions.sync();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.every((method) => READS.has(method))) return;
    const own = route.onSend ? (Array.isArray(route.onSend) ? route.onSend : [route.onSend]) : [];
    route.onSend = [...own, heardEverything];
  });
  app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (!token) return unauthorized(reply, 'missing access token');
    const user = tokens.verify(token);
    // A page of an origin only a widget grant opened this call to (http/cors.ts) gets nothing with an access token.
    if (user && request.grantOrigin) {
      return sendEnvelope(reply, 200, ErrorCode.UNAUTHORIZED, 'only a widget token of a grant bound to this origin is good here', { reason: 'origin' });
    }
    if (!user) {
      const other = await otherTokens?.(token, request);
      if (!other) return unauthorized(reply, 'invalid or expired access token');
      request.user = other;
      return;
    }
    const live = await sessions.check(user.sessionId, user.id);
    if (!live) return unauthorized(reply, 'session ended');
    request.user = { ...user, role: live.role };
  });
};
