import { sql, type Kysely } from 'kysely';

/**
 * Where a paper account's prices come from (a real exchange's public market,
 * or the simulator: accounts made before this trade on the simulator), and
 * the simulator's minute candles for the charts of every process.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('exchange_accounts').addColumn('price_source', 'text').execute();
  await sql`update exchange_accounts set price_source = 'simulator' where exchange = 'paper'`.execute(db);
  await db.schema
    .createTable('paper_candles')
    .addColumn('symbol', 'text', (c) => c.notNull())
    /** Open time of the minute, epoch ms. */
    .addColumn('minute', 'bigint', (c) => c.notNull())
    .addColumn('open', 'numeric', (c) => c.notNull())
    .addColumn('high', 'numeric', (c) => c.notNull())
    .addColumn('low', 'numeric', (c) => c.notNull())
    .addColumn('close', 'numeric', (c) => c.notNull())
    .addColumn('volume', 'numeric', (c) => c.notNull())
    .addPrimaryKeyConstraint('paper_candles_pk', ['symbol', 'minute'])
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('paper_candles').execute();
  await db.schema.alterTable('exchange_accounts').dropColumn('price_source').execute();
};
