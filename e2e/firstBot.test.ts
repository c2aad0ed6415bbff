import type { Locator } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, type TestServer } from '../server/test/harness';
import { firstRobotSteps } from './firstBotSteps';
import { startJourney, startJourneyServer, type Journey } from './harness';

/**
 * The first robot of a user who just registered, in zh-CN (phone and desktop): the
 * paper account's form, then four taps: save the account, "create a task"
 * offered at once, a popular pair, create. The only account and the
 * recommended template are chosen already; every tap is counted.
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

describe.each(['phone', 'desktop'] as const)('the first robot (%s, zh-CN)', (viewport) => {
  it('takes four taps from the paper account form to a running robot, then reads its returns and its orders', { timeout: 120_000 }, async () => {
    journey = await startJourney({ viewport, locale: 'zh-CN', server });
    const j = journey;
    const { page } = j;
    const shot = (name: string) => j.shot(`first-bot-${name}-${viewport}`);
    const width = viewport === 'phone' ? 375 : 1280;
    const session = await registerUser(j.server, { email: `first-bot-${viewport}@example.com` });
    const token = session.accessToken;
    let taps = 0;
    const tap = async (target: Locator) => {
      await target.click();
      taps += 1;
    };

    const steps = firstRobotSteps(j, tap);

    // 1: save the paper account the form has chosen.
    await steps.saveAccount(session);
    expect(page.viewportSize()?.width).toBe(width);
    await shot('next-step');

    // 2: the next step, offered at once: the only account and the recommended template are chosen already.
    await steps.openWizard();
    await shot('wizard');

    // 3: a popular pair.
    await steps.pickPopular('BTC/USDT');

    // A first order the account cannot carry: what a cycle needs and what is free, under the field, before any submit.
    const amount = page.getByRole('textbox', { name: /首单金额/ });
    await amount.fill('50000');
    const warning = page.locator('[data-warning="balance"]');
    await warning.waitFor();
    expect(await warning.innerText()).toMatch(/^一轮最多需要 [\d,]+\.\d{2} USDT（含手续费），账户可用 10,000\.00 USDT：请降低首单金额或减少交易对。$/);
    const box = await warning.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await shot('over-balance');
    await amount.fill('10');
    await warning.waitFor({ state: 'detached' });

    // 4: create.
    await steps.create();
    expect(taps).toBe(4);

    const tasks = (await j.server.call('GET', '/api/trade/list', undefined, { token })).body.data.list as { id: string; symbol: string; running: boolean; strategyName: string }[];
    expect(tasks).toEqual([expect.objectContaining({ symbol: 'BTC/USDT', running: true, strategyName: 'conservative' })]);
    await page.getByText('BTC/USDT').first().waitFor();
    await shot('list');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // The robot buys on the next ticks; its detail shows its returns: what it holds now, run time and ROI.
    for (let i = 0; i < 3; i++) await j.server.app.engine.tick();
    const taskId = tasks[0]!.id;
    const returns = (await j.server.call('GET', `/api/trade/returns?taskId=${taskId}`, undefined, { token })).body.data as { invested: string };
    expect(Number(returns.invested)).toBeGreaterThan(0);
    await page.goto(j.url(`/trade/detail/${taskId}`));
    const panel = page.locator('[data-section="returns"]');
    await panel.getByText('收益率').first().waitFor({ timeout: 15_000 });
    for (const figure of ['invested', 'roi']) await expect.poll(() => panel.locator(`[data-returns="${figure}"]`).innerText()).not.toBe('');
    expect(await panel.locator('[data-returns="invested"]').innerText()).toMatch(/[1-9]/);
    await shot('returns');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // The order history: every column within reach (cards on a phone, a table that fits on a desktop).
    await page.goto(j.url(`/trade/order-history?taskId=${taskId}`));
    await page.getByRole('heading', { level: 1, name: '任务订单' }).waitFor();
    if (viewport === 'phone') {
      const card = page.locator('[data-layout="cards"] > li').first();
      await card.waitFor();
      for (const field of ['price', 'amount', 'cost', 'fee']) {
        const box = await card.locator(`[data-field="${field}"]`).boundingBox();
        expect(box, field).not.toBeNull();
        expect(box!.x + box!.width, field).toBeLessThanOrEqual(width);
      }
    } else {
      await expect.poll(() => page.getByRole('row').count()).toBeGreaterThan(1);
      for (const header of await page.getByRole('columnheader').all()) {
        const box = await header.boundingBox();
        expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      }
    }
    await shot('orders');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // All orders of all tasks: each price to its market's tick (BTC/USDT: the cent).
    await page.goto(j.url('/trade/all-order-history'));
    await page.getByRole('heading', { level: 1, name: '全部订单' }).waitFor();
    const price =
      viewport === 'phone'
        ? page.locator('[data-layout="cards"] > li').first().locator('[data-field="price"] > div').last()
        : page.locator('tbody tr[data-order]').first().locator('td').nth(5);
    await price.waitFor();
    expect(await price.innerText()).toMatch(/^[\d,]+\.\d{2}$/);
    await shot('all-orders');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
});
