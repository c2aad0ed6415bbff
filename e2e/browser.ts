import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserServer, type LaunchOptions } from 'playwright-core';
import { inject } from 'vitest';

/** Debian's Chromium (installed by .ci/run); CHROMIUM_PATH overrides it. */
export const chromiumPath = (): string => {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error('Chromium not found: install the Debian "chromium" package or set CHROMIUM_PATH');
  return found;
};

const launchOptions = (): LaunchOptions => ({
  executablePath: chromiumPath(),
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});

export const launchChromium = (): Promise<Browser> => chromium.launch(launchOptions());

/**
 * A Chromium that outlives the test files (the journeys' global setup starts
 * one per worker): each journey connects to it and gets contexts of its own,
 * which the connection's close takes with it.
 */
export const launchChromiumServer = (): Promise<BrowserServer> => chromium.launchServer(launchOptions());

/**
 * This worker's Chromium (of the global setup), through a connection of the
 * caller's own: closing it closes every context it opened.
 */
export const workerChromium = (): Promise<Browser> => {
  const endpoints = inject('chromiumEndpoints');
  const worker = Math.max(1, Number(process.env.VITEST_POOL_ID ?? 1));
  return chromium.connect(endpoints[(worker - 1) % endpoints.length]!);
};

export const VIEWPORTS = {
  phone: { width: 375, height: 812 },
  desktop: { width: 1280, height: 800 },
} as const;
