import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DEMO_EMAIL } from '../../../src/api/demo';
import type { NotificationChannel, NotificationKind } from '../../../src/api/notify';
import { ok } from '../http/envelope';
import { refuseDemoUser } from '../shared/demoGuard';
import { typed } from '../http/schemas';
import type { ChannelSender } from './channel';
import { UNSUBSCRIBE_PAGE, checkUnsubscribeToken, emailSender } from './email';
import { startOutboxWorker } from './outbox';
import { createNotifyHub } from './stream';
import { schemas } from './schemas';
import * as notify from './service';
import { notifyLocale } from './texts';
import { unsubscribableKind, unsubscribePage, type UnsubscribeView } from './unsubscribePage';

/**
 * A stream lasts as long as the access token that opened it (its `exp`,
 * already verified by authenticate), at least a second: the page then opens
 * a new one with a fresh token, so an ended session stops hearing.
 */
const streamLifetimeMs = (authorization: string | undefined, ttlSeconds: number): number => {
  try {
    const payload = JSON.parse(Buffer.from(authorization?.split('.')[1] ?? '', 'base64url').toString()) as { exp?: unknown };
    if (typeof payload.exp === 'number') return Math.min(Math.max(payload.exp * 1000 - Date.now(), 1000), ttlSeconds * 1000);
  } catch {
    // not a JWT: the configured lifetime
  }
  return ttlSeconds * 1000;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface NotifyOptions {
  /** Every channel but in-app (e-mail, Telegram, web push, webhooks), built where the app is (app.ts); default: e-mail only. */
  senders?: readonly ChannelSender[];
  /** The dashboard's public address, for the links in messages (none: paths only). */
  publicUrl?: string | undefined;
  /** How often the outbox worker looks for messages to send; 0: no worker (tests run the passes themselves). */
  outboxPollMs?: number;
}

/** Notifications (issue 25): the inbox, its unread count, marking read, the preferences per kind and channel, and the outbox worker. */
export const notifyDomain: FastifyPluginAsync<NotifyOptions> = async (instance, options) => {
  const { db, config } = instance;
  const senders = options.senders ?? [emailSender(instance.mailer, { secret: config.signSecret, publicUrl: options.publicUrl })];
  const others = senders.filter((sender) => sender.channel !== 'email');

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

  // Without signing in: the page an e-mail's unsubscribe link opens (HTML for a person, not an API call: not in the API document).
  const preferencesUrl = `${(options.publicUrl ?? '').replace(/\/$/, '')}/#/notifications`;
  await instance.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 2048 }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    /** The link's user, when its token is right for its user and kind and the user exists (and is not the shared demo). */
    const linkUser = async (fields: unknown): Promise<{ user: string; kind: string; token: string; locale: string } | null> => {
      const { user, kind, token } = (fields ?? {}) as Record<string, unknown>;
      if (typeof user !== 'string' || typeof kind !== 'string' || typeof token !== 'string' || !UUID.test(user) || !unsubscribableKind(kind)) return null;
      if (!checkUnsubscribeToken(config.signSecret, user, kind, token)) return null;
      const row = await db.selectFrom('users').select(['locale', 'email']).where('id', '=', user).executeTakeFirst();
      // The shared demo's choices are every visitor's.
      if (!row || row.email === DEMO_EMAIL) return null;
      return { user, kind, token, locale: row.locale };
    };
    const page = (reply: FastifyReply, locale: string, view: UnsubscribeView) =>
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(unsubscribePage(notifyLocale(locale), view, preferencesUrl));
    const guessLocale = (request: FastifyRequest) => {
      const header = String(request.headers['accept-language'] ?? '').toLowerCase();
      return header.startsWith('en') ? 'en-US' : /^zh-(tw|hk|hant)/.test(header) ? 'zh-TW' : 'zh-CN';
    };
    const hidden = { schema: { hide: true } };
    scope.get(UNSUBSCRIBE_PAGE, hidden, async (request, reply) => {
      const link = await linkUser(request.query);
      if (!link) return page(reply.code(400), guessLocale(request), { state: 'invalid' });
      return page(reply, link.locale, { state: 'ask', user: link.user, kind: link.kind, token: link.token });
    });
    scope.post(UNSUBSCRIBE_PAGE, hidden, async (request, reply) => {
      const link = await linkUser(request.body);
      if (!link) return page(reply.code(400), guessLocale(request), { state: 'invalid' });
      await notify.setPreferences(db, link.user, { list: [{ kind: link.kind as NotificationKind, channel: 'email', enabled: false }] }, []);
      return page(reply, link.locale, { state: 'done', kind: link.kind });
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
      return reply.send(hub.open(request.user!.id, streamLifetimeMs(request.headers.authorization, config.accessTokenTtlSeconds)));
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
