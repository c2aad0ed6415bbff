/**
 * The e-mail channel: through the product's mailer (SMTP, or the outbox
 * folder), in the user's language, plain text, with a link per kind that
 * turns that kind's e-mail off without signing in (a token signed with the
 * server's secret).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isAlwaysByEmail } from '../../../src/api/notify';
import type { Db } from '../db/database';
import type { Mailer } from '../mail/mailer';
import type { ChannelSender } from './channel';
import { uiText } from './texts';
import { kindName } from './unsubscribePage';

/** The token of an unsubscribe link: HMAC-SHA256 of the user and kind, base64url. */
export const unsubscribeToken = (secret: string, userId: string, kind: string) => createHmac('sha256', secret).update(`notify-unsubscribe:${userId}:${kind}`).digest('base64url');

export const checkUnsubscribeToken = (secret: string, userId: string, kind: string, token: string): boolean => {
  const expected = Buffer.from(unsubscribeToken(secret, userId, kind));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
};

/** The unsubscribe page's path (served by the server beside the dashboard: unsubscribePage.ts). */
export const UNSUBSCRIBE_PAGE = '/unsubscribe';

export const unsubscribePath = (secret: string, userId: string, kind: string) =>
  `${UNSUBSCRIBE_PAGE}?user=${encodeURIComponent(userId)}&kind=${encodeURIComponent(kind)}&token=${unsubscribeToken(secret, userId, kind)}`;

export const emailSender = (mailer: Mailer, options: { secret: string; publicUrl?: string | undefined }): ChannelSender => {
  const base = (options.publicUrl ?? '').replace(/\/$/, '');
  return {
    channel: 'email',
    isLinked: async (db: Db, userId: string) => (await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst())?.email != null,
    deliver: async (db, message) => {
      const user = await db.selectFrom('users').select('email').where('id', '=', message.userId).executeTakeFirst();
      if (!user?.email) return { ok: false, retry: false, error: 'the user has no e-mail address' };
      const kinds = [...new Set([message.kind, ...((message.data['events'] as { kind: string }[] | undefined) ?? []).map((e) => e.kind)])];
      const lines = [message.text, ''];
      if (message.link) lines.push(`${uiText(message.locale, 'open')}: ${base}/${message.link}`);
      for (const kind of kinds.filter((k) => !isAlwaysByEmail(k))) lines.push(`${uiText(message.locale, 'unsubscribe')} (${kindName(message.locale, kind)}): ${base}${unsubscribePath(options.secret, message.userId, kind)}`);
      try {
        await mailer.send({ to: user.email, locale: message.locale, subject: message.title, text: lines.join('\n') });
        return { ok: true };
      } catch (error) {
        // The mailer's errors name the server, not the recipient's address nor a password.
        return { ok: false, retry: true, error: error instanceof Error ? error.message : 'mail not sent' };
      }
    },
    // E-mail is not linked by the user: nothing to turn off.
    disable: async () => undefined,
  };
};
