import type { FastifyInstance } from 'fastify';
import { ok } from '../http/envelope';
import { typed } from '../http/schemas';
import { addSchema, balanceSchema, catalogSchema, deleteSchema, detailSchema, editSchema, listSchema } from './schemas';
import { createExchangeService, type ExchangeDeps } from './service';

/** The user's exchange accounts, /api/exchange/*: the routes parse and answer, service.ts holds the rules. */
export const exchangeRoutes = (deps: ExchangeDeps) => async (app: FastifyInstance) => {
  const exchange = createExchangeService(deps);

  app.register(async (plain) => {
    const scope = typed(plain);
    scope.addHook('onRequest', app.authenticate);

    scope.get('/api/exchange/catalog', { schema: catalogSchema }, async () => ok(exchange.catalog()));
    scope.get('/api/exchange/list', { schema: listSchema }, async (request) => ok(await exchange.list(request.user!.id, request.query)));
    scope.get('/api/exchange/detail/:id', { schema: detailSchema }, async (request) => ok(await exchange.detail(request.user!.id, request.params.id)));
    scope.get('/api/exchange/balance/:id', { schema: balanceSchema }, async (request) => ok(await exchange.balance(request.user!.id, request.params.id)));
    scope.post('/api/exchange/add', { schema: addSchema }, async (request) => ok(await exchange.add(request.user!.id, request.body, request.log)));
    scope.post('/api/exchange/edit', { schema: editSchema }, async (request) => ok(await exchange.edit(request.user!.id, request.body, request.log)));
    scope.post('/api/exchange/delete', { schema: deleteSchema }, async (request) => {
      await exchange.remove(request.user!.id, request.body.id, request.log);
      return ok(null);
    });
  });
};
