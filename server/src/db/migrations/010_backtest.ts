import { sql, type Kysely } from 'kysely';

/**
 * Backtests: their runs (progress, then the report or the error), the candle
 * files users upload, and exchanges' public candle history, cached by UTC day
 * so a range asked again is read here instead of from the exchange.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('backtest_runs')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('queued', 'loading', 'running', 'done', 'failed', 'canceled')`))
    .addColumn('done', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('request', 'jsonb', (c) => c.notNull())
    .addColumn('result', 'jsonb')
    .addColumn('error', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('backtest_runs_user_idx').on('backtest_runs').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('backtest_candle_sets')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('candles', 'integer', (c) => c.notNull())
    .addColumn('interval_ms', 'bigint', (c) => c.notNull())
    .addColumn('first_time', 'bigint', (c) => c.notNull())
    .addColumn('last_time', 'bigint', (c) => c.notNull())
    /** The candles as `time,open,high,low,close,volume` lines (epoch ms), gzip-compressed. */
    .addColumn('data', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('backtest_candle_sets_user_idx').on('backtest_candle_sets').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('market_candles')
    .addColumn('exchange', 'text', (c) => c.notNull())
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('interval', 'text', (c) => c.notNull())
    /** Start of the UTC day, epoch ms. */
    .addColumn('day', 'bigint', (c) => c.notNull())
    /** The day's candles as `time,open,high,low,close,volume` lines (epoch ms). */
    .addColumn('candles', 'text', (c) => c.notNull())
    /** The day had ended when it was fetched: it never changes again. */
    .addColumn('complete', 'boolean', (c) => c.notNull())
    .addColumn('fetched_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('market_candles_pk', ['exchange', 'symbol', 'interval', 'day'])
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('market_candles').execute();
  await db.schema.dropTable('backtest_candle_sets').execute();
  await db.schema.dropTable('backtest_runs').execute();
};
