import type { FastifyPluginAsync } from 'fastify';
import { ErrorCode } from '../../../src/api/errors';
import { isAlwaysByEmail, type NotificationChannel } from '../../../src/api/notify';
import { ok } from '../http/envelope';
import { refuseDemoUser } from '../shared/demoGuard';
import { fail } from '../http/errors';
import { typed } from '../http/schemas';
import type { ChannelSender } from './channel';
import { checkUnsubscribeToken, emailSender } from './email';
import { startOutboxWorker } from './outbox';
import { createNotifyHub } from './stream';
import { schemas } from './schemas';
import * as notify from './service';

export interface NotifyOptions {
  /** The channels other than in-app and e-mail (Telegram, web push, webhooks), added where the app is built. */
  senders?: readonly ChannelSender[];
  /** The dashboard's public address, for the links in messages (none: paths only). */
  publicUrl?: string | undefined;
  /** How often the outbox worker looks for messages to send; 0: no worker (tests run the passes themselves). */
  outboxPollMs?: number;
}

/** Notifications (issue 25): the inbox, its unread count, marking read, the preferences per kind and channel, and the outbox worker. */
export const notifyDomain: FastifyPluginAsync<NotifyOptions> = async (instance, options) => {
  const { db, config } = instance;
  const others = options.senders ?? [];
  const senders = [emailSender(instance.mailer, { secret: config.signSecret, publicUrl: options.publicUrl }), ...others];

  // Live updates of the open pages; their streams end before the server stops listening (Ctrl-C stops at once).
  const hub = createNotifyHub(db, { log: instance.log });
  instance.addHook('preClose', async () => hub.close());

  if (options.outboxPollMs) {
    let worker: ReturnType<typeof startOutboxWorker> | undefined;
    instance.addHook('onReady', async () => {
      worker = startOutboxWorker(db, { senders, pollMs: options.outboxPollMs!, log: instance.log });
    });
    instance.addHook('onClose', async () => worker?.stop());
  }

  // Without signing in: the link of an e-mail.
  await instance.register(async (scope) => {
    const app = typed(scope);
    app.get('/api/notifications/unsubscribe', { schema: schemas.unsubscribe }, async (request) => {
      const { user, kind, token } = request.query;
      if (isAlwaysByEmail(kind) || !checkUnsubscribeToken(config.signSecret, user, kind, token)) return fail(ErrorCode.INVALID, 'the unsubscribe link is not valid', { field: 'token' });
      const exists = await db.selectFrom('users').select('id').where('id', '=', user).executeTakeFirst();
      if (!exists) return fail(ErrorCode.INVALID, 'the unsubscribe link is not valid', { field: 'user' });
      await notify.setPreferences(db, user, { list: [{ kind, channel: 'email', enabled: false }] }, []);
      return ok({ kind, channel: 'email' as const, enabled: false });
    });
  });

  await instance.register(async (scope) => {
    const app = typed(scope);
    app.addHook('onRequest', app.authenticate);

    const linked = async (userId: string): Promise<NotificationChannel[]> => {
      const answers = await Promise.all(others.map(async (sender): Promise<NotificationChannel | null> => ((await sender.isLinked(db, userId)) ? sender.channel : null)));
      return answers.filter((channel): channel is NotificationChannel => channel !== null);
    };

    app.get('/api/notifications', { schema: schemas.list }, async (request) => ok(await notify.list(db, request.user!.id, request.query)));
    app.get('/api/notifications/unread-count', { schema: schemas.unreadCount }, async (request) => ok(await notify.unreadCount(db, request.user!.id)));
    app.get('/api/notifications/stream', { schema: schemas.stream }, async (request, reply) => {
      reply.header('content-type', 'text/event-stream; charset=utf-8').header('cache-control', 'no-store').header('x-accel-buffering', 'no');
      return reply.send(hub.open(request.user!.id, config.accessTokenTtlSeconds * 1000));
    });
    app.post('/api/notifications/read', { schema: schemas.read }, async (request) => ok(await notify.markRead(db, request.user!.id, request.body)));
    app.get('/api/notifications/preferences', { schema: schemas.preferences }, async (request) =>
      ok(await notify.preferences(db, request.user!.id, await linked(request.user!.id))),
    );
    // The shared demo account's choices are everyone's: nobody changes them for the others.
    app.put('/api/notifications/preferences', { schema: schemas.setPreferences }, async (request) => {
      await refuseDemoUser(db, request.user!.id, 'change its notification preferences');
      return ok(await notify.setPreferences(db, request.user!.id, request.body, await linked(request.user!.id)));
    });
  });
};
