import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database';
import { ok } from '../http/envelope';
import { adminDecisionSchema, adminDepositSchema, adminDetailSchema, adminListSchema, adminWithdrawalSchema, reasonSchema, txHashSchema } from '../wallet/schemas';
import * as wallet from '../wallet/service';
import { requireOperator } from './audit';

/**
 * The operators' deposit and withdrawal queues, /api/admin/deposits/* and
 * /api/admin/withdrawals/* (operators only: 11005 for anyone else). A
 * decision locks the request, refuses it unless still pending (10008: of two
 * operators deciding at once, exactly one wins), moves the money and writes
 * the audit line in one transaction.
 */
export const moneyRoutes = (db: Db) => async (app: FastifyInstance) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', requireOperator);

  app.get(
    '/api/admin/deposits/list',
    { schema: adminListSchema('Deposits, newest first', adminDepositSchema, ['pending', 'confirmed', 'rejected']) },
    async (request) => ok(await wallet.adminDeposits(db, request.query as wallet.AdminListQuery)),
  );

  app.get('/api/admin/deposits/detail/:id', { schema: adminDetailSchema('One deposit', adminDepositSchema) }, async (request) =>
    ok(await wallet.adminDeposit(db, (request.params as { id: string }).id)),
  );

  app.post(
    '/api/admin/deposits/confirm',
    { schema: adminDecisionSchema('Confirm a pending deposit: credits the user', adminDepositSchema, {}, []) },
    async (request) => ok(await wallet.confirmDeposit(db, request.user!.id, (request.body as { id: string }).id)),
  );

  app.post(
    '/api/admin/deposits/reject',
    { schema: adminDecisionSchema('Reject a pending deposit', adminDepositSchema, { reason: reasonSchema }, ['reason']) },
    async (request) => {
      const body = request.body as { id: string; reason: string };
      return ok(await wallet.rejectDeposit(db, request.user!.id, body.id, body.reason.trim()));
    },
  );

  app.get(
    '/api/admin/withdrawals/list',
    { schema: adminListSchema('Withdrawals, newest first', adminWithdrawalSchema, ['pending', 'approved', 'rejected']) },
    async (request) => ok(await wallet.adminWithdrawals(db, request.query as wallet.AdminListQuery)),
  );

  app.get('/api/admin/withdrawals/detail/:id', { schema: adminDetailSchema('One withdrawal', adminWithdrawalSchema) }, async (request) =>
    ok(await wallet.adminWithdrawal(db, (request.params as { id: string }).id)),
  );

  app.post(
    '/api/admin/withdrawals/approve',
    { schema: adminDecisionSchema('Approve a pending withdrawal: pays amount and fee out of the hold', adminWithdrawalSchema, { txHash: txHashSchema }, []) },
    async (request) => {
      const body = request.body as { id: string; txHash?: string };
      return ok(await wallet.approveWithdrawal(db, request.user!.id, body.id, body.txHash || undefined));
    },
  );

  app.post(
    '/api/admin/withdrawals/reject',
    { schema: adminDecisionSchema('Reject a pending withdrawal: gives amount and fee back', adminWithdrawalSchema, { reason: reasonSchema }, ['reason']) },
    async (request) => {
      const body = request.body as { id: string; reason: string };
      return ok(await wallet.rejectWithdrawal(db, request.user!.id, body.id, body.reason.trim()));
    },
  );
};
