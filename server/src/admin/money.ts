import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type SelectQueryBuilder } from 'kysely';
import { ErrorCode } from '../../../src/api/errors';
import type { Db } from '../db/database';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { adminDepositSchema, adminWithdrawalSchema, reasonSchema, txHashSchema, uuidSchema } from '../wallet/schemas';
import * as wallet from '../wallet/service';
import { envelopeOf, idParams, listParams, listQuerystring, parseListParams, sendList, strictBody } from './rest';
import { uuidsOf } from './users';

interface MoneyFilter {
  status?: string;
  userId?: string;
  id?: (string | number)[];
}

const SORTS = ['createdAt', 'amount', 'status', 'id'] as const;
const COLUMNS: Record<string, string> = { createdAt: 'created_at', amount: 'amount', status: 'status', id: 'id', userId: 'user_id' };

/**
 * The list of a queue (deposits or withdrawals, the same shape): filtered by
 * status, user and ids, sorted, paged, with the total of the same filter.
 */
const queueList =
  <Row, Item>(db: Db, resource: string, alias: 'd' | 'w', query: (db: Db) => SelectQueryBuilder<any, any, Row>, toItem: (row: Row) => Item) => // eslint-disable-line @typescript-eslint/no-explicit-any
  async (request: FastifyRequest, reply: FastifyReply) => {
    const { sort, offset, limit, filter } = listParams<MoneyFilter>(request, ['createdAt', 'DESC']);
    const column = (field: string) => sql.ref(`${alias}.${COLUMNS[field]}`);
    const filtered = () =>
      query(db)
        .$if(filter.status !== undefined, (b) => b.where(column('status'), '=', filter.status))
        .$if(filter.userId !== undefined, (b) => b.where(column('userId'), '=', filter.userId))
        .$if(filter.id !== undefined, (b) => b.where(column('id'), 'in', [...uuidsOf(filter.id!), '00000000-0000-0000-0000-000000000000']));
    const [rows, count] = await Promise.all([
      filtered().orderBy(column(sort.field), sort.order).orderBy(column('id'), sort.order).limit(limit).offset(offset).execute(),
      filtered().clearSelect().select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow() as Promise<{ n: number }>,
    ]);
    return sendList(reply, resource, offset, rows.map(toItem), Number(count.n));
  };

const listSchema = (summary: string, item: object, statuses: readonly string[]) => ({
  summary,
  security: [{ bearer: [] }],
  querystring: listQuerystring(SORTS, { status: { type: 'string', enum: [...statuses] }, userId: uuidSchema }),
  response: { 200: envelopeOf({ type: 'array', items: item }) },
});

/**
 * A decision is a change of status: to the decided one, with a reason when
 * rejecting (an `if`/`then` of the schema: 10000 without it).
 */
const decisionSchema = (summary: string, item: object, decided: readonly string[], extra: Record<string, object>) => ({
  summary,
  security: [{ bearer: [] }],
  params: idParams,
  body: strictBody({ status: { type: 'string', enum: [...decided] }, reason: reasonSchema, ...extra }, ['status'], {
    if: { properties: { status: { const: 'rejected' } } },
    then: { required: ['reason'] },
  }),
  response: { 200: envelopeOf(item) },
});

const notFound = (what: string): never => fail(ErrorCode.PARAM_NOT_EXIST, `${what} does not exist`, { field: 'id' });
const idOf = (params: unknown, what: string) => {
  const { id } = params as { id: string };
  return uuidsOf([id]).length === 1 ? id : notFound(what);
};
/** A reason only goes with a rejection. */
const reasonOnlyWhenRejected = (body: { status: string; reason?: string }) => {
  if (body.reason !== undefined && body.status !== 'rejected') fail(ErrorCode.INVALID, 'a reason goes with a rejection only', { field: 'reason' });
};

/**
 * The operators' deposit and withdrawal queues, /api/admin/deposits and
 * /api/admin/withdrawals. A decision (PUT with the new status) locks the
 * request, refuses it unless still pending (10008: of two operators deciding
 * at once, exactly one wins), moves the money and writes the audit line in
 * one transaction (server/src/wallet/service.ts).
 */
export const moneyRoutes = (app: FastifyInstance, db: Db) => {
  app.get(
    '/api/admin/deposits',
    { schema: listSchema('Deposits, newest first by default', adminDepositSchema, ['pending', 'confirmed', 'rejected']), preValidation: parseListParams },
    queueList(db, 'deposits', 'd', wallet.adminDepositQuery, wallet.toAdminDeposit),
  );

  app.get('/api/admin/deposits/:id', { schema: { summary: 'One deposit', security: [{ bearer: [] }], params: idParams, response: { 200: envelopeOf(adminDepositSchema) } } }, async (request) =>
    ok(await wallet.adminDeposit(db, idOf(request.params, 'deposit'))),
  );

  app.put(
    '/api/admin/deposits/:id',
    { schema: decisionSchema('Decide a pending deposit: confirmed credits the user; rejected needs a reason', adminDepositSchema, ['confirmed', 'rejected'], {}) },
    async (request) => {
      const id = idOf(request.params, 'deposit');
      const body = request.body as { status: 'confirmed' | 'rejected'; reason?: string };
      reasonOnlyWhenRejected(body);
      const operatorId = request.user!.id;
      return ok(body.status === 'confirmed' ? await wallet.confirmDeposit(db, operatorId, id) : await wallet.rejectDeposit(db, operatorId, id, body.reason!.trim()));
    },
  );

  app.get(
    '/api/admin/withdrawals',
    { schema: listSchema('Withdrawals, newest first by default', adminWithdrawalSchema, ['pending', 'approved', 'rejected']), preValidation: parseListParams },
    queueList(db, 'withdrawals', 'w', wallet.adminWithdrawalQuery, wallet.toAdminWithdrawal),
  );

  app.get(
    '/api/admin/withdrawals/:id',
    { schema: { summary: 'One withdrawal', security: [{ bearer: [] }], params: idParams, response: { 200: envelopeOf(adminWithdrawalSchema) } } },
    async (request) => ok(await wallet.adminWithdrawal(db, idOf(request.params, 'withdrawal'))),
  );

  app.put(
    '/api/admin/withdrawals/:id',
    {
      schema: decisionSchema('Decide a pending withdrawal: approved pays amount and fee out of the hold (txHash optional); rejected gives them back and needs a reason', adminWithdrawalSchema, ['approved', 'rejected'], {
        txHash: txHashSchema,
      }),
    },
    async (request) => {
      const id = idOf(request.params, 'withdrawal');
      const body = request.body as { status: 'approved' | 'rejected'; reason?: string; txHash?: string };
      reasonOnlyWhenRejected(body);
      if (body.txHash && body.status !== 'approved') fail(ErrorCode.INVALID, 'a transaction hash goes with an approval only', { field: 'txHash' });
      const operatorId = request.user!.id;
      return ok(
        body.status === 'approved'
          ? await wallet.approveWithdrawal(db, operatorId, id, body.txHash || undefined)
          : await wallet.rejectWithdrawal(db, operatorId, id, body.reason!.trim()),
      );
    },
  );
};
