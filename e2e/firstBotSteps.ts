import type { Locator } from 'playwright-core';
import { expect } from 'vitest';
import { hashPath, openAs, type Journey } from './harness';

/**
 * A newcomer's first robot in zh-CN, step by step (firstBot.test.ts counts
 * them as taps, notifications.test.ts starts from them): the paper account
 * form saved, the next step offered at once, a popular pair, create. `tap`
 * clicks (and may count).
 */
export const firstRobotSteps = (j: Journey, tap: (target: Locator) => Promise<void> = (target) => target.click()) => {
  const { page } = j;
  return {
    /** Opens the paper account form as the user and saves it (1 tap). */
    async saveAccount(session: { accessToken: string; refreshToken: string }) {
      await openAs(page, j.server.base, session, '/exchange/add');
      await page.getByText('行情来源').first().waitFor();
      await tap(page.getByRole('button', { name: '保存' }));
      // Saving waits a moment for the exchange's first prices (it cannot be reached here).
      await expect.poll(() => hashPath(page), { timeout: 15_000 }).toBe('/exchange');
      await page.locator('[data-next-step]').waitFor();
    },
    /** The next step, offered at once (1 tap): the wizard with the only account and the recommended template chosen. */
    async openWizard() {
      await tap(page.locator('[data-next-step]').getByRole('link', { name: '创建任务' }));
      await expect.poll(() => hashPath(page)).toBe('/trade/add');
      await expect.poll(() => page.getByRole('combobox', { name: '交易所 API' }).innerText()).toContain('模拟账户');
      await expect.poll(() => page.getByRole('combobox', { name: '策略模板' }).innerText()).toContain('稳健型');
      await page.getByRole('group', { name: '热门：' }).getByRole('button', { name: 'BTC/USDT' }).waitFor({ timeout: 15_000 });
    },
    /** A popular pair (1 tap). */
    async pickPopular(symbol = 'BTC/USDT') {
      await tap(page.getByRole('group', { name: '热门：' }).getByRole('button', { name: symbol }));
      await page.getByText(/1 个交易对共/).waitFor();
    },
    /** Creates the task (1 tap) and lands on the task list. */
    async create() {
      await tap(page.getByRole('button', { name: '创建任务' }));
      await page.getByText('创建交易成功').waitFor();
      await expect.poll(() => hashPath(page)).toBe('/trade');
    },
  };
};
