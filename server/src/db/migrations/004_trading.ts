import { sql, type Kysely } from 'kysely';

/** Trading tasks, their orders (every intent stored before it is sent), events, closed cycles, paper balances. */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('trade_tasks')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('exchange_account_id', 'uuid', (c) => c.notNull().references('exchange_accounts.id'))
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('strategy_id', 'uuid', (c) => c.notNull().references('strategies.id'))
    .addColumn('first_order_amount', 'numeric', (c) => c.notNull().check(sql`first_order_amount > 0`))
    .addColumn('first_order_multiple', 'boolean', (c) => c.notNull())
    .addColumn('cycle_count', 'integer', (c) => c.notNull().check(sql`cycle_count between 1 and 9999`))
    .addColumn('running', 'boolean', (c) => c.notNull())
    .addColumn('replenish_status', 'text', (c) => c.notNull().check(sql`replenish_status in ('replenish_open', 'replenish_closed')`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active').check(sql`status in ('active', 'finished')`))
    .addColumn('state', 'jsonb', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('trade_tasks_user_symbol_idx').on('trade_tasks').columns(['user_id', 'symbol']).execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('task_id', 'uuid', (c) => c.notNull().references('trade_tasks.id'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('exchange_account_id', 'uuid', (c) => c.notNull().references('exchange_accounts.id'))
    .addColumn('client_order_id', 'text', (c) => c.notNull().unique())
    .addColumn('exchange_order_id', 'text')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('cycle', 'integer', (c) => c.notNull())
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('side', 'text', (c) => c.notNull().check(sql`side in ('buy', 'sell')`))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('intent', 'open', 'closed', 'canceled', 'failed')`))
    .addColumn('requested', 'numeric', (c) => c.notNull())
    .addColumn('price', 'numeric')
    .addColumn('filled', 'numeric', (c) => c.notNull().defaultTo(0))
    .addColumn('cost', 'numeric', (c) => c.notNull().defaultTo(0))
    .addColumn('fee', 'numeric', (c) => c.notNull().defaultTo(0))
    .addColumn('fee_currency', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('orders_task_idx').on('orders').columns(['task_id', 'created_at']).execute();
  await db.schema.createIndex('orders_user_idx').on('orders').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('task_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('task_id', 'uuid', (c) => c.notNull().references('trade_tasks.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('task_events_task_idx').on('task_events').columns(['task_id', 'id']).execute();

  await db.schema
    .createTable('cycles')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('task_id', 'uuid', (c) => c.notNull().references('trade_tasks.id'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('cycle', 'integer', (c) => c.notNull())
    .addColumn('buy_cost', 'numeric', (c) => c.notNull())
    .addColumn('sell_proceeds', 'numeric', (c) => c.notNull())
    .addColumn('realized_profit', 'numeric', (c) => c.notNull())
    .addColumn('closed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('cycles_task_cycle_unique', ['task_id', 'cycle'])
    .execute();
  await db.schema.createIndex('cycles_user_idx').on('cycles').columns(['user_id', 'closed_at']).execute();

  await db.schema
    .createTable('paper_balances')
    .addColumn('exchange_account_id', 'uuid', (c) => c.notNull().references('exchange_accounts.id').onDelete('cascade'))
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('free', 'numeric', (c) => c.notNull().check(sql`free >= 0`))
    .addColumn('used', 'numeric', (c) => c.notNull().defaultTo(0).check(sql`used >= 0`))
    .addPrimaryKeyConstraint('paper_balances_pk', ['exchange_account_id', 'asset'])
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  for (const table of ['paper_balances', 'cycles', 'task_events', 'orders', 'trade_tasks']) await db.schema.dropTable(table).execute();
};
