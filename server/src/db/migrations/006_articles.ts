import { sql, type Kysely } from 'kysely';
import { GUIDES } from './006_guides';

/**
 * Articles (news, guides) and their texts per language, plus the three
 * published guides every installation starts with.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('articles')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('published', 'boolean', (c) => c.notNull().defaultTo(false))
    /** Set when published, cleared when withdrawn; the public list is ordered by it. */
    .addColumn('published_at', 'timestamptz')
    /** The operator who wrote it (null for the built-in guides). */
    .addColumn('author_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('articles_published_at', sql`published = (published_at is not null)`)
    .execute();
  await db.schema.createIndex('articles_published_idx').on('articles').columns(['published', 'published_at']).execute();

  await db.schema
    .createTable('article_translations')
    .addColumn('article_id', 'uuid', (c) => c.notNull().references('articles.id').onDelete('cascade'))
    .addColumn('locale', 'text', (c) => c.notNull().check(sql`locale in ('zh-CN', 'en-US', 'zh-TW')`))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    /** Sanitized HTML (article/sanitize.ts). */
    .addColumn('body', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('article_translations_pk', ['article_id', 'locale'])
    .execute();

  for (const guide of GUIDES) {
    await db
      .insertInto('articles' as never)
      .values({
        id: guide.id,
        published: true,
        published_at: sql`now() - ${guide.minutesAgo}::int * interval '1 minute'`,
      } as never)
      .onConflict((oc) => oc.column('id' as never).doNothing())
      .execute();
    await db
      .insertInto('article_translations' as never)
      .values(Object.entries(guide.texts).map(([locale, text]) => ({ article_id: guide.id, locale, ...text })) as never)
      .onConflict((oc) => oc.columns(['article_id', 'locale'] as never).doNothing())
      .execute();
  }
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('article_translations').execute();
  await db.schema.dropTable('articles').execute();
};
