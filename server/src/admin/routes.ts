import Big from 'big.js';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AdminUser, ArticleTranslation, AuditEntry, ServiceSettings } from '../../../src/api/admin';
import { ErrorCode } from '../../../src/api/errors';
import { adminArticles, cleanTranslations, isUuid, translationSchema } from '../article/articles';
import type { Db } from '../db/database';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { checkSettingsChange, readSettings, settingsChangeSchema, writeSettings } from '../settings';
import type { Sessions } from '../user/sessions';
import { recordAudit, requireOperator } from './audit';

/** Bodies of article add/edit: three languages of up to 50 000 characters each (CJK is 3 bytes a character in UTF-8). */
const ARTICLE_BODY_LIMIT = 1024 * 1024;

const uuid = { type: 'string', format: 'uuid' } as const;
const paging = {
  page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1 },
  pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  sort: { type: 'string', maxLength: 40 },
  order: { type: 'string', enum: ['ASC', 'DESC', 'asc', 'desc'], default: 'DESC' },
  /** react-admin's getMany: comma-separated ids. */
  ids: { type: 'string', maxLength: 4000 },
} as const;
const strictBody = (properties: Record<string, object>, required: string[]) => ({ type: 'object', additionalProperties: false, required, properties });
const detailParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 100 } } } as const;

interface ListQuery {
  page: number;
  pageSize: number;
  sort?: string;
  order: string;
  ids?: string;
}

/** Keeps an `in` list non-empty when no given id was well-formed (matches nothing). */
const NO_ID = '00000000-0000-0000-0000-000000000000';
const idsOf = (ids: string | undefined) => (ids ?? '').split(',').map((id) => id.trim()).filter(isUuid);
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const direction = (order: string) => (order.toUpperCase() === 'ASC' ? 'asc' : 'desc');
const iso = (value: Date | string) => new Date(value).toISOString();

/* ---------- users ---------- */

const USER_SORTS = {
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

const selectUser = (db: Db) => userColumns(userQuery(db));

type UserRow = Awaited<ReturnType<ReturnType<typeof selectUser>['executeTakeFirstOrThrow']>>;

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

const findUser = async (db: Db, id: string): Promise<AdminUser | null> => {
  if (!isUuid(id)) return null;
  const row = await selectUser(db).where('u.id', '=', id).executeTakeFirst();
  return row ? toAdminUser(row) : null;
};

/* ---------- articles ---------- */

const ARTICLE_SORTS = {
  id: 'id',
  published: 'published',
  publishedAt: 'published_at',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
} as const;

const findArticle = async (db: Db, id: string) => (isUuid(id) ? ((await adminArticles(db, [id]))[0] ?? null) : null);

const articleNotFound = (): never => fail(ErrorCode.PARAM_NOT_EXIST, 'article does not exist', { field: 'id' });

/** The zh-CN title, for the audit log. */
const titleOf = (translations: ArticleTranslation[]) => translations.find((t) => t.locale === 'zh-CN')?.title ?? translations[0]?.title ?? '';

/**
 * The operator console's users, articles, settings and audit calls under
 * /api/admin/ (operators only: 11005 for anyone else, and nothing changes).
 * Every change writes its audit line in the transaction that makes it.
 */
export const adminRoutes = ({ db, sessions }: { db: Db; sessions: Sessions }) => async (app: FastifyInstance) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', requireOperator);

  /* ----- users ----- */

  app.get(
    '/api/admin/users/list',
    {
      schema: {
        summary: 'Users (q searches email and nickname)',
        security: [{ bearer: [] }],
        querystring: {
          type: 'object',
          properties: {
            ...paging,
            q: { type: 'string', maxLength: 100 },
            level: { type: 'integer', minimum: 0, maximum: 1000 },
            activated: { type: 'boolean' },
            disabled: { type: 'boolean' },
            role: { type: 'string', enum: ['user', 'operator'] },
          },
        },
      },
    },
    async (request) => {
      const query = request.query as ListQuery & { q?: string; level?: number; activated?: boolean; disabled?: boolean; role?: 'user' | 'operator' };
      const filtered = (q: UserQuery): UserQuery => {
        let out = q;
        const text = query.q?.trim();
        if (text) {
          const pattern = likePattern(text);
          out = out.where((eb) => eb.or([eb('u.email', 'ilike', pattern), eb('u.nickname', 'ilike', pattern)]));
        }
        if (query.level !== undefined) out = out.where('u.level', '=', query.level);
        if (query.activated !== undefined) out = out.where('u.activated', '=', query.activated);
        if (query.disabled !== undefined) out = out.where('u.disabled', '=', query.disabled);
        if (query.role) out = out.where('u.role', '=', query.role);
        if (query.ids !== undefined) out = out.where('u.id', 'in', [...idsOf(query.ids), NO_ID]);
        return out;
      };
      const sortColumn = USER_SORTS[query.sort as keyof typeof USER_SORTS] ?? USER_SORTS.createdAt;
      const [rows, count] = await Promise.all([
        userColumns(filtered(userQuery(db)))
          .orderBy(sql.ref(sortColumn), direction(query.order))
          .orderBy('u.id', 'desc')
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize)
          .execute(),
        filtered(userQuery(db)).select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return ok({ list: rows.map(toAdminUser), total: Number(count.n) });
    },
  );

  app.get(
    '/api/admin/users/detail/:id',
    { schema: { summary: 'One user', security: [{ bearer: [] }], params: detailParams } },
    async (request) => {
      const user = await findUser(db, (request.params as { id: string }).id);
      if (!user) fail(ErrorCode.USER_NOT_EXIST, 'user does not exist', { field: 'id' });
      return ok(user);
    },
  );

  app.post(
    '/api/admin/users/edit',
    {
      schema: {
        summary: 'Change a user’s level, activation or disabled flag (disabling ends their sessions)',
        security: [{ bearer: [] }],
        body: strictBody(
          { id: uuid, level: { type: 'integer', minimum: 0, maximum: 1000 }, activated: { type: 'boolean' }, disabled: { type: 'boolean' } },
          ['id'],
        ),
      },
    },
    async (request) => {
      const body = request.body as { id: string; level?: number; activated?: boolean; disabled?: boolean };
      const operatorId = request.user!.id;
      if (body.disabled === true && body.id === operatorId) fail(ErrorCode.INVALID, 'an operator cannot disable their own account', { field: 'disabled' });
      if (body.level !== undefined) {
        const { levels } = await readSettings(db);
        if (!levels.some((level) => level.level === body.level)) {
          fail(ErrorCode.PARAM_RANGE, `level must be one of the configured levels (0-${levels.length - 1})`, { field: 'level' });
        }
      }
      await db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('users')
          .select(['level', 'activated', 'disabled'])
          .where('id', '=', body.id)
          .forUpdate()
          .executeTakeFirst();
        if (!before) return fail(ErrorCode.USER_NOT_EXIST, 'user does not exist', { field: 'id' });
        const changes: { level?: number; activated?: boolean; disabled?: boolean } = {};
        for (const key of ['level', 'activated', 'disabled'] as const) {
          if (body[key] !== undefined && body[key] !== before[key]) (changes as Record<string, unknown>)[key] = body[key];
        }
        if (Object.keys(changes).length === 0) return;
        await trx
          .updateTable('users')
          .set({
            ...changes,
            ...(changes.activated === undefined ? {} : { activated_at: changes.activated ? sql`now()` : null }),
          })
          .where('id', '=', body.id)
          .execute();
        if (changes.disabled) await sessions.revokeAllOf(trx, body.id);
        const previous = Object.fromEntries(Object.keys(changes).map((key) => [key, before[key as keyof typeof before]]));
        await recordAudit(trx, { operatorId, action: 'user.edit', targetType: 'user', targetId: body.id, data: { changes, before: previous } });
      });
      return ok(await findUser(db, body.id));
    },
  );

  /* ----- articles ----- */

  app.get(
    '/api/admin/articles/list',
    {
      schema: {
        summary: 'Articles, published or not, with every translation',
        security: [{ bearer: [] }],
        querystring: { type: 'object', properties: { ...paging, q: { type: 'string', maxLength: 100 }, published: { type: 'boolean' } } },
      },
    },
    async (request) => {
      const query = request.query as ListQuery & { q?: string; published?: boolean };
      let base = db.selectFrom('articles');
      const text = query.q?.trim();
      if (text) {
        const pattern = likePattern(text);
        base = base.where((eb) =>
          eb.exists(
            eb
              .selectFrom('article_translations as t')
              .select('t.article_id')
              .whereRef('t.article_id', '=', 'articles.id')
              .where((inner) => inner.or([inner('t.title', 'ilike', pattern), inner('t.summary', 'ilike', pattern)])),
          ),
        );
      }
      if (query.published !== undefined) base = base.where('published', '=', query.published);
      if (query.ids !== undefined) base = base.where('id', 'in', [...idsOf(query.ids), NO_ID]);
      const sortColumn = ARTICLE_SORTS[query.sort as keyof typeof ARTICLE_SORTS] ?? ARTICLE_SORTS.updatedAt;
      const dir = direction(query.order);
      const [rows, count] = await Promise.all([
        base
          .select('id')
          .orderBy(sql.ref(sortColumn), (ob) => (dir === 'asc' ? ob.asc().nullsFirst() : ob.desc().nullsLast()))
          .orderBy('id', 'desc')
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize)
          .execute(),
        base.select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return ok({ list: await adminArticles(db, rows.map((row) => row.id)), total: Number(count.n) });
    },
  );

  app.get(
    '/api/admin/articles/detail/:id',
    { schema: { summary: 'One article with every translation', security: [{ bearer: [] }], params: detailParams } },
    async (request) => {
      const article = await findArticle(db, (request.params as { id: string }).id);
      return ok(article ?? articleNotFound());
    },
  );

  const translationsProperty = { type: 'array', maxItems: 3, items: translationSchema } as const;

  app.post(
    '/api/admin/articles/add',
    {
      bodyLimit: ARTICLE_BODY_LIMIT,
      schema: {
        summary: 'Write an article (bodies are sanitized; a zh-CN translation is required)',
        security: [{ bearer: [] }],
        body: strictBody({ translations: translationsProperty, published: { type: 'boolean' } }, ['translations']),
      },
    },
    async (request) => {
      const body = request.body as { translations: ArticleTranslation[]; published?: boolean };
      const translations = cleanTranslations(body.translations);
      const operatorId = request.user!.id;
      const published = body.published ?? false;
      const id = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('articles')
          .values({ published, published_at: published ? sql`now()` : null, author_id: operatorId })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('article_translations')
          .values(translations.map((t) => ({ article_id: row.id, ...t })))
          .execute();
        await recordAudit(trx, {
          operatorId,
          action: 'article.add',
          targetType: 'article',
          targetId: row.id,
          data: { title: titleOf(translations), locales: translations.map((t) => t.locale), published },
        });
        return row.id;
      });
      return ok(await findArticle(db, id));
    },
  );

  app.post(
    '/api/admin/articles/edit',
    {
      bodyLimit: ARTICLE_BODY_LIMIT,
      schema: {
        summary: 'Replace an article’s translations (and optionally publish or withdraw it)',
        security: [{ bearer: [] }],
        body: strictBody({ id: uuid, translations: translationsProperty, published: { type: 'boolean' } }, ['id', 'translations']),
      },
    },
    async (request) => {
      const body = request.body as { id: string; translations: ArticleTranslation[]; published?: boolean };
      const translations = cleanTranslations(body.translations);
      const operatorId = request.user!.id;
      await db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('articles').select(['published']).where('id', '=', body.id).forUpdate().executeTakeFirst();
        if (!before) return articleNotFound();
        const publishChange = body.published !== undefined && body.published !== before.published;
        await trx
          .updateTable('articles')
          .set({
            updated_at: sql`now()`,
            ...(publishChange ? { published: body.published!, published_at: body.published ? sql`now()` : null } : {}),
          })
          .where('id', '=', body.id)
          .execute();
        await trx.deleteFrom('article_translations').where('article_id', '=', body.id).execute();
        await trx
          .insertInto('article_translations')
          .values(translations.map((t) => ({ article_id: body.id, ...t })))
          .execute();
        await recordAudit(trx, {
          operatorId,
          action: 'article.edit',
          targetType: 'article',
          targetId: body.id,
          data: { title: titleOf(translations), locales: translations.map((t) => t.locale), ...(publishChange ? { published: body.published } : {}) },
        });
      });
      return ok(await findArticle(db, body.id));
    },
  );

  app.post(
    '/api/admin/articles/publish',
    {
      schema: {
        summary: 'Publish or withdraw an article',
        security: [{ bearer: [] }],
        body: strictBody({ id: uuid, published: { type: 'boolean' } }, ['id', 'published']),
      },
    },
    async (request) => {
      const body = request.body as { id: string; published: boolean };
      const operatorId = request.user!.id;
      await db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('articles').select(['published']).where('id', '=', body.id).forUpdate().executeTakeFirst();
        if (!before) return articleNotFound();
        if (before.published === body.published) return;
        await trx
          .updateTable('articles')
          .set({ published: body.published, published_at: body.published ? sql`now()` : null, updated_at: sql`now()` })
          .where('id', '=', body.id)
          .execute();
        await recordAudit(trx, { operatorId, action: 'article.publish', targetType: 'article', targetId: body.id, data: { published: body.published } });
      });
      return ok(await findArticle(db, body.id));
    },
  );

  app.post(
    '/api/admin/articles/delete',
    {
      schema: { summary: 'Delete an article and its translations', security: [{ bearer: [] }], body: strictBody({ id: uuid }, ['id']) },
    },
    async (request) => {
      const { id } = request.body as { id: string };
      const operatorId = request.user!.id;
      const article = await db.transaction().execute(async (trx) => {
        const found = await trx.selectFrom('articles').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
        if (!found) return articleNotFound();
        const [before] = await adminArticles(trx, [id]);
        await trx.deleteFrom('articles').where('id', '=', id).execute();
        await recordAudit(trx, {
          operatorId,
          action: 'article.delete',
          targetType: 'article',
          targetId: id,
          data: { title: titleOf(before!.translations), published: before!.published },
        });
        return before!;
      });
      return ok(article);
    },
  );

  /* ----- settings ----- */

  app.get('/api/admin/settings', { schema: { summary: 'The configured rules in force', security: [{ bearer: [] }] } }, async () =>
    ok(await readSettings(db)),
  );

  app.post(
    '/api/admin/settings/edit',
    { schema: { summary: 'Change some of the configured rules', security: [{ bearer: [] }], body: settingsChangeSchema } },
    async (request) => {
      const raw = request.body as Partial<ServiceSettings>;
      if (Object.keys(raw).length === 0) fail(ErrorCode.PARAM_REQUIRED, 'nothing to change', { field: null });
      const change = checkSettingsChange(raw);
      const operatorId = request.user!.id;
      const settings = await db.transaction().execute(async (trx) => {
        // One change at a time: each one reads the settings the previous one wrote.
        await sql`select pg_advisory_xact_lock(hashtext('settings.service'))`.execute(trx);
        const before = await readSettings(trx);
        const after = await writeSettings(trx, change);
        const previous = Object.fromEntries(Object.keys(change).map((key) => [key, before[key as keyof ServiceSettings]]));
        await recordAudit(trx, { operatorId, action: 'settings.edit', targetType: 'settings', targetId: null, data: { changes: change, before: previous } });
        return after;
      });
      return ok(settings);
    },
  );

  /* ----- audit ----- */

  app.get(
    '/api/admin/audit/list',
    {
      schema: {
        summary: 'The operators’ audit log, newest first',
        security: [{ bearer: [] }],
        querystring: {
          type: 'object',
          properties: {
            page: paging.page,
            pageSize: paging.pageSize,
            operatorId: { type: 'string', maxLength: 100 },
            action: { type: 'string', maxLength: 60 },
            targetType: { type: 'string', maxLength: 40 },
            targetId: { type: 'string', maxLength: 100 },
          },
        },
      },
    },
    async (request) => {
      const query = request.query as { page: number; pageSize: number; operatorId?: string; action?: string; targetType?: string; targetId?: string };
      let base = db.selectFrom('audit_log as a').innerJoin('users as o', 'o.id', 'a.operator_id');
      if (query.operatorId !== undefined) {
        // A malformed id matches nobody (not a database error).
        base = isUuid(query.operatorId) ? base.where('a.operator_id', '=', query.operatorId) : base.where(sql<boolean>`false`);
      }
      if (query.action) base = base.where('a.action', '=', query.action);
      if (query.targetType) base = base.where('a.target_type', '=', query.targetType);
      if (query.targetId) base = base.where('a.target_id', '=', query.targetId);
      const [rows, count] = await Promise.all([
        base
          .select(['a.id', 'a.operator_id', 'o.email', 'a.action', 'a.target_type', 'a.target_id', 'a.data', 'a.created_at'])
          .orderBy('a.created_at', 'desc')
          .orderBy('a.id', 'desc')
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize)
          .execute(),
        base.select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      const list: AuditEntry[] = rows.map((row) => ({
        id: String(row.id),
        operatorId: row.operator_id,
        operatorEmail: row.email,
        action: row.action,
        targetType: row.target_type,
        targetId: row.target_id,
        data: typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : row.data,
        createdAt: iso(row.created_at),
      }));
      return ok({ list, total: Number(count.n) });
    },
  );
};
