import { sql } from 'kysely';
import { ErrorCode } from '../../../src/api/errors';
import type { MemberLevel } from '../../../src/api/member';
import type { AdminLevel, ServiceSettings } from '../../../src/api/admin';
import type { Db } from '../db/database';
import { fail } from '../http/errors';
import { checkLevels, readSettings, writeSettings, type levelChangeSchema, type levelFieldsSchema } from '../settings';
import type { Static } from 'typebox';
import { recordAudit } from '../shared/audit';
import type { ListPage, ListParams } from './rest';
import type { levelListQuery } from './schemas';

/** The most levels a table holds. */
export const MAX_LEVELS = 50;

const FIELDS = ['minDirect', 'minTeam', 'minTeamVolume', 'fuelDiscountPercent', 'taskLimit'] as const satisfies readonly (keyof typeof levelFieldsSchema.properties)[];

const record = (level: MemberLevel): AdminLevel => ({ id: level.level, ...level });

const notFound = (): never => fail(ErrorCode.PARAM_NOT_EXIST, 'level does not exist', { field: 'id' });
/** A level's number from its id; 10006 for anything else. */
const numberOf = (id: string): number => (/^\d{1,2}$/.test(id) ? Number(id) : notFound());

/**
 * Changes the level table under the settings lock (one change at a time:
 * each reads the table the previous one wrote), checks the whole new table
 * and writes it with its audit line in one transaction.
 */
const changeLevels = async (
  db: Db,
  operatorId: string,
  change: (levels: MemberLevel[], settings: ServiceSettings, trx: Db) => Promise<{ levels: MemberLevel[]; action: string; level: number; data: Record<string, unknown> } | null>,
) =>
  db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('settings.service'))`.execute(trx);
    const settings = await readSettings(trx);
    const outcome = await change(settings.levels.map((l) => ({ ...l })), settings, trx);
    if (!outcome) return settings.levels;
    const levels = checkLevels(outcome.levels, (index, name) => (index === outcome.level && name ? name : `levels.${index}${name ? `.${name}` : ''}`));
    await writeSettings(trx, { levels });
    await recordAudit(trx, { operatorId, action: outcome.action, targetType: 'level', targetId: String(outcome.level), data: outcome.data });
    return levels;
  });

/**
 * /api/admin/levels: the membership levels (id = the level's number). A new
 * level goes on top; only the top level can be removed, and not while users
 * hold it; level 0 needs nothing and stays.
 */
export const listLevels = async (
  db: Db,
  { sort, offset, limit, filter }: ListParams<'id' | 'level', NonNullable<Static<typeof levelListQuery>['filter']>>,
): Promise<ListPage<AdminLevel>> => {
  let levels = (await readSettings(db)).levels.map(record);
  if (filter.id) {
    const ids = filter.id.map(String);
    levels = levels.filter((l) => ids.includes(String(l.id)));
  }
  if (sort.order === 'desc') levels.reverse();
  return { offset, list: levels.slice(offset, offset + limit), total: levels.length };
};

export const findLevel = async (db: Db, id: string): Promise<AdminLevel> => {
  const level = (await readSettings(db)).levels[numberOf(id)];
  return level ? record(level) : notFound();
};

export const addLevel = async (db: Db, operatorId: string, body: Omit<MemberLevel, 'level'>): Promise<AdminLevel> => {
  const levels = await changeLevels(db, operatorId, async (current) => {
    if (current.length >= MAX_LEVELS) fail(ErrorCode.PARAM_SIZE, `at most ${MAX_LEVELS} levels`, { field: 'level', max: MAX_LEVELS });
    const added = { level: current.length, ...body };
    return { levels: [...current, added], action: 'level.add', level: added.level, data: { values: added } };
  });
  return record(levels.at(-1)!);
};

export const changeLevel = async (db: Db, operatorId: string, id: string, body: Static<typeof levelChangeSchema>): Promise<AdminLevel> => {
  const number = numberOf(id);
  const levels = await changeLevels(db, operatorId, async (current) => {
    const before = current[number] ?? notFound();
    const changed = FIELDS.filter((key) => body[key] !== undefined && String(body[key]) !== String(before[key]));
    if (changed.length === 0) return null;
    const changes = Object.fromEntries(changed.map((key) => [key, body[key]]));
    current[number] = { ...before, ...changes };
    const previous = Object.fromEntries(changed.map((key) => [key, before[key]]));
    return { levels: current, action: 'level.edit', level: number, data: { changes, before: previous } };
  });
  return record(levels[number]!);
};

export const removeLevel = async (db: Db, operatorId: string, id: string): Promise<AdminLevel> => {
  const number = numberOf(id);
  let removed: MemberLevel | undefined;
  await changeLevels(db, operatorId, async (current, _settings, trx) => {
    removed = current[number] ?? notFound();
    if (number === 0) fail(ErrorCode.INVALID, 'level 0 is every new user’s: it stays', { field: 'id' });
    if (number !== current.length - 1) fail(ErrorCode.INVALID, 'only the top level can be removed', { field: 'id', top: current.length - 1 });
    const held = await trx.selectFrom('users').select(trx.fn.countAll<number>().as('n')).where('level', '>=', number).executeTakeFirstOrThrow();
    if (Number(held.n) > 0) fail(ErrorCode.INVALID, 'users hold this level: move them to another level first', { field: 'id', users: Number(held.n) });
    return { levels: current.slice(0, -1), action: 'level.delete', level: number, data: { before: removed } };
  });
  return record(removed!);
};
