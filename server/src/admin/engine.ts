import type { FastifyInstance } from 'fastify';
import { ok } from '../http/envelope';
import { requireOperator } from '../shared/audit';

/** What the console reads of the trading engine (engine/facade.ts gives it). */
export interface EngineHealth {
  status(): Promise<unknown>;
}

/** The engine's health for operators: ticks, lag, tasks in trouble, unusable prices, a replay's progress. */
export const engineRoutes = (engine: EngineHealth) => async (app: FastifyInstance) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', requireOperator);
  app.get('/api/engine/status', { schema: { summary: "The trading engine's health (operators)", security: [{ bearer: [] }] } }, async () => ok(await engine.status()));
};
