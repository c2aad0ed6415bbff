import { ConfigError, loadConfig } from './config';
import { buildApp } from './app';
import { openDatabase, migrate } from './db/database';
import { EmbeddedDatabaseBusy, lockEmbeddedDatabase, type EmbeddedLock } from './db/embeddedLock';
import { ensureDemoAccount } from './user/demo';

/** Reads the configuration, opens and migrates the database, listens, and shuts down cleanly. */
const main = async () => {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }

  let lock: EmbeddedLock | null = null;
  if (!config.databaseUrl) {
    try {
      lock = lockEmbeddedDatabase(config.dataDir);
    } catch (error) {
      if (!(error instanceof EmbeddedDatabaseBusy)) throw error;
      console.error(`Another server (pid ${error.pid}) is running on the embedded database in ${config.dataDir}: stop it first, or give this one another DATA_DIR.`);
      process.exit(1);
    }
    process.on('exit', () => lock?.release());
  }
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  await migrate(db);
  const app = await buildApp(config, { db });
  const demo = config.demoAccount ? await ensureDemoAccount(db, config.scryptCost) : null;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Fastify stops accepting, lets running requests finish, stops the engine; then the database closes.
    await app.close();
    await db.destroy();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const address = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${(app.server.address() as { port: number }).port}/`;
  const lines = [
    '',
    `  Quant Trader is running: ${address}`,
    config.dashboardDir ? '' : '  (dashboard build not found: run `npm run build`)',
    demo ? `  Demo account: ${demo.email} / ${demo.password}` : '',
    config.smtpUrl ? '' : `  Mail goes to ${config.dataDir}/outbox (set SMTP_URL to send it)`,
    `  API document: ${address}api/openapi.json`,
    '',
  ].filter((line, index, all) => line !== '' || index === 0 || index === all.length - 1);
  console.log(lines.join('\n'));
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
