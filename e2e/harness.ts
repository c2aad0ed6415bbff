import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { inject } from 'vitest';
import type { ServerConfig } from '../server/src/config';
import { startServer, type TestServer } from '../server/test/harness';
import { VIEWPORTS, workerChromium } from './browser';

export const ARTIFACTS = join(process.cwd(), 'e2e', 'artifacts');

export interface Journey {
  server: TestServer;
  /** A connection to the worker's Chromium: the contexts a journey opens on it close with the journey. */
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /**
   * Every Content-Security-Policy violation of the context's pages (their
   * `securitypolicyviolation` events and Chromium's console reports). A journey
   * that leaves one here fails when it closes.
   */
  cspViolations: string[];
  url(hashPath: string): string;
  shot(name: string): Promise<void>;
  close(): Promise<void>;
}

/** The real server (PGlite, outbox mail) serving the built dashboard. */
export const startJourneyServer = (config: Partial<ServerConfig> = {}, build: Parameters<typeof startServer>[2] = {}): Promise<TestServer> =>
  startServer('pglite', { dashboardDir: inject('dashboardDir'), ...config }, build);

/**
 * The real server (PGlite, outbox mail) serving the built dashboard, and a page of a new Chromium context on it.
 * With `server`, the journey works on that one (a file's journeys that each use users of their own share it):
 * its close leaves it running for the file to close. No other server of the file may start while it is in use:
 * the file's PGlite follows the schema of the server started last.
 */
export const startJourney = async (
  options: {
    viewport?: keyof typeof VIEWPORTS;
    locale?: 'zh-CN' | 'en-US' | 'zh-TW';
    config?: Partial<ServerConfig>;
    /** What the server is built with besides its configuration (a paper market the test moves, say). */
    build?: Parameters<typeof startServer>[2];
    server?: TestServer;
  } = {},
): Promise<Journey> => {
  const shared = options.server;
  const [started, connected] = await Promise.allSettled([shared ?? startJourneyServer(options.config, options.build), workerChromium()]);
  if (started.status === 'rejected' || connected.status === 'rejected') {
    if (started.status === 'fulfilled' && !shared) await started.value.close();
    if (connected.status === 'fulfilled') await connected.value.close();
    throw started.status === 'rejected' ? started.reason : (connected as PromiseRejectedResult).reason;
  }
  const server = started.value;
  const browser = connected.value;
  const context = await browser.newContext({ viewport: VIEWPORTS[options.viewport ?? 'desktop'], locale: options.locale ?? 'zh-CN' });
  const cspViolations = await watchCsp(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  if (options.locale) {
    await context.addInitScript((code) => {
      if (location.protocol.startsWith('http') && !localStorage.getItem('locale')) localStorage.setItem('locale', code);
    }, options.locale);
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    server,
    browser,
    context,
    page,
    cspViolations,
    url: (hashPath) => `${server.base}/#${hashPath}`,
    shot: async (name) => {
      await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
    },
    async close() {
      await browser.close();
      if (!shared) await server.close();
      if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
      if (cspViolations.length > 0) throw new Error(`Content-Security-Policy violations: ${cspViolations.join('; ')}`);
    },
  };
};

/**
 * Collects the Content-Security-Policy violations of every page of a context:
 * the page's own `securitypolicyviolation` events (also from shadow roots:
 * the event is composed) and the reports Chromium writes to the console.
 */
export const watchCsp = async (context: BrowserContext): Promise<string[]> => {
  const violations: string[] = [];
  await context.exposeBinding('__qtCspViolation', (_source, text: string) => {
    violations.push(text);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __qtCspViolation?: (text: string) => void }).__qtCspViolation;
      report?.(`${event.effectiveDirective} refused ${event.blockedURI || 'inline'} (${event.sourceFile || location.href}:${event.lineNumber})`);
    });
  });
  context.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
};

/** The hash path the page shows now. */
export const hashPath = (page: Page) => new URL(page.url()).hash.replace(/^#/, '').split('?')[0] || '/';

export const storage = (page: Page) =>
  page.evaluate(() => ({
    localAccess: localStorage.getItem('accessToken'),
    localRefresh: localStorage.getItem('refreshToken'),
    sessionAccess: sessionStorage.getItem('accessToken'),
    sessionRefresh: sessionStorage.getItem('refreshToken'),
  }));

/** Puts a session into a page's storage (remember me on, zh-CN), then opens `path` of the dashboard as a fresh load. */
export const openAs = async (page: Page, base: string, session: { accessToken: string; refreshToken: string }, path: string, locale = 'zh-CN') => {
  await page.goto(`${base}/#/auth/login`);
  await page.evaluate(
    ([access, refresh, language]) => {
      localStorage.setItem('accessToken', access!);
      localStorage.setItem('refreshToken', refresh!);
      localStorage.setItem('locale', language!);
    },
    [session.accessToken, session.refreshToken, locale],
  );
  await page.goto('about:blank');
  await page.goto(`${base}/#${path}`);
};
