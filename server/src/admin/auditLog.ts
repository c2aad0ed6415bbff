import { sql } from 'kysely';
import type { Static } from 'typebox';
import type { AuditEntry } from '../../../src/api/admin';
import { isUuid } from '../article/articles';
import type { Db } from '../db/database';
import type { ListPage, ListParams } from './rest';
import type { AUDIT_SORTS, auditListQuery } from './schemas';

type AuditFilter = NonNullable<Static<typeof auditListQuery>['filter']>;

/** /api/admin/audit: the operators' audit log, newest first; read only. */
export const listAudit = async (db: Db, { sort, offset, limit, filter }: ListParams<(typeof AUDIT_SORTS)[number], AuditFilter>): Promise<ListPage<AuditEntry>> => {
  let base = db.selectFrom('audit_log as a').innerJoin('users as o', 'o.id', 'a.operator_id');
  // A malformed operator id matches nobody (not a database error).
  if (filter.operatorId !== undefined) base = isUuid(filter.operatorId) ? base.where('a.operator_id', '=', filter.operatorId) : base.where(sql<boolean>`false`);
  if (filter.action) base = base.where('a.action', '=', filter.action);
  if (filter.targetType) base = base.where('a.target_type', '=', filter.targetType);
  if (filter.targetId) base = base.where('a.target_id', '=', filter.targetId);
  if (filter.id) {
    const ids = filter.id.map(String).filter((id) => /^\d{1,18}$/.test(id));
    base = ids.length > 0 ? base.where('a.id', 'in', ids) : base.where(sql<boolean>`false`);
  }
  // The id follows the time: it orders lines written in the same instant.
  const [rows, count] = await Promise.all([
    base
      .select(['a.id', 'a.operator_id', 'o.email', 'a.action', 'a.target_type', 'a.target_id', 'a.data', 'a.created_at'])
      .$if(sort.field === 'createdAt', (q) => q.orderBy('a.created_at', sort.order))
      .orderBy('a.id', sort.order)
      .limit(limit)
      .offset(offset)
      .execute(),
    base.select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const list: AuditEntry[] = rows.map((row) => ({
    id: String(row.id),
    operatorId: row.operator_id,
    operatorEmail: row.email,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    data: typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : row.data,
    createdAt: new Date(row.created_at).toISOString(),
  }));
  return { offset, list, total: Number(count.n) };
};
