import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database';
import type { EngineFacade } from '../engine/facade';
import { ok } from '../http/envelope';
import { typed } from '../http/schemas';
import { createListCache } from './listCache';
import { returnsRoutes } from './returnsRoutes';
import { schemas } from './schemas';
import { createTradeService } from './service';

export interface TradeDeps {
  db: Db;
  engine: EngineFacade;
}

/** Trading tasks, their orders and the market data the wizard needs (spec section 7). */
export const tradeRoutes = (deps: TradeDeps) => async (instance: FastifyInstance) => {
  const app = typed(instance);
  // Task lists kept per user on the embedded database, dropped on every change (listCache.ts).
  const listCache = createListCache(deps.db, app.log);
  app.addHook('onClose', () => listCache.close());
  const trade = createTradeService({ ...deps, listCache });
  app.addHook('onRequest', app.authenticate);

  app.get('/api/trade/pairs', { schema: schemas.pairs }, async (request) => ok(await trade.pairs(request.user!.id, request.query)));
  app.get('/api/trade/hot-pairs', { schema: schemas.hotPairs }, async (request) => ok(await trade.hotPairs(request.user!.id, request.query)));
  app.post('/api/trade/coin-price', { schema: schemas.coinPrice }, async (request) => ok(await trade.coinPrices(request.user!.id, request.body)));
  app.post('/api/trade/add', { schema: schemas.add }, async (request) => ok(await trade.create(request.user!.id, request.body)));
  app.get('/api/trade/list', { schema: schemas.list }, async (request) => ok(await trade.list(request.user!.id, request.query)));
  app.get('/api/trade/detail/:id', { schema: schemas.detail }, async (request) => ok(await trade.detail(request.user!.id, request.params.id)));
  app.post('/api/trade/update', { schema: schemas.update }, async (request) => ok(await trade.update(request.user!.id, request.body)));
  app.post('/api/trade/action', { schema: schemas.action }, async (request) => {
    const { id, action } = request.body;
    return ok(await trade.action(request.user!.id, id, action));
  });
  app.post('/api/trade/close-order/:id', { schema: schemas.close }, async (request) => ok(await trade.close(request.user!.id, request.params.id)));
  app.get('/api/trade/profit-summary', { schema: schemas.profitSummary }, async (request) =>
    ok(await trade.profitSummary(request.user!.id, request.query.timeZone)),
  );
  await app.register(returnsRoutes({ ...deps, trade }));
  app.get('/api/trade/ohlcv', { schema: schemas.ohlcv }, async (request) => ok(await trade.ohlcv(request.user!.id, request.query)));
  app.get('/api/trade/order-history', { schema: schemas.orderHistory }, async (request) => ok(await trade.orderHistory(request.user!.id, request.query)));
};
