import type { FastifyInstance } from 'fastify';
import { requireOperator } from '../shared/audit';
import { ok } from '../http/envelope';
import type { EngineFacade } from './facade';

/** The engine's health for operators: ticks, lag, tasks in trouble, unusable prices, a replay's progress. */
export const engineRoutes = (engine: EngineFacade) => async (app: FastifyInstance) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', requireOperator);
  app.get('/api/engine/status', { schema: { summary: "The trading engine's health (operators)", security: [{ bearer: [] }] } }, async () => ok(await engine.status()));
};
