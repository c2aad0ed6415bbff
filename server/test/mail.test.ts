import { readdirSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/api/errors';
import { BACKENDS, decodeMail, startServer, type TestServer } from './harness';

/**
 * Mail: over SMTP when an SMTP URL is configured (here a real SMTP listener
 * on loopback), otherwise as .eml files in the outbox folder.
 */

interface Received {
  from: string;
  to: string[];
  raw: string;
}

interface Listener {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** An SMTP server on a random loopback port; `rejectRecipients` answers every RCPT TO with 550. */
const startSmtp = async (options: { rejectRecipients?: boolean } = {}): Promise<Listener> => {
  const received: Received[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (options.rejectRecipients) {
        const error = Object.assign(new Error('mailbox unavailable'), { responseCode: 550 });
        return callback(error);
      }
      return callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.server.once('error', reject);
    smtp.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = smtp.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
};

/** A loopback port nobody listens on. */
const closedPort = async (): Promise<number> => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
};

/** The 6-digit code in a raw message as it came over the wire. */
const codeIn = (raw: string): string => {
  const code = decodeMail(raw.replace(/\r\n/g, '\n')).match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error('no code in the message');
  return code;
};

const PASSWORD = 'Sturdy-Passw0rd!';

const usableCodes = (server: TestServer, email: string) =>
  server.db
    .selectFrom('verification_codes')
    .select('id')
    .where('email', '=', email)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', new Date())
    .execute();

describe.each(BACKENDS)('mail (%s)', (backend) => {
  let server: TestServer | undefined;
  let smtp: Listener | undefined;
  afterEach(async () => {
    await server?.close();
    await smtp?.close();
    server = undefined;
    smtp = undefined;
  });

  it('sends the code over SMTP, and registering with it works', async () => {
    smtp = await startSmtp();
    server = await startServer(backend, { smtpUrl: smtp.url, mailFrom: 'Quant Trader <robot@quant-trader.test>' });
    const sent = await server.call('POST', '/api/user/verify-code', { email: 'smtp@example.com', type: 'register' }, { headers: { 'Accept-Language': 'en-US' } });
    expect(sent.body.code).toBe(0);

    expect(smtp.received).toHaveLength(1);
    const message = smtp.received[0]!;
    expect(message.from).toBe('robot@quant-trader.test');
    expect(message.to).toEqual(['smtp@example.com']);
    expect(message.raw).toMatch(/^Subject: Your Quant Trader sign-up code\r?$/m);
    expect(message.raw).toMatch(/^To: smtp@example\.com\r?$/m);
    const code = codeIn(message.raw);

    // SMTP mode writes no outbox file.
    expect(server.outbox()).toEqual([]);
    expect(server.logs.join('')).toMatch(/mail sent over SMTP/);

    const registered = await server.call('POST', '/api/user/register', {
      email: 'smtp@example.com',
      nickname: 'Mailer',
      password: PASSWORD,
      secondPassword: PASSWORD,
      captcha: code,
    });
    expect(registered.body.code).toBe(0);
    expect(registered.body.data.user.email).toBe('smtp@example.com');
  });

  it('answers 30000 when the SMTP server cannot be reached, and leaves no usable code', async () => {
    server = await startServer(backend, { smtpUrl: `smtp://127.0.0.1:${await closedPort()}` });
    const answer = await server.call('POST', '/api/user/verify-code', { email: 'unlucky@example.com', type: 'register' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ code: ErrorCode.EMAIL_SERVICE_ERROR, data: null });
    expect(await usableCodes(server, 'unlucky@example.com')).toEqual([]);
    expect(server.logs.some((line) => line.includes('verification mail failed'))).toBe(true);
  });

  it('answers 30000 when the SMTP server refuses the recipient, and leaves no usable code', async () => {
    smtp = await startSmtp({ rejectRecipients: true });
    server = await startServer(backend, { smtpUrl: smtp.url });
    const answer = await server.call('POST', '/api/user/verify-code', { email: 'refused@example.com', type: 'register' });
    expect(answer.status).toBe(200);
    expect(answer.body.code).toBe(ErrorCode.EMAIL_SERVICE_ERROR);
    expect(smtp.received).toEqual([]);
    expect(await usableCodes(server, 'refused@example.com')).toEqual([]);
    // The failure is logged with its cause, but the address only masked, as for sent mail.
    const log = server.logs.join('');
    expect(log).toMatch(/verification mail failed/);
    expect(log).not.toContain('refused@example.com');
  });

  it('writes an .eml file to the outbox folder when no SMTP server is configured', async () => {
    server = await startServer(backend);
    const sent = await server.call('POST', '/api/user/verify-code', { email: 'offline@example.com', type: 'register' });
    expect(sent.body.code).toBe(0);
    const outboxDir = join(server.config.dataDir, 'outbox');
    const files = readdirSync(outboxDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    // Only the owner may read a file that holds a code.
    expect(statSync(join(outboxDir, files[0]!)).mode & 0o077).toBe(0);
    const eml = server.outbox()[0]!;
    expect(eml).toMatch(/^To: offline@example\.com$/m);
    expect(eml).toMatch(/^From: Quant Trader <no-reply@quant-trader\.local>$/m);
    const code = server.lastCode('offline@example.com');
    expect(code).toMatch(/^\d{6}$/);
    // The log names the file, not the code nor the full address.
    const line = server.logs.find((entry) => entry.includes('mail written to the outbox'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ file: join('outbox', files[0]!), to: 'of***@example.com' });
    expect(line).not.toContain(code);
  });
});
