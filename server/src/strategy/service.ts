import { sql, type Selectable } from 'kysely';
import { ErrorCode } from '../../../src/api/errors';
import { conditionsOf, describeProblem, exitsOf, strategyProblem, type StrategySettings, type StrategyTemplate } from '../../../src/api/strategy';
import type { Page } from '../../../src/api/types';
import type { Db } from '../db/database';
import type { StrategiesTable } from '../db/schema';
import { fail } from '../http/errors';
import type { LIST_SORT_KEYS, StrategyBody, StrategyEditBody, StrategyListQuery } from './schemas';

/** How many templates one user may keep (11004 beyond). */
export const STRATEGY_LIMIT = 20;

type Row = Omit<Selectable<StrategiesTable>, 'created_at' | 'updated_at'>;

/** A stored template's settings, as the ladder math and the engine take them. */
export const settingsOf = (
  row: Pick<Row, 'levels' | 'take_profit_percent' | 'take_profit_callback_percent' | 'replenish_callback_percent' | 'stop_loss_percent' | 'cooldown_seconds'> & { exits?: Row['exits']; conditions?: Row['conditions'] },
): StrategySettings => ({
  levels: row.levels,
  takeProfitPercent: row.take_profit_percent,
  takeProfitCallbackPercent: row.take_profit_callback_percent,
  replenishCallbackPercent: row.replenish_callback_percent,
  stopLossPercent: row.stop_loss_percent,
  cooldownSeconds: row.cooldown_seconds,
  // Several targets, stop base and arming, time stop, break-even (issue 28): only those the template sets.
  ...(row.exits ?? {}),
  // Signal conditions (issue 29): only when the template sets them.
  ...(row.conditions ? { conditions: row.conditions } : {}),
});

export const toTemplate = (row: Row): StrategyTemplate => ({ id: row.id, name: row.name, system: row.user_id === null, ...settingsOf(row) });

const toColumns = (body: StrategyBody) => ({
  name: body.name.trim(),
  levels: JSON.stringify(body.levels),
  take_profit_percent: body.takeProfitPercent,
  take_profit_callback_percent: body.takeProfitCallbackPercent,
  replenish_callback_percent: body.replenishCallbackPercent,
  stop_loss_percent: body.stopLossPercent,
  cooldown_seconds: body.cooldownSeconds,
  exits: ((exits) => (exits ? JSON.stringify(exits) : null))(exitsOf(body)),
  conditions: ((conditions) => (conditions ? JSON.stringify(conditions) : null))(conditionsOf(body)),
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
  'exits',
  'conditions',
] as const;

/** The list's sort keys and their columns. */
const LIST_SORTS = { updatedAt: 'updated_at', createdAt: 'created_at', name: 'name' } as const satisfies Record<(typeof LIST_SORT_KEYS)[number], string>;

const checkSettings = (body: StrategyBody) => {
  if (!body.name.trim()) fail(ErrorCode.PARAM_REQUIRED, 'name is required', { field: 'name' });
  const problem = strategyProblem(body);
  if (problem) fail(ErrorCode.INVALID, describeProblem(problem), problem);
};

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/** A template name taken by another of the user's templates: 13000. */
const uniqueName = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) fail(ErrorCode.STRATEGY_EXISTS, 'a strategy with this name exists', { field: 'name' });
    throw error;
  }
};

/** The system templates, every user's to choose. */
export const systemTemplates = async (db: Db): Promise<StrategyTemplate[]> => {
  const rows = await db.selectFrom('strategies').select(COLUMNS).where('user_id', 'is', null).orderBy('id').execute();
  return rows.map(toTemplate);
};

/** The user's own templates, sorted and paged in the database; `q` finds a part of the name. */
export const list = async (db: Db, userId: string, query: StrategyListQuery): Promise<Page<StrategyTemplate>> => {
  const { page, pageSize, q, sort, order } = query;
  const direction = order.toUpperCase() === 'ASC' ? 'asc' : 'desc';
  let select = db.selectFrom('strategies').where('user_id', '=', userId);
  if (q) select = select.where(sql<boolean>`name ilike ${`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
  const [rows, count] = await Promise.all([
    select.select(COLUMNS).orderBy(LIST_SORTS[sort], direction).orderBy('id').limit(pageSize).offset((page - 1) * pageSize).execute(),
    select.select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toTemplate), total: Number(count.n) };
};

/** One template, the user's own or a system one (13001 otherwise). */
export const detail = async (db: Db, userId: string, id: string): Promise<StrategyTemplate> => {
  const row = await db
    .selectFrom('strategies')
    .select(COLUMNS)
    .where('id', '=', id)
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('user_id', 'is', null)]))
    .executeTakeFirst();
  if (!row) fail(ErrorCode.STRATEGY_NOT_EXIST, 'strategy does not exist');
  return toTemplate(row!);
};

/** A new template of the user's (at most STRATEGY_LIMIT, names unique per user). */
export const add = async (db: Db, userId: string, body: StrategyBody): Promise<StrategyTemplate> => {
  checkSettings(body);
  const row = await uniqueName(() =>
    db.transaction().execute(async (trx) => {
      // Serialize a user's additions so two at once cannot both pass the limit.
      await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
      const count = await trx.selectFrom('strategies').select(trx.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
      if (Number(count.n) >= STRATEGY_LIMIT) fail(ErrorCode.STRATEGY_LIMIT, `at most ${STRATEGY_LIMIT} strategies`, { limit: STRATEGY_LIMIT });
      return trx.insertInto('strategies').values({ ...toColumns(body), user_id: userId }).returning(COLUMNS).executeTakeFirstOrThrow();
    }),
  );
  return toTemplate(row);
};

/** A changed template of the user's own (a system template or another user's is 13001). */
export const edit = async (db: Db, userId: string, body: StrategyEditBody): Promise<StrategyTemplate> => {
  checkSettings(body);
  const row = await uniqueName(() =>
    db
      .updateTable('strategies')
      .set({ ...toColumns(body), updated_at: sql`now()` })
      .where('id', '=', body.id)
      .where('user_id', '=', userId)
      .returning(COLUMNS)
      .executeTakeFirst(),
  );
  if (!row) fail(ErrorCode.STRATEGY_NOT_EXIST, 'strategy does not exist');
  return toTemplate(row!);
};

/** Deletes a template of the user's own that no task of theirs uses (13002 while one does). */
export const remove = async (db: Db, userId: string, id: string): Promise<null> => {
  // Ownership first: another user's template is answered as unknown, and its tasks stay unseen.
  const own = await db.selectFrom('strategies').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!own) fail(ErrorCode.STRATEGY_NOT_EXIST, 'strategy does not exist');
  const inUse = await db.selectFrom('trade_tasks').select('id').where('strategy_id', '=', id).where('user_id', '=', userId).limit(1).executeTakeFirst();
  if (inUse) fail(ErrorCode.STRATEGY_IN_USE, 'a task uses this strategy', { taskId: inUse.id });
  const deleted = await db.deleteFrom('strategies').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (Number(deleted.numDeletedRows) !== 1) fail(ErrorCode.STRATEGY_NOT_EXIST, 'strategy does not exist');
  return null;
};
