import { sql, type Kysely } from 'kysely';

/** Strategy templates: the user's own, and system templates (user_id null) everyone can copy. */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('strategies')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('levels', 'jsonb', (c) => c.notNull())
    .addColumn('take_profit_percent', 'numeric', (c) => c.notNull())
    .addColumn('take_profit_callback_percent', 'numeric', (c) => c.notNull())
    .addColumn('replenish_callback_percent', 'numeric', (c) => c.notNull())
    .addColumn('stop_loss_percent', 'numeric')
    .addColumn('cooldown_seconds', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One name per owner; system templates have their own namespace.
  await sql`create unique index strategies_owner_name_idx on strategies (coalesce(user_id::text, ''), lower(name))`.execute(db);
  await db.schema.createIndex('strategies_user_idx').on('strategies').column('user_id').execute();

  // System templates (user_id null): copied by users, never changed by them.
  const levels = (drops: string[], multiples: string[]) => JSON.stringify(drops.map((dropPercent, i) => ({ dropPercent, multiple: multiples[i] })));
  await db
    .insertInto('strategies' as never)
    .values([
      {
        id: '00000000-0000-4000-8000-000000000001',
        name: 'conservative',
        levels: levels(['2', '4.6', '7.98', '12.37', '18.08'], ['1', '1.5', '2', '2.5', '3']),
        take_profit_percent: '1.2',
        take_profit_callback_percent: '0.2',
        replenish_callback_percent: '0.3',
        stop_loss_percent: null,
        cooldown_seconds: 300,
      },
      {
        id: '00000000-0000-4000-8000-000000000002',
        name: 'balanced',
        levels: levels(['1.5', '3.75', '7.13', '12.19', '19.78', '31.17'], ['1', '2', '4', '8', '16', '32']),
        take_profit_percent: '1.5',
        take_profit_callback_percent: '0.3',
        replenish_callback_percent: '0.3',
        stop_loss_percent: null,
        cooldown_seconds: 120,
      },
      {
        id: '00000000-0000-4000-8000-000000000003',
        name: 'aggressive',
        levels: levels(['1', '2.5', '4.75', '8.13', '13.19', '20.78', '32.17'], ['1', '2', '4', '8', '16', '32', '64']),
        take_profit_percent: '2',
        take_profit_callback_percent: '0.5',
        replenish_callback_percent: '0.2',
        stop_loss_percent: null,
        cooldown_seconds: 60,
      },
    ] as never)
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('strategies').execute();
};
