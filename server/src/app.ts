import { existsSync } from 'node:fs';
import { join } from 'node:path';
import cors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { ServerConfig } from './config';
import { migrate, openDatabase, type Db } from './db/database';
import { createRunner, type Runner } from './engine/runner';
import { createTickerFeed, type TickerFeed } from './engine/tickerFeed';
import { exchangeRoutes } from './exchange/routes';
import type { ExchangeFactory } from './exchange/verify';
import { createAccessTokens, registerAuth } from './http/auth';
import { registerDrain } from './http/drain';
import { registerEnvelope } from './http/envelope';
import { registerSignatureCheck } from './http/signature';
import { registerValidation } from './http/validation';
import { createMailer } from './mail/mailer';
import { memberRoutes } from './member/routes';
import { profitRoutes } from './profit/routes';
import { createVerificationCodes } from './user/codes';
import { profileRoutes } from './user/profileRoutes';
import { strategyRoutes } from './strategy/routes';
import { tradeRoutes } from './trade/routes';
import { userRoutes } from './user/routes';
import { walletRoutes } from './wallet/routes';
import { moneyRoutes } from './admin/moneyRoutes';
import { adminRoutes } from './admin/routes';
import { articleRoutes } from './article/routes';
import { createSessions } from './user/sessions';
import { createThrottle } from './user/throttle';

export interface BuildOptions {
  /** An opened, migrated database (tests); otherwise one is opened from the configuration. */
  db?: Db;
  /** Where log lines go (tests capture them); default stdout. */
  logStream?: NodeJS.WritableStream;
  now?: () => number;
  /** Builds the ccxt instances that check API keys (tests replay recorded exchange answers). */
  exchangeFactory?: ExchangeFactory;
  /** Live websocket prices of real exchanges; default: ccxt's streams, none when `exchangeFactory` is given. */
  tickerFeed?: TickerFeed | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    engine: Runner;
  }
}

/** Fee of the paper exchange, per fill. */
const PAPER_FEE_RATE = '0.001';

/** Paths never written to the log, whatever their value. */
const REDACT = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'];

/** The app factory: every part wired, nothing listening yet. */
export const buildApp = async (config: ServerConfig, options: BuildOptions = {}) => {
  const logger: FastifyServerOptions['logger'] = {
    level: config.logLevel,
    redact: { paths: REDACT, censor: '[redacted]' },
    ...(options.logStream ? { stream: options.logStream } : {}),
  };
  const app = Fastify({
    logger,
    bodyLimit: 64 * 1024,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
  });

  const ownDb = !options.db;
  const db = options.db ?? (await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir }));
  if (ownDb) await migrate(db);

  const drained = registerDrain(app);
  registerEnvelope(app);
  registerValidation(app);
  await app.register(swagger, {
    openapi: {
      info: { title: 'Quant Trader API', version: '1' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
  });
  await app.register(cors, {
    // Same-origin calls need no CORS; browsers on other origins only when configured (partner sites).
    origin: config.corsOrigins.length > 0 ? config.corsOrigins : false,
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Accept-Language'],
    maxAge: 600,
  });

  const tokens = createAccessTokens(config.tokenSecret, config.accessTokenTtlSeconds);
  registerAuth(app, db, tokens);
  registerSignatureCheck(app, db, config.signSecret, options.now);

  const mailer = createMailer({ smtpUrl: config.smtpUrl, outboxDir: join(config.dataDir, 'outbox'), from: config.mailFrom, log: app.log });
  const sessions = createSessions(db, tokens, config);
  await app.register(
    userRoutes({
      db,
      sessions,
      codes: createVerificationCodes(db, config.tokenSecret),
      throttle: createThrottle(db),
      mailer,
      scryptCost: config.scryptCost,
    }),
  );
  // Edited or removed keys: the engine drops the account's client (created below) and builds it again from the stored keys.
  await app.register(exchangeRoutes({ db, config, createExchange: options.exchangeFactory, onKeysChanged: (id) => engine.forgetClient(id) }));

  await app.register(strategyRoutes(db));

  // The trading engine: the simulated market and every running task, one tick a second.
  const engine: Runner = createRunner({
    db,
    log: app.log,
    seed: config.paperSeed,
    tickMs: config.engineTickMs,
    feeRate: PAPER_FEE_RATE,
    exchangeMasterKey: config.exchangeMasterKey,
    ...(options.exchangeFactory ? { createExchange: options.exchangeFactory } : {}),
    // Recorded exchanges (tests) answer REST only: no websocket streams for them.
    tickerFeed: options.tickerFeed !== undefined ? options.tickerFeed : options.exchangeFactory ? null : createTickerFeed({ log: app.log }),
  });
  app.decorate('engine', engine);
  await app.register(tradeRoutes({ db, runner: engine, feeRate: PAPER_FEE_RATE }));
  // Membership, fuel, invites, profit pages, profile and security.
  await app.register(memberRoutes({ db, runner: engine }));
  await app.register(profitRoutes(db));
  await app.register(profileRoutes({ db, throttle: createThrottle(db), scryptCost: config.scryptCost }));
  await app.register(walletRoutes({ db, addressSecret: config.tokenSecret }));
  await app.register(moneyRoutes(db));
  // Articles for users; the operator console's users, articles, settings and audit calls.
  await app.register(articleRoutes(db));
  await app.register(adminRoutes({ db, sessions }));

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  if (config.dashboardDir) {
    await app.register(fastifyStatic, { root: config.dashboardDir, prefix: '/', index: ['index.html'], wildcard: false });
  }
  // The embeddable widgets bundle at /widgets/ and the partner example page at /examples/, when present.
  for (const [root, prefix] of [
    [config.widgetsDir ?? join(process.cwd(), 'dist-widgets'), '/widgets/'],
    [join(process.cwd(), 'examples'), '/examples/'],
  ] as const) {
    if (existsSync(root)) await app.register(fastifyStatic, { root, prefix, decorateReply: false });
  }

  app.addHook('onReady', () => engine.start());
  app.addHook('onClose', async () => {
    await drained(10_000);
    await engine.stop();
    mailer.close();
    if (ownDb) await db.destroy();
  });

  return app;
};

export type App = Awaited<ReturnType<typeof buildApp>>;
