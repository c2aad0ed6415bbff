import { createHash, randomBytes } from 'node:crypto';
import { Bot, GrammyError, HttpError } from 'grammy';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { ChannelSender, DeliveryOutcome, NotifyLocale, OutgoingMessage } from '../channel';

/**
 * Telegram through grammY (issue 25). A user links a chat with a one-time
 * deep link `https://t.me/<bot>?start=<code>`: the bot receives
 * `/start <code>` by long polling (getUpdates) in the server process, which
 * needs no public address nor a route open to Telegram, and links the chat.
 * Messages go out with sendMessage: 429 is retried after its retry_after,
 * 403 (the user blocked the bot) turns the channel off, network faults and
 * timeouts are retried.
 *
 * Telegram answers 409 Conflict when two processes poll one bot, so on
 * PostgreSQL with several processes (`exclusivePolling`) only the process
 * holding a session advisory lock polls, on a connection it keeps while it
 * does; the others try again every `lockRetryMs` and take over when it stops
 * or dies (its connection closes, the lock goes with it).
 */
export interface TelegramOptions {
  token: string;
  /** The Bot API's root (default https://api.telegram.org; tests: a local fake). */
  apiRoot?: string;
  /** Seconds a Bot API call may take before it counts as a timeout. */
  timeoutSeconds?: number;
  /** The dashboard's public address, to make a message's link absolute (none: no link). */
  publicUrl?: string;
  /** How long a link code lives. */
  codeTtlMs?: number;
  /** Seconds a getUpdates call waits for updates (long polling). */
  pollSeconds?: number;
  /** Poll only while holding the bot's advisory lock (PostgreSQL shared by several processes; never on PGlite, one process). */
  exclusivePolling?: boolean;
  /** How often a process without the lock tries to take it. */
  lockRetryMs?: number;
  log?: { warn: (object: object, message: string) => void; info: (object: object, message: string) => void };
  now?: () => Date;
}

const LOCK_RETRY_MS = 30_000;

const CODE_TTL_MS = 15 * 60 * 1000;

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

const REPLIES: Record<NotifyLocale, { linked: string; unknown: string; hello: string }> = {
  'zh-CN': { linked: '已绑定：交易与资金通知将发送到这里。', unknown: '链接无效或已过期，请在设置中重新生成。', hello: '请在 Quant Trader 的通知设置中获取绑定链接。' },
  'en-US': {
    linked: 'Linked: trading and money notifications will arrive here.',
    unknown: 'This link is invalid or expired; make a new one in the settings.',
    hello: 'Get a link from the notification settings of Quant Trader.',
  },
  'zh-TW': { linked: '已綁定：交易與資金通知將傳送到這裡。', unknown: '連結無效或已過期，請在設定中重新產生。', hello: '請在 Quant Trader 的通知設定中取得綁定連結。' },
};

const localeOf = (raw: string | undefined): NotifyLocale => (raw === 'en-US' || raw === 'zh-TW' ? raw : 'zh-CN');

/** The text of a message: its title, its body and its absolute link when the server knows its address. */
export const telegramText = (message: OutgoingMessage, publicUrl?: string): string => {
  const link = message.link && publicUrl ? `\n${new URL(message.link, publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`).toString()}` : '';
  return `${message.title}\n${message.text}${link}`.slice(0, 4096);
};

/** The outcome of a failed Bot API call (pure). Never carries the token. */
export const telegramFault = (error: unknown): DeliveryOutcome => {
  if (error instanceof GrammyError) {
    const description = error.description.slice(0, 200);
    if (error.error_code === 429) {
      const seconds = error.parameters.retry_after;
      return { ok: false, retry: true, ...(seconds !== undefined ? { retryAfterMs: seconds * 1000 } : {}), error: `telegram 429: ${description}` };
    }
    if (error.error_code === 403) return { ok: false, retry: false, disable: true, error: `telegram 403: ${description}` };
    if (error.error_code >= 500) return { ok: false, retry: true, error: `telegram ${error.error_code}: ${description}` };
    return { ok: false, retry: false, error: `telegram ${error.error_code}: ${description}` };
  }
  if (error instanceof HttpError) return { ok: false, retry: true, error: 'telegram unreachable (network error or timeout)' };
  return { ok: false, retry: true, error: 'telegram call failed' };
};

export interface TelegramChannel {
  sender: ChannelSender;
  /** The bot's username (getMe), known after start() or the first link. */
  username(): Promise<string>;
  /** A new one-time code for the user (earlier ones are dropped) and its deep link. */
  createLink(db: Db, userId: string): Promise<{ code: string; url: string; expiresAt: Date }>;
  /** Links the chat to the code's user; false for an unknown or expired code. */
  linkChat(db: Db, code: string, chatId: string): Promise<boolean>;
  /** Starts long polling for `/start <code>` (resolves once polling began, or, with exclusivePolling, once another process was found polling). */
  start(db: Db): Promise<void>;
  /** Whether this process polls now. */
  polling(): boolean;
  stop(): Promise<void>;
}

export const createTelegramChannel = (options: TelegramOptions): TelegramChannel => {
  const now = options.now ?? (() => new Date());
  const bot = new Bot(options.token, {
    client: { ...(options.apiRoot ? { apiRoot: options.apiRoot } : {}), timeoutSeconds: options.timeoutSeconds ?? 10 },
  });
  let initialized: Promise<void> | undefined;
  const init = () => (initialized ??= bot.init().catch((error: unknown) => {
    initialized = undefined;
    throw error;
  }));
  let polling: Promise<void> | undefined;
  let handled = false;
  let stopping = false;
  let exclusive: { started: Promise<void>; stop: () => Promise<void> } | undefined;

  /** Long polling until stopped or failed; resolves once it began. */
  const startPolling = () =>
    new Promise<void>((resolve, reject) => {
      polling = bot
        .start({ timeout: options.pollSeconds ?? 30, allowed_updates: ['message'], onStart: () => resolve() })
        .catch((error: unknown) => {
          // 401 (a wrong token) or 409 (another process polls the same bot): polling ends, sending goes on.
          options.log?.warn({ err: { message: (error as Error).message } }, 'telegram polling stopped');
          reject(error as Error);
        });
    });

  /**
   * Polls while holding the bot's advisory lock (per schema and bot) on a
   * connection of its own; without it, tries again later. `started` settles
   * on the first try: polling began, or another process holds the lock.
   */
  const pollExclusively = (db: Db) => {
    const key = `telegram-poll:${options.token.split(':')[0]}`;
    let timer: NodeJS.Timeout | undefined;
    let attempt: Promise<void> = Promise.resolve();
    let settle: { resolve: () => void; reject: (error: Error) => void } | undefined;
    const started = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    const firstTry = (error?: Error) => {
      if (error) settle?.reject(error);
      else settle?.resolve();
      settle = undefined;
    };
    const once = async () => {
      timer = undefined;
      if (stopping) return firstTry();
      try {
        await db.connection().execute(async (connection) => {
          const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(hashtext(current_schema() || ':' || ${key})) as locked`.execute(connection);
          if (!rows[0]?.locked || stopping) {
            if (rows[0]?.locked) await sql`select pg_advisory_unlock(hashtext(current_schema() || ':' || ${key}))`.execute(connection);
            return;
          }
          try {
            await startPolling();
            // Stopped while polling began: end it here (stop() found nothing running yet).
            if (stopping) await bot.stop();
            else options.log?.info({}, 'telegram polling: this process polls the bot');
            firstTry();
            await polling?.catch(() => undefined);
          } finally {
            polling = undefined;
            await sql`select pg_advisory_unlock(hashtext(current_schema() || ':' || ${key}))`.execute(connection).catch(() => undefined);
          }
        });
        firstTry();
      } catch (error) {
        firstTry(error as Error);
      }
      if (!stopping) timer = setTimeout(() => void (attempt = once()), options.lockRetryMs ?? LOCK_RETRY_MS).unref();
    };
    attempt = once();
    return {
      started,
      stop: async () => {
        if (timer) clearTimeout(timer);
        timer = undefined;
        await attempt;
      },
    };
  };

  const linkChat = async (db: Db, code: string, chatId: string): Promise<boolean> =>
    db.transaction().execute(async (trx) => {
      const row = await trx.deleteFrom('telegram_link_codes').where('code_hash', '=', hashCode(code)).returning(['user_id', 'expires_at']).executeTakeFirst();
      if (!row || row.expires_at.getTime() <= now().getTime()) return false;
      await trx
        .insertInto('telegram_links')
        .values({ user_id: row.user_id, chat_id: chatId, linked_at: now(), disabled_reason: null })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ chat_id: chatId, linked_at: now(), disabled_reason: null }))
        .execute();
      return true;
    });

  const sender: ChannelSender = {
    channel: 'telegram',
    isLinked: async (db, userId) =>
      !!(await db.selectFrom('telegram_links').select('user_id').where('user_id', '=', userId).where('disabled_reason', 'is', null).executeTakeFirst()),
    deliver: async (db, message) => {
      const link = await db.selectFrom('telegram_links').select(['chat_id', 'disabled_reason']).where('user_id', '=', message.userId).executeTakeFirst();
      if (!link || link.disabled_reason !== null) return { ok: false, retry: false, error: 'no linked Telegram chat' };
      try {
        await bot.api.sendMessage(link.chat_id, telegramText(message, options.publicUrl), { link_preview_options: { is_disabled: true } });
        return { ok: true };
      } catch (error) {
        return telegramFault(error);
      }
    },
    disable: async (db, userId, reason) => {
      await db.updateTable('telegram_links').set({ disabled_reason: reason.slice(0, 500) }).where('user_id', '=', userId).execute();
    },
  };

  return {
    sender,
    username: async () => {
      await init();
      return bot.botInfo.username;
    },
    createLink: async (db, userId) => {
      await init();
      const code = randomBytes(18).toString('base64url');
      const expiresAt = new Date(now().getTime() + (options.codeTtlMs ?? CODE_TTL_MS));
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('telegram_link_codes').where('user_id', '=', userId).execute();
        await trx.insertInto('telegram_link_codes').values({ code_hash: hashCode(code), user_id: userId, expires_at: expiresAt }).execute();
      });
      return { code, url: `https://t.me/${bot.botInfo.username}?start=${code}`, expiresAt };
    },
    linkChat,
    start: async (db) => {
      if (polling || exclusive) return;
      await init();
      if (!handled) {
        handled = true;
        bot.command('start', async (ctx) => {
          const chatId = String(ctx.chat.id);
          const code = ctx.match.trim();
          const linked = code ? await linkChat(db, code, chatId) : false;
          let locale: NotifyLocale = localeOf(ctx.from?.language_code === 'en' ? 'en-US' : undefined);
          if (linked) {
            const user = await db
              .selectFrom('telegram_links')
              .innerJoin('users', 'users.id', 'telegram_links.user_id')
              .select('users.locale')
              .where('telegram_links.chat_id', '=', chatId)
              .executeTakeFirst();
            locale = localeOf(user?.locale);
          }
          await ctx.reply(REPLIES[locale][linked ? 'linked' : code ? 'unknown' : 'hello']);
        });
        bot.catch((error) => options.log?.warn({ err: { message: error.message } }, 'telegram update failed'));
      }
      if (!options.exclusivePolling) return startPolling();
      stopping = false;
      exclusive = pollExclusively(db);
      await exclusive.started;
    },
    polling: () => bot.isRunning(),
    stop: async () => {
      stopping = true;
      if (bot.isRunning()) await bot.stop();
      await polling?.catch(() => undefined);
      polling = undefined;
      await exclusive?.stop();
      exclusive = undefined;
    },
  };
};
