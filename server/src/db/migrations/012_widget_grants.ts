import { sql, type Kysely } from 'kysely';

/**
 * Widget grants: what a user allowed a partner site's widgets to read. The
 * partner key is stored as a SHA-256 hash; the short-lived widget tokens
 * themselves are not stored (signed, and checked against their grant).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('widget_grants')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_issued_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    /** When the newest token issued for it expires. */
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('widget_grants_user_idx').on('widget_grants').columns(['user_id', 'created_at']).execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('widget_grants').execute();
};
