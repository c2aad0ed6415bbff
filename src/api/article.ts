/**
 * Articles (news, guides) per language. The list and detail calls answer the
 * Accept-Language version, or the zh-CN one when that language has none.
 * GET /api/article/list?page&pageSize -> Page<ArticleSummary>; GET /api/article/detail/{id} -> Article.
 */
import type { LocaleCode } from './types';

export interface ArticleSummary {
  id: string;
  /** The language of the text answered (the asked one, or zh-CN as the fallback). */
  locale: LocaleCode;
  title: string;
  summary: string;
  publishedAt: string;
}

export interface Article extends ArticleSummary {
  /** Sanitized HTML (the server keeps only a safe subset of tags and attributes). */
  body: string;
}
