import { sql, type Kysely } from 'kysely';

/**
 * Every write to a user's wallet balances (`ledger_accounts` rows of a user:
 * available and held, per asset) is announced on `qt_wallet` with that user,
 * once per user and transaction, whoever writes (the wallet calls, the
 * engine's fuel, the operator, SQL): each process keeps the balances it read
 * and drops a user's on these messages (wallet/routes.ts, db/userCache.ts).
 * The system accounts (chain, fees) have no user and announce nothing.
 */
export const WALLET_CHANNEL = 'qt_wallet';

export const up = async (db: Kysely<unknown>): Promise<void> => {
  await sql`
    create function notify_wallet_change() returns trigger language plpgsql as $$
    declare
      owner uuid := case when tg_op = 'DELETE' then old.user_id else new.user_id end;
    begin
      if owner is not null then
        perform pg_notify('qt_wallet', owner::text);
      end if;
      if tg_op = 'UPDATE' and old.user_id is distinct from new.user_id and old.user_id is not null then
        perform pg_notify('qt_wallet', old.user_id::text);
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`create trigger ledger_accounts_wallet_change after insert or update or delete on ledger_accounts for each row execute function notify_wallet_change()`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await sql`drop trigger ledger_accounts_wallet_change on ledger_accounts`.execute(db);
  await sql`drop function notify_wallet_change()`.execute(db);
};
