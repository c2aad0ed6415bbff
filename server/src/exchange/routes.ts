import type { FastifyPluginAsync } from 'fastify';
import type { ExchangeFactory } from '../engine/venues/exchangeAccess';
import { ok } from '../http/envelope';
import { stepUpHeaders } from '../security/schemas';
import { typed } from '../http/schemas';
import { addSchema, balanceSchema, catalogSchema, deleteSchema, detailSchema, editSchema, listSchema } from './schemas';
import { createExchangeService } from './service';

export interface ExchangeOptions {
  /** Builds the ccxt instances that check API keys (tests replay recorded exchange answers). */
  createExchange?: ExchangeFactory | undefined;
}

/**
 * The user's exchange accounts, /api/exchange/*: the routes parse and answer,
 * service.ts holds the rules. The engine (the app's `engineFacade`) gives the
 * live prices and balances, and drops an account's client when its keys are
 * edited or the account removed, so that it is built again from the stored keys.
 */
export const exchangeDomain: FastifyPluginAsync<ExchangeOptions> = async (instance, { createExchange }) => {
  const app = typed(instance);
  const { db, config, engineFacade: engine } = instance;
  const exchange = createExchangeService({
    db,
    config,
    createExchange,
    onKeysChanged: (id) => engine.keysChanged(id),
    pricesOf: (source) => engine.pricesOf(source),
    warmSource: (source) => engine.warmSource(source),
    freeBalance: (account, asset) => engine.freeBalance(account, asset),
  });
  app.addHook('onRequest', app.authenticate);

  app.get('/api/exchange/catalog', { schema: catalogSchema }, async () => ok(exchange.catalog()));
  app.get('/api/exchange/list', { schema: listSchema }, async (request) => ok(await exchange.list(request.user!.id, request.query)));
  app.get('/api/exchange/detail/:id', { schema: detailSchema }, async (request) => ok(await exchange.detail(request.user!.id, request.params.id)));
  app.get('/api/exchange/balance/:id', { schema: balanceSchema }, async (request) => ok(await exchange.balance(request.user!.id, request.params.id)));
  // Binding or replacing a real (or testnet) exchange's keys takes the second factor once one is on.
  app.post('/api/exchange/add', { schema: { ...addSchema, headers: stepUpHeaders } }, async (request) =>
    ok(await exchange.add(request.user!.id, request.body, request.log, () => app.stepUp(request))),
  );
  app.post('/api/exchange/edit', { schema: { ...editSchema, headers: stepUpHeaders } }, async (request) =>
    ok(await exchange.edit(request.user!.id, request.body, request.log, () => app.stepUp(request))),
  );
  app.post('/api/exchange/delete', { schema: deleteSchema }, async (request) => {
    await exchange.remove(request.user!.id, request.body.id, request.log);
    return ok(null);
  });
};
