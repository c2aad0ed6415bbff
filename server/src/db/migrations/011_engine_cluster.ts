import { sql, type Kysely } from 'kysely';

/** Tasks are split into this many shards (engine/store/journal.ts SHARD_COUNT). */
const SHARDS = 16;

/**
 * Several engine processes on one PostgreSQL: leases on the task shards and
 * on the simulated market (one holder each, fenced by a token that grows on
 * every new holder), the processes' heartbeats, the commands the API leaves
 * for the process that drives a task, and the market's prices for the
 * processes that do not run it.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('engine_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text')
    .addColumn('token', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`'epoch'::timestamptz`))
    .execute();
  await sql`insert into engine_leases (name) select 'shard:' || n from generate_series(0, ${sql.lit(SHARDS - 1)}) as n union all select 'market'`.execute(db);

  await db.schema
    .createTable('engine_nodes')
    .addColumn('owner', 'text', (c) => c.primaryKey())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('status', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();

  await db.schema
    .createTable('engine_commands')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('task_id', 'uuid', (c) => c.notNull().references('trade_tasks.id'))
    .addColumn('shard', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('reload', 'replenish', 'close')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('done_at', 'timestamptz')
    .addColumn('result', 'jsonb')
    .execute();
  await sql`create index engine_commands_open_idx on engine_commands (shard, id) where done_at is null`.execute(db);

  await db.schema
    .createTable('paper_prices')
    .addColumn('symbol', 'text', (c) => c.primaryKey())
    .addColumn('ticker', 'jsonb', (c) => c.notNull())
    .addColumn('market_ms', 'bigint', (c) => c.notNull())
    .addColumn('replay', 'jsonb')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  for (const table of ['paper_prices', 'engine_commands', 'engine_nodes', 'engine_leases']) await db.schema.dropTable(table).execute();
};
