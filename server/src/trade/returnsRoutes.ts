/**
 * GET /api/trade/returns, /api/trade/cycles and /api/trade/overview: a task's
 * returns with its cumulative-profit curve, its closed cycles page by page,
 * and the account's total assets and total return (definitions in
 * src/api/returns.ts; the service in returns.ts).
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../http/envelope';
import { typed } from '../http/schemas';
import { createReturnsService, type ReturnsDeps } from './returns';
import { returnsSchemas } from './schemas';

export const returnsRoutes = (deps: ReturnsDeps) => async (instance: FastifyInstance) => {
  const app = typed(instance);
  const returns = createReturnsService(deps);

  app.get('/api/trade/returns', { schema: returnsSchemas.returns }, async (request) => ok(await returns.taskReturns(request.user!.id, request.query.taskId)));
  app.get('/api/trade/cycles', { schema: returnsSchemas.cycles }, async (request) => ok(await returns.cycles(request.user!.id, request.query)));
  app.get('/api/trade/overview', { schema: returnsSchemas.overview }, async (request) => ok(await returns.overview(request.user!.id)));
};
