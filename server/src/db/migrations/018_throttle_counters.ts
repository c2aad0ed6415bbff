import { sql, type Kysely } from 'kysely';

/**
 * Throttle counters: one row per key and window length, counting the attempts
 * of the current window. An attempt is reserved by one INSERT ... ON CONFLICT
 * DO UPDATE that only counts while the window has room, so concurrent
 * requests (in one process or several sharing the database) cannot all pass
 * a check before any of them is recorded. Replaces the event log, which was
 * checked before the work and written after it.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('throttle_counters')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_seconds', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('count', 'integer', (c) => c.notNull().check(sql`count >= 0`))
    /** Of `count`, attempts still in flight (their outcome decides whether they stay counted). */
    .addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0).check(sql`pending >= 0`))
    .addPrimaryKeyConstraint('throttle_counters_pk', ['key', 'window_seconds'])
    .execute();
  await db.schema.createIndex('throttle_counters_window_idx').on('throttle_counters').column('window_start').execute();
  await db.schema.dropTable('throttle_events').execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('throttle_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('throttle_events_key_idx').on('throttle_events').columns(['key', 'created_at']).execute();
  await db.schema.dropTable('throttle_counters').execute();
};
