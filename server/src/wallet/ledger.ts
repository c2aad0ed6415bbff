import Big from 'big.js';
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { ErrorCode } from '../../../src/api/errors';
import type { Asset, LedgerKind } from '../../../src/api/wallet';
import type { Db } from '../db/database';
import { BusinessError, fail } from '../http/errors';

/**
 * The double-entry ledger (design section 5). Every balance change is one
 * transaction of moves; a move takes `amount` of one asset from one account
 * and puts it on another, so the entries of a transaction always sum to zero
 * per asset. The database checks the same (a deferred constraint trigger),
 * refuses a negative user balance (a check constraint) and refuses any edit
 * of an entry. Accounts are locked in one order (their key), so concurrent
 * transactions cannot deadlock, and the balance update under the row lock is
 * what makes a double spend impossible.
 */

/** A user's balance (`available`, or `held` by pending withdrawals), or a system account (the world outside, fees...). */
export type AccountRef =
  | { userId: string; asset: Asset; kind: 'available' | 'held' }
  | { system: SystemAccount; asset: Asset };

/**
 * System accounts stand for everything outside the users' balances; they may
 * go negative (the deposits account is minus everything ever deposited).
 */
export type SystemAccount = 'deposits' | 'withdrawals' | 'fees' | 'swap' | 'fuel' | 'activation' | 'rewards' | 'adjustments';

export interface Move {
  from: AccountRef;
  to: AccountRef;
  /** Positive decimal string. */
  amount: string;
}

export interface PostRequest {
  kind: LedgerKind | string;
  /** The user who asked for it (null for the system's own moves). */
  userId: string | null;
  moves: Move[];
  /** Free-form details shown on records pages (the other party, the deposit id...). */
  memo?: Record<string, string>;
  /** The transaction this one reverses. */
  reverses?: string;
}

export const user = (userId: string, asset: Asset, kind: 'available' | 'held' = 'available'): AccountRef => ({ userId, asset, kind });
export const system = (name: SystemAccount, asset: Asset): AccountRef => ({ system: name, asset });

export const accountKey = (ref: AccountRef): string =>
  'system' in ref ? `system:${ref.system}:${ref.asset}` : `user:${ref.userId}:${ref.asset}:${ref.kind}`;

/** Finds or creates the account row and locks it for this transaction. */
const lockAccounts = async (trx: Db, refs: AccountRef[]): Promise<Map<string, string>> => {
  const byKey = new Map(refs.map((ref) => [accountKey(ref), ref]));
  const keys = [...byKey.keys()].sort();
  await trx
    .insertInto('ledger_accounts')
    .values(
      keys.map((key) => {
        const ref = byKey.get(key)!;
        return 'system' in ref
          ? { key, user_id: null, asset: ref.asset, kind: 'system' as const }
          : { key, user_id: ref.userId, asset: ref.asset, kind: ref.kind };
      }),
    )
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const ids = new Map<string, string>();
  // One row at a time in key order: every transaction takes its locks in the same order.
  for (const key of keys) {
    const row = await trx.selectFrom('ledger_accounts').select('id').where('key', '=', key).forUpdate().executeTakeFirstOrThrow();
    ids.set(key, row.id);
  }
  return ids;
};

const NEGATIVE_BALANCE = 'ledger_accounts_user_not_negative';

/** Posts one balanced transaction inside the caller's database transaction; answers its id. */
export const post = async (trx: Db, request: PostRequest): Promise<string> => {
  if (request.moves.length === 0) throw new Error('a ledger transaction needs at least one move');
  for (const move of request.moves) {
    if (move.from.asset !== move.to.asset) throw new Error('a move stays in one asset');
    if (!new Big(move.amount).gt(0)) throw new Error(`a move needs a positive amount, got ${move.amount}`);
  }
  const ids = await lockAccounts(trx, request.moves.flatMap((m) => [m.from, m.to]));
  const transaction = await trx
    .insertInto('ledger_transactions')
    .values({
      kind: request.kind,
      user_id: request.userId,
      memo: JSON.stringify(request.memo ?? {}),
      reverses: request.reverses ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const move of request.moves) {
    for (const [ref, amount] of [
      [move.from, new Big(move.amount).neg().toFixed()],
      [move.to, new Big(move.amount).toFixed()],
    ] as const) {
      const accountId = ids.get(accountKey(ref))!;
      let balance: string;
      try {
        ({ balance } = await trx
          .updateTable('ledger_accounts')
          .set((eb) => ({ balance: eb('balance', '+', amount) }))
          .where('id', '=', accountId)
          .returning('balance')
          .executeTakeFirstOrThrow());
      } catch (error) {
        if ((error as { constraint?: string }).constraint === NEGATIVE_BALANCE || String((error as Error).message).includes(NEGATIVE_BALANCE)) {
          throw new BusinessError(ErrorCode.INSUFFICIENT_BALANCE, `insufficient ${ref.asset} balance`, { asset: ref.asset });
        }
        throw error;
      }
      await trx
        .insertInto('ledger_entries')
        .values({ transaction_id: transaction.id, account_id: accountId, asset: ref.asset, amount, balance_after: balance })
        .execute();
    }
  }
  return transaction.id;
};

/**
 * Posts many balanced transactions at once, inside the caller's database
 * transaction, in a handful of statements whatever their number (the engine
 * charges the fuel of a whole tick's cycles this way). The same rules as
 * `post`, applied in the order given: the accounts are locked in key order,
 * every move checks a user balance never goes below zero at that point (11003),
 * and each entry records the balance after it. Answers the transactions' ids.
 */
export const postBatch = async (trx: Db, requests: PostRequest[]): Promise<string[]> => {
  if (requests.length === 0) return [];
  for (const request of requests) {
    if (request.moves.length === 0) throw new Error('a ledger transaction needs at least one move');
    for (const move of request.moves) {
      if (move.from.asset !== move.to.asset) throw new Error('a move stays in one asset');
      if (!new Big(move.amount).gt(0)) throw new Error(`a move needs a positive amount, got ${move.amount}`);
    }
  }
  const byKey = new Map(requests.flatMap((r) => r.moves.flatMap((m) => [m.from, m.to])).map((ref) => [accountKey(ref), ref]));
  const keys = [...byKey.keys()].sort();
  const refs = keys.map((key) => byKey.get(key)!);
  await sql`
    insert into ledger_accounts (key, user_id, asset, kind)
    select * from unnest(${keys}::text[], ${refs.map((ref) => ('system' in ref ? null : ref.userId))}::uuid[],
                         ${refs.map((ref) => ref.asset)}::text[], ${refs.map((ref) => ('system' in ref ? 'system' : ref.kind))}::text[])
    on conflict (key) do nothing`.execute(trx);
  const locked = await sql<{ id: string; key: string; balance: string }>`
    select id, key, balance from ledger_accounts where key = any(${keys}::text[]) order by key for update`.execute(trx);
  const accounts = new Map(locked.rows.map((row) => [row.key, { id: row.id, balance: new Big(row.balance) }]));
  const ids = requests.map(() => randomUUID());
  const entries: { transaction: string; account: string; asset: string; amount: string; after: string }[] = [];
  requests.forEach((request, i) => {
    for (const move of request.moves) {
      for (const [ref, amount] of [
        [move.from, new Big(move.amount).neg()],
        [move.to, new Big(move.amount)],
      ] as const) {
        const account = accounts.get(accountKey(ref))!;
        account.balance = account.balance.plus(amount);
        if (!('system' in ref) && account.balance.lt(0)) {
          throw new BusinessError(ErrorCode.INSUFFICIENT_BALANCE, `insufficient ${ref.asset} balance`, { asset: ref.asset });
        }
        entries.push({ transaction: ids[i]!, account: account.id, asset: ref.asset, amount: amount.toFixed(), after: account.balance.toFixed() });
      }
    }
  });
  await sql`
    insert into ledger_transactions (id, kind, user_id, memo, reverses)
    select id, kind, user_id, memo::jsonb, reverses
    from unnest(${ids}::uuid[], ${requests.map((r) => r.kind)}::text[], ${requests.map((r) => r.userId)}::uuid[],
                ${requests.map((r) => JSON.stringify(r.memo ?? {}))}::text[], ${requests.map((r) => r.reverses ?? null)}::uuid[])
         as x(id, kind, user_id, memo, reverses)`.execute(trx);
  const touched = [...accounts.values()];
  await sql`
    update ledger_accounts set balance = x.balance::numeric
    from unnest(${touched.map((a) => a.id)}::uuid[], ${touched.map((a) => a.balance.toFixed())}::text[]) as x(id, balance)
    where ledger_accounts.id = x.id`.execute(trx);
  await sql`
    insert into ledger_entries (transaction_id, account_id, asset, amount, balance_after)
    select t, a, s, amount::numeric, after::numeric
    from unnest(${entries.map((e) => e.transaction)}::uuid[], ${entries.map((e) => e.account)}::uuid[], ${entries.map((e) => e.asset)}::text[],
                ${entries.map((e) => e.amount)}::text[], ${entries.map((e) => e.after)}::text[]) with ordinality as x(t, a, s, amount, after, n)
    order by n`.execute(trx);
  return ids;
};

/**
 * Balance of one account as the caller's transaction sees it ("0" when it has
 * none yet), as plain decimal text.
 */
export const balanceOf = async (trx: Db, ref: AccountRef): Promise<string> => {
  const row = await trx.selectFrom('ledger_accounts').select('balance').where('key', '=', accountKey(ref)).executeTakeFirst();
  return row ? new Big(row.balance).toFixed() : '0';
};

/** Refuses with 11003 unless the user's available balance covers `amount` (a clear error before the database's own check). */
export const requireBalance = async (trx: Db, ref: AccountRef, amount: string): Promise<void> => {
  if (new Big(await balanceOf(trx, ref)).lt(amount)) {
    fail(ErrorCode.INSUFFICIENT_BALANCE, `insufficient ${ref.asset} balance`, { asset: ref.asset });
  }
};

/**
 * Runs a money-moving call at most once per idempotency key (per user): the
 * same key with the same request answers the stored first result; with a
 * different request it is refused (10007). The key is stored in the same
 * transaction as the money it moved, so both land or neither. A refused call
 * (a business error) stores nothing: asking again re-evaluates it.
 */
export const once = async <T>(
  db: Db,
  scope: { userId: string; key: string; call: string; request: unknown },
  run: (trx: Db) => Promise<T>,
): Promise<T> => {
  const requestHash = createHash('sha256').update(`${scope.call}\n${JSON.stringify(scope.request)}`).digest('hex');
  const replay = async (executor: Db): Promise<{ found: false } | { found: true; value: T }> => {
    const stored = await executor
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'response'])
      .where('user_id', '=', scope.userId)
      .where('key', '=', scope.key)
      .executeTakeFirst();
    if (!stored) return { found: false };
    if (stored.request_hash !== requestHash) {
      fail(ErrorCode.ALREADY_EXISTS, 'this idempotency key was used for another request', { field: 'idempotencyKey' });
    }
    return { found: true, value: stored.response as T };
  };
  const first = await replay(db);
  if (first.found) return first.value;
  try {
    return await db.transaction().execute(async (trx) => {
      // The key first: a concurrent call with the same key waits here until this one ends, then replays it.
      await trx
        .insertInto('idempotency_keys')
        .values({ user_id: scope.userId, key: scope.key, request_hash: requestHash, response: 'null' })
        .execute();
      const result = await run(trx);
      await trx
        .updateTable('idempotency_keys')
        .set({ response: JSON.stringify(result ?? null) })
        .where('user_id', '=', scope.userId)
        .where('key', '=', scope.key)
        .execute();
      return result;
    });
  } catch (error) {
    // A concurrent call with the same key committed first: answer what it stored.
    if ((error as { code?: string }).code === '23505') {
      const again = await replay(db);
      if (again.found) return again.value;
    }
    throw error;
  }
};
