import { sql, type Kysely } from 'kysely';

/**
 * The custodial wallet's double-entry ledger, deposits, withdrawals, request
 * idempotency, configured settings and the operators' audit log.
 *
 * The database itself guards the ledger: a user's balance can never go below
 * zero (check constraint), the entries of one transaction sum to zero per
 * asset (a deferred constraint trigger, checked at commit), and entries and
 * transactions are append-only (a correction is a reversing transaction).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('ledger_accounts')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    /** `user:<id>:<asset>:<kind>` or `system:<name>:<asset>`: one row per balance. */
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'uuid', (c) => c.references('users.id'))
    .addColumn('asset', 'text', (c) => c.notNull().check(sql`asset in ('USDT', 'CARD', 'POINTS', 'FUEL')`))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('available', 'held', 'system')`))
    .addColumn('balance', 'numeric', (c) => c.notNull().defaultTo(0))
    .addCheckConstraint('ledger_accounts_user_not_negative', sql`kind = 'system' or balance >= 0`)
    .addCheckConstraint('ledger_accounts_owner', sql`(kind = 'system') = (user_id is null)`)
    .execute();
  await db.schema.createIndex('ledger_accounts_user_idx').on('ledger_accounts').column('user_id').execute();

  await db.schema
    .createTable('ledger_transactions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('kind', 'text', (c) => c.notNull())
    /** The user who asked for it (null for the system's own moves). */
    .addColumn('user_id', 'uuid', (c) => c.references('users.id'))
    .addColumn('memo', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    /** The transaction this one reverses, if any. */
    .addColumn('reverses', 'uuid', (c) => c.references('ledger_transactions.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('transaction_id', 'uuid', (c) => c.notNull().references('ledger_transactions.id'))
    .addColumn('account_id', 'uuid', (c) => c.notNull().references('ledger_accounts.id'))
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('amount', 'numeric', (c) => c.notNull().check(sql`amount <> 0`))
    .addColumn('balance_after', 'numeric', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('ledger_entries_account_idx').on('ledger_entries').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('ledger_entries_transaction_idx').on('ledger_entries').column('transaction_id').execute();

  await sql`
    create function ledger_transaction_balanced() returns trigger language plpgsql as $$
    declare unbalanced text;
    begin
      select asset into unbalanced from ledger_entries
        where transaction_id = new.transaction_id
        group by asset having sum(amount) <> 0 limit 1;
      if unbalanced is not null then
        raise exception 'ledger transaction % does not balance in %', new.transaction_id, unbalanced
          using errcode = '23514';
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create constraint trigger ledger_entries_balanced after insert on ledger_entries
    deferrable initially deferred for each row execute function ledger_transaction_balanced()`.execute(db);
  await sql`
    create function ledger_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'the ledger is append-only: % on % refused', tg_op, tg_table_name using errcode = '42501';
    end $$`.execute(db);
  for (const table of ['ledger_entries', 'ledger_transactions']) {
    await sql
      .raw(`create trigger ${table}_append_only before update or delete on ${table} for each row execute function ledger_append_only()`)
      .execute(db);
  }

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('key', 'text', (c) => c.notNull())
    /** Method and path plus a hash of the request body: another request under the same key is refused. */
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('response', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
    .execute();

  await db.schema
    .createTable('deposits')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('asset', 'text', (c) => c.notNull().defaultTo('USDT'))
    .addColumn('amount', 'numeric', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('tx_hash', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending', 'confirmed', 'rejected')`))
    .addColumn('reason', 'text')
    .addColumn('transaction_id', 'uuid', (c) => c.references('ledger_transactions.id'))
    .addColumn('decided_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('decided_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('deposits_user_idx').on('deposits').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('deposits_status_idx').on('deposits').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('withdrawals')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('asset', 'text', (c) => c.notNull().defaultTo('USDT'))
    .addColumn('amount', 'numeric', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('fee', 'numeric', (c) => c.notNull().check(sql`fee >= 0`))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending', 'approved', 'rejected')`))
    .addColumn('reason', 'text')
    .addColumn('tx_hash', 'text')
    /** The hold (available -> held); approval and rejection are transactions of their own. */
    .addColumn('hold_transaction_id', 'uuid', (c) => c.notNull().references('ledger_transactions.id'))
    .addColumn('decided_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('decided_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('withdrawals_user_idx').on('withdrawals').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('withdrawals_status_idx').on('withdrawals').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('operator_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text')
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('audit_log_created_idx').on('audit_log').column('created_at').execute();

  await db.schema.alterTable('users').addColumn('activated_at', 'timestamptz').execute();
  await db.schema.alterTable('cycles').addColumn('fuel_charged', 'numeric', (c) => c.notNull().defaultTo(0)).execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('cycles').dropColumn('fuel_charged').execute();
  await db.schema.alterTable('users').dropColumn('activated_at').execute();
  for (const table of ['audit_log', 'withdrawals', 'deposits', 'idempotency_keys', 'ledger_entries', 'ledger_transactions', 'ledger_accounts', 'settings']) {
    await db.schema.dropTable(table).execute();
  }
  await sql`drop function if exists ledger_transaction_balanced()`.execute(db);
  await sql`drop function if exists ledger_append_only()`.execute(db);
};
