import { sql } from 'kysely';
import type { Static } from 'typebox';
import { ErrorCode } from '../../../src/api/errors';
import type { AdminNotificationDelivery, DeliveryStatus, NotificationDeliveryCount } from '../../../src/api/admin';
import { isUuid } from '../article/articles';
import type { Db } from '../db/database';
import { fail } from '../http/errors';
import { recordAudit } from '../shared/audit';
import type { ListPage, ListParams } from './rest';
import type { DELIVERY_SORTS, deliveryListQuery } from './schemas';

type DeliveryFilter = NonNullable<Static<typeof deliveryListQuery>['filter']>;

const notFound = (): never => fail(ErrorCode.PARAM_NOT_EXIST, 'notification delivery does not exist', { field: 'id' });
const idOf = (id: string): string => (/^\d{1,18}$/.test(id) ? id : notFound());
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

const base = (db: Db) =>
  db
    .selectFrom('notification_deliveries as d')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    // The message's first event names its kind (message_key is its id).
    .leftJoin('notification_events as e', 'e.id', 'd.message_key');

const SORT_COLUMNS = { id: 'd.id', createdAt: 'd.created_at', nextAttemptAt: 'd.next_attempt_at', lastAttemptAt: 'd.last_attempt_at', attempts: 'd.attempts', channel: 'd.channel', status: 'd.status' } as const;

const select = (query: ReturnType<typeof base>) =>
  query.select([
    'd.id',
    'd.user_id',
    'u.email',
    'd.channel',
    'e.kind',
    sql<number>`cardinality(d.event_ids)`.as('events'),
    'd.status',
    'd.attempts',
    'd.last_error',
    'd.created_at',
    'd.next_attempt_at',
    'd.last_attempt_at',
    'd.sent_at',
  ]);

type Row = Awaited<ReturnType<ReturnType<typeof select>['executeTakeFirstOrThrow']>>;

const record = (row: Row): AdminNotificationDelivery => ({
  id: String(row.id),
  userId: row.user_id,
  userEmail: row.email,
  channel: row.channel,
  kind: row.kind ?? 'unknown',
  events: Number(row.events),
  status: row.status as DeliveryStatus,
  attempts: row.attempts,
  lastError: row.last_error,
  createdAt: iso(row.created_at)!,
  nextAttemptAt: iso(row.next_attempt_at)!,
  lastAttemptAt: iso(row.last_attempt_at),
  sentAt: iso(row.sent_at),
});

/** /api/admin/notification-deliveries: the outbox's messages (the console shows the dead ones first), read and retried by operators. */
export const listDeliveries = async (db: Db, { sort, offset, limit, filter }: ListParams<(typeof DELIVERY_SORTS)[number], DeliveryFilter>): Promise<ListPage<AdminNotificationDelivery>> => {
  let query = base(db);
  if (filter.status) query = query.where('d.status', '=', filter.status);
  if (filter.channel) query = query.where('d.channel', '=', filter.channel);
  // A malformed user id matches nobody (not a database error).
  if (filter.userId !== undefined) query = isUuid(filter.userId) ? query.where('d.user_id', '=', filter.userId) : query.where(sql<boolean>`false`);
  if (filter.id) {
    const ids = filter.id.map(String).filter((id) => /^\d{1,18}$/.test(id));
    query = ids.length > 0 ? query.where('d.id', 'in', ids) : query.where(sql<boolean>`false`);
  }
  const [rows, count] = await Promise.all([
    select(query).orderBy(SORT_COLUMNS[sort.field], sort.order).orderBy('d.id', sort.order).limit(limit).offset(offset).execute(),
    query.select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { offset, list: rows.map(record), total: Number(count.n) };
};

export const findDelivery = async (db: Db, id: string): Promise<AdminNotificationDelivery> =>
  record((await select(base(db)).where('d.id', '=', idOf(id)).executeTakeFirst()) ?? notFound());

/** How many messages each channel holds in each status (channels with none are left out). */
export const countDeliveries = async (db: Db): Promise<NotificationDeliveryCount[]> => {
  const rows = await db
    .selectFrom('notification_deliveries')
    .select(['channel', 'status', db.fn.countAll<number>().as('n')])
    .groupBy(['channel', 'status'])
    .orderBy('channel')
    .execute();
  const byChannel = new Map<string, NotificationDeliveryCount>();
  for (const row of rows) {
    const counts = byChannel.get(row.channel) ?? { channel: row.channel, pending: 0, sent: 0, dead: 0 };
    if (row.status === 'pending' || row.status === 'sent' || row.status === 'dead') counts[row.status] = Number(row.n);
    byChannel.set(row.channel, counts);
  }
  return [...byChannel.values()];
};

/**
 * An operator sends a dead message again: back to pending, due now, its
 * attempts from zero (the outbox's next pass tries it), with the audit line
 * in the same transaction. Only a dead one (10008 otherwise: a pending one is
 * still being tried, a sent one arrived).
 */
export const retryDelivery = async (db: Db, operatorId: string, id: string, _body: { status: 'pending' }): Promise<AdminNotificationDelivery> => {
  const key = idOf(id);
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('notification_deliveries').select(['status', 'attempts', 'last_error', 'channel', 'user_id']).where('id', '=', key).forUpdate().executeTakeFirst();
    if (!before) notFound();
    if (before!.status !== 'dead') fail(ErrorCode.INVALID, 'only a dead notification delivery can be retried', { field: 'status', status: before!.status });
    await trx.updateTable('notification_deliveries').set({ status: 'pending', attempts: 0, next_attempt_at: sql`now()` }).where('id', '=', key).execute();
    await recordAudit(trx, {
      operatorId,
      action: 'notification.retry',
      targetType: 'notification_delivery',
      targetId: key,
      data: { channel: before!.channel, userId: before!.user_id, before: { status: before!.status, attempts: before!.attempts, lastError: before!.last_error } },
    });
  });
  return findDelivery(db, key);
};
