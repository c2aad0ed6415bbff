import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { ErrorCode } from '../../../src/api/errors';
import { MAX_LEVELS, describeProblem, strategyProblem, type StrategySettings, type StrategyTemplate } from '../../../src/api/strategy';
import type { Db } from '../db/database';
import type { StrategiesTable } from '../db/schema';
import type { Selectable } from 'kysely';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { Body, IdParams, Query, SafeText, SameShape, StringEnum, Type, UNSAFE_CHARACTERS, Uuid, pagingProperties, typed, type Same } from '../http/schemas';
import type { Static } from 'typebox';

/** How many templates one user may keep (11004 beyond). */
export const STRATEGY_LIMIT = 20;

const percent = Type.String({ pattern: '^\\d{1,3}(\\.\\d{1,4})?$' });
const multiple = Type.String({ pattern: '^\\d{1,4}(\\.\\d{1,8})?$' });
const settingsProperties = {
  name: Type.String({ minLength: 1, maxLength: 40, pattern: `^[^<>${UNSAFE_CHARACTERS}]*$` }),
  levels: Type.Array(Body({ dropPercent: percent, multiple }), { maxItems: MAX_LEVELS }),
  takeProfitPercent: percent,
  takeProfitCallbackPercent: percent,
  replenishCallbackPercent: percent,
  stopLossPercent: Type.Union([percent, Type.Null()]),
  cooldownSeconds: Type.Integer({ minimum: 0, maximum: 7 * 24 * 3600 }),
};
const addBody = Body(settingsProperties);
const editBody = Body({ id: Uuid(), ...settingsProperties });
// The contract's settings (src/api/strategy.ts) and this schema describe the same values.
SameShape<Same<Static<typeof addBody>, StrategySettings & { name: string }>>();

type Row = Omit<Selectable<StrategiesTable>, 'created_at' | 'updated_at'>;

/** A stored template's settings, as the ladder math and the engine take them. */
export const settingsOf = (
  row: Pick<Row, 'levels' | 'take_profit_percent' | 'take_profit_callback_percent' | 'replenish_callback_percent' | 'stop_loss_percent' | 'cooldown_seconds'>,
): StrategySettings => ({
  levels: row.levels,
  takeProfitPercent: row.take_profit_percent,
  takeProfitCallbackPercent: row.take_profit_callback_percent,
  replenishCallbackPercent: row.replenish_callback_percent,
  stopLossPercent: row.stop_loss_percent,
  cooldownSeconds: row.cooldown_seconds,
});

export const toTemplate = (row: Row): StrategyTemplate => ({ id: row.id, name: row.name, system: row.user_id === null, ...settingsOf(row) });

const toColumns = (body: StrategySettings & { name: string }) => ({
  name: body.name.trim(),
  levels: JSON.stringify(body.levels),
  take_profit_percent: body.takeProfitPercent,
  take_profit_callback_percent: body.takeProfitCallbackPercent,
  replenish_callback_percent: body.replenishCallbackPercent,
  stop_loss_percent: body.stopLossPercent,
  cooldown_seconds: body.cooldownSeconds,
});

const COLUMNS = [
  'id',
  'user_id',
  'name',
  'levels',
  'take_profit_percent',
  'take_profit_callback_percent',
  'replenish_callback_percent',
  'stop_loss_percent',
  'cooldown_seconds',
] as const;

const checkSettings = (body: StrategySettings & { name: string }) => {
  if (!body.name.trim()) fail(ErrorCode.PARAM_REQUIRED, 'name is required', { field: 'name' });
  const problem = strategyProblem(body);
  if (problem) fail(ErrorCode.INVALID, describeProblem(problem), problem);
};

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/** Strategy templates: `/api/strategy/list|add|edit|detail|delete` and the system templates. */
/** The orders a user's template list can be asked for (most recently changed first by default). */
const LIST_SORTS = { updatedAt: 'updated_at', createdAt: 'created_at', name: 'name' } as const;
const LIST_SORT_KEYS = ['updatedAt', 'createdAt', 'name'] as const satisfies readonly (keyof typeof LIST_SORTS)[];

export const strategyRoutes = (db: Db) => async (instance: FastifyInstance) => {
  const app = typed(instance);
  app.addHook('onRequest', app.authenticate);

  app.get('/api/trade/config-templates', { schema: { summary: 'System strategy templates' } }, async () => {
    const rows = await db.selectFrom('strategies').select(COLUMNS).where('user_id', 'is', null).orderBy('id').execute();
    return ok(rows.map(toTemplate));
  });

  app.get(
    '/api/strategy/list',
    {
      schema: {
        summary: "The user's strategy templates",
        querystring: Query({
          ...pagingProperties(),
          q: Type.Optional(SafeText({ maxLength: 40 })),
          sort: StringEnum(LIST_SORT_KEYS, { default: 'updatedAt' }),
          order: StringEnum(['ASC', 'DESC', 'asc', 'desc'], { default: 'DESC' }),
        }),
      },
    },
    async (request) => {
      const { page, pageSize, q, sort, order } = request.query;
      const direction = order.toUpperCase() === 'ASC' ? 'asc' : 'desc';
      let query = db.selectFrom('strategies').where('user_id', '=', request.user!.id);
      if (q) query = query.where(sql<boolean>`name ilike ${`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
      const [rows, count] = await Promise.all([
        query.select(COLUMNS).orderBy(LIST_SORTS[sort], direction).orderBy('id').limit(pageSize).offset((page - 1) * pageSize).execute(),
        query.select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return ok({ list: rows.map(toTemplate), total: Number(count.n) });
    },
  );

  app.get('/api/strategy/detail/:id', { schema: { summary: 'One template (own or system)', params: IdParams() } }, async (request) => {
    const { id } = request.params;
    const row = await db
      .selectFrom('strategies')
      .select(COLUMNS)
      .where('id', '=', id)
      .where((eb) => eb.or([eb('user_id', '=', request.user!.id), eb('user_id', 'is', null)]))
      .executeTakeFirst();
    if (!row) fail(ErrorCode.STRATEGY_NOT_EXIST, 'strategy does not exist');
    return ok(toTemplate(row!));
  });

  app.post(
    '/api/strategy/add',
    { schema: { summary: 'Create a template', body: addBody } },
    async (request) => {
      const body = request.body;
      checkSettings(body);
      const userId = request.user!.id;
      try {
        const row = await db.transaction().execute(async (trx) => {
          // Serialize a user's additions so two at once cannot both pass the limit.
          await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
          const count = await trx.selectFrom('strategies').select(trx.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
          if (Number(count.n) >= STRATEGY_LIMIT) fail(ErrorCode.STRATEGY_LIMIT, `at most ${STRATEGY_LIMIT} strategies`, { limit: STRATEGY_LIMIT });
          return trx.insertInto('strategies').values({ ...toColumns(body), user_id: userId }).returning(COLUMNS).executeTakeFirstOrThrow();
        });
        return ok(toTemplate(row));
      } catch (error) {
        if (isUniqueViolation(error)) fail(ErrorCode.STRATEGY_EXISTS, 'a strategy with this name exists', { field: 'name' });
        throw error;
      }
    },
  );

  app.post(
    '/api/strategy/edit',
    {
      schema: {
        summary: 'Change a template of ones own',
        body: editBody,
      },
    },
    async (request) => {
      const body = request.body;
      checkSettings(body);
      try {
        const row = await db
          .updateTable('strategies')
          .set({ ...toColumns(body), updated_at: sql`now()` })
          .where('id', '=', body.id)
          .where('user_id', '=', request.user!.id)
          .returning(COLUMNS)
          .executeTakeFirst();
        if (!row) fail(ErrorCode.STRATEGY_NOT_EXIST, 'strategy does not exist');
        return ok(toTemplate(row!));
      } catch (error) {
        if (isUniqueViolation(error)) fail(ErrorCode.STRATEGY_EXISTS, 'a strategy with this name exists', { field: 'name' });
        throw error;
      }
    },
  );

  app.post(
    '/api/strategy/delete',
    { schema: { summary: 'Delete a template of ones own', body: Body({ id: Uuid() }) } },
    async (request) => {
      const { id } = request.body;
      const userId = request.user!.id;
      // Ownership first: another user's template is answered as unknown, and its tasks stay unseen.
      const own = await db.selectFrom('strategies').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      if (!own) fail(ErrorCode.STRATEGY_NOT_EXIST, 'strategy does not exist');
      const inUse = await db.selectFrom('trade_tasks').select('id').where('strategy_id', '=', id).where('user_id', '=', userId).limit(1).executeTakeFirst();
      if (inUse) fail(ErrorCode.STRATEGY_IN_USE, 'a task uses this strategy', { taskId: inUse.id });
      const deleted = await db.deleteFrom('strategies').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      if (Number(deleted.numDeletedRows) !== 1) fail(ErrorCode.STRATEGY_NOT_EXIST, 'strategy does not exist');
      return ok(null);
    },
  );
};
