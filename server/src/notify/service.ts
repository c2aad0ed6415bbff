/** The inbox (in-app channel) and the preferences of the caller. */
import { sql } from 'kysely';
import { ErrorCode } from '../../../src/api/errors';
import { NOTIFICATION_KINDS, isAlwaysByEmail, type Notification, type NotificationChannel, type NotificationKind, type NotificationPreferences } from '../../../src/api/notify';
import type { Page } from '../../../src/api/types';
import type { Db } from '../db/database';
import { fail } from '../http/errors';
import { defaultEnabled } from './events';
import type { ListQuery, PreferencesBody, ReadBody } from './schemas';

export const list = async (db: Db, userId: string, query: ListQuery): Promise<Page<Notification>> => {
  let base = db.selectFrom('notification_events').where('user_id', '=', userId);
  if (query.unread) base = base.where('read_at', 'is', null);
  if (query.kind) base = base.where('kind', '=', query.kind);
  const [rows, total] = await Promise.all([
    base
      .select(['id', 'kind', 'task_id', 'payload', 'created_at', 'read_at'])
      .orderBy('id', 'desc')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    list: rows.map((row) => ({
      id: String(row.id),
      kind: row.kind as NotificationKind,
      taskId: row.task_id,
      payload: row.payload,
      createdAt: row.created_at.toISOString(),
      read: row.read_at !== null,
    })),
    total: Number(total.n),
  };
};

export const unreadCount = async (db: Db, userId: string): Promise<{ count: number }> => {
  const row = await db
    .selectFrom('notification_events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n) };
};

/** Marks read the given events of the caller (others' ids change nothing), or all; answers the unread count after. */
export const markRead = async (db: Db, userId: string, body: ReadBody): Promise<{ count: number }> => {
  if (!body.all && !body.ids) return fail(ErrorCode.PARAM_REQUIRED, 'ids or all is required', { field: 'ids' });
  let update = db.updateTable('notification_events').set({ read_at: sql`now()` }).where('user_id', '=', userId).where('read_at', 'is', null);
  if (!body.all) update = update.where('id', 'in', body.ids!);
  await update.execute();
  return unreadCount(db, userId);
};

/** The channels the caller may choose: in-app and e-mail always, the others when linked (`linked`, from the channel senders); each kind's timing but the security ones'. */
export const preferences = async (db: Db, userId: string, linked: readonly NotificationChannel[]): Promise<NotificationPreferences> => {
  const channels: NotificationChannel[] = ['inapp', 'email', ...linked.filter((c) => c !== 'inapp' && c !== 'email')];
  const [rows, digest] = await Promise.all([
    db.selectFrom('notification_preferences').select(['kind', 'channel', 'enabled']).where('user_id', '=', userId).execute(),
    db.selectFrom('notification_digest_kinds').select('kind').where('user_id', '=', userId).execute(),
  ]);
  const stored = new Map(rows.map((row) => [`${row.kind} ${row.channel}`, row.enabled]));
  const hourly = new Set(digest.map((row) => row.kind));
  return {
    channels,
    list: NOTIFICATION_KINDS.flatMap((kind) =>
      channels.map((channel) => ({
        kind,
        channel,
        enabled: (channel === 'email' && isAlwaysByEmail(kind)) || (stored.get(`${kind} ${channel}`) ?? defaultEnabled(kind, channel)),
      })),
    ),
    timing: NOTIFICATION_KINDS.filter((kind) => !isAlwaysByEmail(kind)).map((kind) => ({ kind, timing: hourly.has(kind) ? 'hourly' : 'immediate' })),
  };
};

/** Writes the cells and timings given, all or none (a security kind's timing is refused, 10008: those go at once). */
export const setPreferences = async (db: Db, userId: string, body: PreferencesBody, linked: readonly NotificationChannel[]): Promise<NotificationPreferences> => {
  const refused = body.timing?.find((t) => isAlwaysByEmail(t.kind));
  if (refused) fail(ErrorCode.INVALID, `${refused.kind} is a security notice: it always goes at once`, { field: 'timing', kind: refused.kind });
  await db.transaction().execute(async (trx) => {
    if (body.list) {
      await trx
        .insertInto('notification_preferences')
        .values(body.list.map((p) => ({ user_id: userId, kind: p.kind, channel: p.channel, enabled: p.enabled })))
        .onConflict((oc) => oc.columns(['user_id', 'kind', 'channel']).doUpdateSet((eb) => ({ enabled: eb.ref('excluded.enabled') })))
        .execute();
    }
    const hourly = body.timing?.filter((t) => t.timing === 'hourly').map((t) => t.kind) ?? [];
    const immediate = body.timing?.filter((t) => t.timing === 'immediate').map((t) => t.kind) ?? [];
    if (immediate.length > 0) await trx.deleteFrom('notification_digest_kinds').where('user_id', '=', userId).where('kind', 'in', immediate).execute();
    if (hourly.length > 0) {
      await trx
        .insertInto('notification_digest_kinds')
        .values(hourly.map((kind) => ({ user_id: userId, kind })))
        .onConflict((oc) => oc.columns(['user_id', 'kind']).doNothing())
        .execute();
    }
  });
  return preferences(db, userId, linked);
};
