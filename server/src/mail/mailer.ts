import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { LocaleCode } from '../../../src/api/types';
import { withAntiPhishing } from './antiPhishing';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The mail's language (its anti-phishing line is written in it); default zh-CN. */
  locale?: LocaleCode;
  /**
   * The recipient's anti-phishing phrase, when the address is not the user's
   * (a code to a new address, the notice to the one an account left); when
   * absent it is looked up by the address.
   */
  antiPhishingPhrase?: string | null;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** Shows enough of an address to tell mails apart in the log, not the address itself. */
export const maskEmail = (email: string): string => {
  const [name = '', domain = ''] = email.split('@');
  return `${name.slice(0, 2)}***@${domain}`;
};

/**
 * A failed send as it may be logged: nodemailer's errors list the rejected
 * recipients in full, so the address is masked everywhere in the error.
 */
const withoutAddress = (error: unknown, address: string): Error => {
  const source = (error ?? {}) as { message?: string; stack?: string; code?: string; response?: string; responseCode?: number; command?: string };
  const scrub = (text: string | undefined) => (text === undefined ? undefined : text.split(address).join(maskEmail(address)));
  const safe = Object.assign(new Error(scrub(source.message) ?? 'the mail could not be sent'), {
    code: source.code,
    response: scrub(source.response),
    responseCode: source.responseCode,
    command: source.command,
  });
  if (source.stack) safe.stack = scrub(source.stack);
  return safe;
};

/**
 * SMTP when SMTP_URL is set; otherwise every mail is written as an .eml file
 * to DATA_DIR/outbox and the log names the file, so the embedded default
 * works offline. The log never holds a mail's body (it carries codes).
 */
export const createMailer = (options: {
  smtpUrl?: string | undefined;
  outboxDir: string;
  from: string;
  log: FastifyBaseLogger;
  /** The recipient's anti-phishing phrase (the user's with this e-mail), put first in every mail. */
  antiPhishingPhrase?: (to: string) => Promise<string | null>;
}): Mailer => {
  const phraseOf = async (to: string, given: string | null | undefined) => {
    if (given !== undefined) return given;
    return options.antiPhishingPhrase ? options.antiPhishingPhrase(to) : null;
  };
  const compose = async ({ locale, antiPhishingPhrase, ...mail }: Mail) => ({
    ...mail,
    text: withAntiPhishing(mail.text, locale ?? 'zh-CN', await phraseOf(mail.to, antiPhishingPhrase)),
  });
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        try {
          await transport.sendMail({ from: options.from, ...(await compose(mail)) });
        } catch (error) {
          throw withoutAddress(error, mail.to);
        }
        options.log.info({ to: maskEmail(mail.to), subject: mail.subject }, 'mail sent over SMTP');
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: options.from, ...(await compose(mail)) });
      await mkdir(options.outboxDir, { recursive: true });
      const file = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      // Written aside, then renamed: a reader of the outbox never sees half a mail.
      const partial = join(options.outboxDir, `.${file}.partial`);
      await writeFile(partial, info.message as Buffer, { mode: 0o600 });
      await rename(partial, join(options.outboxDir, file));
      options.log.info({ to: maskEmail(mail.to), subject: mail.subject, file: join('outbox', file) }, 'mail written to the outbox');
    },
    close: () => transport.close(),
  };
};
