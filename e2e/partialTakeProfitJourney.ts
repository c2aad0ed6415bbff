import { afterEach, describe, expect, it } from 'vitest';
import { BTC_MARCH_2023, replayConfig } from '../server/test/engineReplayShared';
import { registerUser } from '../server/test/harness';
import { firstRobotSteps } from './firstBotSteps';
import { hashPath, startJourney, type Journey } from './harness';
import { PRESET_LABELS, readPresetCards } from './presetsJourney';

/** The first day of the recorded BTC minutes: the replay's price path (from 23,142.31, +1.5 % within five hours, +3 % within nine). */
const FIRST_DAY = BTC_MARCH_2023.slice(0, 1_440);
/** Engine ticks (one candle each) the partial sale may take at most. */
const MAX_TICKS = 600;

/**
 * Issue 28 in Chromium, zh-CN, on a phone and a desktop (partialTakeProfit.phone/desktop.test.ts:
 * a server each, as the replay plays once per server): a user picks a preset by its backtested
 * figures (the best annualised return), edits their own copy to sell in two targets (half at +1.5 %,
 * the rest at +3 %), invests 500 USDT with it, and watches target 1 sell half on the replayed
 * history while the rest is still held: in the task's log, its cycle and its ladder.
 */
export const partialTakeProfitJourney = (viewport: 'phone' | 'desktop') =>
  describe(`a partial take profit on the replayed history (${viewport}, zh-CN)`, () => {
    let journey: Journey | undefined;
    afterEach(async () => {
      await journey?.close();
      journey = undefined;
    });

    it('edits a preset copy to two targets, invests 500 USDT and sees target 1 sell half while the rest is held', { timeout: 120_000 }, async () => {
      journey = await startJourney({ viewport, locale: 'zh-CN', config: replayConfig(FIRST_DAY) });
      const j = journey;
      const { page } = j;
      const width = viewport === 'phone' ? 375 : 1280;
      const shot = (name: string) => j.shot(`partial-take-profit-${name}-${viewport}`);
      const session = await registerUser(j.server, { email: `targets-${viewport}@example.com` });
      const token = session.accessToken;
      const call = (method: string, path: string) => j.server.call(method, path, undefined, { token });

      // A preset chosen by its figures: the best annualised return, applied as the user's own copy.
      const steps = firstRobotSteps(j);
      await steps.saveAccount(session);
      await steps.openWizard();
      await steps.pickPopular('BTC/USDT');
      const { figures } = await readPresetCards(page);
      const best = figures.reduce((a, b) => (b.annualized > a.annualized ? b : a));
      const label = PRESET_LABELS[best.name]!;
      await page.getByRole('button', { name: `应用 ${label}` }).click();
      await page.getByText(`已另存为你自己的策略“我的${label}”，并选用到这个任务。`).waitFor();
      const own = ((await call('GET', '/api/strategy/list')).body.data.list as { id: string; name: string; system: boolean }[]).find((s) => s.name === `我的${label}`)!;
      expect(own).toMatchObject({ system: false });

      // The copy in the editor: two targets, half at +1.5 %, the rest at +3 %, neither trailing.
      await page.goto(j.url(`/strategy/edit/${own.id}`));
      // The ladder preview: a table on a desktop, cards on a phone.
      await page.getByRole(viewport === 'phone' ? 'list' : 'table', { name: '阶梯预览' }).waitFor({ timeout: 15_000 });
      await page.getByLabel('多个止盈目标').check();
      const shares = page.getByRole('textbox', { name: '卖出仓位比例（%）' });
      await expect.poll(() => shares.count()).toBe(2);
      const profits = page.getByRole('textbox', { name: '高于均价涨幅（%）' });
      for (const [i, share, profit] of [[0, '50', '1.5'], [1, '50', '3']] as const) {
        await shares.nth(i).fill(share);
        await profits.nth(i).fill(profit);
      }
      const trailing = page.getByLabel('追踪止盈（按止盈回调）');
      for (let i = 0; i < 2; i++) await trailing.nth(i).uncheck();
      const examples = page.getByTestId('exit-examples');
      await expect.poll(() => examples.innerText()).toMatch(/目标 1：.*卖出 50% 仓位。[\s\S]*目标 2：.*卖出 50% 仓位。/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot('editor');
      await page.getByRole('button', { name: '保存' }).click();
      await expect.poll(() => hashPath(page)).toBe('/strategy');
      expect((await call('GET', `/api/strategy/detail/${own.id}`)).body.data.takeProfitTargets).toEqual([
        { sharePercent: '50', profitPercent: '1.5', trailing: false },
        { sharePercent: '50', profitPercent: '3', trailing: false },
      ]);

      // The wizard again: the pair, the edited copy, 500 USDT in all.
      await page.goto(j.url('/trade/add'));
      await expect.poll(() => page.getByRole('combobox', { name: '交易所 API' }).innerText()).toContain('模拟账户');
      await page.getByRole('group', { name: '热门：' }).getByRole('button', { name: 'BTC/USDT' }).waitFor({ timeout: 15_000 });
      await steps.pickPopular('BTC/USDT');
      await page.getByRole('combobox', { name: '策略模板' }).click();
      await page.getByRole('option', { name: `我的${label}` }).click();
      await expect.poll(() => page.getByRole('combobox', { name: '策略模板' }).innerText()).toContain(`我的${label}`);
      await page.getByRole('button', { name: '按投入总额' }).click();
      await page.getByRole('textbox', { name: /投入总额/ }).fill('500');
      await page.locator('[data-derived]').waitFor();
      await steps.create();
      const [task] = (await call('GET', '/api/trade/list')).body.data.list as { id: string; strategyName: string }[];
      expect(task).toMatchObject({ strategyName: `我的${label}` });
      const taskId = task!.id;

      // The replay starts with the task: one candle per engine tick, driven here until target 1 sells.
      const partialSale = () =>
        j.server.db.selectFrom('task_events').select('data').where('task_id', '=', taskId).where('kind', '=', 'sold').execute();
      let ticks = 0;
      while (ticks < MAX_TICKS && (await partialSale()).length === 0) {
        for (let i = 0; i < 20; i++) await j.server.app.engine.tick();
        ticks += 20;
      }
      await j.server.app.engine.flush();
      const sales = await partialSale();
      expect(sales).toHaveLength(1);
      expect(sales[0]!.data).toMatchObject({ partial: true, target: 1, reason: 'take_profit' });
      const { state } = await j.server.db.selectFrom('trade_tasks').select('state').where('id', '=', taskId).executeTakeFirstOrThrow();
      // Half sold, half still held, in the cycle that is still open.
      expect(state).toMatchObject({ phase: 'open', targetsDone: 1, cyclesDone: 0, quantity: (sales[0]!.data as { remainder: string }).remainder });

      // The task's page: the sale in the log, the cycle still open with the rest, the first order bought on the ladder.
      await page.goto(j.url(`/trade/detail/${taskId}`));
      await page.getByRole('heading', { name: '任务详情' }).first().waitFor({ timeout: 15_000 });
      const sold = page.locator('[data-section="events"] [data-event="sold"]');
      await sold.waitFor({ timeout: 15_000 });
      expect(await sold.innerText()).toMatch(/止盈目标 1：卖出 0\.\d+，成交价 [\d,.]+，收益 \+?[\d.,]+ USDT；其余 0\.\d+ 继续持有/);
      expect(await page.locator('[data-section="events"] [data-event="cycle_complete"]').count()).toBe(0);
      // The cycle goes on with the half that target 2 sells: what it holds is what the log says is held.
      const held = /其余 (\S+) 继续持有/.exec(await sold.innerText())![1]!;
      expect(await page.locator('[data-section="cycle"] [data-figure="position"]').innerText()).toContain(held);
      const ladder = page.locator('[data-section="ladder"]');
      await ladder.waitFor();
      await ladder.locator('[data-level="0"][data-filled="true"]').waitFor();
      if (viewport === 'phone') await ladder.locator('[data-layout="cards"]').waitFor();
      else await ladder.getByRole('table', { name: '补仓梯度' }).waitFor();
      // The ladder marks the target that sold, and the one still to sell.
      await ladder.locator('[data-target="1"][data-sold="true"]').waitFor();
      expect(await ladder.locator('[data-target="1"] [data-field="state"]').innerText()).toMatch(/卖出 0\.\d+ BTC，得 [\d,.]+ USDT/);
      expect(await ladder.locator('[data-target="2"]').getAttribute('data-sold')).toBe('false');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot('task');
    });
  });
