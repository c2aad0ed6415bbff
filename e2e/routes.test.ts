import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocaleCode } from '../src/api/types';
import { startJourney, type Journey } from './harness';
import { GUEST, PARTS, PROTECTED } from './routeSweep';

/**
 * The route sweep (routeSweep.ts): that it names every route of the dashboard
 * and runs in every language, and the icons the pages name. The routes
 * themselves, in every language at both widths: routes.<locale>.<part>.test.ts.
 */

it("covers every route of the dashboard's areas", () => {
  const dashboard = join(process.cwd(), 'src', 'dashboard');
  const tables = readdirSync(dashboard, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dashboard, entry.name, 'index.ts')))
    .map((entry) => readFileSync(join(dashboard, entry.name, 'index.ts'), 'utf8'));
  const paths = tables.flatMap((table) => [...table.matchAll(/path: '([^']+)', titleKey: '([^']+)'/g)].map((m) => `${m[1]} ${m[2]}`));
  expect(paths.length).toBeGreaterThan(30);
  // `/` is react-admin's dashboard slot (the home page); any other path shows the not-found page.
  expect(new Set([...PROTECTED, ...GUEST].map((v) => `${v.route} ${v.titleKey}`))).toEqual(new Set([...paths, '/ page.home', '/no/such/page page.notFound']));
});

/** Every language, two files each (both widths in each). */
const LOCALES: readonly LocaleCode[] = ['zh-CN', 'en-US', 'zh-TW'];

it('sweeps every language, two files each, and every route in one of the two', () => {
  const files = readdirSync(join(process.cwd(), 'e2e')).filter((name) => /^routes\..+\.test\.ts$/.test(name));
  expect(new Set(files)).toEqual(new Set(LOCALES.flatMap((locale) => [1, 2].map((part) => `routes.${locale}.${part}.test.ts`))));
  for (const locale of LOCALES) {
    for (const part of [1, 2]) {
      expect(readFileSync(join(process.cwd(), 'e2e', `routes.${locale}.${part}.test.ts`), 'utf8')).toContain(`sweepRoutes('${locale}', ${part})`);
    }
  }
  expect([...PARTS[1], ...PARTS[2]].map((route) => route.route).sort()).toEqual(PROTECTED.map((route) => route.route).sort());
});

describe('the icons', () => {
  let journey: Journey;

  beforeAll(async () => {
    journey = await startJourney({ viewport: 'phone', locale: 'zh-CN' });
  }, 120_000);

  afterAll(async () => {
    await journey?.close();
  });

  it('names the favicon, the Apple touch icon and the manifest, and serves them with their icons', async () => {
    const { page } = journey;
    await page.goto(journey.url('/auth/login'));
    const links = await page.evaluate(() =>
      Object.fromEntries([...document.querySelectorAll('link[rel]')].map((link) => [link.getAttribute('rel'), link.getAttribute('href')])),
    );
    expect(links).toMatchObject({ icon: '/favicon.svg', 'apple-touch-icon': '/apple-touch-icon.png', manifest: '/manifest.webmanifest' });
    const get = (path: string) => page.request.get(new URL(path, page.url()).href);
    expect((await get('/favicon.svg')).headers()['content-type']).toContain('image/svg+xml');
    const apple = await get('/apple-touch-icon.png');
    expect(apple.headers()['content-type']).toBe('image/png');
    // PNG width and height (IHDR): 180 x 180.
    expect((await apple.body()).readUInt32BE(16)).toBe(180);
    const manifest = (await (await get('/manifest.webmanifest')).json()) as { icons: { src: string; sizes: string }[] };
    for (const icon of manifest.icons) expect((await get(icon.src)).status(), icon.src).toBe(200);
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  });
});
