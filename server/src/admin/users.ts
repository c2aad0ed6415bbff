import Big from 'big.js';
import { sql } from 'kysely';
import type { Static } from 'typebox';
import type { AdminUser } from '../../../src/api/admin';
import { ErrorCode } from '../../../src/api/errors';
import { isUuid } from '../article/articles';
import type { Db } from '../db/database';
import { fail } from '../http/errors';
import { readSettings } from '../settings';
import type { Sessions } from '../user/sessions';
import { recordAudit } from '../shared/audit';
import type { SecondFactors } from '../security/factors';
import { WITHDRAWAL_HOLD_HOURS } from '../../../src/api/security';
import type { ListPage, ListParams } from './rest';
import type { USER_SORTS, userListQuery } from './schemas';

/** The column of each sort field. */
const SORTS: Record<(typeof USER_SORTS)[number], string> = {
  id: 'u.id',
  email: 'u.email',
  nickname: 'u.nickname',
  role: 'u.role',
  level: 'u.level',
  activated: 'u.activated',
  disabled: 'u.disabled',
  createdAt: 'u.created_at',
  usdt: 'usdt',
};

/** The filters of the users list. */
export type UserFilter = NonNullable<Static<typeof userListQuery>['filter']>;

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

/** One user; 10006 (user does not exist) for an unknown or malformed id. */
export const findUser = async (db: Db, id: string): Promise<AdminUser> => {
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

/**
 * The users of a filter, sorted, one page of them, with the total. The
 * operators' users resource (README "Operator console").
 */
export const listUsers = async (db: Db, { sort, offset, limit, filter }: ListParams<(typeof USER_SORTS)[number], UserFilter>): Promise<ListPage<AdminUser>> => {
  const [rows, count] = await Promise.all([
    userColumns(filtered(userQuery(db), filter))
      .orderBy(sql.ref(SORTS[sort.field]), sort.order)
      .orderBy('u.id', sort.order)
      .limit(limit)
      .offset(offset)
      .execute(),
    filtered(userQuery(db), filter).select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { offset, list: rows.map(toAdminUser), total: Number(count.n) };
};

/**
 * Changes a user's level, activation or disabled flag (only the fields
 * given): the level must be a configured one, disabling ends every session
 * of the user, an operator cannot disable their own account. The change and
 * its audit line in one transaction; the same values again change nothing.
 */
export const changeUser = async (db: Db, sessions: Sessions, operatorId: string, id: string, body: UserChange): Promise<AdminUser> => {
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
    const previous: UserChange = {};
    if (body.level !== undefined && body.level !== before.level) [changes.level, previous.level] = [body.level, before.level];
    if (body.activated !== undefined && body.activated !== before.activated) [changes.activated, previous.activated] = [body.activated, before.activated];
    if (body.disabled !== undefined && body.disabled !== before.disabled) [changes.disabled, previous.disabled] = [body.disabled, before.disabled];
    if (Object.keys(changes).length === 0) return;
    await trx
      .updateTable('users')
      .set({ ...changes, ...(changes.activated === undefined ? {} : { activated_at: changes.activated ? sql`now()` : null }) })
      .where('id', '=', id)
      .execute();
    if (changes.disabled) await sessions.revokeAllOf(trx, id);
    await recordAudit(trx, { operatorId, action: 'user.edit', targetType: 'user', targetId: id, data: { changes, before: previous } });
  });
  return findUser(db, id);
};

/**
 * The operator's reset of a user's second factors (the user lost them and
 * their recovery codes): every factor, recovery code and trusted device
 * removed, money held in the wallet for 24 hours, the user told, and an audit
 * line, in one transaction. 10006 when the user has no factor on.
 */
export const resetSecondFactor = async (db: Db, factors: SecondFactors, operatorId: string, id: string): Promise<AdminUser> => {
  if (!isUuid(id)) fail(ErrorCode.USER_NOT_EXIST, 'user does not exist', { field: 'id' });
  await db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
    if (!user) return fail(ErrorCode.USER_NOT_EXIST, 'user does not exist', { field: 'id' });
    const kinds = await factors.reset(trx, id);
    if (kinds.length === 0) return fail(ErrorCode.PARAM_NOT_EXIST, 'the user has no second factor on');
    await recordAudit(trx, { operatorId, action: 'user.reset_second_factor', targetType: 'user', targetId: id, data: { kinds, withdrawalsHeldHours: WITHDRAWAL_HOLD_HOURS } });
  });
  return findUser(db, id);
};
