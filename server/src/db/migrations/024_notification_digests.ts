import { sql, type Kysely } from 'kysely';

/**
 * The hourly digest (issue 25): the kinds a user wants gathered into one
 * message an hour per channel instead of at once (a row per kind chosen;
 * none: every kind at once, security kinds never), and which outbox messages
 * are such a digest (held until the hour's end, gathering what arrives
 * meanwhile until it is first attempted); and when each message was last
 * attempted, for the operator console.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('notification_digest_kinds')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_digest_kinds_pk', ['user_id', 'kind'])
    .execute();
  await db.schema.alterTable('notification_deliveries').addColumn('digest', 'boolean', (c) => c.notNull().defaultTo(false)).execute();
  // When a worker last took it to send (the console shows it beside the last error).
  await db.schema.alterTable('notification_deliveries').addColumn('last_attempt_at', 'timestamptz').execute();
  // One open digest per user and channel (never attempted: a retried one is sent as it is): new digest events join it in one upsert, so two planners cannot open two.
  await sql`create unique index notification_deliveries_open_digest_idx on notification_deliveries (user_id, channel) where digest and status = 'pending' and last_attempt_at is null`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await sql`drop index notification_deliveries_open_digest_idx`.execute(db);
  await db.schema.alterTable('notification_deliveries').dropColumn('last_attempt_at').execute();
  await db.schema.alterTable('notification_deliveries').dropColumn('digest').execute();
  await db.schema.dropTable('notification_digest_kinds').execute();
};
