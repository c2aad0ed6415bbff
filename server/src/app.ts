import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { ServerConfig } from './config';
import { migrate, openDatabase, type Db } from './db/database';
import { createRunner, type Runner } from './engine/runner/runner';
import { engineDomains } from './engineDomains';
import { engineRoutes } from './admin/engine';
import { createEngineFacade } from './engine/facade';
import type { SimulatedMarket } from './engine/venues/paper/market';
import { createPriceSources } from './engine/venues/paper/priceSources';
import { createTickerFeed, type TickerFeed } from './engine/venues/tickerFeed';
import { exchangeRoutes } from './exchange/routes';
import type { ExchangeFactory } from './engine/venues/exchangeAccess';
import { createAccessTokens, registerAuth } from './http/auth';
import { registerCors } from './http/cors';
import { registerDrain } from './http/drain';
import { clientErrorHandler, frameworkErrors, registerEnvelope } from './http/envelope';
import { REDACTED_LOG_PATHS, serializeError } from './http/logging';
import { OneLineRequestLog } from './http/requestLog';
import { registerSignatureCheck } from './http/signature';
import { registerValidation } from './http/validation';
import { createMailer } from './mail/mailer';
import { adminDomain } from './admin/routes';
import { articleDomain } from './article/routes';
import { backtestDomain } from './backtest/routes';
import { memberDomain } from './member/routes';
import { notifyDomain } from './notify/routes';
import { profitDomain } from './profit/routes';
import { sharedServices } from './shared/services';
import { strategyDomain } from './strategy/routes';
import { tradeDomain } from './trade/routes';
import { profileDomain } from './user/profileRoutes';
import { userDomain } from './user/routes';
import { walletDomain } from './wallet/routes';
import { widgetDomain } from './widget/routes';
import { DEMO_EMAIL, DEMO_PASSWORD, demoAccountDecision } from './demo/account';
import { createSessions } from './user/sessions';
import { isGrantOrigin, widgetAuthentication } from './widget/service';
import { createWidgetTokens } from './widget/tokens';
import { setCacheHeaders } from './http/staticCache';
import { allowCrossOriginEmbedding, registerSecurityHeaders, trimSubresourceHeaders } from './http/securityHeaders';
import { DEFAULT_FEE_RATE } from '../../src/api/strategy';

export interface BuildOptions {
  /** An opened, migrated database (tests); otherwise one is opened from the configuration. */
  db?: Db;
  /** Where log lines go (tests capture them); default stdout. */
  logStream?: NodeJS.WritableStream;
  now?: () => number;
  /** Builds the ccxt instances that check API keys (tests replay recorded exchange answers). */
  exchangeFactory?: ExchangeFactory;
  /** Live websocket prices of real exchanges; default: ccxt's streams, none when an exchange factory is given. */
  tickerFeed?: TickerFeed | null;
  /** The paper market (tests inject faults into it); default: the random walk, or the replay PAPER_REPLAY asks for. */
  market?: SimulatedMarket;
  /**
   * Builds the keyless ccxt instances that read real exchanges' public markets
   * for paper accounts; default: ccxt itself (tests: recorded answers, or none).
   */
  publicExchangeFactory?: ExchangeFactory;
  /**
   * The engine shares the database with other processes (leased shards, the
   * shared market, commands): default on PostgreSQL (`DATABASE_URL`), off on
   * the embedded database; tests on PostgreSQL turn it on.
   */
  cluster?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's trading engine (absent with ENGINE=off). */
    engine: Runner;
  }
}

/** Fee of the paper exchange, per fill: the usual taker rate, the one the task wizard warns with. */
const PAPER_FEE_RATE = DEFAULT_FEE_RATE;


/** The app factory: every part wired, nothing listening yet. */
export const buildApp = async (config: ServerConfig, options: BuildOptions = {}) => {
  const logger: FastifyServerOptions['logger'] = {
    level: config.logLevel,
    redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
    ...(options.logStream ? { stream: options.logStream } : {}),
  };
  const app = Fastify({
    logger,
    bodyLimit: 64 * 1024,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    // Whatever the router or Node's parser refuses is answered as the envelope too.
    frameworkErrors,
    clientErrorHandler,
    // One line per request (http/requestLog.ts).
    logController: new OneLineRequestLog(),
  });

  const ownDb = !options.db;
  const db = options.db ?? (await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir }));
  if (ownDb) await migrate(db);

  const drained = registerDrain(app);
  registerEnvelope(app);
  registerValidation(app);
  // CSP, no framing, nosniff, Referrer-Policy, HSTS behind TLS: every answer, pages and API alike.
  await registerSecurityHeaders(app, { trustProxy: config.trustProxy });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Quant Trader API', version: '1' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
  });
  // Same-origin calls need no CORS; CORS_ORIGINS get every call; an origin a widget grant names, the widgets' reads only.
  await registerCors(app, { configuredOrigins: config.corsOrigins, isGrantOrigin: (origin) => isGrantOrigin(db, origin) });

  const tokens = createAccessTokens(config.tokenSecret, config.accessTokenTtlSeconds);
  // Widget tokens open the widgets' read calls only (server/src/widget).
  const widgetTokens = createWidgetTokens(config.tokenSecret);
  registerAuth(app, db, tokens, widgetAuthentication(db, widgetTokens, config.corsOrigins));
  registerSignatureCheck(app, db, config.signSecret, options.now);

  const mailer = createMailer({ smtpUrl: config.smtpUrl, outboxDir: join(config.dataDir, 'outbox'), from: config.mailFrom, log: app.log });
  // The database, the configuration, the mailer and the throttle, shared by every domain as decorators (shared/services.ts).
  await app.register(sharedServices, { db, config, mailer });
  const sessions = createSessions(db, tokens, config);
  const demo = demoAccountDecision(config, process.env.NODE_ENV).create ? { email: DEMO_EMAIL, password: DEMO_PASSWORD } : null;

  // Real exchanges' public markets that paper accounts trade on, shared by the engine and the API.
  // Their websocket ticker streams, shared with the engine's real-exchange tasks; recorded exchanges
  // (tests) answer REST only: no streams for them.
  const tickerFeed =
    options.tickerFeed !== undefined ? options.tickerFeed : options.exchangeFactory || options.publicExchangeFactory ? null : createTickerFeed({ log: app.log });
  const priceSources = createPriceSources({ log: app.log, createExchange: options.publicExchangeFactory, stream: tickerFeed });

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
          tickerFeed,
        });
  const facade = createEngineFacade({
    db,
    log: app.log,
    runner: engine,
    paperFeeRate: PAPER_FEE_RATE,
    seed: config.paperSeed,
    exchangeMasterKey: config.exchangeMasterKey,
    createExchange: options.exchangeFactory,
    priceSources,
  });
  if (engine) app.decorate('engine', engine);

  // The domains: each one plugin with its routes, its schemas and its service.
  await app.register(userDomain, { sessions, demo });
  // Edited or removed keys: the engine drops the account's client and builds it again from the stored keys.
  await app.register(
    exchangeRoutes({
      db,
      config,
      createExchange: options.exchangeFactory,
      onKeysChanged: (id) => facade.keysChanged(id),
      pricesOf: (source) => facade.pricesOf(source),
      warmSource: (source) => facade.warmSource(source),
      freeBalance: (account, asset) => facade.freeBalance(account, asset),
    }),
  );
  await app.register(strategyDomain);
  await app.register(tradeDomain, { engine: facade });
  await app.register(engineRoutes(facade));
  await app.register(backtestDomain, { paperMarkets: facade.paperMarkets, ...(options.exchangeFactory ? { createExchange: options.exchangeFactory } : {}) });
  // Membership, fuel, invites, and the profit pages.
  await app.register(memberDomain, { engine: facade });
  await app.register(profitDomain);
  // The channels of part 2 (Telegram, web push, webhooks) join `senders`; the outbox worker runs where the engine ticks on its own (not in tests).
  await app.register(notifyDomain, { senders: [], publicUrl: config.publicUrl, outboxPollMs: config.engineTickMs > 0 ? 5_000 : 0 });
  await app.register(profileDomain);
  await app.register(walletDomain);
  await app.register(widgetDomain, { tokens: widgetTokens });
  // Articles for users; the operator console (its resources in ra-data-simple-rest's dialect, and the settings).
  await app.register(articleDomain);
  await app.register(adminDomain, { sessions });

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // Built files go out as the build's brotli or gzip copies when the browser accepts them (Accept-Encoding),
  // with the cache lifetime of their kind (http/staticCache.ts).
  // Files other than pages carry only the security headers that apply to them (http/securityHeaders.ts).
  const setFileHeaders = (reply: FastifyReply, path: string) => {
    setCacheHeaders(reply, path);
    trimSubresourceHeaders(reply, path);
  };
  const staticOptions = { preCompressed: true, cacheControl: false, setHeaders: setFileHeaders } as const;
  if (config.dashboardDir) {
    await app.register(fastifyStatic, { root: config.dashboardDir, prefix: '/', index: ['index.html'], wildcard: false, ...staticOptions });
  }
  // The embeddable widgets bundle at /widgets/ and the partner example page at /examples/, when present.
  // Partner pages load the widgets script from their own origin: it may be embedded cross-origin.
  const widgetsDir = config.widgetsDir ?? join(process.cwd(), 'dist-widgets');
  if (existsSync(widgetsDir)) {
    const setHeaders = (reply: FastifyReply, path: string) => {
      setFileHeaders(reply, path);
      allowCrossOriginEmbedding(reply);
    };
    await app.register(fastifyStatic, { root: widgetsDir, prefix: '/widgets/', decorateReply: false, ...staticOptions, setHeaders });
  }
  const examplesDir = join(process.cwd(), 'examples');
  if (existsSync(examplesDir)) await app.register(fastifyStatic, { root: examplesDir, prefix: '/examples/', decorateReply: false, ...staticOptions });

  app.addHook('onReady', async () => engine?.start());
  app.addHook('onClose', async () => {
    await drained(10_000);
    await engine?.stop();
    priceSources.stop();
    await tickerFeed?.close();
    mailer.close();
    if (ownDb) await db.destroy();
  });

  return app;
};

export type App = Awaited<ReturnType<typeof buildApp>>;
