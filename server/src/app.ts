import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { ServerConfig } from './config';
import { migrate, openDatabase, type Db } from './db/database';
import { exchangeDomain } from './exchange/routes';
import { pointTestnets } from './engine/venues/exchangeAccess';
import { enginePlugin, type EnginePluginOptions } from './enginePlugin';
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
import { secondFactors } from './security/plugin';
import { securityDomain } from './security/routes';
import { strategyDomain } from './strategy/routes';
import { tradeDomain } from './trade/routes';
import { tradingViewHook } from './trade/webhookRoutes';
import { userDomain } from './user/routes';
import { walletDomain } from './wallet/routes';
import { widgetDomain } from './widget/routes';
import { notifyChannelRoutes } from './notify/channelRoutes';
import { createNotifyChannels } from './notify/channelSet';
import { emailSender } from './notify/email';
import { runOutboxOnce } from './notify/outbox';
import { DEMO_EMAIL, DEMO_PASSWORD, demoAccountDecision } from './demo/account';
import { createSessions } from './user/sessions';
import { isGrantOrigin, widgetAuthentication } from './widget/service';
import { createWidgetTokens } from './widget/tokens';
import { setCacheHeaders } from './http/staticCache';
import { allowCrossOriginEmbedding, registerSecurityHeaders, trimSubresourceHeaders } from './http/securityHeaders';

/** The engine's options (enginePlugin.ts: the exchange factories tests inject, the paper market, cluster) and the app's own. */
export interface BuildOptions extends EnginePluginOptions {
  /** An opened, migrated database (tests); otherwise one is opened from the configuration. */
  db?: Db;
  /** Where log lines go (tests capture them); default stdout. */
  logStream?: NodeJS.WritableStream;
  now?: () => number;
  /** The clock second factors read (TOTP steps, tickets); tests move it on by whole steps. */
  factorClock?: () => number;
}


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

  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    outboxDir: join(config.dataDir, 'outbox'),
    from: config.mailFrom,
    log: app.log,
    // Every mail to a user shows their anti-phishing phrase (mail/antiPhishing.ts).
    antiPhishingPhrase: async (to) =>
      (await db.selectFrom('users').select('anti_phishing_phrase').where('email', '=', to.toLowerCase()).executeTakeFirst())?.anti_phishing_phrase ?? null,
  });
  // Closed last, after the engine has stopped (onClose hooks run in the reverse order of their adding).
  app.addHook('onClose', async () => {
    mailer.close();
    if (ownDb) await db.destroy();
  });
  // The database, the configuration, the mailer and the throttle, shared by every domain as decorators (shared/services.ts).
  await app.register(sharedServices, { db, config, mailer });
  // Second factors and the step-up check every domain may ask for (security/).
  await app.register(secondFactors, { now: options.factorClock });
  const sessions = createSessions(db, tokens, config);
  const demo = demoAccountDecision(config, process.env.NODE_ENV).create ? { email: DEMO_EMAIL, password: DEMO_PASSWORD } : null;

  // Testnet accounts sent to a local exchange (EXCHANGE_TESTNET_URLS, a test setting), everywhere a ccxt instance is made for an account.
  const exchangeFactory = pointTestnets(options.exchangeFactory, config.exchangeTestnetUrls);
  // The trading engine, its price sources and the facade the domains ask it through (enginePlugin.ts).
  await app.register(enginePlugin, {
    exchangeFactory,
    publicExchangeFactory: options.publicExchangeFactory,
    priceClock: options.priceClock,
    tickerFeed: options.tickerFeed,
    market: options.market,
    cluster: options.cluster,
    clientOrderIds: options.clientOrderIds,
  });

  // The domains: each one plugin with its routes, its schemas and its service.
  await app.register(userDomain, { sessions, demo });
  await app.register(securityDomain);
  await app.register(exchangeDomain, { createExchange: exchangeFactory });
  await app.register(strategyDomain);
  await app.register(tradeDomain);
  // TradingView's alerts to a task's webhook: public, the secret in the message authenticates.
  await app.register(tradingViewHook({ db, engine: app.engineFacade, throttle: app.throttle, masterKey: config.exchangeMasterKey, addresses: config.tradingViewAddresses, now: options.now }));
  await app.register(backtestDomain, { createExchange: exchangeFactory });
  // Membership, fuel, invites, and the profit pages.
  await app.register(memberDomain);
  await app.register(profitDomain);
  // Notifications (issue 25): the inbox, preferences, e-mail and the outbox, which delivers through
  // Telegram, web push and webhooks too; Telegram's long polling runs while the server does.
  // The outbox worker runs where the engine ticks on its own (not in tests).
  const notifyChannels = createNotifyChannels(config, app.log);
  const notifySenders = [emailSender(mailer, { secret: config.signSecret, publicUrl: config.publicUrl }), ...notifyChannels.senders];
  // Tests run the outbox's passes themselves, through this server's own channels.
  app.decorate('notify', {
    senders: notifySenders,
    runOutboxOnce: (options = {}) => runOutboxOnce(db, { log: app.log, ...options, senders: notifySenders }),
  });
  await app.register(notifyDomain, { senders: notifySenders, publicUrl: config.publicUrl, outboxPollMs: config.engineTickMs > 0 ? 5_000 : 0 });
  await app.register(notifyChannelRoutes, { channels: notifyChannels });
  app.addHook('onReady', () => notifyChannels.start(db));
  app.addHook('onClose', () => notifyChannels.stop());
  await app.register(walletDomain, { now: options.now });
  await app.register(widgetDomain, { tokens: widgetTokens });
  // Articles for users; the operator console (its resources in ra-data-simple-rest's dialect, the settings and the engine's health).
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

  // Runs first when the app closes (Fastify runs the onClose hooks in the reverse order of their adding):
  // the handlers still running finish, then the engine stops (enginePlugin.ts), then the mailer and the database close.
  app.addHook('onClose', async () => drained(10_000));

  return app;
};

export type App = Awaited<ReturnType<typeof buildApp>>;
