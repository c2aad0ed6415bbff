import { afterEach, describe, expect, it } from 'vitest';
import { quickStrategy, registerUser, taskPayload } from '../server/test/harness';
import { openAs, startJourney, type Journey } from './harness';

/**
 * A task's page tells the truth in real Chromium, at phone and desktop widths:
 * replenishing asks first with its amount and the new average, and after a
 * close the stopped task shows one state (no next cycle, no levels of a cycle
 * that is not there, what stays below the exchange step named as unsold).
 */
let journey: Journey | undefined;
afterEach(async () => {
  await journey?.close();
  journey = undefined;
});

describe.each(['phone', 'desktop'] as const)("a stopped task's page (%s)", (viewport) => {
  it('confirms a replenish with its figures, and after a close shows one stopped state', async () => {
    journey = await startJourney({ viewport, locale: 'zh-CN' });
    const j = journey;
    const { page } = j;
    const session = await registerUser(j.server, { email: `stopped-${viewport}@example.com`, activated: true });
    const call = (method: string, path: string, body?: unknown) => j.server.call(method, path, body, { token: session.accessToken });
    const exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: '练手账户' })).body.data.id;
    // Levels out of the simulator's reach and a far take profit: the first buy fills and the cycle stays open.
    const strategyId = (await call('POST', '/api/strategy/add', { ...quickStrategy, name: '宽', levels: [{ dropPercent: '30', multiple: '1' }, { dropPercent: '40', multiple: '2' }], takeProfitPercent: '40' })).body.data.id;
    const created = await call('POST', '/api/trade/add', taskPayload(exchangeId, strategyId));
    const id = created.body.data[0].id as string;
    for (let i = 0; i < 5; i++) await j.server.app.engine.tick();
    const shot = (name: string) => j.shot(`stopped-task-${name}-${viewport}`);

    await openAs(page, j.server.base, session, `/trade/detail/${id}`);
    await page.getByRole('heading', { level: 1, name: '任务详情' }).waitFor();
    const cycle = page.locator('[data-section="cycle"]');
    await cycle.locator('[data-explained="average"]').waitFor();
    await shot('open');

    // Replenish now: a confirmation with the amount and the new average, and nothing bought on cancel.
    await page.getByRole('button', { name: '立即补仓' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.textContent()).toMatch(/将以市价立即买入第 1 档：10\.00 USDT，按最新价约 [\d,.]+ 成交。持仓均价将从 [\d,.]+ 变为约 [\d,.]+（未计手续费）。/);
    await shot('replenish-confirm');
    await dialog.getByRole('button', { name: '取消' }).click();
    const orders = async () => (await call('GET', `/api/trade/order-history?taskId=${id}`)).body.data.list as { side: string; reason: string }[];
    expect((await orders()).map((o) => `${o.side}:${o.reason}`)).toEqual(['buy:first']);

    await page.getByRole('button', { name: '平仓' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '平仓' }).click();
    await page.getByText(/已按市价平仓，任务已停止/).waitFor();
    await expect.poll(() => cycle.getAttribute('data-idle')).toBe('stopped');
    const text = (await cycle.textContent()) ?? '';
    expect(text).toContain('任务已停止：当前没有进行中的一轮，机器人不会下单。已完成 1 轮。');
    expect(text).not.toContain('已全部补仓');
    expect(text).not.toContain('在持仓中');
    expect(await page.getByText('第 1 / ∞ 轮').count()).toBe(1);
    await expect.poll(() => page.getByRole('button', { name: '立即补仓' }).isDisabled()).toBe(true);
    await shot('stopped');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport === 'phone' ? 375 : 1280);
  });
});
