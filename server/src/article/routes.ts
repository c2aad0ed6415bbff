import { pagingProperties } from '../http/schemas';
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '../../../src/api/errors';
import type { Db } from '../db/database';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { requestLocale } from '../http/locale';
import { findPublished, listPublished } from './articles';

/**
 * Articles for logged-in users: `GET /api/article/list` and
 * `GET /api/article/detail/:id`, in the Accept-Language language or zh-CN.
 */
export const articleRoutes = (db: Db) => async (app: FastifyInstance) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/article/list',
    {
      schema: {
        summary: 'Published articles, newest first, in the request language (zh-CN where it has none)',
        security: [{ bearer: [] }],
        querystring: {
          type: 'object',
          properties: {
            ...pagingProperties(),
            // Newest first is the only order (react-admin's list sends it).
            sort: { type: 'string', enum: ['publishedAt'] },
            order: { type: 'string', enum: ['DESC', 'desc'] },
          },
        },
      },
    },
    async (request) => {
      const { page, pageSize } = request.query as { page: number; pageSize: number };
      return ok(await listPublished(db, requestLocale(request), page, pageSize));
    },
  );

  app.get(
    '/api/article/detail/:id',
    {
      schema: {
        summary: 'One published article in the request language (zh-CN where it has none)',
        security: [{ bearer: [] }],
        params: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      const article = await findPublished(db, id, requestLocale(request));
      if (!article) fail(ErrorCode.PARAM_NOT_EXIST, 'article does not exist', { field: 'id' });
      return ok(article);
    },
  );
};
