import type { Kysely } from 'kysely';

/**
 * Each widget grant is bound to the origin the user authorised (its widgets'
 * read calls are opened to that origin only), and carries an embed token that
 * lives until the grant is revoked, stored as a SHA-256 hash. Grants made
 * before keep no origin: no other origin is opened to them.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .alterTable('widget_grants')
    .addColumn('origin', 'text')
    .addColumn('embed_hash', 'text', (c) => c.unique())
    .execute();
  // The CORS check asks, for a call from another origin, whether a live grant names that origin.
  await db.schema.createIndex('widget_grants_origin_idx').on('widget_grants').column('origin').execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropIndex('widget_grants_origin_idx').execute();
  await db.schema.alterTable('widget_grants').dropColumn('embed_hash').dropColumn('origin').execute();
};
