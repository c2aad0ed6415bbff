import type { LocaleCode } from '../../../src/api/types';

/**
 * The anti-phishing phrase (issue 26): set by the user, shown as the first
 * line of every mail the product sends them, so a mail without it (or with
 * another) is not ours. Trimmed, at most 20 characters, no markup.
 */
export const ANTI_PHISHING_MAX_LENGTH = 20;

const LINE: Record<LocaleCode, string> = {
  'zh-CN': '您的防钓鱼码：',
  'en-US': 'Your anti-phishing code: ',
  'zh-TW': '您的防釣魚碼：',
};

/** The phrase's line in the mail's language. */
export const antiPhishingLine = (locale: LocaleCode, phrase: string): string => `${LINE[locale] ?? LINE['zh-CN']}${phrase}`;

/** A mail's text as sent: the phrase's line first when the recipient has one. */
export const withAntiPhishing = (text: string, locale: LocaleCode, phrase: string | null | undefined): string =>
  phrase ? `${antiPhishingLine(locale, phrase)}\n\n${text}` : text;

/** The phrase as stored, or why it is refused: trimmed; '' clears it. */
export const phraseProblem = (phrase: string): 'length' | 'markup' | null => {
  const text = phrase.trim();
  if ([...text].length > ANTI_PHISHING_MAX_LENGTH) return 'length';
  if (/[<>&"']/.test(text)) return 'markup';
  return null;
};
