import { sql, type Kysely } from 'kysely';

/**
 * Signals (issue 29): what a task waits for while a condition of its
 * strategy does not hold (the gate, since when, the indicator readings and
 * their text), written by the engine with the task's state when it changes
 * (once a minute at most), so the task's page shows it wherever the engine
 * runs (another process, a cluster). Null while the task waits for nothing.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await sql`alter table trade_tasks add column waiting jsonb`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await sql`alter table trade_tasks drop column waiting`.execute(db);
};
