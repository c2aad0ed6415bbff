import { afterEach, describe, expect, it } from 'vitest';
import { unsubscribePath } from '../server/src/notify/email';
import { addPaperTask, registerUser } from '../server/test/harness';
import { openAs, startJourney, type Journey } from './harness';

/**
 * Notifications in real Chromium at phone width: the bell and the inbox
 * follow the live stream (no reload, well before the poll), and an e-mail's
 * unsubscribe link opens a page a person reads and confirms.
 */
let journey: Journey | undefined;
afterEach(async () => {
  await journey?.close();
  journey = undefined;
});

describe('notifications (phone)', () => {
  it("counts the bot's fill in the bell within 2 s, lists it with a link to the task; the unsubscribe page asks, then confirms", async () => {
    journey = await startJourney({ viewport: 'phone', locale: 'zh-CN' });
    const j = journey;
    const { page } = j;
    const session = await registerUser(j.server, { email: 'bell-journey@example.com' });
    const taskId = await addPaperTask(j.server, session.accessToken);

    // A webhook a fault turned off: the inbox says so above the list.
    await j.server.db.insertInto('webhooks').values({ user_id: session.user.id, url: 'https://hooks.example/qt', secret_ciphertext: 'sealed', enabled: false, disabled_reason: 'webhook answered 410 (gone)' }).execute();
    await openAs(page, j.server.base, session, '/notifications');
    await page.getByRole('heading', { level: 1, name: '通知' }).waitFor();
    await page.getByRole('button', { name: '通知，0 条未读' }).waitFor();
    await page.getByText('暂无通知。').waitFor();
    const banner = page.locator('[data-channel-off="webhook"]');
    await banner.getByText('Webhook 已关闭：该地址回复已不存在。请保存可用的地址。').waitFor();
    expect(await banner.getByRole('link', { name: '通知渠道' }).getAttribute('href')).toContain('/profile/notification-channels');

    // The robot's first buy: the bell and the inbox change without a reload.
    const started = Date.now();
    await j.server.app.engine.tick();
    await page.getByRole('button', { name: /^通知，[1-9]\d* 条未读$/ }).waitFor({ timeout: 2_000 });
    expect(Date.now() - started).toBeLessThan(2_000);
    const line = page.getByRole('listitem').filter({ hasText: /BTC\/USDT 第 1 档买入：[\d.]+ USDT，价格 [\d.]+/ });
    await line.waitFor({ timeout: 2_000 });
    expect(await line.getByRole('link', { name: '查看任务' }).getAttribute('href')).toContain(`/trade/detail/${taskId}`);
    await j.shot('notifications-live-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // The e-mail's link: a page in the user's language that asks first.
    await page.goto(`${j.server.base}${unsubscribePath(j.server.config.signSecret, session.user.id, 'trade.cycle_closed')}`);
    await page.getByRole('heading', { level: 1, name: '不再通过邮件接收“一轮完成”？' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByRole('button', { name: '不再接收此类邮件' }).click();
    await page.getByRole('heading', { level: 1, name: '已不再通过邮件发送“一轮完成”' }).waitFor();
    await j.shot('unsubscribe-done-phone');
    const prefs = (await j.server.call('GET', '/api/notifications/preferences', undefined, { token: session.accessToken })).body.data.list as { kind: string; channel: string; enabled: boolean }[];
    expect(prefs.find((p) => p.kind === 'trade.cycle_closed' && p.channel === 'email')?.enabled).toBe(false);
    await page.getByRole('link', { name: '打开通知设置' }).click();
    await page.getByRole('heading', { level: 1, name: '通知' }).waitFor();
  });
});
