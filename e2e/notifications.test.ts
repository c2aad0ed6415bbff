import Big from 'big.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createMarket, type SimulatedMarket } from '../server/src/engine/venues/paper/market';
import { generateVapidKeys } from '../server/src/notify/channels/webpush';
import { browserKeys, decryptPush, PUSH_SERVICE_CA, startPushService } from '../server/test/fakes/pushService';
import { startFakeBotApi } from '../server/test/fakes/telegramBotApi';
import { decodeMail, registerUser } from '../server/test/harness';
import { VIEWPORTS } from './browser';
import { firstRobotSteps } from './firstBotSteps';
import { hashPath, startJourney, type Journey } from './harness';

/**
 * Notifications in real Chromium (issue 25), zh-CN on a desktop: a newcomer
 * links Telegram with the one-time deep link on a local Bot API, turns on
 * this browser's push, and starts a first robot. Its fill rings the bell and
 * the inbox links to the task; the closed cycle reaches the e-mail outbox,
 * the Telegram chat and the push service, whose encrypted payload the test
 * decrypts with the browser's keys and hands to the page's service worker.
 *
 * Chromium subscribes to push only at its own push service (Google's, with a
 * sender registration it has no keys for here), so the page's
 * PushManager.subscribe answers a subscription of the local push service
 * instead: keys the test holds, everything else as a browser does it.
 */
const TOKEN = '7000000001:AAFakeTokenForLocalBotApi_0123456789';
const CHAT = 424242;

/** The seeded paper market with BTC/USDT lifted by a factor the test sets: a rise that takes profit, on cue. */
const liftedMarket = () => {
  const inner = createMarket(42);
  let lift = new Big(1);
  const up = (price: string) => (lift.eq(1) ? price : new Big(price).times(lift).round(2, Big.roundDown).toFixed(2));
  const market: SimulatedMarket = {
    ...inner,
    price: (symbol) => (symbol === 'BTC/USDT' ? up(inner.price(symbol)) : inner.price(symbol)),
    prices: () => {
      const all = inner.prices();
      return { ...all, 'BTC/USDT': up(all['BTC/USDT']!) };
    },
    bestPrices: (symbol) => {
      const best = inner.bestPrices(symbol);
      return symbol === 'BTC/USDT' ? { last: up(best.last), bid: up(best.bid), ask: up(best.ask) } : best;
    },
    ticker: (symbol) => {
      const ticker = inner.ticker(symbol);
      return symbol === 'BTC/USDT' ? { ...ticker, last: up(ticker.last), close: up(ticker.close), bid: up(ticker.bid), ask: up(ticker.ask) } : ticker;
    },
  };
  return { market, lift: (factor: string) => (lift = new Big(factor)) };
};

let journey: Journey | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await journey?.close();
  journey = undefined;
  for (const close of closers.splice(0)) await close();
});

describe('notifications in the browser (zh-CN, desktop, then a phone)', () => {
  it('rings the bell for a fill, links the inbox to the task, and sends the closed cycle by e-mail, to Telegram and as a decrypted push', { timeout: 90_000 }, async () => {
    const bot = await startFakeBotApi(TOKEN);
    closers.push(bot.close);
    const pushService = await startPushService();
    closers.push(pushService.close);
    const vapid = generateVapidKeys();
    const paper = liftedMarket();
    journey = await startJourney({
      viewport: 'desktop',
      locale: 'zh-CN',
      // The local push service's self-signed certificate trusted as PUSH_CA_FILE makes it.
      config: { telegramBotToken: TOKEN, telegramApiRoot: bot.apiRoot, vapidKeys: vapid, webhookAllowPrivateAddresses: true, pushCa: PUSH_SERVICE_CA },
      build: { market: paper.market },
    });
    const j = journey;
    const { page, context, server } = j;
    const shot = (name: string) => j.shot(`notifications-${name}-desktop`);
    const session = await registerUser(server, { email: 'notified@example.com' });
    const token = session.accessToken;

    // This browser's push subscription: the local push service's endpoint and keys the test keeps.
    const keys = browserKeys();
    const endpoint = pushService.endpoint('this-browser');
    await context.grantPermissions(['notifications'], { origin: server.base });
    await context.addInitScript(
      ([address, p256dh, auth]) => {
        if (!('PushManager' in window)) return;
        // Kept across loads, as a browser keeps its subscription.
        const KEY = 'test-push-subscribed';
        const subscription = () => ({
          endpoint: address,
          expirationTime: null,
          toJSON: () => ({ endpoint: address, expirationTime: null, keys: { p256dh, auth } }),
          unsubscribe: async () => (localStorage.removeItem(KEY), true),
        });
        PushManager.prototype.subscribe = async function () {
          localStorage.setItem(KEY, '1');
          return subscription() as unknown as PushSubscription;
        };
        PushManager.prototype.getSubscription = async function () {
          return (localStorage.getItem(KEY) ? subscription() : null) as unknown as PushSubscription | null;
        };
      },
      [endpoint, keys.p256dh, keys.authText],
    );

    // A first robot, as a newcomer makes it.
    const steps = firstRobotSteps(j);
    await steps.saveAccount(session);
    await steps.openWizard();
    await steps.pickPopular('BTC/USDT');
    await steps.create();
    const task = (await server.call('GET', '/api/trade/list', undefined, { token })).body.data.list[0] as { id: string };

    // Telegram: the one-time deep link, opened in the chat as /start <code>.
    await page.goto(j.url('/profile/notification-channels'));
    const telegram = page.locator('[data-section="telegram"]');
    await telegram.getByText('未绑定').waitFor();
    await telegram.getByRole('button', { name: '绑定 Telegram' }).click();
    const deepLink = (await telegram.locator('[data-copy="telegram-link"]').innerText()).match(/https:\/\/t\.me\/qt_notify_bot\?start=([\w-]+)/);
    expect(deepLink).not.toBeNull();
    await shot('telegram-waiting');
    bot.userWrites(CHAT, `/start ${deepLink![1]}`);
    await telegram.getByText(/^已绑定（/).waitFor({ timeout: 15_000 });
    await expect.poll(() => bot.calls.filter((call) => call.method === 'sendMessage').map((call) => [call.body.chat_id, call.body.text])).toEqual([[CHAT, '已绑定：交易与资金通知将发送到这里。']]);

    // Web push: this browser subscribes from the page, which registers the service worker.
    const push = page.locator('[data-section="push"]');
    await push.getByRole('button', { name: '在本浏览器开启' }).click();
    await push.getByText('本浏览器已开启').waitFor();
    expect(await server.db.selectFrom('push_subscriptions').select(['endpoint', 'p256dh', 'auth']).execute()).toEqual([{ endpoint, p256dh: keys.p256dh, auth: keys.authText }]);
    await page.reload();
    await push.getByText('接收通知的浏览器：1').waitFor();
    await shot('channels');

    // The robot buys: the bell counts the fill, the inbox lists it and opens the task.
    for (let i = 0; i < 3; i++) await server.app.engine.tick();
    // A fresh load (the bell asks again every 15 s while the page stays open).
    await page.goto(j.url('/'));
    await page.reload();
    const bell = page.getByRole('button', { name: /^通知，\d+ 条未读$/ });
    const unread = (await server.call('GET', '/api/notifications/unread-count', undefined, { token })).body.data.count as number;
    expect(unread).toBeGreaterThanOrEqual(1);
    await expect.poll(() => bell.getAttribute('aria-label')).toBe(`通知，${unread} 条未读`);
    expect(await bell.innerText()).toBe(String(unread));
    await shot('bell');
    await bell.click();
    await expect.poll(() => hashPath(page)).toBe('/notifications');
    const fill = page.getByRole('listitem').filter({ hasText: /^BTC\/USDT 第 1 档买入：\d+\.\d{2} USDT，价格 \d{1,3}(,\d{3})*\.\d{2}/ });
    await fill.first().waitFor();
    await shot('inbox');
    await fill.first().getByRole('link', { name: '查看任务' }).click();
    await expect.poll(() => hashPath(page)).toBe(`/trade/detail/${task.id}`);

    // The price rises past the take profit, then falls back through its callback: the cycle closes.
    paper.lift('1.05');
    await server.app.engine.tick();
    paper.lift('1.04');
    const closed = async () => (await server.call('GET', '/api/notifications?kind=trade.cycle_closed', undefined, { token })).body.data.total as number;
    for (let i = 0; i < 5 && (await closed()) === 0; i++) await server.app.engine.tick();
    expect(await closed()).toBe(1);

    const mailsBefore = server.outbox().length;
    // The outbox's pass (the worker's, run here at once) through the server's own channels: every channel the user linked.
    await server.app.notify.runOutboxOnce({ quietMs: 0, maxWaitMs: 0 });

    // E-mail: one mail, in the user's language, with the task's link and the kind's unsubscribe link.
    const mails = server.outbox().slice(mailsBefore).map(decodeMail);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('To: notified@example.com');
    expect(mails[0]).toMatch(/BTC\/USDT 第 1 轮完成：\+\d+\.\d{2} USDT（\+\d+\.\d{2}%）/);
    expect(mails[0]).toContain(`查看: /#/trade/detail/${task.id}`);
    expect(mails[0]).toMatch(/不再接收此类邮件 \(一轮完成\): \/unsubscribe\?user=[\w-]+&kind=trade\.cycle_closed&token=[\w-]+/);

    // Telegram: the cycle in the linked chat.
    const sent = bot.calls.filter((call) => call.method === 'sendMessage').slice(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body.chat_id).toBe(String(CHAT));
    expect(sent[0]!.body.text).toMatch(/BTC\/USDT 第 1 轮完成：\+\d+\.\d{2} USDT（\+\d+\.\d{2}%）/);

    // Web push: encrypted for this browser; decrypted with its keys, it is what the service worker shows.
    expect(pushService.received).toHaveLength(1);
    const payload = JSON.parse(decryptPush(pushService.received[0]!.body, keys.ecdh, keys.auth)) as { title: string; body: string; url: string; tag: string };
    expect(payload.body).toMatch(/BTC\/USDT 第 1 轮完成/);
    expect(payload.url).toBe(`#/trade/detail/${task.id}`);
    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
    await cdp.send('ServiceWorker.enable');
    await expect.poll(() => registrations.find((r) => r.scopeURL === `${server.base}/` && !r.isDeleted)).toBeDefined();
    const registration = registrations.find((r) => r.scopeURL === `${server.base}/` && !r.isDeleted)!;
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: server.base, registrationId: registration.registrationId, data: JSON.stringify(payload) });
    const shown = () =>
      page.evaluate(async () => {
        const worker = await navigator.serviceWorker.getRegistration('/sw.js');
        return (await worker!.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: (n.data as { url: string }).url }));
      });
    await expect.poll(shown).toEqual([{ title: payload.title, body: payload.body, tag: payload.tag, url: payload.url }]);

    // In the app the cycle is in the inbox too.
    await page.goto(j.url('/notifications'));
    const cycle = page.getByRole('listitem').filter({ hasText: /^BTC\/USDT 第 1 轮完成：\+\d+\.\d{2} USDT（\+\d+\.\d{2}%）/ });
    await cycle.first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);

    // At a phone's width the inbox, the preferences (four channels linked: they scroll inside their card) and the channels fit.
    await page.setViewportSize(VIEWPORTS.phone);
    // A fresh load at that width (turning a desktop window narrow keeps react-admin's open sidebar as a modal drawer).
    await page.reload();
    await cycle.first().waitFor();
    await page.getByRole('checkbox', { name: '一轮完成 · 推送' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await j.shot('notifications-inbox-phone');
    await page.goto(j.url('/profile/notification-channels'));
    await telegram.getByText(/^已绑定（/).waitFor();
    await push.getByText('本浏览器已开启').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await j.shot('notifications-channels-phone');
  });
});
