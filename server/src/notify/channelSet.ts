import type { ServerConfig } from '../config';
import type { Db } from '../db/database';
import type { ChannelSender } from './channel';
import type { OutboxOptions } from './outbox';
import { createTelegramChannel, type TelegramChannel } from './channels/telegram';
import { createWebhookSender } from './channels/webhook';
import { createPushSender } from './channels/webpush';
import { generateVapidKeys } from './channels/vapid';

declare module 'fastify' {
  interface FastifyInstance {
    /** The outbox's channels of this process (e-mail first) and one pass through them: tests run the passes themselves (no worker when ENGINE_TICK_MS=0). */
    notify: {
      senders: readonly ChannelSender[];
      runOutboxOnce(options?: Partial<Omit<OutboxOptions, 'senders'>>): Promise<void>;
    };
  }
}

type Log = { warn: (object: object, message: string) => void; info: (object: object, message: string) => void };

/** The external channels of one server process, built from its configuration (Telegram only with a bot token). */
export interface NotifyChannels {
  telegram: TelegramChannel | null;
  push: ChannelSender;
  webhook: ReturnType<typeof createWebhookSender>;
  vapidPublicKey: string;
  allowPrivateAddresses: boolean;
  /** The senders the notifications core delivers through. */
  senders: ChannelSender[];
  /** Starts Telegram's long polling (links by `/start <code>`); a failure is logged, sending goes on. */
  start(db: Db): Promise<void>;
  stop(): Promise<void>;
}

/** `Name <address>` -> `mailto:address`, the VAPID contact. */
const vapidSubject = (config: ServerConfig): string => {
  const address = /<([^>]+)>/.exec(config.mailFrom)?.[1] ?? config.mailFrom;
  return /^[^\s@]+@[^\s@]+$/.test(address) ? `mailto:${address}` : 'mailto:no-reply@quant-trader.local';
};

export const createNotifyChannels = (config: ServerConfig, log: Log): NotifyChannels => {
  const allowPrivateAddresses = config.webhookAllowPrivateAddresses ?? false;
  const publicUrl = config.publicUrl ? { publicUrl: config.publicUrl } : {};
  const vapid = config.vapidKeys ?? generateVapidKeys();
  const telegram = config.telegramBotToken
    ? createTelegramChannel({
        token: config.telegramBotToken,
        ...(config.telegramApiRoot ? { apiRoot: config.telegramApiRoot } : {}),
        ...publicUrl,
        // Several processes may share PostgreSQL: one polls the bot at a time (Telegram answers the others 409).
        exclusivePolling: Boolean(config.databaseUrl),
        log,
      })
    : null;
  const push = createPushSender({ vapid, subject: vapidSubject(config), allowPrivateAddresses, ...publicUrl, ...(config.pushCa ? { ca: config.pushCa } : {}) });
  const webhook = createWebhookSender({ masterKey: config.exchangeMasterKey, allowPrivateAddresses });
  return {
    telegram,
    push,
    webhook,
    vapidPublicKey: vapid.publicKey,
    allowPrivateAddresses,
    senders: [...(telegram ? [telegram.sender] : []), push, webhook],
    start: async (db) => {
      try {
        await telegram?.start(db);
      } catch (error) {
        log.warn({ err: { message: (error as Error).message } }, 'telegram polling did not start: linking by /start waits for the next start');
      }
    },
    stop: async () => {
      await telegram?.stop();
    },
  };
};
