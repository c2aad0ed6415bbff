import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { LocaleCode } from '../src/api/types';
import { allMessages } from '../src/testing/allMessages';
import { adjustBalance, quickStrategy, registerUser, trustAddress, type TestServer } from '../server/test/harness';
import { insertCycle } from '../server/test/memberFixtures';
import { VIEWPORTS } from './browser';
import { ARTIFACTS, hashPath, startJourney, type Journey } from './harness';
import { textFindings, type TextFindings } from './pageChecks';

/**
 * The route sweep (two files per language, routes.<locale>.<part>.test.ts, so
 * each stays well within the time a test file may take, and routes.test.ts): every route
 * of spec section 2 in real Chromium against the real server, for a user with
 * real data (a paper account, a template, running tasks with fills, a closed
 * cycle, wallet funds and records, an invitee). Every protected route and the
 * guest pages (and a not-found path, signed out and in) in every language at
 * phone (375 px) and desktop (1280 px) width: each page is opened once and
 * then resized to the other width. Each visit checks the page heading is the
 * route's translated title, no error alert, no failed API call, no raw
 * translation key or id, no `undefined`/`NaN`/`[object Object]`, no
 * half-width colon in Chinese, no horizontal overflow, no text cut by its box
 * (nor running past the window), no number broken across lines, a side menu
 * as wide as it asks, and no Content-Security-Policy violation. A visit that
 * fails leaves a full-page screenshot in e2e/artifacts (every visit does with
 * ROUTE_SHOTS=1).
 */

export type Viewport = keyof typeof VIEWPORTS;
const PASSWORD = 'Sturdy-Passw0rd!';
const ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** A text of the running locale, read from the dashboard's own messages. */
export const text = (locale: LocaleCode, key: string, options: Record<string, string> = {}): string => {
  const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], allMessages(locale));
  if (typeof value !== 'string') throw new Error(`no text ${key} in ${locale}`);
  return value.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => options[name] ?? '');
};

/** Top-level namespaces of the messages: a visible `namespace.key` is a missing translation. */
const NAMESPACES = [
  ...new Set([
    'page',
    'wallet',
    'profile',
    'admin',
    'tasks',
    'home',
    'exchange',
    'app',
    'ra',
    ...Object.entries(allMessages('zh-CN'))
      .filter(([, value]) => typeof value === 'object')
      .map(([key]) => key),
  ]),
];
const RAW_KEY = new RegExp(`\\b(${NAMESPACES.join('|')})\\.[a-zA-Z_]+(\\.[a-zA-Z_]+)*\\b`);

export interface Seed {
  articleId: string;
  strategyId: string;
  taskId: string;
  exchangeId: string;
  date: string;
}

interface Visit {
  slug: string;
  path: (seed: Seed) => string;
  titleKey: string;
  /** The path as the route table spells it. */
  route: string;
}

const visit = (route: string, titleKey: string, path?: (seed: Seed) => string): Visit => ({
  route,
  titleKey,
  path: path ?? (() => route),
  slug: route === '/' ? 'home' : route.slice(1).replace(/[/:]+/g, '-'),
});

/** Every protected route of spec section 2 (the dashboard areas' routes), with real ids. */
export const PROTECTED: readonly Visit[] = [
  visit('/', 'page.home'),
  visit('/trade', 'page.trade'),
  visit('/strategy', 'page.strategy'),
  visit('/profile', 'page.profile'),
  visit('/article', 'page.article'),
  visit('/article/:id', 'page.articleDetail', (s) => `/article/${s.articleId}`),
  visit('/strategy/add', 'page.strategyAdd'),
  visit('/strategy/edit/:id', 'page.strategyEdit', (s) => `/strategy/edit/${s.strategyId}`),
  visit('/trade/add', 'page.tradeAdd'),
  visit('/trade/detail/:id', 'page.tradeDetail', (s) => `/trade/detail/${s.taskId}`),
  visit('/trade/order-history', 'page.orderHistory', (s) => `/trade/order-history?taskId=${s.taskId}`),
  visit('/trade/all-order-history', 'page.allOrderHistory'),
  visit('/trade/pair-select', 'page.pairSelect'),
  visit('/exchange', 'page.exchange'),
  visit('/exchange/add', 'page.exchangeAdd'),
  visit('/exchange/edit/:id', 'page.exchangeEdit', (s) => `/exchange/edit/${s.exchangeId}`),
  visit('/profile/edit', 'page.profileEdit'),
  visit('/profile/activate', 'page.activate'),
  visit('/profile/member-level', 'page.memberLevel'),
  visit('/profile/fuel', 'page.fuel'),
  visit('/profile/security', 'page.security'),
  visit('/profile/profit-detail', 'page.profitDetail'),
  visit('/profile/daily-profit-detail/:date', 'page.dailyProfitDetail', (s) => `/profile/daily-profit-detail/${s.date}`),
  visit('/profile/profit-rank', 'page.profitRank'),
  visit('/profile/invite', 'page.invite'),
  visit('/profile/community', 'page.community'),
  visit('/profile/wallet', 'page.wallet'),
  visit('/profile/wallet/recharge', 'page.recharge'),
  visit('/profile/wallet/withdraw', 'page.withdraw'),
  visit('/profile/wallet/addresses', 'page.withdrawAddresses'),
  visit('/profile/wallet/transfer', 'page.transfer'),
  visit('/profile/wallet/exchange', 'page.swap'),
  visit('/profile/wallet/points-transfer', 'page.pointsTransfer'),
  visit('/profile/wallet/usdt-records', 'page.usdtRecords'),
  visit('/profile/wallet/card-records', 'page.cardRecords'),
  visit('/profile/wallet/points-records', 'page.pointsRecords'),
  visit('/profile/notification-channels', 'page.notifyChannels'),
  visit('/notifications', 'page.notifications'),
  visit('/no/such/page', 'page.notFound'),
];

/** Any other path, signed out too (spec section 2): the not-found page. */
export const NOT_FOUND = PROTECTED.find((route) => route.titleKey === 'page.notFound')!;

export const GUEST: readonly Visit[] = [
  visit('/auth/login', 'page.login'),
  visit('/auth/register', 'page.register'),
  visit('/auth/forgot-password', 'page.forgotPassword'),
];

/** Business answers that are not errors of the page (none so far). */
const API_ERROR_ALLOWED: readonly RegExp[] = [];

/** A user with data on every page. */
const seed = async (server: TestServer, email: string): Promise<{ accessToken: string; refreshToken: string; seed: Seed }> => {
  const me = await registerUser(server, { email, nickname: '路线巡检', password: PASSWORD, activated: true });
  const token = me.accessToken;
  const call = async (method: string, path: string, body?: unknown, as = token) => {
    const answer = await server.call(method, path, body, { token: as });
    if (answer.body.code !== 0) throw new Error(`${method} ${path}: ${JSON.stringify(answer.body)}`);
    return answer.body.data;
  };
  const key = () => `routes-${randomBytes(8).toString('hex')}`;

  const exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper 模拟盘' })).id as string;
  const strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).id as string;
  const tasks = (await call('POST', '/api/trade/add', {
    exchangeId,
    // A four-letter coin and SHIB's long quantities belong on the phone cards too.
    coinIdList: ['BTC/USDT', 'ETH/USDT', 'DOGE/USDT', 'SHIB/USDT'],
    cycleCount: 3,
    firstOrderAmount: '10',
    firstOrderMultiple: false,
    running: true,
    replenishStatus: 'replenish_open',
    strategyId,
  })) as { id: string }[];
  for (let i = 0; i < 30; i++) await server.app.engine.tick(10);
  // The ids come in the order of coinIdList: BTC's first.
  const taskId = tasks[0]!.id;

  // Closed cycles: today's (for the day page) and older ones.
  const now = new Date();
  await insertCycle(server, me.user.id, { profit: '1.25', buyCost: '120', symbol: 'BTC/USDT', accountName: 'Paper 历史', closedAt: now.toISOString() });
  // Named, not left to the fixture's random name: the exchange cards cut a wide name without its full text
  // (at 1280 px in zh-TW, "Paper wmghm07d"), so a random one made the sweep fail by chance.
  await insertCycle(server, me.user.id, {
    profit: '-0.4',
    buyCost: '80',
    symbol: 'ETH/USDT',
    accountName: 'Paper 以太',
    closedAt: new Date(now.getTime() - 2 * 86400_000).toISOString(),
  });
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const days = (await call('GET', `/api/profit/daily?timeZone=${encodeURIComponent(timeZone)}`)) as { list: { date: string }[] };
  const date = days.list[0]!.date;

  // The wallet: funds of every asset, and records of every kind the user can cause.
  await adjustBalance(server, me.user.id, 'USDT', '520.5');
  await adjustBalance(server, me.user.id, 'CARD', '3');
  await adjustBalance(server, me.user.id, 'POINTS', '88');
  const invitee = await registerUser(server, { email: `friend-${email}`, nickname: '小伙伴', inviteCode: me.user.inviteCode, activated: true });
  await insertCycle(server, invitee.user.id, { profit: '3', buyCost: '200' });
  await call('POST', '/api/wallet/recharge', { amount: '50', idempotencyKey: key() });
  // The address book: one address usable already, one added now (waiting 24 hours), the whitelist on.
  await trustAddress(server, me.user.id, ADDRESS);
  await call('POST', '/api/wallet/addresses/add', { address: 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8', label: '冷钱包 Cold', password: PASSWORD });
  await call('POST', '/api/wallet/addresses/whitelist', { enabled: true });
  await call('POST', '/api/wallet/withdraw', { amount: '20', address: ADDRESS, password: PASSWORD, idempotencyKey: key() });
  await call('POST', '/api/wallet/transfer', { to: invitee.user.email ?? `friend-${email}`, amount: '5', password: PASSWORD, idempotencyKey: key() });
  await call('POST', '/api/wallet/exchange', { from: 'USDT', to: 'FUEL', amount: '10', idempotencyKey: key() });
  await call('POST', '/api/wallet/points-transfer', { to: `friend-${email}`, amount: '8', password: PASSWORD, idempotencyKey: key() });

  const articles = (await call('GET', '/api/article/list')) as { list: { id: string }[] };
  const articleId = articles.list[0]!.id;
  return { accessToken: me.accessToken, refreshToken: me.refreshToken, seed: { articleId, strategyId, taskId, exchangeId, date } };
};

/**
 * The page's API calls in flight (HTTP requests to /api/ but the live stream), counted from the
 * browser's own request events: settle waits for none.
 */
export const watchInFlight = (page: Page) => {
  const pending = new Set<unknown>();
  // The notifications' live stream stays open as long as the page does: it is never "in flight".
  const api = (request: { url(): string }) => {
    const path = new URL(request.url()).pathname;
    return path.startsWith('/api/') && path !== '/api/notifications/stream';
  };
  page.on('request', (request) => {
    if (api(request)) pending.add(request);
  });
  const done = (request: unknown) => pending.delete(request);
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return () => pending.size;
};

/**
 * Waits until the page has stopped loading and moving: no progress indicator
 * or skeleton shown, no API call in flight, no transition or finite animation
 * running, the fonts loaded; twice in a row, each after two animation frames
 * (what a response or a resize sets off is painted by then). Gives up after
 * 10 s and lets the checks see the page as it is.
 */
export const settle = async (page: Page, inFlight: () => number) => {
  const until = Date.now() + 10_000;
  let quiet = 0;
  while (quiet < 2 && Date.now() < until) {
    const still = await page.evaluate(async () => {
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const visible = (el: Element) => el.getClientRects().length > 0;
      // Spinners and skeletons; a determinate bar (a level's progress) is content, not loading.
      const busy = [...document.querySelectorAll('[role="progressbar"]:not([aria-valuenow]), .MuiSkeleton-root')].some(visible);
      // A drawer's or a collapse's transition still changes the layout; an endless animation (a pulse) never ends.
      const moving = document.getAnimations().some((animation) => animation.playState === 'running' && animation.effect?.getComputedTiming().iterations !== Infinity);
      return !busy && !moving && document.fonts.status === 'loaded';
    });
    quiet = still && inFlight() === 0 ? quiet + 1 : 0;
  }
};

interface Findings extends TextFindings {
  headings: string[];
  errorAlerts: string[];
  text: string;
  scrollWidth: number;
  viewportWidth: number;
  /** The docked side menu (desktop): its box and the width its paper asks for. */
  sideMenu: { width: number; wanted: number } | null;
}

const inspect = async (page: Page): Promise<Findings> => ({
  ...(await textFindings(page)),
  ...(await page.evaluate(() => {
    const visible = (el: Element) => el.getClientRects().length > 0;
    return {
      headings: [...document.querySelectorAll('h1')].filter(visible).map((h) => (h as HTMLElement).innerText.trim()),
      errorAlerts: [...document.querySelectorAll('[role="alert"]')]
        .filter((el) => visible(el) && /(colorError|standardError|filledError|outlinedError|RaNotification-error)/.test(el.className))
        .map((el) => (el as HTMLElement).innerText.trim()),
      text: document.body.innerText,
      scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth,
      viewportWidth: window.innerWidth,
      sideMenu: (() => {
        const drawer = document.querySelector('.RaLayout-contentWithSidebar > .MuiDrawer-docked');
        const paper = drawer?.querySelector('.MuiDrawer-paper');
        if (!drawer || !paper || !visible(drawer)) return null;
        return { width: Math.round(drawer.getBoundingClientRect().width), wanted: Math.round(paper.getBoundingClientRect().width) };
      })(),
    };
  })),
});

/** The checks of every visit; `where` names the route, language and width in each failure. */
export const checkPage = async (page: Page, locale: LocaleCode, expectedTitle: string, apiErrors: string[], inFlight: () => number) => {
  const where = () => `${hashPath(page)} in ${locale} at ${page.viewportSize()?.width} px`;
  // Seen in the frame it is painted in (a locator's wait polls at growing intervals, up to half a second late)...
  await page
    .waitForFunction((title) => [...document.querySelectorAll('h1')].some((h) => h.getClientRects().length > 0 && (h as HTMLElement).innerText.trim() === title), expectedTitle, {
      polling: 'raf',
      timeout: 15_000,
    })
    .catch(() => undefined);
  // ...and then as assistive technology finds it: a heading of level 1 with the title.
  await page.getByRole('heading', { level: 1, name: expectedTitle, exact: true }).waitFor({ timeout: 15_000 });
  await settle(page, inFlight);
  const found = await inspect(page);
  expect(found.headings, `the page heading of ${where()}`).toEqual([expectedTitle]);
  expect(found.errorAlerts, `error alerts in ${where()}`).toEqual([]);
  expect(found.text.match(RAW_KEY)?.[0], `a raw translation key in ${where()}`).toBeUndefined();
  expect(found.text.match(/\bundefined\b|\bNaN\b|\[object Object\]|\bnull\b|Invalid Date/)?.[0], `a broken value in ${where()}`).toBeUndefined();
  // Records name things by their short references, never by a raw id.
  expect.soft(found.text.match(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i)?.[0], `a raw id in ${where()}`).toBeUndefined();
  // Chinese text takes the full-width colon.
  if (locale !== 'en-US') expect.soft(found.text.match(/[\u3400-\u9fff][^\S\n]*:/)?.[0], `a half-width colon in ${where()}`).toBeUndefined();
  expect.soft(found.scrollWidth, `horizontal overflow in ${where()}`).toBeLessThanOrEqual(found.viewportWidth);
  expect.soft(found.clipped, `clipped text in ${where()}`).toEqual([]);
  expect.soft(found.brokenNumbers, `numbers broken across lines in ${where()}`).toEqual([]);
  // A wide page must not squeeze the side menu (its labels would be cut).
  if (found.sideMenu) expect(found.sideMenu.width, `side menu width in ${where()}`).toBe(found.sideMenu.wanted);
  expect(apiErrors, `API calls that failed in ${where()}`).toEqual([]);
};

/** Full-page screenshots of every visit, not only of those that fail. */
const EVERY_SHOT = process.env.ROUTE_SHOTS === '1';

/**
 * A full-page screenshot, with transitions finished first: the resize a
 * full-page capture makes would otherwise catch the side menu in mid-transition.
 */
export const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true, animations: 'disabled' });

/**
 * One visit's checks (`check`), with a full-page screenshot when they fail
 * (hard or soft), or always with ROUTE_SHOTS=1.
 */
const withShot = async (j: Journey, test: TestContext, name: string, check: () => Promise<void>) => {
  let failed = true;
  try {
    await check();
    failed = (test.task.result?.errors?.length ?? 0) > 0;
  } finally {
    if (failed || EVERY_SHOT) await shot(j.page, name);
  }
};

/** Records the failed API calls (HTTP error or business code) of the page. */
export const watchApi = (page: Page) => {
  const errors: string[] = [];
  page.on('response', async (response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith('/api/')) return;
    if (response.status() >= 400) {
      errors.push(`${url.pathname}: HTTP ${response.status()}`);
      return;
    }
    try {
      const body = (await response.json()) as { code?: number; message?: string };
      const line = `${url.pathname}: ${body.code} ${body.message}`;
      if (typeof body.code === 'number' && body.code !== 0 && !API_ERROR_ALLOWED.some((allowed) => allowed.test(line))) errors.push(line);
    } catch {
      // Not JSON (the OpenAPI document, a stream): not an envelope.
    }
  });
  return errors;
};

/**
 * The protected routes of each part of the sweep: the trading areas (home,
 * trade, strategy, articles, exchange accounts) and the profile with the wallet.
 */
export const PARTS = {
  1: PROTECTED.filter((route) => !route.route.startsWith('/profile') && route.titleKey !== 'page.notFound'),
  2: PROTECTED.filter((route) => route.route.startsWith('/profile') || route.titleKey === 'page.notFound'),
} as const;
export type Part = keyof typeof PARTS;

/**
 * A part of the sweep in one language, a file's worth: one server, one seeded
 * user, one Chromium context. Part 1 visits the guest pages first, signed
 * out; then the seeded user's session is put in storage (no login form) and
 * the part's protected routes are visited by the dashboard's own (hash)
 * navigation; part 2 ends with the dark theme. Every page at phone width
 * first, then the same pages, the page resized once, at desktop width: a page
 * resized from desktop to phone width keeps the whole app hidden from
 * assistive technology (the side menu's drawer leaves `aria-hidden` on it),
 * so the sweep never narrows a page.
 */
export const sweepRoutes = (locale: LocaleCode, part: Part) =>
  describe(`the routes of part ${part} in ${locale}`, () => {
    const routes = PARTS[part];
    let journey: Journey;
    let seeded: Promise<Awaited<ReturnType<typeof seed>>>;
    let data: Seed;
    let apiErrors: string[];
    let inFlight: () => number;

    beforeAll(async () => {
      journey = await startJourney({ viewport: 'phone', locale });
      // The user's data is made on the server while the guest pages are visited.
      seeded = seed(journey.server, `routes-${locale.toLowerCase()}-${part}@example.com`);
      seeded.catch(() => undefined);
      apiErrors = watchApi(journey.page);
      inFlight = watchInFlight(journey.page);
    }, 120_000);

    afterAll(async () => {
      await journey?.close();
    });

    const visit = async (test: TestContext, slug: string, path: string, title: string) => {
      const { page } = journey;
      const width = page.viewportSize()!.width;
      apiErrors.length = 0;
      journey.cspViolations.length = 0;
      await page.goto(journey.url(path));
      await withShot(journey, test, `route-${locale}-${width}-${slug}`, async () => {
        await checkPage(page, locale, title, apiErrors, inFlight);
        expect(hashPath(page)).toBe(path.split('?')[0]);
        // The page's code, styles and images all within the dashboard's Content-Security-Policy.
        expect(journey.cspViolations, `Content-Security-Policy violations in ${path} at ${width} px`).toEqual([]);
      });
    };

    /** Widens the page (never narrows it: see above). */
    const widen = () =>
      beforeAll(async () => {
        await journey.page.setViewportSize(VIEWPORTS.desktop);
      });

    if (part === 1) {
      describe('signed out', () => {
        describe('at 375 px', () => {
          it.for([...GUEST, NOT_FOUND])('$route', async (route, test) => {
            await visit(test, `guest-${route.slug}`, route.path({} as Seed), text(locale, route.titleKey));
          });
        });
        describe('at 1280 px', () => {
          widen();
          it.for([...GUEST, NOT_FOUND])('$route', async (route, test) => {
            await visit(test, `guest-${route.slug}`, route.path({} as Seed), text(locale, route.titleKey));
          });
        });
      });
    }

    describe('signed in', () => {
      beforeAll(async () => {
        const session = await seeded;
        data = session.seed;
        const { page } = journey;
        await page.goto(journey.url('/auth/login'));
        await page.evaluate(
          ([access, refresh]) => {
            localStorage.setItem('accessToken', access!);
            localStorage.setItem('refreshToken', refresh!);
          },
          [session.accessToken, session.refreshToken],
        );
        // The first route opens as a fresh load with the session, as a returning user's would, at phone width.
        await page.goto('about:blank');
        await page.setViewportSize(VIEWPORTS.phone);
      }, 120_000);

      describe('at 375 px', () => {
        it.for(routes)('$route', async (route, test) => {
          await visit(test, route.slug, route.path(data), text(locale, route.titleKey, { date: data.date }));
        });
      });

      if (part === 2) {
        it('shows a task in dark mode (the stored choice, kept over a reload) at both widths', async (test) => {
          const { page } = journey;
          await page.evaluate(() => localStorage.setItem('themeMode', 'dark'));
          const path = `/trade/detail/${data.taskId}`;
          await page.goto(journey.url(path));
          try {
            for (const viewport of ['phone', 'desktop'] as const) {
              apiErrors.length = 0;
              // The first width after a reload, the second after the resize.
              if (viewport === 'phone') await page.reload();
              else await page.setViewportSize(VIEWPORTS[viewport]);
              await withShot(journey, test, `route-dark-${locale}-${VIEWPORTS[viewport].width}-trade-detail`, async () => {
                await checkPage(page, locale, text(locale, 'page.tradeDetail'), apiErrors, inFlight);
                const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
                // #121417: the dark theme's page background.
                expect(background).toBe('rgb(18, 20, 23)');
              });
            }
          } finally {
            await page.evaluate(() => localStorage.removeItem('themeMode'));
            await page.reload();
          }
        });
      }

      describe('at 1280 px', () => {
        widen();
        it.for(routes)('$route', async (route, test) => {
          await visit(test, route.slug, route.path(data), text(locale, route.titleKey, { date: data.date }));
        });
      });
    });
  });
