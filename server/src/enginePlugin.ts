/**
 * The trading engine wired into the app, as one plugin registered at the root
 * (through fastify-plugin, after shared/services.ts, whose database and
 * configuration it reads): real exchanges' public markets and their ticker
 * streams, the engine that runs the tasks, and the facade through which the
 * domains ask it (engine/facade.ts). It decorates the app with `engineFacade`
 * (always) and `engine` (the runner, when this process runs one), starts the
 * engine when the app is ready and stops it, the price sources and the ticker
 * streams when the app closes. It stands beside engineDomains.ts, outside
 * engine/: the engine imports no HTTP module.
 */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { DEFAULT_FEE_RATE } from '../../src/api/strategy';
import { rollUpCandles } from './engine/candleRollup';
import { createEngineFacade, type EngineFacade } from './engine/facade';
import { createRunner, type Runner } from './engine/runner/runner';
import type { ExchangeFactory } from './engine/venues/exchangeAccess';
import { processPauses } from './engine/venues/exchangePauses';
import { createExchangeShared } from './engine/venues/exchangeShared';
import type { SimulatedMarket } from './engine/venues/paper/market';
import { createPriceSources } from './engine/venues/paper/priceSources';
import { createTickerFeed, type TickerFeed } from './engine/venues/tickerFeed';
import { engineDomains } from './engineDomains';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's trading engine (absent with ENGINE=off). */
    engine: Runner;
    /** What the domains ask of the engine, wherever it runs (engine/facade.ts). */
    engineFacade: EngineFacade;
  }
}

export interface EnginePluginOptions {
  /** Builds the ccxt instances of real exchanges: accounts' clients, and in the domains the key check and backtest history (tests replay recorded answers). */
  exchangeFactory?: ExchangeFactory | undefined;
  /** Builds the keyless ccxt instances that read real exchanges' public markets for paper accounts. */
  publicExchangeFactory?: ExchangeFactory | undefined;
  /** Live websocket prices of real exchanges; default: ccxt's streams, none when an exchange factory is given. */
  tickerFeed?: TickerFeed | null | undefined;
  /** The paper market; default: the random walk, or the replay PAPER_REPLAY asks for. */
  market?: SimulatedMarket | undefined;
  /** The engine shares the database with other processes; default: on PostgreSQL (`DATABASE_URL`). */
  cluster?: boolean | undefined;
  /** The live price sources' clock; default: the system's (tests move it). */
  priceClock?: (() => number) | undefined;
  /** The engine's client order ids (runner/context.ts); default: random ones. */
  clientOrderIds?: (() => string) | undefined;
}

/** Fee of the paper exchange, per fill: the usual taker rate, the one the task wizard warns with. */
const PAPER_FEE_RATE = DEFAULT_FEE_RATE;
const ROLLUP_EVERY_MS = 10 * 60_000;

const enginePluginBody: FastifyPluginAsync<EnginePluginOptions> = async (app, options) => {
  const { db, config } = app;

  // Real exchanges' public markets that paper accounts trade on, shared by the engine and the API.
  // Their websocket ticker streams, shared with the engine's real-exchange tasks; recorded exchanges
  // (tests) answer REST only: no streams for them.
  const tickerFeed =
    options.tickerFeed !== undefined ? options.tickerFeed : options.exchangeFactory || options.publicExchangeFactory ? null : createTickerFeed({ log: app.log });
  // This server's request budgets and market lists of every exchange, shared by every user's tasks and the price reads
  // (its share of each budget, when several engine processes run: rateBudget.ts). Pauses (429, 418) hold the whole process: they are per address.
  const exchangeShared = createExchangeShared(processPauses);
  const priceSources = createPriceSources({ log: app.log, createExchange: options.publicExchangeFactory, shared: exchangeShared, stream: tickerFeed, ...(options.priceClock ? { now: options.priceClock } : {}) });

  // The trading engine: the market and the tasks, one tick a second (a replay: one candle per
  // tick, PAPER_REPLAY_SPEED ticks a second). None with ENGINE=off: another process drives the tasks.
  const replay = config.paperReplay;
  const engine: Runner | null =
    config.engine === 'off'
      ? null
      : createRunner({
          domains: engineDomains,
          db,
          log: app.log,
          seed: config.paperSeed,
          cluster: options.cluster ?? Boolean(config.databaseUrl),
          leaseMs: config.engineLeaseMs,
          ...(replay
            ? {
                replay: { symbol: replay.symbol, candles: replay.candles, interval: replay.interval },
                tickMs: config.engineTickMs === 0 ? 0 : replay.speed === 'max' ? 1000 : Math.max(1, Math.round(1000 / replay.speed)),
                continuous: config.engineTickMs > 0 && replay.speed === 'max',
              }
            : { tickMs: config.engineTickMs, ...(options.market ? { market: options.market } : {}) }),
          feeRate: PAPER_FEE_RATE,
          priceSources,
          exchangeMasterKey: config.exchangeMasterKey,
          ...(options.exchangeFactory ? { createExchange: options.exchangeFactory } : {}),
          exchangeShared,
          tickerFeed,
          ...(options.clientOrderIds ? { clientOrderIds: options.clientOrderIds } : {}),
        });
  const facade = createEngineFacade({
    db,
    log: app.log,
    runner: engine,
    paperFeeRate: PAPER_FEE_RATE,
    seed: config.paperSeed,
    exchangeMasterKey: config.exchangeMasterKey,
    createExchange: options.exchangeFactory,
    shared: exchangeShared,
    priceSources,
  });
  app.decorate('engineFacade', facade);
  if (engine) app.decorate('engine', engine);

  app.addHook('onReady', async () => engine?.start());

  // Minutes older than PAPER_MINUTES_DAYS become hourly candles (engine/candleRollup.ts): every
  // 10 minutes in a process that runs the engine on its clock (tests call rollUpCandles themselves).
  let rollups: NodeJS.Timeout | undefined;
  if (engine && config.engineTickMs > 0) {
    const rollUp = () =>
      rollUpCandles(db, config.paperMinutesDays).catch((error: unknown) => app.log.error({ err: error }, 'the candle rollup failed'));
    app.addHook('onReady', async () => {
      rollups = setInterval(rollUp, ROLLUP_EVERY_MS);
      rollups.unref();
    });
  }
  // Fastify runs the onClose hooks in the reverse order of their adding: app.ts adds the requests'
  // drain after this one and the mailer's and the database's close before it.
  app.addHook('onClose', async () => {
    clearInterval(rollups);
    await engine?.stop();
    priceSources.stop();
    await tickerFeed?.close();
  });
};

export const enginePlugin = fp(enginePluginBody, { name: 'engine', fastify: '5.x', dependencies: ['shared-services'] });
