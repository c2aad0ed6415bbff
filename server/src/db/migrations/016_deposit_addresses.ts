import { sql, type Kysely } from 'kysely';

/**
 * Which user a deposit address belongs to, so that a withdrawal to it is known
 * for what it is (README "Wallet"): to one's own address it is refused, to
 * another user's it is booked to them at once. Addresses are derived from the
 * user id with the server's secret, which a migration does not have: every
 * address is recorded when it is handed out (the deposit-address call, a
 * reported deposit); the deposits reported so far bring theirs now.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('deposit_addresses')
    .addColumn('address', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('deposit_addresses_user_idx').on('deposit_addresses').column('user_id').execute();
  await sql`insert into deposit_addresses (address, user_id) select distinct address, user_id from deposits on conflict (address) do nothing`.execute(db);
  /** A withdrawal paid to another user of ours (their deposit address): no chain transaction, no fee. */
  await db.schema.alterTable('withdrawals').addColumn('internal_user_id', 'uuid', (c) => c.references('users.id')).execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('withdrawals').dropColumn('internal_user_id').execute();
  await db.schema.dropTable('deposit_addresses').execute();
};
