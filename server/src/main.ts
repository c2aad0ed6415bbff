import { buildApp } from './app';
import { openConfigured } from './startup';
import { DEFAULT_FEE_RATE } from '../../src/api/strategy';
import { demoAccountDecision, demoAccountLine, ensureDemoAccount } from './demo/account';
import { DEMO_ACCOUNT_NAME, seedDemoBots } from './demo/history';

/** Reads the configuration, opens and migrates the database, listens, and shuts down cleanly. */
const main = async () => {
  const { config, db, close } = await openConfigured({
    busy: (pid, dataDir) => `Another server (pid ${pid}) is running on the embedded database in ${dataDir}: stop it first, or give this one another DATA_DIR.`,
    busyExitCode: 1,
  });
  const app = await buildApp(config, { db });
  const demoDecision = demoAccountDecision(config, process.env.NODE_ENV);
  const demo = demoDecision.create ? await ensureDemoAccount(db, config.scryptCost) : null;
  app.log.info({ demoAccount: demoDecision.create ? 'created' : demoDecision.reason }, 'demo account');
  // A replayed market (PAPER_REPLAY) is not the one the demo's history joins: its bots are left for a start without one.
  if (demoDecision.create && !config.paperReplay) {
    // Once, before the engine starts (it then drives the bots live): their history played through the engine.
    const seeded = await seedDemoBots(db, { log: app.log.child({ demo: true }, { level: 'warn' }), paperStartUsdt: config.paperStartUsdt, feeRate: DEFAULT_FEE_RATE, seed: config.paperSeed, accountName: DEMO_ACCOUNT_NAME });
    if (seeded) app.log.info(seeded, 'demo bots: their history played through the engine');
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Fastify stops accepting, lets running requests finish, stops the engine; then the database closes.
    await app.close();
    await close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  if (config.engine === 'only') {
    // The engine alone: it leases shards of the tasks and answers no HTTP.
    await app.ready();
    console.log('\n  Quant Trader engine is running (ENGINE=only: no HTTP; it drives the shards it leases).\n');
    return;
  }
  await app.listen({ port: config.port, host: config.host });
  const address = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${(app.server.address() as { port: number }).port}/`;
  const lines = [
    '',
    `  Quant Trader is running: ${address}`,
    config.dashboardDir ? '' : '  (dashboard build not found: run `npm run build`)',
    demoAccountLine(demoDecision, demo),
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
