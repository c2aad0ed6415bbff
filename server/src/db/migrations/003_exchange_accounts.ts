import { sql, type Kysely } from 'kysely';

/**
 * Exchange accounts: the API keys a user binds, or a paper-trading account.
 * Credentials are stored only as AES-256-GCM ciphertexts (engine/venues/exchangeAccess.ts);
 * `api_key_hint` is the masked key the user recognises it by.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('exchange_accounts')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('exchange', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('api_key_ciphertext', 'text')
    .addColumn('secret_ciphertext', 'text')
    .addColumn('password_ciphertext', 'text')
    .addColumn('uid_ciphertext', 'text')
    .addColumn('api_key_hint', 'text')
    .addColumn('paper_balances', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // A paper account has virtual balances and no keys; a real one has at least a key and a secret.
    .addCheckConstraint(
      'exchange_accounts_kind_check',
      sql`(exchange = 'paper' and paper_balances is not null and api_key_ciphertext is null and secret_ciphertext is null)
        or (exchange <> 'paper' and paper_balances is null and api_key_ciphertext is not null and secret_ciphertext is not null)`,
    )
    .execute();
  // One name per user, whatever its letter case.
  await sql`create unique index exchange_accounts_user_name_idx on exchange_accounts (user_id, lower(name))`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('exchange_accounts').execute();
};
