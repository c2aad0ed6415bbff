import { sql, type SelectQueryBuilder } from 'kysely';
import type { Static } from 'typebox';
import type { AdminDeposit } from '../../../src/api/admin';
import { ErrorCode } from '../../../src/api/errors';
import type { Db } from '../db/database';
import { fail } from '../http/errors';
import * as wallet from '../wallet/service';
import type { ListPage, ListParams } from './rest';
import type { MONEY_SORTS, depositDecisionBody, depositListQuery, withdrawalDecisionBody, withdrawalListQuery } from './schemas';
import { uuidsOf } from './users';

/**
 * The operators' deposit and withdrawal queues, /api/admin/deposits and
 * /api/admin/withdrawals. A decision (the new status) locks the request,
 * refuses it unless still pending (10008: of two operators deciding at
 * once, exactly one wins), moves the money and writes the audit line in one
 * transaction (server/src/wallet/service.ts).
 */

type MoneySort = (typeof MONEY_SORTS)[number];
type DepositFilter = NonNullable<Static<typeof depositListQuery>['filter']>;
type WithdrawalFilter = NonNullable<Static<typeof withdrawalListQuery>['filter']>;

const COLUMNS: Record<MoneySort | 'userId', string> = { createdAt: 'created_at', amount: 'amount', status: 'status', id: 'id', userId: 'user_id' };

/**
 * The list of a queue (deposits or withdrawals, the same shape): filtered by
 * status, user and ids, sorted, paged, with the total of the same filter.
 */
const queueList = async <Row, Item>(
  db: Db,
  alias: 'd' | 'w',
  query: (db: Db) => SelectQueryBuilder<any, any, Row>, // eslint-disable-line @typescript-eslint/no-explicit-any
  toItem: (row: Row) => Item,
  { sort, offset, limit, filter }: ListParams<MoneySort, DepositFilter | WithdrawalFilter>,
): Promise<ListPage<Item>> => {
  const column = (field: MoneySort | 'userId') => sql.ref(`${alias}.${COLUMNS[field]}`);
  const filtered = () =>
    query(db)
      .$if(filter.status !== undefined, (b) => b.where(column('status'), '=', filter.status))
      .$if(filter.userId !== undefined, (b) => b.where(column('userId'), '=', filter.userId))
      .$if(filter.id !== undefined, (b) => b.where(column('id'), 'in', [...uuidsOf(filter.id!), '00000000-0000-0000-0000-000000000000']));
  const [rows, count] = await Promise.all([
    filtered().orderBy(column(sort.field), sort.order).orderBy(column('id'), sort.order).limit(limit).offset(offset).execute(),
    filtered().clearSelect().select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow() as Promise<{ n: number }>,
  ]);
  return { offset, list: rows.map(toItem), total: Number(count.n) };
};

export const listDeposits = (db: Db, params: ListParams<MoneySort, DepositFilter>) => queueList(db, 'd', wallet.adminDepositQuery, wallet.toAdminDeposit, params);
export const listWithdrawals = (db: Db, params: ListParams<MoneySort, WithdrawalFilter>) =>
  queueList(db, 'w', wallet.adminWithdrawalQuery, wallet.toAdminWithdrawal, params);

const notFound = (what: string): never => fail(ErrorCode.PARAM_NOT_EXIST, `${what} does not exist`, { field: 'id' });
/** A record's id: a uuid, else 10006 (it cannot exist). */
const idOf = (id: string, what: string) => (uuidsOf([id]).length === 1 ? id : notFound(what));
/** A reason only goes with a rejection. */
const reasonOnlyWhenRejected = (body: { status: string; reason?: string }) => {
  if (body.reason !== undefined && body.status !== 'rejected') fail(ErrorCode.INVALID, 'a reason goes with a rejection only', { field: 'reason' });
};

export const deposit = (db: Db, id: string) => wallet.adminDeposit(db, idOf(id, 'deposit'));
export const withdrawal = (db: Db, id: string) => wallet.adminWithdrawal(db, idOf(id, 'withdrawal'));

/** Confirms (credits the user) or rejects (with a reason) a pending deposit. */
export const decideDeposit = async (db: Db, operatorId: string, rawId: string, body: Static<typeof depositDecisionBody>): Promise<AdminDeposit> => {
  const id = idOf(rawId, 'deposit');
  reasonOnlyWhenRejected(body);
  return body.status === 'confirmed' ? wallet.confirmDeposit(db, operatorId, id) : wallet.rejectDeposit(db, operatorId, id, body.reason!.trim());
};

/** Approves (pays amount and fee out of the hold, txHash optional) or rejects (gives them back, with a reason) a pending withdrawal. */
export const decideWithdrawal = async (db: Db, operatorId: string, rawId: string, body: Static<typeof withdrawalDecisionBody>) => {
  const id = idOf(rawId, 'withdrawal');
  reasonOnlyWhenRejected(body);
  if (body.txHash && body.status !== 'approved') fail(ErrorCode.INVALID, 'a transaction hash goes with an approval only', { field: 'txHash' });
  return body.status === 'approved'
    ? wallet.approveWithdrawal(db, operatorId, id, body.txHash || undefined)
    : wallet.rejectWithdrawal(db, operatorId, id, body.reason!.trim());
};
