import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { ErrorCode } from '../../../src/api/errors';
import {
  WIDGET_GRANT_LIMIT,
  WIDGET_READ_CALLS,
  WIDGET_TOKEN_MAX_TTL_SECONDS,
  type WidgetGrant,
  type WidgetGrantIssued,
  type WidgetToken,
} from '../../../src/api/widget';
import type { Db } from '../db/database';
import type { AuthUser } from '../http/auth';
import { fail } from '../http/errors';
import type { WidgetTokens } from './tokens';

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

/** A new grant for the signed-in user: its first token and its partner key. */
export const issueGrant = async (db: Db, tokens: WidgetTokens, userId: string, request: { name: string; ttlSeconds?: number }): Promise<WidgetGrantIssued> => {
  const name = request.name.trim();
  const ttl = request.ttlSeconds ?? WIDGET_TOKEN_MAX_TTL_SECONDS;
  const key = randomBytes(32).toString('base64url');
  return db.transaction().execute(async (trx) => {
    // One grant at a time per user, so the limit holds under concurrent calls.
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
    const held = await liveGrants(trx).where('g.user_id', '=', userId).select(trx.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    if (Number(held.n) >= WIDGET_GRANT_LIMIT) {
      fail(ErrorCode.PARAM_SIZE, `at most ${WIDGET_GRANT_LIMIT} widget grants; revoke one first`, { field: 'name', max: WIDGET_GRANT_LIMIT });
    }
    const id = randomUUID();
    const { token, expiresAt } = await issueToken(tokens, userId, id, ttl);
    await trx.insertInto('widget_grants').values({ id, user_id: userId, name, key_hash: hashKey(key), expires_at: expiresAt }).execute();
    return { id, name, token, expiresAt: iso(expiresAt), key };
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
    .select(['g.id', 'g.name', 'g.created_at', 'g.last_issued_at', 'g.expires_at'])
    .where('g.user_id', '=', userId)
    .orderBy('g.created_at', 'desc')
    .orderBy('g.id', 'desc')
    .execute();
  return rows.map((row) => ({ id: row.id, name: row.name, createdAt: iso(row.created_at), lastIssuedAt: iso(row.last_issued_at), expiresAt: iso(row.expires_at) }));
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
 * The bearer check for widget tokens, after the access-token check found none:
 * the user of a live grant on the widgets' read calls, 11005 on any other call,
 * null when the token is not a live widget token (answered 401).
 */
export const widgetAuthentication =
  (db: Db, tokens: WidgetTokens) =>
  async (token: string, request: FastifyRequest): Promise<AuthUser | null> => {
    const claims = await tokens.verify(token);
    if (!claims) return null;
    const live = await liveGrants(db)
      .select(['u.disabled'])
      .where('g.id', '=', claims.grantId)
      .where('g.user_id', '=', claims.userId)
      .executeTakeFirst();
    if (!live || live.disabled) return null;
    if (!WIDGET_READ_CALLS.includes(`${request.method} ${request.routeOptions.url}`)) {
      fail(ErrorCode.UNAUTHORIZED, 'a widget token only reads what the widgets show');
    }
    return { id: claims.userId, sessionId: '', role: 'user', widgetGrantId: claims.grantId };
  };
