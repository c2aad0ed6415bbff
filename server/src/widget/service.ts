import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { ErrorCode } from '../../../src/api/errors';
import {
  WIDGET_EMBED_TOKEN_PREFIX,
  WIDGET_GRANT_LIMIT,
  WIDGET_TOKEN_MAX_TTL_SECONDS,
  isWidgetReadCall,
  parseWidgetOrigin,
  type WidgetGrant,
  type WidgetGrantIssued,
  type WidgetToken,
} from '../../../src/api/widget';
import type { Db } from '../db/database';
import type { AuthUser } from '../http/auth';
import { BusinessError, fail } from '../http/errors';
import type { WidgetTokens } from './tokens';
import { recordEvents } from '../notify/events';

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');
const iso = (value: Date | string) => new Date(value).toISOString();

/** A grant is live until revoked, and until its owner's password changes after it was made. */
const liveGrants = (db: Db) =>
  db
    .selectFrom('widget_grants as g')
    .innerJoin('users as u', 'u.id', 'g.user_id')
    .where('g.revoked_at', 'is', null)
    .whereRef('g.created_at', '>=', 'u.password_changed_at');

const issueToken = async (tokens: WidgetTokens, userId: string, grantId: string, ttlSeconds: number) => {
  const now = Math.floor(Date.now() / 1000);
  return { token: await tokens.issue({ userId, grantId }, ttlSeconds, now), expiresAt: new Date((now + ttlSeconds) * 1000) };
};

/** A new grant for the signed-in user, bound to the origin asked: its embed token, its first token and its partner key. */
export const issueGrant = async (db: Db, tokens: WidgetTokens, userId: string, request: { name: string; origin: string; ttlSeconds?: number }): Promise<WidgetGrantIssued> => {
  const name = request.name.trim();
  const origin = parseWidgetOrigin(request.origin);
  if (!origin) return fail(ErrorCode.PARAM_FORMAT, 'origin must be a site origin like https://blog.example (scheme, host and port; no path)', { field: 'origin', rule: 'origin' });
  const ttl = request.ttlSeconds ?? WIDGET_TOKEN_MAX_TTL_SECONDS;
  const key = randomBytes(32).toString('base64url');
  const embedToken = `${WIDGET_EMBED_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return db.transaction().execute(async (trx) => {
    // One grant at a time per user, so the limit holds under concurrent calls.
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
    const held = await liveGrants(trx).where('g.user_id', '=', userId).select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    if (Number(held.n) >= WIDGET_GRANT_LIMIT) {
      fail(ErrorCode.PARAM_SIZE, `at most ${WIDGET_GRANT_LIMIT} widget grants; revoke one first`, { field: 'name', max: WIDGET_GRANT_LIMIT });
    }
    const id = randomUUID();
    const { token, expiresAt } = await issueToken(tokens, userId, id, ttl);
    await trx
      .insertInto('widget_grants')
      .values({ id, user_id: userId, name, origin, key_hash: hashKey(key), embed_hash: hashKey(embedToken), expires_at: expiresAt })
      .execute();
    // A grant opens the user's figures to a site: told at once, always by e-mail too (a security notice).
    await recordEvents(trx, [{ userId, kind: 'user.widget_grant_created', taskId: null, payload: { grantId: id, name, origin } }]);
    return { id, name, origin, embedToken, token, expiresAt: iso(expiresAt), key };
  });
};

/** A partner backend's fresh token for the grant its key belongs to (11005 for an unknown or ended grant). */
export const refreshToken = async (db: Db, tokens: WidgetTokens, key: string, ttlSeconds = WIDGET_TOKEN_MAX_TTL_SECONDS): Promise<WidgetToken> => {
  const grant = await liveGrants(db)
    .select(['g.id', 'g.user_id', 'u.disabled'])
    .where('g.key_hash', '=', hashKey(key))
    .executeTakeFirst();
  if (!grant || grant.disabled) return fail(ErrorCode.UNAUTHORIZED, 'the partner key is not valid');
  const { token, expiresAt } = await issueToken(tokens, grant.user_id, grant.id, ttlSeconds);
  await db.updateTable('widget_grants').set({ last_issued_at: sql<Date>`now()`, expires_at: expiresAt }).where('id', '=', grant.id).execute();
  return { id: grant.id, token, expiresAt: iso(expiresAt) };
};

export const listGrants = async (db: Db, userId: string): Promise<WidgetGrant[]> => {
  const rows = await liveGrants(db)
    .select(['g.id', 'g.name', 'g.origin', 'g.created_at', 'g.last_issued_at', 'g.expires_at'])
    .where('g.user_id', '=', userId)
    .orderBy('g.created_at', 'desc')
    .orderBy('g.id', 'desc')
    .execute();
  return rows.map((row) => ({ id: row.id, name: row.name, origin: row.origin, createdAt: iso(row.created_at), lastIssuedAt: iso(row.last_issued_at), expiresAt: iso(row.expires_at) }));
};

/** Ends a grant of the user's (10006 for anyone else's); revoking it again changes nothing. */
export const revokeGrant = async (db: Db, userId: string, id: string): Promise<void> => {
  const own = await db
    .updateTable('widget_grants')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning('id')
    .executeTakeFirst();
  if (!own) fail(ErrorCode.PARAM_NOT_EXIST, 'widget grant does not exist', { field: 'id' });
};

/**
 * Does a grant name this origin (the CORS check of a widget read call from
 * another origin)? Revoked ones too: their widgets can then read that they
 * were revoked (401), and a token still gets data only from a live grant.
 */
export const isGrantOrigin = async (db: Db, origin: string): Promise<boolean> =>
  (await db.selectFrom('widget_grants').select('id').where('origin', '=', origin).limit(1).executeTakeFirst()) !== undefined;

/** Why a widget token is refused: answered with 11005 and `data.reason`, so a widget names the cause. */
export type WidgetRefusal = 'origin' | 'revoked' | 'scope';

const refuse = (reason: WidgetRefusal, message: string, httpStatus = 200): never => {
  throw new BusinessError(ErrorCode.UNAUTHORIZED, message, { reason }, httpStatus);
};

/**
 * The bearer check for widget tokens (an embed token, or a short-lived
 * signed token), after the access-token check found none. The user of a live
 * grant on the widgets' read calls (HEAD answered as GET); 11005 with
 * `data.reason`: `scope` on any other call, `origin` when the call comes from
 * another origin than the grant's, `revoked` (401) for a token of a grant that
 * ended; null when the token is no widget token at all (answered 401).
 * `configuredOrigins` (CORS_ORIGINS) still serve grants made before origins.
 */
export const widgetAuthentication =
  (db: Db, tokens: WidgetTokens, configuredOrigins: readonly string[] = []) =>
  async (token: string, request: FastifyRequest): Promise<AuthUser | null> => {
    let grantId: string;
    let userId: string;
    let byEmbed = false;
    if (token.startsWith(WIDGET_EMBED_TOKEN_PREFIX)) {
      const grant = await db.selectFrom('widget_grants').select(['id', 'user_id']).where('embed_hash', '=', hashKey(token)).executeTakeFirst();
      if (!grant) return null;
      grantId = grant.id;
      userId = grant.user_id;
      byEmbed = true;
    } else {
      const claims = await tokens.verify(token);
      if (!claims) return null;
      grantId = claims.grantId;
      userId = claims.userId;
    }
    const live = await liveGrants(db).select(['u.disabled', 'g.origin']).where('g.id', '=', grantId).where('g.user_id', '=', userId).executeTakeFirst();
    if (!live || live.disabled) return refuse('revoked', byEmbed ? 'this embed code was revoked or has ended' : 'this widget grant was revoked or has ended', 401);
    if (!isWidgetReadCall(request.method, request.routeOptions.url ?? '')) refuse('scope', 'a widget token only reads what the widgets show');
    // Browsers name the calling page's origin on every cross-origin call; a same-origin read names none.
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== live.origin && !(live.origin === null && configuredOrigins.includes(origin))) {
      refuse('origin', `this widget grant is for ${live.origin ?? 'no other origin'}, not ${origin}`);
    }
    return { id: userId, sessionId: '', role: 'user', widgetGrantId: grantId };
  };
