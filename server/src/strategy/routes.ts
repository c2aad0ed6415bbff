import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../http/envelope';
import { typed } from '../http/schemas';
import { schemas } from './schemas';
import * as strategy from './service';

/** Strategy templates: `/api/strategy/list|add|edit|detail|delete` and the system templates. */
export const strategyDomain: FastifyPluginAsync = async (instance) => {
  const app = typed(instance);
  const { db } = instance;
  app.addHook('onRequest', app.authenticate);

  app.get('/api/trade/config-templates', { schema: schemas.systemTemplates }, async () => ok(await strategy.systemTemplates(db)));
  app.get('/api/strategy/list', { schema: schemas.list }, async (request) => ok(await strategy.list(db, request.user!.id, request.query)));
  app.get('/api/strategy/detail/:id', { schema: schemas.detail }, async (request) => ok(await strategy.detail(db, request.user!.id, request.params.id)));
  app.post('/api/strategy/add', { schema: schemas.add }, async (request) => ok(await strategy.add(db, request.user!.id, request.body)));
  app.post('/api/strategy/edit', { schema: schemas.edit }, async (request) => ok(await strategy.edit(db, request.user!.id, request.body)));
  app.post('/api/strategy/delete', { schema: schemas.remove }, async (request) => ok(await strategy.remove(db, request.user!.id, request.body.id)));
};
