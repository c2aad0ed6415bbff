import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../../src/api/errors';
import type { Db } from '../db/database';
import { fail } from '../http/errors';

export interface AuditRecord {
  operatorId: string;
  /** `deposit.confirm`, `withdrawal.reject`, `user.edit`, `article.publish`, `settings.edit`... */
  action: string;
  targetType: string;
  targetId: string | null;
  data?: Record<string, unknown>;
}

/** Writes one audit line; call it inside the transaction of the action it records. */
export const recordAudit = async (trx: Db, record: AuditRecord): Promise<void> => {
  await trx
    .insertInto('audit_log')
    .values({
      operator_id: record.operatorId,
      action: record.action,
      target_type: record.targetType,
      target_id: record.targetId,
      data: JSON.stringify(record.data ?? {}),
    })
    .execute();
};

/**
 * An onRequest hook for operator-only scopes, after `app.authenticate`:
 * anyone else gets 11005 (unauthorized) and the call does nothing.
 */
export const requireOperator = async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
  if (request.user?.role !== 'operator') fail(ErrorCode.UNAUTHORIZED, 'operators only');
};
