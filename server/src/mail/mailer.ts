import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
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
 * SMTP when SMTP_URL is set; otherwise every mail is written as an .eml file
 * to DATA_DIR/outbox and the log names the file, so the embedded default
 * works offline. The log never holds a mail's body (it carries codes).
 */
export const createMailer = (options: { smtpUrl?: string | undefined; outboxDir: string; from: string; log: FastifyBaseLogger }): Mailer => {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
        options.log.info({ to: maskEmail(mail.to), subject: mail.subject }, 'mail sent over SMTP');
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: options.from, ...mail });
      await mkdir(options.outboxDir, { recursive: true });
      const file = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      await writeFile(join(options.outboxDir, file), info.message as Buffer, { mode: 0o600 });
      options.log.info({ to: maskEmail(mail.to), subject: mail.subject, file: join('outbox', file) }, 'mail written to the outbox');
    },
    close: () => transport.close(),
  };
};
