import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../http/envelope';
import { engineRoutesSchema } from './schemas';

/**
 * The engine's health for operators: ticks, lag, tasks in trouble, unusable
 * prices, a replay's progress. Registered inside the console's plugin
 * (routes.ts), whose hooks let operators alone through; the engine is the
 * app's `engineFacade`.
 */
export const engineStatusRoutes: FastifyPluginAsync = async (app) => {
  const engine = app.engineFacade;
  app.get('/api/engine/status', { schema: engineRoutesSchema.status }, async () => ok(await engine.status()));
};
