import { sql, type Kysely } from 'kysely';

/**
 * Change notices (LISTEN/NOTIFY), sent by triggers when a transaction commits.
 *
 * Every change that ends a session or changes who may use it is announced on
 * the channel `qt_auth` when its transaction commits: a session revoked or
 * deleted ('s:<session id>'), a user disabled, enabled, given another role or
 * deleted ('u:<user id>'). Each server process keeps the sessions it checked
 * in memory and drops them on these messages (http/sessionCache.ts); the
 * triggers catch every writer, whatever code path or process it is.
 */
export const AUTH_CHANNEL = 'qt_auth';

/**
 * Every write to what the task list shows is announced on `qt_tasks` with
 * the user whose tasks it touches ('*': any user's, a system template), once
 * per user and transaction (PostgreSQL folds equal messages): tasks, their
 * cycles, their templates and exchange accounts (db/userCache.ts).
 */
export const TASKS_CHANNEL = 'qt_tasks';

export const up = async (db: Kysely<unknown>): Promise<void> => {
  await sql`
    create function notify_auth_change() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'sessions' then
        perform pg_notify('qt_auth', 's:' || old.id::text);
      else
        perform pg_notify('qt_auth', 'u:' || old.id::text);
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger sessions_auth_update after update on sessions for each row
    when (old.revoked_at is distinct from new.revoked_at or old.user_id is distinct from new.user_id)
    execute function notify_auth_change()`.execute(db);
  await sql`create trigger sessions_auth_delete after delete on sessions for each row execute function notify_auth_change()`.execute(db);
  await sql`
    create trigger users_auth_update after update on users for each row
    when (old.disabled is distinct from new.disabled or old.role is distinct from new.role)
    execute function notify_auth_change()`.execute(db);
  await sql`create trigger users_auth_delete after delete on users for each row execute function notify_auth_change()`.execute(db);

  await sql`
    create function notify_tasks_change() returns trigger language plpgsql as $$
    declare
      owner uuid := case when tg_op = 'DELETE' then old.user_id else new.user_id end;
    begin
      perform pg_notify('qt_tasks', coalesce(owner::text, '*'));
      if tg_op = 'UPDATE' and old.user_id is distinct from new.user_id then
        perform pg_notify('qt_tasks', coalesce(old.user_id::text, '*'));
      end if;
      return null;
    end
    $$`.execute(db);
  for (const table of ['trade_tasks', 'cycles', 'strategies', 'exchange_accounts']) {
    await sql`create trigger ${sql.raw(`${table}_tasks_change`)} after insert or update or delete on ${sql.table(table)} for each row execute function notify_tasks_change()`.execute(db);
  }
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  for (const table of ['trade_tasks', 'cycles', 'strategies', 'exchange_accounts']) {
    await sql`drop trigger ${sql.raw(`${table}_tasks_change`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop function notify_tasks_change()`.execute(db);
  await sql`drop trigger users_auth_delete on users`.execute(db);
  await sql`drop trigger users_auth_update on users`.execute(db);
  await sql`drop trigger sessions_auth_delete on sessions`.execute(db);
  await sql`drop trigger sessions_auth_update on sessions`.execute(db);
  await sql`drop function notify_auth_change()`.execute(db);
};
