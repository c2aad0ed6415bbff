import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { TASKS_CHANNEL } from '../db/migrations/017_change_notices';
import { createUserCache } from '../db/userCache';
import { JSON_TYPE, ok } from '../http/envelope';
import { typed } from '../http/schemas';
import { returnsRoutes } from './returnsRoutes';
import { schemas } from './schemas';
import { createTradeService } from './service';
import { webhookRoutes } from './webhookRoutes';

/**
 * Trading tasks, their orders and the market data the wizard needs (spec section 7); their returns (returnsRoutes.ts).
 * The engine is the app's `engineFacade`.
 */
export const tradeDomain: FastifyPluginAsync = async (instance) => {
  const app = typed(instance);
  const deps = { db: instance.db, engine: instance.engineFacade };
  // The stored part of task lists and details kept per user, dropped on every change to it (db/userCache.ts).
  const listCache = createUserCache(deps.db, TASKS_CHANNEL, app.log);
  app.addHook('onClose', () => listCache.close());
  const trade = createTradeService({ ...deps, listCache });
  app.addHook('onRequest', app.authenticate);

  app.get('/api/trade/pairs', { schema: schemas.pairs }, async (request) => ok(await trade.pairs(request.user!.id, request.query)));
  app.get('/api/trade/hot-pairs', { schema: schemas.hotPairs }, async (request) => ok(await trade.hotPairs(request.user!.id, request.query)));
  app.post('/api/trade/coin-price', { schema: schemas.coinPrice }, async (request) => ok(await trade.coinPrices(request.user!.id, request.body)));
  app.post('/api/trade/add', { schema: schemas.add }, async (request) => ok(await trade.create(request.user!.id, request.body)));
  // The service gives the same list or detail answer object while nothing it shows has changed: its text is kept beside it.
  const texts = new WeakMap<object, string>();
  const sendKept = (reply: FastifyReply, answer: object) => {
    let text = texts.get(answer);
    if (text === undefined) {
      // The route's own serializer (its answer schema), as Fastify would use it.
      text = String(reply.serialize(ok(answer)));
      texts.set(answer, text);
    }
    // Text already serialized goes out as it is (the plain reply's send takes any payload).
    return reply.type(JSON_TYPE).send(text);
  };
  app.get('/api/trade/list', { schema: schemas.list }, async (request, reply) => sendKept(reply, await trade.list(request.user!.id, request.query)));
  app.get('/api/trade/detail/:id', { schema: schemas.detail }, async (request, reply) => sendKept(reply, await trade.detail(request.user!.id, request.params.id)));
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
  await app.register(webhookRoutes({ ...deps, throttle: instance.throttle, masterKey: instance.config.exchangeMasterKey, publicUrl: instance.config.publicUrl }));
  app.get('/api/trade/ohlcv', { schema: schemas.ohlcv }, async (request) => ok(await trade.ohlcv(request.user!.id, request.query)));
  app.get('/api/trade/order-history', { schema: schemas.orderHistory }, async (request) => ok(await trade.orderHistory(request.user!.id, request.query)));
};
