import type { FastifyPluginAsync } from 'fastify';
import { createCatalog } from '../exchange/catalog';
import { createCcxtExchange, type ExchangeFactory } from '../engine/venues/exchangeAccess';
import { ok } from '../http/envelope';
import { typed } from '../http/schemas';
import { createHistory } from './history';
import { createWorkerPool } from './pool';
import { cancelSchema, presetsSchema, runIdSchema, runSchema, UPLOAD_BODY_LIMIT, uploadSchema, uploadsSchema } from './schemas';
import { createBacktestService } from './service';

export interface BacktestOptions {
  /** Builds ccxt instances for exchange history (tests replay recorded answers). */
  createExchange?: ExchangeFactory | undefined;
}

/**
 * Backtests of strategy templates: `/api/strategy/backtest` and its runs and candle files, and the system
 * templates' figures per pair and day, `/api/strategy/backtest/presets` (README "Backtests").
 * The paper exchange's markets (the engine's, `engineFacade`) give the rules of the sample and of uploads.
 */
export const backtestDomain: FastifyPluginAsync<BacktestOptions> = async (instance, deps) => {
  const app = typed(instance);
  const { db, config, throttle, engineFacade } = instance;
  const catalog = createCatalog(config.paperStartUsdt);
  const service = createBacktestService({
    db,
    throttle,
    log: app.log,
    pool: createWorkerPool({ log: app.log }),
    history: createHistory({ db, createExchange: deps.createExchange ?? createCcxtExchange }),
    paperMarkets: engineFacade.paperMarkets,
    // A testnet's play-money market keeps no history worth testing on: it is refused as paper is.
    exchangeKind: (id) => (catalog.find(id).kind === 'real' ? 'real' : 'paper'),
    uploadsPerUser: config.backtestUploadsPerUser,
    uploadsTotal: config.backtestUploadsTotal,
  });
  app.addHook('onRequest', app.authenticate);
  app.addHook('onClose', () => service.close());

  app.post('/api/strategy/backtest', { schema: runSchema }, async (request) => ok(await service.start(request.user!.id, request.body)));

  app.get('/api/strategy/backtest/presets', { schema: presetsSchema }, async (request) => ok(await service.presets(request.user!.id, request.query)));

  app.get('/api/strategy/backtest/candles', { schema: uploadsSchema }, async (request) => ok(await service.uploads(request.user!.id)));

  // Admitted (and counted) when the request arrives, before its body is read; the place is given back when the answer is sent or the client goes.
  app.post(
    '/api/strategy/backtest/candles',
    {
      schema: uploadSchema,
      bodyLimit: UPLOAD_BODY_LIMIT,
      onRequest: async (request, reply) => {
        if (!request.user) return;
        const release = await service.admitUpload(request.user.id);
        // Given back when the answer is sent, or when the client goes before its body is in (its connection closes).
        const socket = request.raw.socket;
        const done = () => {
          socket.off('close', done);
          release();
        };
        reply.raw.once('close', done);
        socket.once('close', done);
      },
    },
    async (request) => ok(await service.upload(request.user!.id, request.body)),
  );

  app.get('/api/strategy/backtest/:id', { schema: runIdSchema }, async (request) => ok(await service.get(request.user!.id, request.params.id)));

  app.post('/api/strategy/backtest/cancel', { schema: cancelSchema }, async (request) => ok(await service.cancel(request.user!.id, request.body.id)));
};
