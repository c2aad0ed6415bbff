import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AdminLevel } from '../../../src/api/admin';
import { ErrorCode } from '../../../src/api/errors';
import type { MemberLevel } from '../../../src/api/member';
import type { ServiceSettings } from '../../../src/api/admin';
import type { Db } from '../db/database';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { checkLevels, levelFieldsSchema, readSettings, writeSettings } from '../settings';
import { recordAudit } from './audit';
import { idParams, listParams, listQuerystring, parseListParams, sendList, strictBody } from './rest';

/** The most levels a table holds. */
export const MAX_LEVELS = 50;

const FIELDS = Object.keys(levelFieldsSchema) as (keyof typeof levelFieldsSchema)[];

const record = (level: MemberLevel): AdminLevel => ({ id: level.level, ...level });

const notFound = (): never => fail(ErrorCode.PARAM_NOT_EXIST, 'level does not exist', { field: 'id' });
const numberOf = (params: unknown): number => {
  const { id } = params as { id: string };
  return /^\d{1,2}$/.test(id) ? Number(id) : notFound();
};

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
export const levelRoutes = (app: FastifyInstance, db: Db) => {
  app.get(
    '/api/admin/levels',
    { schema: { summary: 'Membership levels, lowest first', security: [{ bearer: [] }], querystring: listQuerystring(['id', 'level'], {}) }, preValidation: parseListParams },
    async (request, reply) => {
      const { sort, offset, limit, filter } = listParams<{ id?: (string | number)[] }>(request, ['level', 'ASC']);
      let levels = (await readSettings(db)).levels.map(record);
      if (filter.id) levels = levels.filter((l) => filter.id!.map(String).includes(String(l.id)));
      if (sort.order === 'desc') levels.reverse();
      return sendList(reply, 'levels', offset, levels.slice(offset, offset + limit), levels.length);
    },
  );

  app.get('/api/admin/levels/:id', { schema: { summary: 'One membership level', security: [{ bearer: [] }], params: idParams } }, async (request) => {
    const number = numberOf(request.params);
    const level = (await readSettings(db)).levels[number];
    return ok(level ? record(level) : notFound());
  });

  app.post(
    '/api/admin/levels',
    { schema: { summary: 'Add a level on top of the others', security: [{ bearer: [] }], body: strictBody(levelFieldsSchema, FIELDS) } },
    async (request) => {
      const body = request.body as Omit<MemberLevel, 'level'>;
      const levels = await changeLevels(db, request.user!.id, async (current) => {
        if (current.length >= MAX_LEVELS) fail(ErrorCode.PARAM_SIZE, `at most ${MAX_LEVELS} levels`, { field: 'level', max: MAX_LEVELS });
        const added = { level: current.length, ...body };
        return { levels: [...current, added], action: 'level.add', level: added.level, data: { values: added } };
      });
      return ok(record(levels.at(-1)!));
    },
  );

  app.put(
    '/api/admin/levels/:id',
    { schema: { summary: 'Change a level’s requirements or benefits (only the fields sent)', security: [{ bearer: [] }], params: idParams, body: strictBody(levelFieldsSchema) } },
    async (request) => {
      const number = numberOf(request.params);
      const body = request.body as Partial<MemberLevel>;
      const levels = await changeLevels(db, request.user!.id, async (current) => {
        const before = current[number] ?? notFound();
        const changes = Object.fromEntries(FIELDS.filter((key) => body[key] !== undefined && String(body[key]) !== String(before[key])).map((key) => [key, body[key]]));
        if (Object.keys(changes).length === 0) return null;
        current[number] = { ...before, ...changes };
        const previous = Object.fromEntries(Object.keys(changes).map((key) => [key, before[key as keyof MemberLevel]]));
        return { levels: current, action: 'level.edit', level: number, data: { changes, before: previous } };
      });
      return ok(record(levels[number]!));
    },
  );

  app.delete('/api/admin/levels/:id', { schema: { summary: 'Remove the top level (not level 0, not while users hold it)', security: [{ bearer: [] }], params: idParams } }, async (request) => {
    const number = numberOf(request.params);
    let removed: MemberLevel | undefined;
    await changeLevels(db, request.user!.id, async (current, _settings, trx) => {
      removed = current[number] ?? notFound();
      if (number === 0) fail(ErrorCode.INVALID, 'level 0 is every new user’s: it stays', { field: 'id' });
      if (number !== current.length - 1) fail(ErrorCode.INVALID, 'only the top level can be removed', { field: 'id', top: current.length - 1 });
      const held = await trx.selectFrom('users').select(trx.fn.countAll<number>().as('n')).where('level', '>=', number).executeTakeFirstOrThrow();
      if (Number(held.n) > 0) fail(ErrorCode.INVALID, 'users hold this level: move them to another level first', { field: 'id', users: Number(held.n) });
      return { levels: current.slice(0, -1), action: 'level.delete', level: number, data: { before: removed } };
    });
    return ok(record(removed!));
  });
};
