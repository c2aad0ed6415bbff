import { sql, type Kysely } from 'kysely';

/**
 * Notifications (issue 25): the events a user is told about, written in the
 * transaction of the change they report; their deliveries per channel (a
 * durable outbox: one row per message and channel, never sent twice); and
 * each user's choices per kind and channel (defaults live in code,
 * notify/events.ts). A new or read event is announced on `qt_notify` with its
 * user, so the bell and the inbox follow without polling.
 */
export const NOTIFY_CHANNEL = 'qt_notify';

export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('notification_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('task_id', 'uuid', (c) => c.references('trade_tasks.id').onDelete('cascade'))
    .addColumn('payload', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('read_at', 'timestamptz')
    // When the outbox queued its deliveries (null: not yet, it waits for the user's burst to settle).
    .addColumn('planned_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('notification_events_user_idx').on('notification_events').columns(['user_id', 'id']).execute();
  await sql`create index notification_events_unread_idx on notification_events (user_id) where read_at is null`.execute(db);
  await sql`create index notification_events_unplanned_idx on notification_events (user_id, created_at) where planned_at is null`.execute(db);

  await db.schema
    .createTable('notification_deliveries')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    // The first event's id: with the channel, the message's idempotency key.
    .addColumn('message_key', 'bigint', (c) => c.notNull())
    .addColumn('event_ids', sql`bigint[]`, (c) => c.notNull())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending', 'sent', 'dead')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_error', 'text')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('notification_deliveries_key_channel', ['message_key', 'channel'])
    .execute();
  await sql`create index notification_deliveries_due_idx on notification_deliveries (next_attempt_at) where status = 'pending'`.execute(db);

  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_preferences_pk', ['user_id', 'kind', 'channel'])
    .execute();

  await sql`
    create function notify_notification_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('qt_notify', new.user_id::text);
      return null;
    end
    $$`.execute(db);
  await sql`create trigger notification_events_change after insert or update on notification_events for each row execute function notify_notification_change()`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await sql`drop trigger notification_events_change on notification_events`.execute(db);
  await sql`drop function notify_notification_change()`.execute(db);
  for (const table of ['notification_preferences', 'notification_deliveries', 'notification_events']) await db.schema.dropTable(table).execute();
};
