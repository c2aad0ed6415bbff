import { sql, type Kysely } from 'kysely';

/**
 * TradingView alerts (issue 29): a task's webhook (its public id, its secret
 * sealed with the exchange master key, the action an alert takes by default)
 * and the alerts it received. An alert's id is unique per task, so a replay
 * is refused by the key even when two copies arrive at once. An alert reaches
 * the engine as a command of its own kind, carrying the alert in `payload`.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('task_webhooks')
    .addColumn('task_id', 'uuid', (c) => c.primaryKey().references('trade_tasks.id').onDelete('cascade'))
    .addColumn('hook_id', 'text', (c) => c.notNull().unique())
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull().check(sql`action in ('start_cycle', 'buy_level', 'close_position')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('rotated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('task_alerts')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('task_id', 'uuid', (c) => c.notNull().references('trade_tasks.id').onDelete('cascade'))
    .addColumn('alert_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome in ('accepted', 'task_stopped', 'undelivered')`))
    .addColumn('detail', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('alert_time', 'timestamptz', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('task_alerts_replay_unique', ['task_id', 'alert_id'])
    .execute();
  await db.schema.createIndex('task_alerts_task_idx').on('task_alerts').columns(['task_id', 'id']).execute();

  await sql`alter table engine_commands add column payload jsonb`.execute(db);
  await sql`alter table engine_commands drop constraint if exists engine_commands_kind_check`.execute(db);
  await sql`alter table engine_commands add constraint engine_commands_kind_check check (kind in ('reload', 'replenish', 'close', 'alert'))`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await sql`delete from engine_commands where kind = 'alert'`.execute(db);
  await sql`alter table engine_commands drop constraint if exists engine_commands_kind_check`.execute(db);
  await sql`alter table engine_commands add constraint engine_commands_kind_check check (kind in ('reload', 'replenish', 'close'))`.execute(db);
  await sql`alter table engine_commands drop column payload`.execute(db);
  await db.schema.dropTable('task_alerts').execute();
  await db.schema.dropTable('task_webhooks').execute();
};
