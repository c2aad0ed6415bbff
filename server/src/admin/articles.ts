import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { ArticleTranslation } from '../../../src/api/admin';
import { ErrorCode } from '../../../src/api/errors';
import { adminArticles, cleanTranslations, isUuid, translationSchema } from '../article/articles';
import type { Db } from '../db/database';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { Body, Type, typed } from '../http/schemas';
import { recordAudit } from './audit';
import { idParams, listParams, listQuerystring, parseListParams, sendList } from './rest';
import { likePattern, uuidsOf } from './users';

/** Bodies of a create or change: three languages of up to 50 000 characters each (CJK is 3 bytes a character in UTF-8). */
const ARTICLE_BODY_LIMIT = 1024 * 1024;

const SORTS = { id: 'id', published: 'published', publishedAt: 'published_at', createdAt: 'created_at', updatedAt: 'updated_at' } as const;

interface ArticleFilter {
  q?: string;
  published?: boolean;
  id?: (string | number)[];
}

const translations = Type.Array(translationSchema, { maxItems: 3 });

const notFound = (): never => fail(ErrorCode.PARAM_NOT_EXIST, 'article does not exist', { field: 'id' });
const findArticle = async (db: Db, id: string) => (isUuid(id) ? ((await adminArticles(db, [id]))[0] ?? notFound()) : notFound());

/** The zh-CN title, for the audit log. */
const titleOf = (list: ArticleTranslation[]) => list.find((t) => t.locale === 'zh-CN')?.title ?? list[0]?.title ?? '';

/** /api/admin/articles: write, change, publish or withdraw, and delete articles. */
export const articleRoutes = (instance: FastifyInstance, db: Db) => {
  const app = typed(instance);
  app.get(
    '/api/admin/articles',
    {
      schema: {
        summary: 'Articles, published or not, with every translation (filter q searches titles and summaries)',
        security: [{ bearer: [] }],
        querystring: listQuerystring(Object.keys(SORTS), { q: { type: 'string', maxLength: 100 }, published: { type: 'boolean' } }),
      },
      preValidation: parseListParams,
    },
    async (request, reply) => {
      const { sort, offset, limit, filter } = listParams<ArticleFilter>(request, ['updatedAt', 'DESC']);
      let base = db.selectFrom('articles');
      const text = filter.q?.trim();
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
      if (filter.published !== undefined) base = base.where('published', '=', filter.published);
      if (filter.id) {
        const ids = uuidsOf(filter.id);
        base = ids.length > 0 ? base.where('id', 'in', ids) : base.where(sql<boolean>`false`);
      }
      const [rows, count] = await Promise.all([
        base
          .select('id')
          .orderBy(sql.ref(SORTS[sort.field as keyof typeof SORTS]), (ob) => (sort.order === 'asc' ? ob.asc().nullsFirst() : ob.desc().nullsLast()))
          .orderBy('id', sort.order)
          .limit(limit)
          .offset(offset)
          .execute(),
        base.select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return sendList(reply, 'articles', offset, await adminArticles(db, rows.map((row) => row.id)), Number(count.n));
    },
  );

  app.get('/api/admin/articles/:id', { schema: { summary: 'One article with every translation', security: [{ bearer: [] }], params: idParams } }, async (request) =>
    ok(await findArticle(db, request.params.id)),
  );

  app.post(
    '/api/admin/articles',
    {
      bodyLimit: ARTICLE_BODY_LIMIT,
      schema: {
        summary: 'Write an article (bodies are sanitized; a zh-CN translation is required)',
        security: [{ bearer: [] }],
        body: Body({ translations, published: Type.Optional(Type.Boolean()) }),
      },
    },
    async (request) => {
      const body = request.body;
      const texts = cleanTranslations(body.translations);
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
          .values(texts.map((t) => ({ article_id: row.id, ...t })))
          .execute();
        await recordAudit(trx, {
          operatorId,
          action: 'article.add',
          targetType: 'article',
          targetId: row.id,
          data: { title: titleOf(texts), locales: texts.map((t) => t.locale), published },
        });
        return row.id;
      });
      return ok(await findArticle(db, id));
    },
  );

  app.put(
    '/api/admin/articles/:id',
    {
      bodyLimit: ARTICLE_BODY_LIMIT,
      schema: {
        summary: 'Replace an article’s translations, publish or withdraw it, or both',
        security: [{ bearer: [] }],
        params: idParams,
        body: Type.Object({ translations: Type.Optional(translations), published: Type.Optional(Type.Boolean()) }, { additionalProperties: false, minProperties: 1 }),
      },
    },
    async (request) => {
      const { id } = request.params;
      const body = request.body;
      const texts = body.translations && cleanTranslations(body.translations);
      const operatorId = request.user!.id;
      if (!isUuid(id)) notFound();
      await db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('articles').select(['published']).where('id', '=', id).forUpdate().executeTakeFirst();
        if (!before) return notFound();
        const publishChange = body.published !== undefined && body.published !== before.published;
        // The same state again changes nothing and writes no audit line.
        if (!texts && !publishChange) return;
        await trx
          .updateTable('articles')
          .set({ updated_at: sql`now()`, ...(publishChange ? { published: body.published!, published_at: body.published ? sql`now()` : null } : {}) })
          .where('id', '=', id)
          .execute();
        if (texts) {
          await trx.deleteFrom('article_translations').where('article_id', '=', id).execute();
          await trx
            .insertInto('article_translations')
            .values(texts.map((t) => ({ article_id: id, ...t })))
            .execute();
        }
        await recordAudit(trx, {
          operatorId,
          action: texts ? 'article.edit' : 'article.publish',
          targetType: 'article',
          targetId: id,
          data: {
            ...(texts ? { title: titleOf(texts), locales: texts.map((t) => t.locale) } : {}),
            ...(publishChange ? { published: body.published } : {}),
          },
        });
      });
      return ok(await findArticle(db, id));
    },
  );

  app.delete('/api/admin/articles/:id', { schema: { summary: 'Delete an article and its translations', security: [{ bearer: [] }], params: idParams } }, async (request) => {
    const { id } = request.params;
    const operatorId = request.user!.id;
    if (!isUuid(id)) notFound();
    return ok(
      await db.transaction().execute(async (trx) => {
        const found = await trx.selectFrom('articles').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
        if (!found) return notFound();
        const before = await findArticle(trx, id);
        await trx.deleteFrom('articles').where('id', '=', id).execute();
        await recordAudit(trx, { operatorId, action: 'article.delete', targetType: 'article', targetId: id, data: { title: titleOf(before.translations), published: before.published } });
        return before;
      }),
    );
  });
};
