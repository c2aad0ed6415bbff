import { sql, type Kysely } from 'kysely';

/**
 * Issue 28: which exit an order is for, stored with its intent: the stop that
 * sells (TaskStop) and the 1-based take-profit target. A real exchange's
 * order may still be open when the engine restarts; what it reads back names
 * the same stop in the events and notifications, and the task's ladder marks
 * the target each sale was for. Null for every other order.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .alterTable('orders')
    .addColumn('stop', 'text', (c) => c.check(sql`stop in ('loss_average', 'loss_last_level', 'break_even', 'time')`))
    .addColumn('target', 'integer', (c) => c.check(sql`target > 0`))
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('orders').dropColumn('stop').dropColumn('target').execute();
};
