import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../http/envelope';
import { typed } from '../http/schemas';
import { schemas } from './schemas';
import * as profit from './service';

/** Realized profit of closed cycles, by day in the caller's time zone, and the rank (spec: profit, daily profit, rank). */
export const profitDomain: FastifyPluginAsync = async (instance) => {
  const app = typed(instance);
  const { db } = instance;
  app.addHook('onRequest', app.authenticate);

  app.get('/api/profit/summary', { schema: schemas.summary }, async (request) => ok(await profit.summary(db, request.user!.id, request.query)));
  app.get('/api/profit/daily', { schema: schemas.daily }, async (request) => ok(await profit.daily(db, request.user!.id, request.query)));
  app.get('/api/profit/daily-detail', { schema: schemas.dailyDetail }, async (request) => ok(await profit.dailyDetail(db, request.user!.id, request.query)));
  app.get('/api/profit/rank', { schema: schemas.rank }, async (request) => ok(await profit.rank(db, request.user!.id, request.query)));
};
