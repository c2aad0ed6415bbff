import { sql, type Kysely } from 'kysely';

/**
 * Second factors (issue 26): one row per factor of a user, of a kind ('totp'
 * now, 'passkey' later), pending until confirmed with a first code. A TOTP
 * row keeps its secret sealed like exchange keys and the last time step it
 * accepted (a code is never taken twice). Recovery codes are stored as
 * peppered SHA-256 hashes; trusted devices (30 days without the second step)
 * as SHA-256 hashes of their cookie. `withdrawals_held_until`: after a factor
 * reset or a recovery-code login, money leaves the wallet again only then.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('second_factors')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('totp', 'passkey')`))
    .addColumn('secret_sealed', 'text')
    .addColumn('last_step', 'bigint')
    .addColumn('enabled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One authenticator app per user (pending or enabled); passkeys may be several.
  await sql`create unique index second_factors_one_totp on second_factors (user_id) where kind = 'totp'`.execute(db);
  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addUniqueConstraint('recovery_codes_user_code', ['user_id', 'code_hash'])
    .execute();
  await db.schema
    .createTable('trusted_devices')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('trusted_devices_user_idx').on('trusted_devices').column('user_id').execute();
  await db.schema.alterTable('users').addColumn('withdrawals_held_until', 'timestamptz').execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('users').dropColumn('withdrawals_held_until').execute();
  await db.schema.dropTable('trusted_devices').execute();
  await db.schema.dropTable('recovery_codes').execute();
  await db.schema.dropTable('second_factors').execute();
};
