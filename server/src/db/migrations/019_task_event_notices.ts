import { sql, type Kysely } from 'kysely';

/**
 * A task's events (its detail's journal) are announced on `qt_tasks` like
 * the rest of what the task pages show (migration 017): a row written,
 * changed or deleted names the task's owner ('*' when the task is gone), so
 * the kept task details of that user are dropped (db/userCache.ts).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await sql`
    create function notify_task_events_change() returns trigger language plpgsql as $$
    declare
      task uuid := case when tg_op = 'DELETE' then old.task_id else new.task_id end;
    begin
      perform pg_notify('qt_tasks', coalesce((select user_id::text from trade_tasks where id = task), '*'));
      return null;
    end
    $$`.execute(db);
  await sql`create trigger task_events_tasks_change after insert or update or delete on task_events for each row execute function notify_task_events_change()`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await sql`drop trigger task_events_tasks_change on task_events`.execute(db);
  await sql`drop function notify_task_events_change()`.execute(db);
};
