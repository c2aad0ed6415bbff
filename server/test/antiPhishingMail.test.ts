import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS } from '../../src/api/notify';
import type { LocaleCode } from '../../src/api/types';
import { decodeMail } from './harness';
import { eventLine } from '../src/notify/texts';
import { emailChangedMail, verificationMail } from '../src/user/mailTexts';
import { createMailer, type Mail } from '../src/mail/mailer';
import { phraseProblem } from '../src/mail/antiPhishing';

const LOCALES: LocaleCode[] = ['zh-CN', 'en-US', 'zh-TW'];
const LINE: Record<LocaleCode, string> = { 'zh-CN': '您的防钓鱼码：海豚 7', 'en-US': 'Your anti-phishing code: 海豚 7', 'zh-TW': '您的防釣魚碼：海豚 7' };

/** Every mail template of the product, sent through the mailer to a user with a phrase: each shows it first, in the mail's language. */
describe('the anti-phishing phrase in every mail', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qt-mail-'));
  const mailer = createMailer({ outboxDir: dir, from: 'noreply@example.com', log: Fastify({ logger: false }).log, antiPhishingPhrase: async (to) => (to === 'set@example.com' ? '海豚 7' : null) });
  afterAll(() => {
    mailer.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const sent = async (mail: Mail) => {
    const before = new Set(readdirSync(dir));
    await mailer.send(mail);
    const file = readdirSync(dir).find((name) => !before.has(name) && name.endsWith('.eml'))!;
    return decodeMail(readFileSync(join(dir, file), 'utf8'));
  };
  const templates = (locale: LocaleCode): { name: string; subject: string; text: string }[] => [
    ...(['register', 'reset', 'change_email'] as const).map((type) => ({ name: `verification ${type}`, ...verificationMail(locale, type, '123456', 10) })),
    { name: 'e-mail changed (to the old address)', ...emailChangedMail(locale, 'ne***@example.com', new Date('2026-11-27T08:00:00.000Z'), 24) },
    // The notification mails: one per kind (notify/email.ts sends the kind's line as the text).
    ...NOTIFICATION_KINDS.map((kind) => ({ name: kind, subject: kind, text: eventLine(locale, kind, { usableAt: '2026-11-28T03:00:00.000Z', address: 'T…', network: 'TRC20', channel: 'email' }) })),
  ];

  it.each(LOCALES)('%s: each template starts with the line; without a phrase there is none', async (locale) => {
    for (const template of templates(locale)) {
      const text = await sent({ to: 'set@example.com', locale, subject: template.subject, text: template.text });
      const body = text.slice(text.indexOf('\n\n') + 2);
      expect(body.startsWith(`${LINE[locale]}\n\n${template.text.split('\n')[0]}`), `${template.name} (${locale})`).toBe(true);
    }
    expect(await sent({ to: 'none@example.com', locale, subject: 's', text: 'plain' })).not.toMatch(/防钓鱼|防釣魚|anti-phishing/);
  });

  it('takes the phrase given with a mail over the one looked up by its address (the address is not, or no longer, the user\'s)', async () => {
    const given = await sent({ to: 'none@example.com', locale: 'zh-CN', subject: 's', text: 'plain', antiPhishingPhrase: '海豚 7' });
    expect(given.slice(given.indexOf('\n\n') + 2).startsWith(`${LINE['zh-CN']}\n\nplain`)).toBe(true);
    expect(await sent({ to: 'set@example.com', locale: 'zh-CN', subject: 's', text: 'plain', antiPhishingPhrase: null })).not.toMatch(/防钓鱼/);
  });

  it('tells a new withdrawal address with its time in UTC, in each language', () => {
    const payload = { address: 'TAddr', network: 'TRC20', label: 'Cold', usableAt: '2026-11-28T03:05:00.000Z' };
    expect(eventLine('en-US', 'user.withdrawal_address_added', payload)).toBe('A withdrawal address was added: TAddr (TRC20) "Cold". It can be used from 2026-11-28 03:05 UTC. Not you? Remove it and change your password now.');
    expect(eventLine('zh-CN', 'user.withdrawal_address_added', payload)).toContain('2026-11-28 03:05 UTC 起可用');
    expect(eventLine('zh-TW', 'user.withdrawal_address_added', payload)).toContain('提領地址');
  });

  it('refuses a phrase over 20 characters or with markup, after the trim', () => {
    expect(phraseProblem(`  ${'a'.repeat(20)}  `)).toBeNull();
    expect(phraseProblem('a'.repeat(21))).toBe('length');
    expect(phraseProblem('海'.repeat(20))).toBeNull();
    for (const bad of ['<b>', 'a&b', 'x"y', "it's"]) expect(phraseProblem(bad)).toBe('markup');
  });
});
