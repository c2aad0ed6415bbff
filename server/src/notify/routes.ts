import type { FastifyPluginAsync } from 'fastify';
import type { NotificationChannel } from '../../../src/api/notify';
import { ok } from '../http/envelope';
import { typed } from '../http/schemas';
import type { ChannelSender } from './channel';
import { schemas } from './schemas';
import * as notify from './service';

export interface NotifyOptions {
  /** The channels other than in-app and e-mail (Telegram, web push, webhooks), added where the app is built. */
  senders?: readonly ChannelSender[];
}

/** Notifications (issue 25): the inbox, its unread count, marking read, and the preferences per kind and channel. */
export const notifyDomain: FastifyPluginAsync<NotifyOptions> = async (instance, options) => {
  const app = typed(instance);
  const { db } = instance;
  const senders = options.senders ?? [];
  app.addHook('onRequest', app.authenticate);

  const linked = async (userId: string): Promise<NotificationChannel[]> => {
    const answers = await Promise.all(senders.map(async (sender): Promise<NotificationChannel | null> => ((await sender.isLinked(db, userId)) ? sender.channel : null)));
    return answers.filter((channel): channel is NotificationChannel => channel !== null);
  };

  app.get('/api/notifications', { schema: schemas.list }, async (request) => ok(await notify.list(db, request.user!.id, request.query)));
  app.get('/api/notifications/unread-count', { schema: schemas.unreadCount }, async (request) => ok(await notify.unreadCount(db, request.user!.id)));
  app.post('/api/notifications/read', { schema: schemas.read }, async (request) => ok(await notify.markRead(db, request.user!.id, request.body)));
  app.get('/api/notifications/preferences', { schema: schemas.preferences }, async (request) =>
    ok(await notify.preferences(db, request.user!.id, await linked(request.user!.id))),
  );
  app.put('/api/notifications/preferences', { schema: schemas.setPreferences }, async (request) =>
    ok(await notify.setPreferences(db, request.user!.id, request.body, await linked(request.user!.id))),
  );
};
