import { afterEach, expect, it } from 'vitest';
import { registerUser } from '../server/test/harness';
import { startLocalBinance, type LocalBinance } from '../server/test/localExchange/binance';
import { firstRobotSteps } from './firstBotSteps';
import { hashPath, openAs, startJourney, type Journey } from './harness';

/**
 * A user tries a robot on Binance's Spot Testnet, here the local Binance
 * (EXCHANGE_TESTNET_URLS points the testnet type at it): binds the testnet
 * key through the account form, creates a task in the wizard, sees its first
 * order fill, then sees a ban of the server's address start and end in the
 * task's log, the task trading on all along. At 375 px, with a last look at
 * 1280 px.
 */
const KEY = { apiKey: 'Jy7Tq8Wm4Yp0Ls6Hd1Vb7Nc3Gx9Fz5Ja2Ue8Io4Pl0Kn6Mh1Sr7Bw3Cf9Dv5Ty0E', secret: 'jY4kL8mN2pQ6rS0tU4vW8xY2zA6bC0dE4fG8hI2jK6lM0nO4pQ8rS2tU6vW0xY4z' };

let journey: Journey | undefined;
let local: LocalBinance | undefined;
afterEach(async () => {
  await journey?.close();
  await local?.close();
  journey = undefined;
  local = undefined;
});

it('binds a testnet account, creates a task, sees it fill, then a ban and its end in the task log', { timeout: 90_000 }, async () => {
  local = await startLocalBinance({ levelQty: { BTCUSDT: '0.01' } });
  local.addAccount(KEY.apiKey, KEY.secret, { USDT: '100000' });
  journey = await startJourney({ viewport: 'phone', locale: 'zh-CN', config: { exchangeTestnetUrls: { 'binance-testnet': local.origin } } });
  const j = journey;
  const { page } = j;
  const tick = async () => {
    await j.server.app.engine.tick();
    await j.server.app.engine.idle();
  };
  const session = await registerUser(j.server, { email: 'testnet@example.com' });

  // The testnet account type, labelled 测试网, bound with its key (checked with the exchange before it is saved).
  await openAs(page, j.server.base, session, '/exchange/add');
  const option = page.locator('[data-exchange-option]').filter({ has: page.getByRole('radio', { name: 'Binance Spot Testnet' }) });
  await option.getByText('测试网').first().waitFor();
  await option.getByRole('radio').check();
  await page.getByLabel(/^API Key/).fill(KEY.apiKey);
  await page.getByLabel(/^Secret Key/).fill(KEY.secret);
  await page.getByRole('button', { name: '保存' }).click();
  await expect.poll(() => hashPath(page), { timeout: 15_000 }).toBe('/exchange');
  expect(local.requests.some((request) => request.endpoint === 'GET /account' && request.apiKey === KEY.apiKey)).toBe(true);

  // The wizard offers the new account and the recommended template; a popular pair; create.
  const steps = firstRobotSteps(j);
  await page.locator('[data-next-step]').getByRole('link', { name: '创建任务' }).click();
  await expect.poll(() => page.getByRole('combobox', { name: '交易所 API' }).innerText()).toContain('Binance Spot Testnet');
  await page.getByRole('group', { name: '热门：' }).getByRole('button', { name: 'BTC/USDT' }).waitFor({ timeout: 15_000 });
  await steps.pickPopular('BTC/USDT');
  await steps.create();

  // The first order fills on the exchange; the task's log says so.
  const taskId = (await j.server.db.selectFrom('trade_tasks').select('id').executeTakeFirstOrThrow()).id;
  await tick();
  expect(local.orders.map((order) => order.status)).toEqual(['FILLED']);
  await page.goto(j.url(`/trade/detail/${taskId}`));
  await page.getByRole('heading', { level: 1, name: '任务详情' }).waitFor();
  await page.getByText(/第 1 轮开始：首单 [\d.,]+ USDT/).waitFor();
  await j.shot('testnet-filled-phone');

  // A ban of the server's address, longer than a read waits out: one line when it starts, naming until when.
  local.fault('GET /ticker/24hr', { kind: 'ban', seconds: 6 });
  await tick();
  await page.getByText(/交易所封禁了本服务器的请求，直至 .+：任务等待，恢复后自动继续（无需操作）/).waitFor();
  await j.shot('testnet-banned-phone');
  // No attention: nothing for the user to do.
  expect(await page.locator('[data-attention]').count()).toBe(0);

  // It ends: one line says so, and the task trades on.
  await expect
    .poll(
      async () => {
        await tick();
        return (await j.server.db.selectFrom('task_events').select('kind').where('task_id', '=', taskId).where('kind', '=', 'exchange_up').execute()).length;
      },
      { timeout: 15_000, interval: 500 },
    )
    .toBe(1);
  await page.getByText(/交易所已恢复（中断 \d+ 秒），继续交易/).waitFor();
  expect(await page.locator('[data-attention]').count()).toBe(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await j.shot('testnet-recovered-phone');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByText(/交易所已恢复/).waitFor();
  await j.shot('testnet-recovered-desktop');
});
