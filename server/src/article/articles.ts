import type { AdminArticle, ArticleTranslation } from '../../../src/api/admin';
import type { Article, ArticleSummary } from '../../../src/api/article';
import { ErrorCode } from '../../../src/api/errors';
import type { LocaleCode } from '../../../src/api/types';
import type { Db } from '../db/database';
import { fail } from '../http/errors';
import { isEmptyHtml, sanitizeArticleHtml } from './sanitize';
import { Body, StringEnum, Type } from '../http/schemas';

export const ARTICLE_LOCALES: readonly LocaleCode[] = ['zh-CN', 'en-US', 'zh-TW'];
/** Every article has a zh-CN text: the fallback of the other languages. */
export const FALLBACK_LOCALE: LocaleCode = 'zh-CN';
export const TITLE_MAX = 120;
export const SUMMARY_MAX = 500;
export const BODY_MAX = 50_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);

/** JSON schema of one translation in the operators' add/edit bodies. */
export const translationSchema = Body({
  locale: StringEnum(ARTICLE_LOCALES),
  title: Type.String({ minLength: 1, maxLength: TITLE_MAX }),
  summary: Type.String({ maxLength: SUMMARY_MAX }),
  body: Type.String({ minLength: 1, maxLength: BODY_MAX }),
});

/** Plain text fields: no control characters (line breaks in a summary are fine). */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * Checks and cleans the translations of an add or edit: one per language, a
 * zh-CN one, non-blank titles, bodies sanitized (and not empty afterwards).
 * Throws a business error before anything is written.
 */
export const cleanTranslations = (translations: ArticleTranslation[]): ArticleTranslation[] => {
  if (translations.length === 0) fail(ErrorCode.PARAM_REQUIRED, 'at least one translation is required', { field: 'translations' });
  const seen = new Set<LocaleCode>();
  const cleaned = translations.map((t, index) => {
    const field = (name: string) => `translations.${index}.${name}`;
    if (seen.has(t.locale)) fail(ErrorCode.INVALID, `two translations for ${t.locale}`, { field: field('locale'), locale: t.locale });
    seen.add(t.locale);
    const title = t.title.trim();
    const summary = t.summary.trim();
    if (!title) fail(ErrorCode.PARAM_REQUIRED, 'the title is blank', { field: field('title') });
    if (CONTROL.test(title) || /[\r\n]/.test(title)) fail(ErrorCode.PARAM_FORMAT, 'the title holds control characters', { field: field('title') });
    if (CONTROL.test(summary)) fail(ErrorCode.PARAM_FORMAT, 'the summary holds control characters', { field: field('summary') });
    const body = sanitizeArticleHtml(t.body);
    if (isEmptyHtml(body)) fail(ErrorCode.PARAM_REQUIRED, 'the body has no content (after removing unsafe markup)', { field: field('body') });
    return { locale: t.locale, title, summary, body };
  });
  if (!seen.has(FALLBACK_LOCALE)) fail(ErrorCode.PARAM_REQUIRED, 'a zh-CN translation is required', { field: 'translations', locale: FALLBACK_LOCALE });
  // Stored and answered in a fixed order: zh-CN, en-US, zh-TW.
  return cleaned.sort((a, b) => ARTICLE_LOCALES.indexOf(a.locale) - ARTICLE_LOCALES.indexOf(b.locale));
};

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** The published articles in one language (zh-CN where it has none), newest first. */
export const listPublished = async (db: Db, locale: LocaleCode, page: number, pageSize: number) => {
  const base = db.selectFrom('articles').where('published', '=', true);
  const [rows, count] = await Promise.all([
    base
      .select(['id', 'published_at'])
      .orderBy('published_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    base.select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const texts = await textsOf(db, rows.map((row) => row.id), locale, false);
  const list: ArticleSummary[] = rows.flatMap((row) => {
    const text = texts.get(row.id);
    return text ? [{ id: row.id, locale: text.locale, title: text.title, summary: text.summary, publishedAt: iso(row.published_at)! }] : [];
  });
  return { list, total: Number(count.n) };
};

/** One published article in one language, or null (unknown, unpublished or malformed id). */
export const findPublished = async (db: Db, id: string, locale: LocaleCode): Promise<Article | null> => {
  if (!isUuid(id)) return null;
  const row = await db.selectFrom('articles').select(['id', 'published_at']).where('id', '=', id).where('published', '=', true).executeTakeFirst();
  if (!row) return null;
  const text = (await textsOf(db, [row.id], locale, true)).get(row.id);
  if (!text) return null;
  return { id: row.id, locale: text.locale, title: text.title, summary: text.summary, body: text.body, publishedAt: iso(row.published_at)! };
};

/** The asked language's text of each article, or its zh-CN text. */
const textsOf = async (db: Db, ids: string[], locale: LocaleCode, withBody: boolean) => {
  const picked = new Map<string, { locale: LocaleCode; title: string; summary: string; body: string }>();
  if (ids.length === 0) return picked;
  const rows = await db
    .selectFrom('article_translations')
    .select(['article_id', 'locale', 'title', 'summary'])
    .$if(withBody, (q) => q.select('body'))
    .where('article_id', 'in', ids)
    .where('locale', 'in', [...new Set([locale, FALLBACK_LOCALE])])
    .execute();
  for (const row of rows) {
    const current = picked.get(row.article_id);
    if (!current || row.locale === locale) {
      picked.set(row.article_id, { locale: row.locale, title: row.title, summary: row.summary, body: (row as { body?: string }).body ?? '' });
    }
  }
  return picked;
};

/** Articles as the operators see them: every translation, published or not. */
export const adminArticles = async (db: Db, ids: string[]): Promise<AdminArticle[]> => {
  if (ids.length === 0) return [];
  const [rows, translations] = await Promise.all([
    db.selectFrom('articles').select(['id', 'published', 'published_at', 'created_at', 'updated_at']).where('id', 'in', ids).execute(),
    db.selectFrom('article_translations').select(['article_id', 'locale', 'title', 'summary', 'body']).where('article_id', 'in', ids).execute(),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    return [
      {
        id: row.id,
        published: row.published,
        publishedAt: iso(row.published_at),
        translations: translations
          .filter((t) => t.article_id === id)
          .map(({ locale, title, summary, body }) => ({ locale, title, summary, body }))
          .sort((a, b) => ARTICLE_LOCALES.indexOf(a.locale) - ARTICLE_LOCALES.indexOf(b.locale)),
        createdAt: iso(row.created_at)!,
        updatedAt: iso(row.updated_at)!,
      },
    ];
  });
};
