import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocaleCode } from '../src/api/types';
import { VIEWPORTS } from './browser';
import { hashPath, startJourney, type Journey } from './harness';
import { GUEST, PROTECTED, checkPage, shot, text, watchApi, type Seed, type Viewport } from './routeSweep';

/**
 * The route sweep (routeSweep.ts): that it names every route of the dashboard,
 * and the guest pages in every language at both widths. Every protected route
 * in every language and width: routes.<locale>.<viewport>.test.ts.
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

/** Every language at phone (375 px) and desktop (1280 px) width, a file each. */
const GROUPS: readonly { locale: LocaleCode; viewport: Viewport }[] = (['zh-CN', 'en-US', 'zh-TW'] as const).flatMap((locale) =>
  (['phone', 'desktop'] as const).map((viewport) => ({ locale, viewport })),
);

it('sweeps every language at both widths, a file each', () => {
  const files = readdirSync(join(process.cwd(), 'e2e')).filter((name) => /^routes\..+\.test\.ts$/.test(name));
  expect(new Set(files)).toEqual(new Set(GROUPS.map(({ locale, viewport }) => `routes.${locale}.${viewport}.test.ts`)));
  for (const { locale, viewport } of GROUPS) {
    expect(readFileSync(join(process.cwd(), 'e2e', `routes.${locale}.${viewport}.test.ts`), 'utf8')).toContain(`sweepRoutes('${locale}', '${viewport}')`);
  }
});

describe('guest pages', () => {
  let journey: Journey;
  let apiErrors: string[];

  beforeAll(async () => {
    journey = await startJourney({ viewport: 'phone', locale: 'zh-CN' });
    apiErrors = watchApi(journey.page);
  }, 120_000);

  afterAll(async () => {
    await journey?.close();
  });

  const cases = (['zh-CN', 'en-US', 'zh-TW'] as const).flatMap((locale) =>
    (['phone', 'desktop'] as const).flatMap((viewport) => GUEST.map((route) => ({ locale, viewport, route }))),
  );

  it.each(cases)('$route.route in $locale at $viewport width', async ({ locale, viewport, route }) => {
    const { page } = journey;
    apiErrors.length = 0;
    await page.setViewportSize(VIEWPORTS[viewport]);
    await page.goto(journey.url('/auth/login'));
    await page.evaluate((code) => localStorage.setItem('locale', code), locale);
    await page.goto(journey.url(route.path({} as Seed)));
    await page.reload();
    journey.cspViolations.length = 0;
    try {
      await checkPage(journey, locale, text(locale, route.titleKey), apiErrors);
      expect(journey.cspViolations, 'Content-Security-Policy violations').toEqual([]);
    } finally {
      await shot(journey, `route-guest-${locale}-${VIEWPORTS[viewport].width}-${route.slug}`);
    }
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

  it.each(['zh-CN', 'en-US', 'zh-TW'] as const)('a path nobody knows, signed out, in %s', async (locale) => {
    const { page } = journey;
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto(journey.url('/auth/login'));
    await page.evaluate((code) => localStorage.setItem('locale', code), locale);
    await page.goto(journey.url('/no/such/page'));
    await page.reload();
    // Spec section 2: any other path shows a not-found page, signed in or not.
    try {
      await checkPage(journey, locale, text(locale, 'page.notFound'), apiErrors);
      expect(hashPath(page)).toBe('/no/such/page');
    } finally {
      await shot(journey, `route-guest-${locale}-375-not-found`);
    }
  });
});
