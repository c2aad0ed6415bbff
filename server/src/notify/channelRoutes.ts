import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { ErrorCode } from '../../../src/api/errors';
import { NotifyChannelEndpoint as Path, type NotifyChannelsState } from '../../../src/api/notifyChannels';
import type { Db } from '../db/database';
import { ok } from '../http/envelope';
import { refuseDemoUser } from '../shared/demoGuard';
import { fail } from '../http/errors';
import { typed } from '../http/schemas';
import { checkWebhookHost } from './channels/addressGuard';
import { newWebhookSecret, sealWebhookSecret } from './channels/webhook';
import type { NotifyChannels } from './channelSet';
import {
  pushKeySchema,
  pushSubscribeSchema,
  pushUnsubscribeSchema,
  stateSchema,
  telegramLinkSchema,
  telegramUnlinkSchema,
  webhookDeleteSchema,
  webhookSaveSchema,
  webhookTestSchema,
} from './channelSchemas';

/** Browsers a user may receive web push on at once; the oldest subscription goes beyond. */
const MAX_PUSH_SUBSCRIPTIONS = 10;

/** A public address or a refusal naming the field (10003, data.reason `private_address` or `unresolved`). */
const requirePublicHost = async (raw: string, field: string, allowPrivate: boolean): Promise<void> => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail(ErrorCode.PARAM_FORMAT, `${field}: not an address`, { field });
  }
  if (url.username || url.password) fail(ErrorCode.PARAM_FORMAT, `${field}: an address with a user name or password`, { field });
  const verdict = await checkWebhookHost(url, allowPrivate);
  if (verdict === 'forbidden') fail(ErrorCode.PARAM_FORMAT, `${field}: a loopback, private, link-local or reserved address`, { field, reason: 'private_address' });
  if (verdict === 'unresolved') fail(ErrorCode.PARAM_FORMAT, `${field}: the host name does not resolve`, { field, reason: 'unresolved' });
};

const state = async (db: Db, channels: NotifyChannels, userId: string): Promise<NotifyChannelsState> => {
  const [link, pushCount, webhook] = await Promise.all([
    channels.telegram ? db.selectFrom('telegram_links').select(['linked_at', 'disabled_reason']).where('user_id', '=', userId).executeTakeFirst() : undefined,
    db.selectFrom('push_subscriptions').select((eb) => eb.fn.countAll<string>().as('count')).where('user_id', '=', userId).executeTakeFirstOrThrow(),
    db.selectFrom('webhooks').select(['url', 'enabled', 'disabled_reason']).where('user_id', '=', userId).executeTakeFirst(),
  ]);
  return {
    telegram: channels.telegram
      ? { linked: !!link && link.disabled_reason === null, linkedAt: link ? link.linked_at.toISOString() : null, disabledReason: link?.disabled_reason ?? null }
      : null,
    push: { publicKey: channels.vapidPublicKey, subscriptions: Number(pushCount.count) },
    webhook: webhook ? { url: webhook.url, enabled: webhook.enabled, disabledReason: webhook.disabled_reason } : null,
  };
};

/** The user's external notification channels, /api/notifications/channels/* (issue 25). */
export const notifyChannelRoutes: FastifyPluginAsync<{ channels: NotifyChannels }> = async (instance, { channels }) => {
  const app = typed(instance);
  const { db, config } = instance;
  app.addHook('onRequest', app.authenticate);
  // The shared demo account links no channel: its events would reach one visitor's chat, browser or server.
  app.addHook('preHandler', async (request) => {
    if (request.method !== 'GET') await refuseDemoUser(db, request.user!.id, 'link notification channels');
  });

  app.get(Path.state, { schema: stateSchema }, async (request) => ok(await state(db, channels, request.user!.id)));

  app.post(Path.telegramLink, { schema: telegramLinkSchema }, async (request) => {
    if (!channels.telegram) return fail(ErrorCode.NOT_CONFIGURED, 'this server has no Telegram bot', { reason: 'telegram_unavailable' });
    let link: Awaited<ReturnType<typeof channels.telegram.createLink>>;
    try {
      link = await channels.telegram.createLink(db, request.user!.id);
    } catch (error) {
      request.log.warn({ err: { message: (error as Error).message } }, 'telegram getMe failed');
      return fail(ErrorCode.NOT_ENABLED, 'Telegram cannot be reached now, try again later', { reason: 'telegram_unreachable' });
    }
    return ok({ url: link.url, expiresAt: link.expiresAt.toISOString() });
  });

  app.post(Path.telegramUnlink, { schema: telegramUnlinkSchema }, async (request) => {
    await db.deleteFrom('telegram_links').where('user_id', '=', request.user!.id).execute();
    await db.deleteFrom('telegram_link_codes').where('user_id', '=', request.user!.id).execute();
    return ok(null);
  });

  app.get(Path.pushKey, { schema: pushKeySchema }, async () => ok({ publicKey: channels.vapidPublicKey }));

  app.post(Path.pushSubscribe, { schema: pushSubscribeSchema }, async (request) => {
    const userId = request.user!.id;
    const { endpoint, keys } = request.body;
    await requirePublicHost(endpoint, 'endpoint', channels.allowPrivateAddresses);
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('push_subscriptions')
        .values({ user_id: userId, endpoint, p256dh: keys.p256dh, auth: keys.auth })
        .onConflict((oc) => oc.column('endpoint').doUpdateSet({ user_id: userId, p256dh: keys.p256dh, auth: keys.auth }))
        .execute();
      const kept = await trx.selectFrom('push_subscriptions').select('id').where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id').limit(MAX_PUSH_SUBSCRIPTIONS).execute();
      await trx.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('id', 'not in', kept.map((row) => row.id)).execute();
    });
    return ok(null);
  });

  app.post(Path.pushUnsubscribe, { schema: pushUnsubscribeSchema }, async (request) => {
    await db.deleteFrom('push_subscriptions').where('user_id', '=', request.user!.id).where('endpoint', '=', request.body.endpoint).execute();
    return ok(null);
  });

  app.post(Path.webhookSave, { schema: webhookSaveSchema }, async (request) => {
    const userId = request.user!.id;
    const { url, newSecret } = request.body;
    await requirePublicHost(url, 'url', channels.allowPrivateAddresses);
    const existing = await db.selectFrom('webhooks').select('user_id').where('user_id', '=', userId).executeTakeFirst();
    const secret = !existing || newSecret ? newWebhookSecret() : null;
    const sealed = secret ? { secret_ciphertext: sealWebhookSecret(config.exchangeMasterKey, userId, secret) } : {};
    if (existing) {
      await db.updateTable('webhooks').set({ url, enabled: true, disabled_reason: null, ...sealed }).where('user_id', '=', userId).execute();
    } else {
      await db.insertInto('webhooks').values({ user_id: userId, url, secret_ciphertext: sealed.secret_ciphertext! }).execute();
    }
    return ok({ url, secret });
  });

  app.post(Path.webhookDelete, { schema: webhookDeleteSchema }, async (request) => {
    await db.deleteFrom('webhooks').where('user_id', '=', request.user!.id).execute();
    return ok(null);
  });

  app.post(Path.webhookTest, { schema: webhookTestSchema }, async (request) => {
    const userId = request.user!.id;
    const outcome = await channels.webhook.send(db, {
      eventIds: [randomUUID()],
      userId,
      locale: 'en-US',
      kind: 'test',
      title: 'Test',
      text: 'A test event from Quant Trader',
      data: { test: true },
    });
    if (!outcome.ok && outcome.error === 'no webhook') return fail(ErrorCode.PARAM_NOT_EXIST, 'no webhook saved', { field: 'url' });
    return ok({ ok: outcome.ok, error: outcome.ok ? null : outcome.error });
  });
};
