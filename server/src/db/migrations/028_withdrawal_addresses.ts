import { sql, type Kysely } from 'kysely';

/**
 * Safe withdrawals (issue 26): each user's book of withdrawal addresses, the
 * optional whitelist over it, and the anti-phishing phrase every mail shows.
 * An address enters the book when the user adds it, or, with the whitelist
 * off, when a withdrawal names it for the first time; either way it is usable
 * only from `usable_at` (24 hours later). The addresses withdrawn to before
 * this migration were used already: they enter the book usable at once.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('withdrawal_addresses')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('usable_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('withdrawal_addresses_user_address_key', ['user_id', 'address'])
    .execute();
  await sql`
    insert into withdrawal_addresses (user_id, address, network, created_at, usable_at)
    select user_id, address, 'TRC20', min(created_at), min(created_at) from withdrawals
    where status <> 'rejected' group by user_id, address
    on conflict do nothing`.execute(db);
  await db.schema
    .alterTable('users')
    .addColumn('withdrawal_whitelist', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('anti_phishing_phrase', 'text')
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('users').dropColumn('withdrawal_whitelist').dropColumn('anti_phishing_phrase').execute();
  await db.schema.dropTable('withdrawal_addresses').execute();
};
