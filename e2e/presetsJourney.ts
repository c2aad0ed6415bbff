import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { registerUser } from '../server/test/harness';
import { firstRobotSteps } from './firstBotSteps';
import { hashPath, startJourney, type Journey } from './harness';

/**
 * A newcomer invests 500 USDT with a preset chosen by its backtested figures (issue 28), in zh-CN on a
 * phone and a desktop: the cards on the bundled history, the best annualised return applied (the
 * user's own copy), the total to invest, create, and the ladder on the task's page.
 */
const percentOf = (text: string) => Number(text.replace(/[%,+\s]/g, ''));

/** The zh-CN names of the system templates, by their preset key. */
export const PRESET_LABELS: Record<string, string> = { conservative: '稳健型', balanced: '均衡型', aggressive: '激进型' };

/** The wizard's three preset cards as a user reads them: each one's key and figures (percent), every label present. */
export const readPresetCards = async (page: Page) => {
  await page.getByText('基于 2023-03-01 至 2023-03-21 的内置分钟行情（BTC/USDT），首单 10 USDT。').waitFor({ timeout: 30_000 });
  const cards = page.locator('[data-preset]');
  expect(await cards.count()).toBe(3);
  const figures: { name: string; annualized: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const card = cards.nth(i);
    const name = (await card.getAttribute('data-preset'))!;
    for (const label of ['收益率', '年化收益', '最大回撤', '完成轮数', '持有不动']) expect(await card.getByText(label, { exact: true }).count()).toBe(1);
    const annualized = await card.locator('dt', { hasText: '年化收益' }).locator('xpath=following-sibling::dd[1]').innerText();
    expect(annualized).toMatch(/^[+-]?[\d,.]+%$/);
    figures.push({ name, annualized: percentOf(annualized) });
  }
  return { cards, figures };
};

/** The journey on one screen (presets.phone.test.ts, presets.desktop.test.ts: one file each, to keep each under a minute). */
export const presetJourney = (viewport: 'phone' | 'desktop') =>
  describe(`a preset chosen by its figures (${viewport}, zh-CN)`, () => {
    let journey: Journey | undefined;
    afterEach(async () => {
      await journey?.close();
      journey = undefined;
    });

    it('invests 500 USDT with the preset of the best annualised return and sees its ladder on the task page', { timeout: 120_000 }, async () => {
      journey = await startJourney({ viewport, locale: 'zh-CN' });
      const j = journey;
      const { page } = j;
      const width = viewport === 'phone' ? 375 : 1280;
      const shot = (name: string) => j.shot(`presets-${name}-${viewport}`);
      const session = await registerUser(j.server, { email: `presets-${viewport}@example.com` });
      const token = session.accessToken;
      const systemBefore = await j.server.db.selectFrom('strategies').selectAll().where('user_id', 'is', null).orderBy('id').execute();

      const steps = firstRobotSteps(j);
      await steps.saveAccount(session);
      await steps.openWizard();
      await steps.pickPopular('BTC/USDT');

      // The three system templates, backtested on the bundled minutes, and where the figures come from.
      const { cards, figures } = await readPresetCards(page);
      // On a phone the cards are stacked, on a desktop side by side; nothing wider than the screen.
      const boxes = await Promise.all([0, 1, 2].map((i) => cards.nth(i).boundingBox()));
      if (viewport === 'phone') expect(boxes[1]!.y).toBeGreaterThan(boxes[0]!.y + boxes[0]!.height - 1);
      else expect(boxes[1]!.y).toBeCloseTo(boxes[0]!.y, 0);
      for (const box of boxes) expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot('cards');

      // The best annualised return, applied: the user's own copy, chosen for the task.
      const best = figures.reduce((a, b) => (b.annualized > a.annualized ? b : a));
      const label = PRESET_LABELS[best.name]!;
      await page.getByRole('button', { name: `应用 ${label}` }).click();
      await page.getByText(`已另存为你自己的策略“我的${label}”，并选用到这个任务。`).waitFor();
      await expect.poll(() => page.getByRole('combobox', { name: '策略模板' }).innerText()).toContain(`我的${label}`);
      expect(await cards.nth(figures.indexOf(best)).getAttribute('data-chosen')).toBe('true');

      // 500 USDT in all: the wizard derives the first order.
      await page.getByRole('button', { name: '按投入总额' }).click();
      await page.getByRole('textbox', { name: /投入总额/ }).fill('500');
      const derived = page.locator('[data-derived]');
      await derived.waitFor();
      expect(Number(await derived.getAttribute('data-derived'))).toBeGreaterThan(0);
      await shot('invest');
      await steps.create();

      const tasks = (await j.server.call('GET', '/api/trade/list', undefined, { token })).body.data.list as { id: string; strategyName: string; strategySystem: boolean; firstOrderAmount: string }[];
      expect(tasks).toEqual([expect.objectContaining({ strategyName: `我的${label}`, strategySystem: false })]);
      expect(Number(tasks[0]!.firstOrderAmount)).toBeGreaterThan(0);
      // The system templates are as they were.
      expect(await j.server.db.selectFrom('strategies').selectAll().where('user_id', 'is', null).orderBy('id').execute()).toEqual(systemBefore);

      // The task's page: its ladder, as cards on a phone and as a table on a desktop.
      await page.goto(j.url(`/trade/detail/${tasks[0]!.id}`));
      await expect.poll(() => hashPath(page)).toBe(`/trade/detail/${tasks[0]!.id}`);
      await page.getByRole('heading', { name: '任务详情' }).first().waitFor({ timeout: 15_000 });
      const ladder = page.locator('[data-section="ladder"]');
      await ladder.waitFor({ timeout: 15_000 });
      if (viewport === 'phone') await ladder.locator('[data-layout="cards"]').waitFor();
      else await ladder.getByRole('table', { name: '补仓梯度' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot('task-ladder');
    });
  });
