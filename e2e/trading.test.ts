import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, type TestServer } from '../server/test/harness';
import { hashPath, startJourney, startJourneyServer, type Journey } from './harness';

/**
 * The trading journey in real Chromium against the real server, engine and
 * paper exchange: bind a paper account, create a template, create tasks for
 * two coins through the wizard, see fills on the detail page, close a
 * position, and find the orders in both histories. zh-CN, at phone and
 * desktop widths.
 */
// One server for both widths: each works as a user of its own.
let server: TestServer;
beforeAll(async () => {
  server = await startJourneyServer();
});
afterAll(() => server?.close());
let journey: Journey | undefined;
afterEach(async () => {
  await journey?.close();
  journey = undefined;
});

const signInAs = async (j: Journey, email: string) => {
  const session = await registerUser(j.server, { email, activated: true });
  await j.page.goto(j.url('/auth/login'));
  await j.page.evaluate(
    ([access, refresh]) => {
      localStorage.setItem('accessToken', access!);
      localStorage.setItem('refreshToken', refresh!);
    },
    [session.accessToken, session.refreshToken],
  );
  // A fresh page load, as when the user comes back later.
  await j.page.goto('about:blank');
  return session.accessToken;
};

describe.each(['phone', 'desktop'] as const)('trading in the browser (%s)', (viewport) => {
  it('binds a paper account, builds a template, creates two tasks through the wizard, watches fills, closes a position and finds its orders', async () => {
    journey = await startJourney({ viewport, locale: 'zh-CN', server });
    const j = journey;
    const { page } = j;
    const token = await signInAs(j, `trader-${viewport}@example.com`);
    const shot = (name: string) => j.shot(`trading-${name}-${viewport}`);

    // A paper account: pre-selected on the add page.
    await page.goto(j.url('/exchange/add'));
    await page.getByRole('heading', { level: 1, name: 'API 配置' }).waitFor();
    await shot('exchange-add');
    await page.getByRole('button', { name: '保存' }).click();
    // Saving waits a moment for the exchange's first prices (it cannot be reached here).
    await expect.poll(() => hashPath(page), { timeout: 15_000 }).toBe('/exchange');

    // A template from the generator's defaults.
    await page.goto(j.url('/strategy/add'));
    await page.locator('input[name="name"]').fill('稳稳的');
    await shot('strategy-add');
    await page.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => hashPath(page)).toBe('/strategy');

    // The wizard: account, two pairs, the template.
    await page.goto(j.url('/trade/add'));
    await page.getByRole('combobox', { name: '交易所 API' }).click();
    await page.getByRole('option').first().click();
    await page.getByRole('link', { name: '选择交易对' }).click();
    await page.getByRole('checkbox', { name: 'BTC/USDT' }).check();
    await page.getByRole('checkbox', { name: 'ETH/USDT' }).check();
    await shot('pair-select');
    await page.getByRole('button', { name: '完成' }).click();
    await page.getByRole('combobox', { name: '策略模板' }).click();
    await page.getByRole('option', { name: '稳稳的' }).click();
    await page.getByText(/2 个交易对共/).waitFor();
    await shot('wizard');
    await page.getByRole('button', { name: '创建任务' }).click();
    await page.getByText('创建交易成功').waitFor();
    await expect.poll(() => hashPath(page)).toBe('/trade');
    expect(await page.evaluate(() => sessionStorage.getItem('wizard-trade'))).toBeNull();

    // The robot buys on the next ticks.
    for (let i = 0; i < 5; i++) await j.server.app.engine.tick();
    const tasks = (await j.server.call('GET', '/api/trade/list', undefined, { token })).body.data.list as { id: string; symbol: string }[];
    expect(tasks.map((t) => t.symbol).sort()).toEqual(['BTC/USDT', 'ETH/USDT']);
    await page.reload();
    await page.getByText('BTC/USDT').first().waitFor();
    await shot('task-list');

    const btc = tasks.find((t) => t.symbol === 'BTC/USDT')!;
    await page.goto(j.url(`/trade/detail/${btc.id}`));
    await page.getByRole('heading', { level: 1, name: '任务详情' }).waitFor();
    await page.getByText('本轮状态').waitFor();
    await shot('task-detail');

    await page.getByRole('button', { name: '平仓' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '平仓' }).click();
    await page.getByText('已按市价平仓，任务已停止').waitFor();
    const orders = (await j.server.call('GET', `/api/trade/order-history?taskId=${btc.id}`, undefined, { token })).body.data.list as { side: string; reason: string }[];
    expect(orders.map((o) => `${o.side}:${o.reason}`)).toEqual(['sell:close', 'buy:first']);

    await page.goto(j.url(`/trade/order-history?taskId=${btc.id}`));
    await page.getByRole('heading', { level: 1, name: '任务订单' }).waitFor();
    // A table on the desktop (a header row and the two orders), one card per order on a phone.
    if (viewport === 'desktop') await expect.poll(() => page.getByRole('row').count()).toBe(3);
    else await expect.poll(() => page.locator('[data-layout="cards"] > li').count()).toBe(2);
    await shot('task-orders');

    await page.goto(j.url('/trade/all-order-history'));
    await page.getByRole('heading', { level: 1, name: '全部订单' }).waitFor();
    // BTC's buy and sell, and ETH's first buy: under one header row, or as three cards on a phone.
    if (viewport === 'desktop') await expect.poll(() => page.getByRole('row').count()).toBe(4);
    else await expect.poll(() => page.locator('[data-layout="cards"] > li').count()).toBe(3);
    await shot('all-orders');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport === 'phone' ? 375 : 1280);
  });
});
