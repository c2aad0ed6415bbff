import type { Static } from 'typebox';
import type { Article, ArticleSummary } from '../../../src/api/article';
import type { Page } from '../../../src/api/types';
import { Answer, PageOf } from '../http/answers';
import { Query, SameShape, StringEnum, Type, pagingProperties, type Same } from '../http/schemas';
import { ARTICLE_LOCALES } from './articles';

/**
 * Field rules and answers of the users' article calls. The answers are the
 * contract's types (src/api/article.ts), checked at compile time below.
 */

const security = [{ bearer: [] }];

const summaryProperties = {
  id: Type.String(),
  /** The language of the text answered (the asked one, or zh-CN as the fallback). */
  locale: StringEnum(ARTICLE_LOCALES),
  title: Type.String(),
  summary: Type.String(),
  publishedAt: Type.String(),
};
const articleSummarySchema = Type.Object(summaryProperties);
const articleSchema = Type.Object({ ...summaryProperties, body: Type.String() });
const articlePage = PageOf(articleSummarySchema);

// The contract (src/api/article.ts, what the dashboard reads) and these schemas describe the same values.
SameShape<Same<Static<typeof articleSummarySchema>, ArticleSummary>>();
SameShape<Same<Static<typeof articleSchema>, Article>>();
SameShape<Same<Static<typeof articlePage>, Page<ArticleSummary>>>();

export const listSchema = {
  summary: 'Published articles, newest first, in the request language (zh-CN where it has none)',
  security,
  querystring: Query({
    ...pagingProperties(),
    // Newest first is the only order (react-admin's list sends it).
    sort: Type.Optional(StringEnum(['publishedAt'])),
    order: Type.Optional(StringEnum(['DESC', 'desc'])),
  }),
  response: { 200: Answer(articlePage) },
};

export const detailSchema = {
  summary: 'One published article in the request language (zh-CN where it has none)',
  security,
  params: Type.Object({ id: Type.String() }),
  response: { 200: Answer(articleSchema) },
};
