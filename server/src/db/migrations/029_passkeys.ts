import { sql, type Kysely } from 'kysely';

/**
 * Passkeys (issue 26): a `second_factors` row of kind 'passkey' keeps the
 * user's name for it, the credential's id and COSE public key (base64url),
 * the signature counter (a clone is refused when it does not grow) and the
 * transports the browser reported. WebAuthn challenges are kept here, not in
 * the browser: each is bound to a user (none for a passkey login, whose user
 * is the credential's) and to an action, lives 5 minutes and is taken once.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .alterTable('second_factors')
    .addColumn('name', 'text')
    .addColumn('credential_id', 'text')
    .addColumn('public_key', 'text')
    .addColumn('counter', 'bigint')
    .addColumn('transports', 'text')
    .addColumn('last_used_at', 'timestamptz')
    .execute();
  await sql`create unique index second_factors_credential on second_factors (credential_id) where credential_id is not null`.execute(db);
  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('challenge', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webauthn_challenges_expires_idx').on('webauthn_challenges').column('expires_at').execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('webauthn_challenges').execute();
  await sql`drop index second_factors_credential`.execute(db);
  await db.schema
    .alterTable('second_factors')
    .dropColumn('name')
    .dropColumn('credential_id')
    .dropColumn('public_key')
    .dropColumn('counter')
    .dropColumn('transports')
    .dropColumn('last_used_at')
    .execute();
};
