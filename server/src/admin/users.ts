import Big from 'big.js';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AdminUser } from '../../../src/api/admin';
import { ErrorCode } from '../../../src/api/errors';
import { isUuid } from '../article/articles';
import type { Db } from '../db/database';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { Body, Type, typed } from '../http/schemas';
import { readSettings } from '../settings';
import type { Sessions } from '../user/sessions';
import { recordAudit } from './audit';
import { idParams, listParams, listQuerystring, parseListParams, sendList } from './rest';

const SORTS = {
  id: 'u.id',
  email: 'u.email',
  nickname: 'u.nickname',
  role: 'u.role',
  level: 'u.level',
  activated: 'u.activated',
  disabled: 'u.disabled',
  createdAt: 'u.created_at',
  usdt: 'usdt',
} as const;

interface UserFilter {
  q?: string;
  level?: number;
  activated?: boolean;
  disabled?: boolean;
  role?: 'user' | 'operator';
  id?: (string | number)[];
}

const FILTERS = {
  q: { type: 'string', maxLength: 100 },
  level: { type: 'integer', minimum: 0, maximum: 1000 },
  activated: { type: 'boolean' },
  disabled: { type: 'boolean' },
  role: { type: 'string', enum: ['user', 'operator'] },
};

export const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** The well-formed ids of a filter (a malformed one matches nothing). */
export const uuidsOf = (ids: readonly (string | number)[]) => ids.map(String).filter(isUuid);
const iso = (value: Date | string) => new Date(value).toISOString();

const userQuery = (db: Db) =>
  db
    .selectFrom('users as u')
    .leftJoin('users as i', 'i.id', 'u.inviter_id')
    .leftJoin('ledger_accounts as l', (join) => join.onRef('l.user_id', '=', 'u.id').on('l.asset', '=', 'USDT').on('l.kind', '=', 'available'));

type UserQuery = ReturnType<typeof userQuery>;

const userColumns = (query: UserQuery) =>
  query.select([
    'u.id',
    'u.email',
    'u.nickname',
    'u.role',
    'u.level',
    'u.activated',
    'u.disabled',
    'u.created_at',
    'i.email as inviter_email',
    sql<string>`coalesce(l.balance, 0)`.as('usdt'),
  ]);

type UserRow = Awaited<ReturnType<ReturnType<typeof userColumns>['executeTakeFirstOrThrow']>>;

const toAdminUser = (row: UserRow): AdminUser => ({
  id: row.id,
  email: row.email,
  nickname: row.nickname,
  role: row.role,
  level: row.level,
  activated: row.activated,
  disabled: row.disabled,
  inviterEmail: row.inviter_email ?? null,
  usdt: new Big(row.usdt).toFixed(),
  createdAt: iso(row.created_at),
});

const findUser = async (db: Db, id: string): Promise<AdminUser> => {
  const row = isUuid(id) ? await userColumns(userQuery(db)).where('u.id', '=', id).executeTakeFirst() : undefined;
  return row ? toAdminUser(row) : fail(ErrorCode.USER_NOT_EXIST, 'user does not exist', { field: 'id' });
};

const filtered = (query: UserQuery, filter: UserFilter): UserQuery => {
  let out = query;
  const text = filter.q?.trim();
  if (text) {
    const pattern = likePattern(text);
    out = out.where((eb) => eb.or([eb('u.email', 'ilike', pattern), eb('u.nickname', 'ilike', pattern)]));
  }
  if (filter.level !== undefined) out = out.where('u.level', '=', filter.level);
  if (filter.activated !== undefined) out = out.where('u.activated', '=', filter.activated);
  if (filter.disabled !== undefined) out = out.where('u.disabled', '=', filter.disabled);
  if (filter.role) out = out.where('u.role', '=', filter.role);
  if (filter.id) {
    const ids = uuidsOf(filter.id);
    out = ids.length > 0 ? out.where('u.id', 'in', ids) : out.where(sql<boolean>`false`);
  }
  return out;
};

type UserChange = Partial<Pick<AdminUser, 'level' | 'activated' | 'disabled'>>;

/** /api/admin/users: list, read, and change a user's level, activation or disabled flag. */
export const userRoutes = (instance: FastifyInstance, { db, sessions }: { db: Db; sessions: Sessions }) => {
  const app = typed(instance);
  app.get(
    '/api/admin/users',
    {
      schema: { summary: 'Users (filter q searches email and nickname)', security: [{ bearer: [] }], querystring: listQuerystring(Object.keys(SORTS), FILTERS) },
      preValidation: parseListParams,
    },
    async (request, reply) => {
      const { sort, offset, limit, filter } = listParams<UserFilter>(request, ['createdAt', 'DESC']);
      const [rows, count] = await Promise.all([
        userColumns(filtered(userQuery(db), filter))
          .orderBy(sql.ref(SORTS[sort.field as keyof typeof SORTS]), sort.order)
          .orderBy('u.id', sort.order)
          .limit(limit)
          .offset(offset)
          .execute(),
        filtered(userQuery(db), filter).select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return sendList(reply, 'users', offset, rows.map(toAdminUser), Number(count.n));
    },
  );

  app.get('/api/admin/users/:id', { schema: { summary: 'One user', security: [{ bearer: [] }], params: idParams } }, async (request) =>
    ok(await findUser(db, request.params.id)),
  );

  app.put(
    '/api/admin/users/:id',
    {
      schema: {
        summary: 'Change a user’s level, activation or disabled flag (disabling ends their sessions); only the fields sent',
        security: [{ bearer: [] }],
        params: idParams,
        body: Body({
          level: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
          activated: Type.Optional(Type.Boolean()),
          disabled: Type.Optional(Type.Boolean()),
        }),
      },
    },
    async (request) => {
      const { id } = request.params;
      const body: UserChange = request.body;
      const operatorId = request.user!.id;
      if (!isUuid(id)) fail(ErrorCode.USER_NOT_EXIST, 'user does not exist', { field: 'id' });
      if (body.disabled === true && id === operatorId) fail(ErrorCode.INVALID, 'an operator cannot disable their own account', { field: 'disabled' });
      if (body.level !== undefined) {
        const { levels } = await readSettings(db);
        if (!levels.some((level) => level.level === body.level)) {
          fail(ErrorCode.PARAM_RANGE, `level must be one of the configured levels (0-${levels.length - 1})`, { field: 'level' });
        }
      }
      await db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('users').select(['level', 'activated', 'disabled']).where('id', '=', id).forUpdate().executeTakeFirst();
        if (!before) return fail(ErrorCode.USER_NOT_EXIST, 'user does not exist', { field: 'id' });
        const changes: UserChange = {};
        for (const key of ['level', 'activated', 'disabled'] as const) {
          if (body[key] !== undefined && body[key] !== before[key]) (changes as Record<string, unknown>)[key] = body[key];
        }
        if (Object.keys(changes).length === 0) return;
        await trx
          .updateTable('users')
          .set({ ...changes, ...(changes.activated === undefined ? {} : { activated_at: changes.activated ? sql`now()` : null }) })
          .where('id', '=', id)
          .execute();
        if (changes.disabled) await sessions.revokeAllOf(trx, id);
        const previous = Object.fromEntries(Object.keys(changes).map((key) => [key, before[key as keyof typeof before]]));
        await recordAudit(trx, { operatorId, action: 'user.edit', targetType: 'user', targetId: id, data: { changes, before: previous } });
      });
      return ok(await findUser(db, id));
    },
  );
};
