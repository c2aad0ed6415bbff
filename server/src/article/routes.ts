import type { FastifyPluginAsync } from 'fastify';
import { ErrorCode } from '../../../src/api/errors';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { requestLocale } from '../http/locale';
import { typed } from '../http/schemas';
import { findPublished, listPublished } from './articles';
import { detailSchema, listSchema } from './schemas';

/**
 * Articles for logged-in users: `GET /api/article/list` and
 * `GET /api/article/detail/:id`, in the Accept-Language language or zh-CN
 * (schemas.ts: their field rules and answers).
 */
export const articleDomain: FastifyPluginAsync = async (instance) => {
  const app = typed(instance);
  const { db } = instance;
  app.addHook('onRequest', app.authenticate);

  app.get('/api/article/list', { schema: listSchema }, async (request) => {
    const { page, pageSize } = request.query;
    return ok(await listPublished(db, requestLocale(request), page, pageSize));
  });

  app.get('/api/article/detail/:id', { schema: detailSchema }, async (request) => {
    const { id } = request.params;
    const article = await findPublished(db, id, requestLocale(request));
    if (!article) return fail(ErrorCode.PARAM_NOT_EXIST, 'article does not exist', { field: 'id' });
    return ok(article);
  });
};
