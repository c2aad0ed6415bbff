import { sql } from 'kysely';
import type { Static } from 'typebox';
import type { AdminArticle, ArticleTranslation } from '../../../src/api/admin';
import { ErrorCode } from '../../../src/api/errors';
import { adminArticles, cleanTranslations, isUuid } from '../article/articles';
import type { Db } from '../db/database';
import { fail } from '../http/errors';
import { recordAudit } from '../shared/audit';
import type { ListPage, ListParams } from './rest';
import type { ARTICLE_SORTS, articleAddBody, articleChangeBody, articleListQuery } from './schemas';
import { likePattern, uuidsOf } from './users';

/** /api/admin/articles: write, change, publish or withdraw, and delete articles. */

const SORTS: Record<(typeof ARTICLE_SORTS)[number], string> = {
  id: 'id',
  published: 'published',
  publishedAt: 'published_at',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

type ArticleFilter = NonNullable<Static<typeof articleListQuery>['filter']>;

const notFound = (): never => fail(ErrorCode.PARAM_NOT_EXIST, 'article does not exist', { field: 'id' });
/** One article with every translation; 10006 for an unknown or malformed id. */
export const findArticle = async (db: Db, id: string) => (isUuid(id) ? ((await adminArticles(db, [id]))[0] ?? notFound()) : notFound());

/** The zh-CN title, for the audit log. */
const titleOf = (list: ArticleTranslation[]) => list.find((t) => t.locale === 'zh-CN')?.title ?? list[0]?.title ?? '';

/** Articles, published or not, with every translation (q searches titles and summaries). */
export const listArticles = async (
  db: Db,
  { sort, offset, limit, filter }: ListParams<(typeof ARTICLE_SORTS)[number], ArticleFilter>,
): Promise<ListPage<AdminArticle>> => {
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
      .orderBy(sql.ref(SORTS[sort.field]), (ob) => (sort.order === 'asc' ? ob.asc().nullsFirst() : ob.desc().nullsLast()))
      .orderBy('id', sort.order)
      .limit(limit)
      .offset(offset)
      .execute(),
    base.select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { offset, list: await adminArticles(db, rows.map((row) => row.id)), total: Number(count.n) };
};

/** Writes an article (bodies sanitized, a zh-CN translation required) with its audit line. */
export const addArticle = async (db: Db, operatorId: string, body: Static<typeof articleAddBody>): Promise<AdminArticle> => {
  const texts = cleanTranslations(body.translations);
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
  return findArticle(db, id);
};

/** Replaces an article's translations, publishes or withdraws it, or both; the same state again changes nothing and writes no audit line. */
export const changeArticle = async (db: Db, operatorId: string, id: string, body: Static<typeof articleChangeBody>): Promise<AdminArticle> => {
  const texts = body.translations && cleanTranslations(body.translations);
  if (!isUuid(id)) notFound();
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('articles').select(['published']).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!before) return notFound();
    const published = body.published;
    const publishChange = published !== undefined && published !== before.published;
    if (!texts && !publishChange) return;
    await trx
      .updateTable('articles')
      .set({ updated_at: sql`now()`, ...(publishChange ? { published, published_at: published ? sql`now()` : null } : {}) })
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
        ...(publishChange ? { published } : {}),
      },
    });
  });
  return findArticle(db, id);
};

/** Deletes an article and its translations; answers it as it was. */
export const deleteArticle = async (db: Db, operatorId: string, id: string): Promise<AdminArticle> => {
  if (!isUuid(id)) notFound();
  return db.transaction().execute(async (trx) => {
    const found = await trx.selectFrom('articles').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
    if (!found) return notFound();
    const before = await findArticle(trx, id);
    await trx.deleteFrom('articles').where('id', '=', id).execute();
    await recordAudit(trx, { operatorId, action: 'article.delete', targetType: 'article', targetId: id, data: { title: titleOf(before.translations), published: before.published } });
    return before;
  });
};
