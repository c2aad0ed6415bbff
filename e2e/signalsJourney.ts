import { afterEach, describe, expect, it } from 'vitest';
import { BTC_MARCH_2023, replayConfig } from '../server/test/engineReplayShared';
import { quickStrategy, registerUser, taskPayload } from '../server/test/harness';
import { hashPath, openAs, startJourney, type Journey } from './harness';

/** The first day of the recorded BTC minutes, replayed one candle per engine tick. */
const FIRST_DAY = BTC_MARCH_2023.slice(0, 1_440);
/** The condition the editor journey adds: a cycle starts only on RSI(14, 1 min) below 20. */
const RSI_START = { start: { mode: 'all', conditions: [{ kind: 'rsi', period: 14, timeframe: '1m', op: 'below', value: '20' }] } };

/**
 * Issue 29 in Chromium, zh-CN, on a phone and a desktop (signals*.phone/desktop.test.ts, a server
 * each): a user adds an RSI condition to a template in the editor and compares it with and without
 * the condition in the backtest; a task on such a template waits for it ("等待条件：RSI(14,1m) < 20，
 * 当前 …"), and an alert sent to the task's TradingView webhook starts a cycle.
 */
export const signalsEditorJourney = (viewport: 'phone' | 'desktop') =>
  describe(`signals: an RSI condition in the editor and the backtest (${viewport}, zh-CN)`, () => {
    let journey: Journey | undefined;
    afterEach(async () => {
      await journey?.close();
      journey = undefined;
    });

    it('adds an RSI start in the editor and compares the template with and without it in the backtest', { timeout: 240_000 }, async () => {
      journey = await startJourney({ viewport, locale: 'zh-CN', config: replayConfig(FIRST_DAY) });
      const j = journey;
      const { page } = j;
      const width = viewport === 'phone' ? 375 : 1280;
      const fits = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      const shot = (name: string) => j.shot(`signals-${name}-${viewport}`);
      const session = await registerUser(j.server, { email: `signals-${viewport}@example.com` });
      const call = (method: string, path: string, body?: unknown) => j.server.call(method, path, body, { token: session.accessToken });

      // The editor: a new template whose cycles start only on RSI(14, 1 min) below 20.
      await openAs(page, j.server.base, session, '/strategy/add');
      await page.getByRole('textbox', { name: '名称' }).fill('RSI 起步');
      const conditions = page.locator('[data-section="conditions"]');
      await conditions.getByLabel('满足条件才开始新周期').check();
      const start = conditions.locator('[data-gate="start"]');
      await start.getByRole('button', { name: '添加条件' }).click();
      await start.getByRole('combobox', { name: 'K 线周期' }).click();
      await page.getByRole('option', { name: '1m', exact: true }).click();
      await start.getByRole('textbox', { name: 'RSI 值' }).fill('20');
      await expect.poll(() => start.locator('[data-example="condition-start"]').innerText()).toBe('开始周期：上一轮结束（及间隔）后，等到 RSI(14,1m) < 20 时才买入首单。');
      await fits();
      await shot('editor');

      // The backtest: the template with and without its condition, on the bundled sample.
      await page.getByRole('button', { name: '回测', exact: true }).click();
      const comparison = page.locator('[data-section="backtest-conditions"]');
      await comparison.getByRole('button', { name: '对比' }).click();
      const lines = comparison.locator('[data-comparison-line]');
      // Both lines, or the refusal the panel shows instead.
      const outcome = async () => ((await comparison.locator('[role="alert"]').count()) > 0 ? await comparison.locator('[role="alert"]').innerText() : await lines.count());
      await expect.poll(outcome, { timeout: 150_000 }).toBe(2);
      expect(await lines.nth(0).innerText()).toMatch(/^RSI\(14,1m\) < 20 起步：年化 [+-]?[\d.,]+%，回撤 [\d.,]+%，\d+ 轮/);
      expect(await lines.nth(1).innerText()).toMatch(/^无条件：年化 [+-]?[\d.,]+%，回撤 [\d.,]+%，\d+ 轮/);
      // The condition holds cycles back on the sample's three weeks: fewer of them than without it.
      const cyclesOf = async (n: number) => Number(/(\d+) 轮/.exec(await lines.nth(n).innerText())![1]);
      expect(await cyclesOf(0)).toBeLessThan(await cyclesOf(1));
      await fits();
      await comparison.scrollIntoViewIfNeeded();
      await shot('backtest');
      await page.getByRole('button', { name: '保存' }).click();
      await expect.poll(() => hashPath(page)).toBe('/strategy');
      const own = ((await call('GET', '/api/strategy/list')).body.data.list as { id: string; name: string; conditions?: unknown }[]).find((s) => s.name === 'RSI 起步')!;
      expect(own.conditions).toEqual(RSI_START);

    });
  });

export const signalsTaskJourney = (viewport: 'phone' | 'desktop') =>
  describe(`signals: a task waiting for its condition, started by a TradingView alert (${viewport}, zh-CN)`, () => {
    let journey: Journey | undefined;
    afterEach(async () => {
      await journey?.close();
      journey = undefined;
    });

    it('waits for RSI(14,1m) < 20 on the task page, and a TradingView alert to its webhook starts a cycle', { timeout: 150_000 }, async () => {
      journey = await startJourney({ viewport, locale: 'zh-CN', config: replayConfig(FIRST_DAY) });
      const j = journey;
      const { page } = j;
      const width = viewport === 'phone' ? 375 : 1280;
      const fits = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      const shot = (name: string) => j.shot(`signals-${name}-${viewport}`);
      const session = await registerUser(j.server, { email: `signals-${viewport}@example.com` });
      const call = (method: string, path: string, body?: unknown) => j.server.call(method, path, body, { token: session.accessToken });
      const own = (await call('POST', '/api/strategy/add', { ...quickStrategy, name: 'RSI 起步', conditions: RSI_START })).body.data as { id: string };
      await openAs(page, j.server.base, session, '/trade');
      // A task on it waits: the engine reads the RSI on the replayed minutes and holds the first order back.
      const exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper' })).body.data.id as string;
      const created = await call('POST', '/api/trade/add', taskPayload(exchangeId, own.id));
      expect(created.body.code).toBe(0);
      const taskId = created.body.data[0].id as string;
      const waitingOf = async () => (await j.server.db.selectFrom('trade_tasks').select('waiting').where('id', '=', taskId).executeTakeFirstOrThrow()).waiting as { readings: { current: string | null }[] } | null;
      for (let i = 0; i < 60 && !(await waitingOf())?.readings[0]?.current; i++) {
        for (let k = 0; k < 5; k++) await j.server.app.engine.tick();
        await j.server.app.engine.flush();
      }
      expect((await waitingOf())?.readings[0]?.current).toBeTruthy();
      await page.goto(j.url(`/trade/detail/${taskId}`));
      const waiting = page.locator('[data-waiting-text]');
      await waiting.waitFor({ timeout: 15_000 });
      expect(await waiting.innerText()).toMatch(/^等待条件：RSI\(14,1m\) < 20，当前 \d+(\.\d+)?$/);

      // The webhook: on, starting a cycle; its address, secret and message as TradingView takes them.
      const webhook = page.locator('[data-section="webhook"]');
      await webhook.getByRole('button', { name: '开启 Webhook' }).click();
      await webhook.locator('[data-copy="url"]').waitFor();
      await webhook.getByRole('button', { name: '显示密钥' }).click();
      const url = (await webhook.locator('[data-copy="url"] > div > div').first().innerText()).trim();
      const template = JSON.parse((await webhook.locator('[data-copy="template"] > div > div').first().innerText()).trim()) as Record<string, string>;
      expect(template).toMatchObject({ action: 'start_cycle', ticker: '{{ticker}}', price: '{{close}}' });
      await fits();
      await webhook.scrollIntoViewIfNeeded();
      await shot('webhook');

      // TradingView's alert, its placeholders filled in: the robot starts a cycle although the RSI does not hold.
      const now = new Date().toISOString();
      const sent = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify({ ...template, id: `${now}-BTCUSDT`, time: now, ticker: 'BTCUSDT', price: '23150.1' }) });
      expect(sent.status).toBe(200);
      const acted = () => j.server.db.selectFrom('task_events').select('kind').where('task_id', '=', taskId).where('kind', '=', 'alert_acted').execute();
      for (let i = 0; i < 20 && (await acted()).length === 0; i++) {
        await j.server.app.engine.tick();
        await j.server.app.engine.flush();
      }
      expect(await acted()).toHaveLength(1);
      const events = page.locator('[data-section="events"]');
      await events.locator('[data-event="alert_acted"]').waitFor({ timeout: 15_000 });
      expect(await events.locator('[data-event="alert_acted"]').innerText()).toContain('TradingView 警报已执行：开始新一轮');
      expect(await events.locator('[data-event="alert_received"]').innerText()).toContain('收到 TradingView 警报：开始新一轮');
      await webhook.locator('[data-outcome="accepted"]').waitFor({ timeout: 15_000 });
      expect(await webhook.locator('[data-outcome="accepted"]').innerText()).toContain('开始新一轮 · 已交给机器人 · TradingView 警报已执行：开始新一轮');
      await fits();
      await shot('task');
    });
  });
