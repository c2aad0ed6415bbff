import { randomUUID } from 'node:crypto';
import Big from 'big.js';
import { sql } from 'kysely';
import type { AdminDeposit, AdminWithdrawal } from '../../../src/api/admin';
import { ErrorCode } from '../../../src/api/errors';
import type { Page } from '../../../src/api/types';
import {
  ASSETS,
  type Asset,
  type Deposit,
  type DepositAddress,
  type LedgerKind,
  type LedgerRecord,
  type PointsTransferPayload,
  type RechargePayload,
  type SwapPayload,
  type TransferPayload,
  type WalletBalances,
  type WalletConfig,
  type Withdrawal,
  type WithdrawPayload,
} from '../../../src/api/wallet';
import { recordAudit } from '../shared/audit';
import type { Db } from '../db/database';
import { fail } from '../http/errors';
import { recordEvents } from '../notify/events';
import { readSettings } from '../settings';
import { DEMO_EMAIL } from '../../../src/api/demo';
import { depositAddressFor, isTronAddress } from './address';
import { accountKey, once, post, requireBalance, system, user } from './ledger';

/**
 * The wallet's rules over the ledger (README "Wallet"): every call that moves
 * money runs inside `once` (its idempotency key stored in the same database
 * transaction as the money it moved) and posts exactly one balanced ledger
 * transaction. Routes check the fields' format; these functions check the
 * rules, so they can also be driven directly (the property tests do).
 */

export interface WalletDeps {
  db: Db;
  /** Keys the per-user deposit addresses (the server's token secret). */
  addressSecret: string;
}

/** Every balance and amount leaves as plain decimal text ("0.00000001", never "1e-8"). */
export const dec = (value: string | number | Big): string => new Big(value).toFixed();

const AMOUNT = /^(0|[1-9][0-9]{0,17})(\.[0-9]{1,18})?$/;

/** Places each asset is credited in; results are rounded down to them. CARD comes in whole cards. */
export const ASSET_PLACES: Record<Asset, number> = { USDT: 8, CARD: 0, POINTS: 8, FUEL: 8 };

/** A positive decimal amount (10003 when malformed, 10002 when zero). */
export const positiveAmount = (value: string, field = 'amount'): Big => {
  if (typeof value !== 'string' || !AMOUNT.test(value)) fail(ErrorCode.PARAM_FORMAT, `${field} must be a decimal number`, { field });
  const amount = new Big(value);
  if (amount.lte(0)) fail(ErrorCode.PARAM_RANGE, `${field} must be greater than 0`, { field, min: '0', exclusive: true });
  return amount;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** "al***@example.com": enough to recognise, not enough to harvest. */
export const maskEmail = (email: string): string => {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  const local = email.slice(0, at);
  return `${local.slice(0, Math.min(2, Math.max(1, local.length - 1)))}***${email.slice(at)}`;
};

/** The recipient of a transfer, named by email or id (11000 when none); a disabled account (it cannot sign in to use what it gets) is refused like an unknown one. */
const findUser = async (executor: Db, ref: string): Promise<{ id: string; email: string }> => {
  const text = ref.trim();
  const query = executor.selectFrom('users').select(['id', 'email']).where('disabled', '=', false);
  const row = UUID.test(text)
    ? await query.where('id', '=', text.toLowerCase()).executeTakeFirst()
    : await query.where('email', '=', text.toLowerCase()).executeTakeFirst();
  if (!row) fail(ErrorCode.USER_NOT_EXIST, 'user does not exist', { field: 'to' });
  return row!;
};

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/**
 * The demo account's password is public (README "Run"): it never moves money
 * out of its wallet (11005, `data.reason: 'demo_account'`).
 */
const refuseDemoAccount = async (executor: Db, userId: string) => {
  const row = await executor.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  if (row?.email === DEMO_EMAIL) fail(ErrorCode.UNAUTHORIZED, 'the demo account cannot move money out', { reason: 'demo_account' });
};

/** Records whose deposit address this is, once it is handed out (a withdrawal to it is then recognised). */
const rememberDepositAddress = async (executor: Db, address: string, userId: string) => {
  await executor.insertInto('deposit_addresses').values({ address, user_id: userId }).onConflict((oc) => oc.column('address').doNothing()).execute();
};

/* Reads. */

export const balances = async (db: Db, userId: string): Promise<WalletBalances> => {
  const rows = await db.selectFrom('ledger_accounts').select(['asset', 'kind', 'balance']).where('user_id', '=', userId).execute();
  const amount = (asset: Asset, kind: 'available' | 'held') => dec(rows.find((r) => r.asset === asset && r.kind === kind)?.balance ?? '0');
  return { balances: ASSETS.map((asset) => ({ asset, available: amount(asset, 'available'), held: amount(asset, 'held') })) };
};

export const walletConfig = async (db: Db): Promise<WalletConfig> => {
  const settings = await readSettings(db);
  return {
    depositNetwork: settings.depositNetwork,
    withdrawFee: dec(settings.withdrawFee),
    withdrawMin: dec(settings.withdrawMin),
    transferMin: dec(settings.transferMin),
    swapRates: settings.swapRates.map((r) => ({ from: r.from, to: r.to, rate: dec(r.rate) })),
  };
};

export const depositAddress = async (deps: WalletDeps, userId: string): Promise<DepositAddress> => {
  const address = depositAddressFor(deps.addressSecret, userId);
  await rememberDepositAddress(deps.db, address, userId);
  return { asset: 'USDT', network: (await readSettings(deps.db)).depositNetwork, address };
};

type DepositRow = {
  id: string;
  amount: string;
  address: string;
  tx_hash: string | null;
  status: 'pending' | 'confirmed' | 'rejected';
  reason: string | null;
  created_at: Date;
  decided_at: Date | null;
};
const DEPOSIT_COLUMNS = ['id', 'amount', 'address', 'tx_hash', 'status', 'reason', 'created_at', 'decided_at'] as const;

const toDeposit = (row: DepositRow): Deposit => ({
  id: row.id,
  asset: 'USDT',
  amount: dec(row.amount),
  address: row.address,
  txHash: row.tx_hash,
  status: row.status,
  reason: row.reason,
  createdAt: iso(row.created_at)!,
  decidedAt: iso(row.decided_at),
});

type WithdrawalRow = {
  id: string;
  amount: string;
  fee: string;
  address: string;
  status: 'pending' | 'approved' | 'rejected';
  reason: string | null;
  created_at: Date;
  decided_at: Date | null;
  internal_user_id: string | null;
};
const WITHDRAWAL_COLUMNS = ['id', 'amount', 'fee', 'address', 'status', 'reason', 'created_at', 'decided_at', 'internal_user_id'] as const;

const toWithdrawal = (row: WithdrawalRow): Withdrawal => ({
  id: row.id,
  asset: 'USDT',
  amount: dec(row.amount),
  fee: dec(row.fee),
  address: row.address,
  status: row.status,
  reason: row.reason,
  createdAt: iso(row.created_at)!,
  decidedAt: iso(row.decided_at),
  internal: row.internal_user_id !== null,
});

export interface Paging {
  page: number;
  pageSize: number;
}

const countOf = (row: { n: string | number | bigint }): number => Number(row.n);

export const listDeposits = async (db: Db, userId: string, paging: Paging): Promise<Page<Deposit>> => {
  const base = db.selectFrom('deposits').where('user_id', '=', userId);
  const rows = await base
    .select([...DEPOSIT_COLUMNS])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(paging.pageSize)
    .offset((paging.page - 1) * paging.pageSize)
    .execute();
  return { list: rows.map(toDeposit), total: countOf(await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()) };
};

export const listWithdrawals = async (db: Db, userId: string, paging: Paging): Promise<Page<Withdrawal>> => {
  const base = db.selectFrom('withdrawals').where('user_id', '=', userId);
  const rows = await base
    .select([...WITHDRAWAL_COLUMNS])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(paging.pageSize)
    .offset((paging.page - 1) * paging.pageSize)
    .execute();
  return { list: rows.map(toWithdrawal), total: countOf(await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()) };
};

/* Records. */

/** Transactions asked by one user that move money between two parties: the other side sees the `_in` kind. */
const IN_KIND: Partial<Record<LedgerKind, LedgerKind>> = { transfer_out: 'transfer_in', swap_out: 'swap_in', points_out: 'points_in' };
const OUT_KIND = Object.fromEntries(Object.entries(IN_KIND).map(([out, into]) => [into, out])) as Partial<Record<LedgerKind, LedgerKind>>;

export interface RecordsQuery extends Paging {
  asset: Asset;
  kind?: LedgerKind;
  /** YYYY-MM-DD in timeZone, inclusive. */
  from?: string;
  to?: string;
  timeZone: string;
}

interface EntryRow {
  id: string;
  transaction_id: string;
  asset: Asset;
  amount: string;
  balance_after: string;
  created_at: Date;
  kind: string;
  memo: Record<string, string>;
}

/** Memo fields naming users stay inside; the record shows the other party as a masked email. */
const toRecords = async (executor: Db, userId: string, rows: EntryRow[]): Promise<LedgerRecord[]> => {
  const otherOf = (memo: Record<string, string>): string | undefined =>
    memo.fromUserId && memo.toUserId ? (memo.fromUserId === userId ? memo.toUserId : memo.fromUserId) : undefined;
  // An invite reward names the invitee by id: shown, like the other party of a transfer, as a masked email.
  const others = [...new Set(rows.flatMap((r) => [otherOf(r.memo ?? {}), r.memo?.invitee]).filter((id): id is string => !!id))];
  const emails = new Map(
    others.length === 0 ? [] : (await executor.selectFrom('users').select(['id', 'email']).where('id', 'in', others).execute()).map((u) => [u.id, u.email]),
  );
  return rows.map((row) => {
    const detail: Record<string, string> = {};
    for (const [key, value] of Object.entries(row.memo ?? {})) if (!/UserId$/.test(key)) detail[key] = String(value);
    const other = otherOf(row.memo ?? {});
    if (other) detail.counterparty = maskEmail(emails.get(other) ?? '');
    if (row.memo?.invitee) detail.invitee = maskEmail(emails.get(row.memo.invitee) ?? '');
    const positive = new Big(row.amount).gt(0);
    const kind = (positive && IN_KIND[row.kind as LedgerKind]) || (row.kind as LedgerKind);
    return {
      id: String(row.id),
      transactionId: row.transaction_id,
      asset: row.asset,
      kind,
      amount: dec(row.amount),
      balanceAfter: dec(row.balance_after),
      detail,
      createdAt: iso(row.created_at)!,
    };
  });
};

const entryQuery = (executor: Db) =>
  executor
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
    .select(['e.id', 'e.transaction_id', 'e.asset', 'e.amount', 'e.balance_after', 'e.created_at', 't.kind', 't.memo']);

/** YYYY-MM-DD naming a day that exists (no 2026-02-30). */
const isCalendarDate = (value: string): boolean => {
  const time = Date.parse(`${value}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
};

export const records = async (db: Db, userId: string, query: RecordsQuery): Promise<Page<LedgerRecord>> => {
  for (const field of ['from', 'to'] as const) {
    const value = query[field];
    if (value !== undefined && !isCalendarDate(value)) fail(ErrorCode.PARAM_FORMAT, `${field} is not a date`, { field });
  }
  const account = await db
    .selectFrom('ledger_accounts')
    .select('id')
    .where('key', '=', accountKey(user(userId, query.asset)))
    .executeTakeFirst();
  if (!account) return { list: [], total: 0 };
  let base = db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
    .where('e.account_id', '=', account.id);
  if (query.kind) {
    const out = OUT_KIND[query.kind];
    if (out) base = base.where('t.kind', '=', out).where('e.amount', '>', '0');
    else if (IN_KIND[query.kind]) base = base.where('t.kind', '=', query.kind).where('e.amount', '<', '0');
    else base = base.where('t.kind', '=', query.kind);
  }
  if (query.from) base = base.where('e.created_at', '>=', sql<Date>`(${query.from}::date)::timestamp at time zone ${query.timeZone}`);
  if (query.to) base = base.where('e.created_at', '<', sql<Date>`(${query.to}::date + 1)::timestamp at time zone ${query.timeZone}`);
  const rows = (await base
    .select(['e.id', 'e.transaction_id', 'e.asset', 'e.amount', 'e.balance_after', 'e.created_at', 't.kind', 't.memo'])
    .orderBy('e.id', 'desc')
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute()) as EntryRow[];
  return { list: await toRecords(db, userId, rows), total: countOf(await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()) };
};

/** The caller's record of a transaction just posted: its entry on their available balance of `asset`. */
const recordOf = async (trx: Db, userId: string, transactionId: string, asset: Asset): Promise<LedgerRecord> => {
  const rows = (await entryQuery(trx)
    .innerJoin('ledger_accounts as a', 'a.id', 'e.account_id')
    .where('e.transaction_id', '=', transactionId)
    .where('a.key', '=', accountKey(user(userId, asset)))
    .orderBy('e.id')
    .execute()) as EntryRow[];
  return (await toRecords(trx, userId, rows.slice(0, 1)))[0]!;
};

/* Money-moving calls of a user. */

const callScope = (userId: string, call: string, key: string, request: unknown) => ({ userId, key, call, request });

export const recharge = async (deps: WalletDeps, userId: string, payload: RechargePayload): Promise<Deposit> => {
  const txHash = payload.txHash ? payload.txHash.toLowerCase().replace(/^0x/, '') : null;
  const request = { amount: payload.amount, txHash };
  return once(deps.db, callScope(userId, 'POST /api/wallet/recharge', payload.idempotencyKey, request), async (trx) => {
    const amount = positiveAmount(payload.amount);
    if (txHash) {
      const claimed = await trx
        .selectFrom('deposits')
        .select('id')
        .where('tx_hash', '=', txHash)
        .where('status', '<>', 'rejected')
        .executeTakeFirst();
      if (claimed) fail(ErrorCode.ALREADY_EXISTS, 'this transaction was already reported', { field: 'txHash' });
    }
    const address = depositAddressFor(deps.addressSecret, userId);
    await rememberDepositAddress(trx, address, userId);
    const row = await trx
      .insertInto('deposits')
      .values({ user_id: userId, amount: dec(amount), address, tx_hash: txHash })
      .returning([...DEPOSIT_COLUMNS])
      .executeTakeFirstOrThrow();
    return toDeposit(row);
  });
};

export type WithdrawRequest = Omit<WithdrawPayload, 'password'>;

/**
 * Holds amount + fee (available -> held) and records the pending withdrawal. The route checks the password first.
 * To the caller's own deposit address: refused (10008 `own_address`). To another user's: paid to them at once,
 * as a transfer (their available balance, no chain, no fee), and recorded as an approved internal withdrawal.
 */
export const withdraw = async (deps: WalletDeps, userId: string, payload: WithdrawRequest): Promise<Withdrawal> => {
  const request = { amount: payload.amount, address: payload.address };
  return once(deps.db, callScope(userId, 'POST /api/wallet/withdraw', payload.idempotencyKey, request), async (trx) => {
    await refuseDemoAccount(trx, userId);
    const settings = await readSettings(trx);
    const amount = positiveAmount(payload.amount);
    if (amount.lt(settings.withdrawMin)) {
      fail(ErrorCode.PARAM_RANGE, `the smallest withdrawal is ${dec(settings.withdrawMin)} USDT`, { field: 'amount', min: dec(settings.withdrawMin) });
    }
    if (!isTronAddress(payload.address)) fail(ErrorCode.PARAM_FORMAT, 'not a TRC20 address', { field: 'address' });
    const owner = await trx.selectFrom('deposit_addresses').select('user_id').where('address', '=', payload.address).executeTakeFirst();
    if (payload.address === depositAddressFor(deps.addressSecret, userId) || owner?.user_id === userId) {
      fail(ErrorCode.INVALID, 'this is your own deposit address', { field: 'address', reason: 'own_address' });
    }
    if (owner) return internalWithdrawal(trx, userId, owner.user_id, amount, payload.address);
    const fee = new Big(settings.withdrawFee);
    const total = amount.plus(fee);
    await requireBalance(trx, user(userId, 'USDT'), dec(total));
    const id = randomUUID();
    const hold = await post(trx, {
      kind: 'withdraw_hold',
      userId,
      moves: [{ from: user(userId, 'USDT'), to: user(userId, 'USDT', 'held'), amount: dec(total) }],
      memo: { withdrawalId: id, amount: dec(amount), fee: dec(fee) },
    });
    const row = await trx
      .insertInto('withdrawals')
      .values({ id, user_id: userId, amount: dec(amount), fee: dec(fee), address: payload.address, hold_transaction_id: hold })
      .returning([...WITHDRAWAL_COLUMNS])
      .executeTakeFirstOrThrow();
    return toWithdrawal(row);
  });
};

/** A withdrawal to another user's deposit address: booked to them as a transfer, approved at once, no fee. */
const internalWithdrawal = async (trx: Db, userId: string, toUserId: string, amount: Big, address: string): Promise<Withdrawal> => {
  await requireBalance(trx, user(userId, 'USDT'), dec(amount));
  const id = randomUUID();
  const transaction = await post(trx, {
    kind: 'transfer_out',
    userId,
    moves: [{ from: user(userId, 'USDT'), to: user(toUserId, 'USDT'), amount: dec(amount) }],
    memo: { fromUserId: userId, toUserId, address },
  });
  const row = await trx
    .insertInto('withdrawals')
    .values({
      id,
      user_id: userId,
      amount: dec(amount),
      fee: '0',
      address,
      status: 'approved',
      hold_transaction_id: transaction,
      decided_at: new Date(),
      internal_user_id: toUserId,
    })
    .returning([...WITHDRAWAL_COLUMNS])
    .executeTakeFirstOrThrow();
  return toWithdrawal(row);
};

export type TransferRequest = Omit<TransferPayload, 'password'>;

export const transfer = async (deps: WalletDeps, userId: string, payload: TransferRequest): Promise<LedgerRecord> => {
  const request = { to: payload.to, amount: payload.amount };
  return once(deps.db, callScope(userId, 'POST /api/wallet/transfer', payload.idempotencyKey, request), async (trx) => {
    await refuseDemoAccount(trx, userId);
    const amount = positiveAmount(payload.amount);
    const target = await findUser(trx, payload.to);
    if (target.id === userId) fail(ErrorCode.INVALID, 'cannot transfer to yourself', { field: 'to' });
    const settings = await readSettings(trx);
    if (amount.lt(settings.transferMin)) {
      fail(ErrorCode.PARAM_RANGE, `the smallest transfer is ${dec(settings.transferMin)} USDT`, { field: 'amount', min: dec(settings.transferMin) });
    }
    await requireBalance(trx, user(userId, 'USDT'), dec(amount));
    const transaction = await post(trx, {
      kind: 'transfer_out',
      userId,
      moves: [{ from: user(userId, 'USDT'), to: user(target.id, 'USDT'), amount: dec(amount) }],
      memo: { fromUserId: userId, toUserId: target.id },
    });
    await recordEvents(trx, [{ userId: target.id, kind: 'wallet.transfer_received', taskId: null, payload: { amount: dec(amount), asset: 'USDT', from: maskEmail((await trx.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow()).email) } }]);
    return recordOf(trx, userId, transaction, 'USDT');
  });
};

export const swap = async (deps: WalletDeps, userId: string, payload: SwapPayload): Promise<LedgerRecord> => {
  const request = { from: payload.from, to: payload.to, amount: payload.amount };
  return once(deps.db, callScope(userId, 'POST /api/wallet/exchange', payload.idempotencyKey, request), async (trx) => {
    const amount = positiveAmount(payload.amount);
    const settings = await readSettings(trx);
    const offer = settings.swapRates.find((r) => r.from === payload.from && r.to === payload.to);
    if (!offer || payload.from === payload.to) fail(ErrorCode.NOT_SUPPORTED, `${payload.from} cannot be exchanged for ${payload.to}`, { from: payload.from, to: payload.to });
    const rate = new Big(offer!.rate);
    if (ASSET_PLACES[payload.from] === 0 && !amount.eq(amount.round(0, Big.roundDown))) {
      fail(ErrorCode.PARAM_RANGE, `${payload.from} is spent in whole units`, { field: 'amount', step: '1' });
    }
    const exact = amount.times(rate);
    const places = ASSET_PLACES[payload.to];
    const out = exact.round(places, Big.roundDown);
    if (places === 0 && !out.eq(exact)) {
      // Whole cards only: the amount must buy an exact number of them.
      fail(ErrorCode.PARAM_RANGE, `the amount must buy a whole number of ${payload.to}`, { field: 'amount', step: dec(new Big(1).div(rate)) });
    }
    if (out.lte(0)) fail(ErrorCode.PARAM_RANGE, `the amount is too small to buy any ${payload.to}`, { field: 'amount' });
    await requireBalance(trx, user(userId, payload.from), dec(amount));
    const transaction = await post(trx, {
      kind: 'swap_out',
      userId,
      moves: [
        { from: user(userId, payload.from), to: system('swap', payload.from), amount: dec(amount) },
        { from: system('swap', payload.to), to: user(userId, payload.to), amount: dec(out) },
      ],
      memo: { from: payload.from, to: payload.to, rate: dec(rate), paid: dec(amount), received: dec(out) },
    });
    return recordOf(trx, userId, transaction, payload.from);
  });
};

/** Is `targetId` anywhere below `userId` in the invitation tree? */
export const isDownline = async (executor: Db, userId: string, targetId: string): Promise<boolean> => {
  // Walk up from the target: one chain, and `union` stops on a (corrupt) cycle.
  const result = await sql<{ found: boolean }>`
    with recursive up(id) as (
      select inviter_id from users where id = ${targetId}
      union
      select u.inviter_id from users u join up on u.id = up.id
    )
    select exists(select 1 from up where id = ${userId}) as found`.execute(executor);
  return result.rows[0]?.found === true;
};

export type PointsTransferRequest = Omit<PointsTransferPayload, 'password'>;

export const pointsTransfer = async (deps: WalletDeps, userId: string, payload: PointsTransferRequest): Promise<LedgerRecord> => {
  const request = { to: payload.to, amount: payload.amount };
  return once(deps.db, callScope(userId, 'POST /api/wallet/points-transfer', payload.idempotencyKey, request), async (trx) => {
    await refuseDemoAccount(trx, userId);
    const amount = positiveAmount(payload.amount);
    const target = await findUser(trx, payload.to);
    if (target.id === userId) fail(ErrorCode.POINTS_SELF_TRANSFER, 'cannot transfer points to yourself', { field: 'to' });
    if (!(await isDownline(trx, userId, target.id))) fail(ErrorCode.POINTS_SUBORDINATE_ONLY, 'points go only to your down-line', { field: 'to' });
    await requireBalance(trx, user(userId, 'POINTS'), dec(amount));
    const transaction = await post(trx, {
      kind: 'points_out',
      userId,
      moves: [{ from: user(userId, 'POINTS'), to: user(target.id, 'POINTS'), amount: dec(amount) }],
      memo: { fromUserId: userId, toUserId: target.id },
    });
    return recordOf(trx, userId, transaction, 'POINTS');
  });
};

/* Operator decisions: the row locked, its status checked, the money moved and the audit line written in one transaction. */

export const adminDepositQuery = (executor: Db) =>
  executor
    .selectFrom('deposits as d')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .select(['d.id', 'd.amount', 'd.address', 'd.tx_hash', 'd.status', 'd.reason', 'd.created_at', 'd.decided_at', 'd.user_id', 'u.email']);

export const toAdminDeposit = (row: DepositRow & { user_id: string; email: string }): AdminDeposit => ({
  ...toDeposit(row),
  userId: row.user_id,
  userEmail: row.email,
});

export const adminWithdrawalQuery = (executor: Db) =>
  executor
    .selectFrom('withdrawals as w')
    .innerJoin('users as u', 'u.id', 'w.user_id')
    .select(['w.id', 'w.amount', 'w.fee', 'w.address', 'w.status', 'w.reason', 'w.tx_hash', 'w.created_at', 'w.decided_at', 'w.internal_user_id', 'w.user_id', 'u.email']);

export type AdminWithdrawalAnswer = AdminWithdrawal & { txHash: string | null };

export const toAdminWithdrawal = (row: WithdrawalRow & { user_id: string; email: string; tx_hash: string | null }): AdminWithdrawalAnswer => ({
  ...toWithdrawal(row),
  txHash: row.tx_hash,
  userId: row.user_id,
  userEmail: row.email,
});

export const adminDeposit = async (db: Db, id: string): Promise<AdminDeposit> => {
  const row = await adminDepositQuery(db).where('d.id', '=', id).executeTakeFirst();
  if (!row) fail(ErrorCode.PARAM_NOT_EXIST, 'deposit does not exist', { field: 'id' });
  return toAdminDeposit(row!);
};

export const adminWithdrawal = async (db: Db, id: string): Promise<AdminWithdrawalAnswer> => {
  const row = await adminWithdrawalQuery(db).where('w.id', '=', id).executeTakeFirst();
  if (!row) fail(ErrorCode.PARAM_NOT_EXIST, 'withdrawal does not exist', { field: 'id' });
  return toAdminWithdrawal(row!);
};

/** Locks a pending deposit (10006 when unknown, 10008 when already decided). */
/** Four eyes: an operator never decides on their own deposit or withdrawal. */
const notOwnMoney = (ownerId: string, operatorId: string) => {
  if (ownerId === operatorId) fail(ErrorCode.UNAUTHORIZED, 'an operator does not decide on their own money', { reason: 'own_money' });
};

const lockPendingDeposit = async (trx: Db, id: string, operatorId: string) => {
  const row = await trx.selectFrom('deposits').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  if (!row) fail(ErrorCode.PARAM_NOT_EXIST, 'deposit does not exist', { field: 'id' });
  if (row!.status !== 'pending') fail(ErrorCode.INVALID, `the deposit is already ${row!.status}`, { status: row!.status });
  notOwnMoney(row!.user_id, operatorId);
  return row!;
};

const lockPendingWithdrawal = async (trx: Db, id: string, operatorId: string) => {
  const row = await trx.selectFrom('withdrawals').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  if (!row) fail(ErrorCode.PARAM_NOT_EXIST, 'withdrawal does not exist', { field: 'id' });
  if (row!.status !== 'pending') fail(ErrorCode.INVALID, `the withdrawal is already ${row!.status}`, { status: row!.status });
  notOwnMoney(row!.user_id, operatorId);
  return row!;
};

/** Credits the deposit to the user (system deposits -> user available), once. */
export const confirmDeposit = async (db: Db, operatorId: string, id: string): Promise<AdminDeposit> =>
  db.transaction().execute(async (trx) => {
    const row = await lockPendingDeposit(trx, id, operatorId);
    const amount = dec(row.amount);
    const transaction = await post(trx, {
      kind: 'recharge',
      userId: row.user_id,
      moves: [{ from: system('deposits', 'USDT'), to: user(row.user_id, 'USDT'), amount }],
      memo: { depositId: row.id, ...(row.tx_hash ? { txHash: row.tx_hash } : {}) },
    });
    await trx
      .updateTable('deposits')
      .set({ status: 'confirmed', transaction_id: transaction, decided_by: operatorId, decided_at: new Date() })
      .where('id', '=', id)
      .execute();
    await recordAudit(trx, { operatorId, action: 'deposit.confirm', targetType: 'deposit', targetId: id, data: { userId: row.user_id, amount } });
    await recordEvents(trx, [{ userId: row.user_id, kind: 'wallet.deposit_credited', taskId: null, payload: { depositId: row.id, amount, asset: 'USDT' } }]);
    return adminDeposit(trx, id);
  });

export const rejectDeposit = async (db: Db, operatorId: string, id: string, reason: string): Promise<AdminDeposit> =>
  db.transaction().execute(async (trx) => {
    const row = await lockPendingDeposit(trx, id, operatorId);
    await trx
      .updateTable('deposits')
      .set({ status: 'rejected', reason, decided_by: operatorId, decided_at: new Date() })
      .where('id', '=', id)
      .execute();
    await recordAudit(trx, { operatorId, action: 'deposit.reject', targetType: 'deposit', targetId: id, data: { userId: row.user_id, amount: dec(row.amount), reason } });
    return adminDeposit(trx, id);
  });

/** Pays the withdrawal out: held -> system withdrawals (amount) and held -> system fees (fee). */
export const approveWithdrawal = async (db: Db, operatorId: string, id: string, txHash?: string): Promise<AdminWithdrawalAnswer> =>
  db.transaction().execute(async (trx) => {
    const row = await lockPendingWithdrawal(trx, id, operatorId);
    const held = user(row.user_id, 'USDT', 'held');
    const moves = [{ from: held, to: system('withdrawals', 'USDT'), amount: dec(row.amount) }];
    if (new Big(row.fee).gt(0)) moves.push({ from: held, to: system('fees', 'USDT'), amount: dec(row.fee) });
    await post(trx, { kind: 'withdraw_approve', userId: row.user_id, moves, memo: { withdrawalId: row.id } });
    const hash = txHash ? txHash.toLowerCase().replace(/^0x/, '') : null;
    await trx
      .updateTable('withdrawals')
      .set({ status: 'approved', tx_hash: hash, decided_by: operatorId, decided_at: new Date() })
      .where('id', '=', id)
      .execute();
    await recordEvents(trx, [
      { userId: row.user_id, kind: 'wallet.withdrawal_approved', taskId: null, payload: { withdrawalId: row.id, amount: dec(row.amount), fee: dec(row.fee), asset: 'USDT', txHash: hash } },
    ]);
    await recordAudit(trx, {
      operatorId,
      action: 'withdrawal.approve',
      targetType: 'withdrawal',
      targetId: id,
      data: { userId: row.user_id, amount: dec(row.amount), fee: dec(row.fee), txHash: hash },
    });
    return adminWithdrawal(trx, id);
  });

/** Gives the held amount + fee back (held -> available). */
export const rejectWithdrawal = async (db: Db, operatorId: string, id: string, reason: string): Promise<AdminWithdrawalAnswer> =>
  db.transaction().execute(async (trx) => {
    const row = await lockPendingWithdrawal(trx, id, operatorId);
    const total = dec(new Big(row.amount).plus(row.fee));
    await post(trx, {
      kind: 'withdraw_reject',
      userId: row.user_id,
      moves: [{ from: user(row.user_id, 'USDT', 'held'), to: user(row.user_id, 'USDT'), amount: total }],
      memo: { withdrawalId: row.id },
      reverses: row.hold_transaction_id,
    });
    await trx
      .updateTable('withdrawals')
      .set({ status: 'rejected', reason, decided_by: operatorId, decided_at: new Date() })
      .where('id', '=', id)
      .execute();
    await recordEvents(trx, [{ userId: row.user_id, kind: 'wallet.withdrawal_refused', taskId: null, payload: { withdrawalId: row.id, amount: total, asset: 'USDT', reason } }]);
    await recordAudit(trx, {
      operatorId,
      action: 'withdrawal.reject',
      targetType: 'withdrawal',
      targetId: id,
      data: { userId: row.user_id, amount: dec(row.amount), fee: dec(row.fee), reason },
    });
    return adminWithdrawal(trx, id);
  });
