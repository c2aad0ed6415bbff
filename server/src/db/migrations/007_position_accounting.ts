import { sql, type Kysely } from 'kysely';

/**
 * Exact position accounting and tasks that need attention: a closed cycle
 * records what it sold and what it carried into the next cycle, its fees,
 * levels, start and exit; a task the exchange refuses, or that keeps failing,
 * says why and what to do.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('trade_tasks').addColumn('attention', 'jsonb').execute();
  await db.schema
    .alterTable('cycles')
    .addColumn('opened_at', 'timestamptz')
    .addColumn('levels_filled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('quantity_sold', 'numeric')
    .addColumn('remainder_quantity', 'numeric', (c) => c.notNull().defaultTo(0))
    .addColumn('remainder_cost', 'numeric', (c) => c.notNull().defaultTo(0))
    .addColumn('fees', 'numeric', (c) => c.notNull().defaultTo(0))
    .addColumn('exit_reason', 'text', (c) => c.check(sql`exit_reason in ('take_profit', 'stop_loss', 'close')`))
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .alterTable('cycles')
    .dropColumn('opened_at')
    .dropColumn('levels_filled')
    .dropColumn('quantity_sold')
    .dropColumn('remainder_quantity')
    .dropColumn('remainder_cost')
    .dropColumn('fees')
    .dropColumn('exit_reason')
    .execute();
  await db.schema.alterTable('trade_tasks').dropColumn('attention').execute();
};
