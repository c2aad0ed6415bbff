import { sql, type Kysely } from 'kysely';

/**
 * Issue 26 (logins nobody can lock, no call that exhausts the server):
 * - `login_failures`: wrong logins counted per key (an account from one
 *   address, an account from anywhere, an address), with the time of the last
 *   one; the wait before the next attempt grows with the count (user/loginGuard.ts).
 * - `paper_candles_hourly`: the simulator's hourly candles, rolled up from its
 *   minute candles once these are older than the minutes' retention, so the
 *   minute table stays bounded (engine/candleRollup.ts).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('login_failures')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull().check(sql`failures >= 0`))
    .addColumn('last_failure_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('login_failures_last_idx').on('login_failures').column('last_failure_at').execute();
  await db.schema
    .createTable('paper_candles_hourly')
    .addColumn('symbol', 'text', (c) => c.notNull())
    /** Open time of the hour, epoch ms. */
    .addColumn('hour', 'bigint', (c) => c.notNull())
    .addColumn('open', 'numeric', (c) => c.notNull())
    .addColumn('high', 'numeric', (c) => c.notNull())
    .addColumn('low', 'numeric', (c) => c.notNull())
    .addColumn('close', 'numeric', (c) => c.notNull())
    .addColumn('volume', 'numeric', (c) => c.notNull())
    .addPrimaryKeyConstraint('paper_candles_hourly_pk', ['symbol', 'hour'])
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('paper_candles_hourly').execute();
  await db.schema.dropTable('login_failures').execute();
};
