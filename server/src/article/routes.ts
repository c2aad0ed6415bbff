import { Query, StringEnum, Type, pagingProperties, typed } from '../http/schemas';
import type { FastifyPluginAsync } from 'fastify';
import { ErrorCode } from '../../../src/api/errors';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { requestLocale } from '../http/locale';
import { findPublished, listPublished } from './articles';

/**
 * Articles for logged-in users: `GET /api/article/list` and
 * `GET /api/article/detail/:id`, in the Accept-Language language or zh-CN.
 */
export const articleDomain: FastifyPluginAsync = async (instance) => {
  const app = typed(instance);
  const { db } = instance;
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/article/list',
    {
      schema: {
        summary: 'Published articles, newest first, in the request language (zh-CN where it has none)',
        security: [{ bearer: [] }],
        querystring: Query({
          ...pagingProperties(),
          // Newest first is the only order (react-admin's list sends it).
          sort: Type.Optional(StringEnum(['publishedAt'])),
          order: Type.Optional(StringEnum(['DESC', 'desc'])),
        }),
      },
    },
    async (request) => {
      const { page, pageSize } = request.query;
      return ok(await listPublished(db, requestLocale(request), page, pageSize));
    },
  );

  app.get(
    '/api/article/detail/:id',
    {
      schema: {
        summary: 'One published article in the request language (zh-CN where it has none)',
        security: [{ bearer: [] }],
        params: Type.Object({ id: Type.String() }),
      },
    },
    async (request) => {
      const { id } = request.params;
      const article = await findPublished(db, id, requestLocale(request));
      if (!article) fail(ErrorCode.PARAM_NOT_EXIST, 'article does not exist', { field: 'id' });
      return ok(article);
    },
  );
};
