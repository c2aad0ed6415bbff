import type { FastifyRequest } from 'fastify';
import { DEFAULT_LOCALE } from '../../../src/api/defaults';
import type { LocaleCode } from '../../../src/api/types';

/** The request's language from Accept-Language, among zh-CN, en-US and zh-TW. */
export const requestLocale = (request: FastifyRequest): LocaleCode => {
  const header = request.headers['accept-language'] ?? '';
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.split('=')[1]) || 0 : 1 };
    })
    .filter((entry) => entry.tag)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    if (tag === 'zh-tw' || tag === 'zh-hk' || tag === 'zh-mo' || tag.startsWith('zh-hant')) return 'zh-TW';
    if (tag.startsWith('zh')) return 'zh-CN';
    if (tag.startsWith('en')) return 'en-US';
  }
  return DEFAULT_LOCALE;
};
