import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { GUIDES } from '../server/src/db/migrations/006_guides';
import { runOperatorCommand } from '../server/src/cli/operator';
import { depositAddressFor } from '../server/src/wallet/address';
import { registerUser, trustAddress } from '../server/test/harness';
import { VIEWPORTS } from './browser';
import { ARTIFACTS, hashPath, openAs, startJourney, type Journey } from './harness';

/**
 * The money journey in real Chromium against the real server, at phone width
 * in zh-CN: a user reports a deposit, an operator confirms it in the console,
 * the user converts USDT to fuel, activates with USDT, withdraws (the operator
 * approves), reads every step in the USDT records, receives the invite reward
 * when a down-line member activates, sends that member points (and is refused
 * for someone outside the down-line), and reads a guide in all three languages.
 */
let journey: Journey | undefined;
afterEach(async () => {
  await journey?.close();
  journey = undefined;
});

/** The text of the first element matching `selector`, spaces normalized. */
const text = async (page: Page, selector: string) => ((await page.locator(selector).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();

/** A full-page screenshot in e2e/artifacts; transitions (a dialog fading in) are finished first. */
const screenshot = async (page: Page, name: string) => {
  await page.screenshot({ path: join(ARTIFACTS, `wallet-${name}.png`), fullPage: true, animations: 'disabled' });
};

const quiet = { log: () => undefined, error: () => undefined };

describe('wallet in the browser (phone)', () => {
  // About 30 s on an idle machine; the headroom is for a busy one.
  it('deposits, gets confirmed, converts, activates, withdraws, reads the records, sends points down-line and reads the guides', { timeout: 120_000 }, async () => {
    journey = await startJourney({ viewport: 'phone', locale: 'zh-CN' });
    const j = journey;
    const { page, server } = j;
    const shot = (name: string) => screenshot(page, name);
    const balances = async (token: string) => {
      const answer = await server.call('GET', '/api/wallet/balances', undefined, { token });
      expect(answer.body.code).toBe(0);
      return Object.fromEntries((answer.body.data.balances as { asset: string; available: string; held: string }[]).map((b) => [b.asset, b]));
    };

    // 1. A (not activated), operator O, and B invited by A.
    const a = await registerUser(server, { email: 'alice@example.com', nickname: 'Alice' });
    const o = await registerUser(server, { email: 'olga@example.com', nickname: 'Olga' });
    expect(await runOperatorCommand(server.db, ['olga@example.com'], quiet)).toBe(0);
    const inviteCode = (await server.call('GET', '/api/user/me', undefined, { token: a.accessToken })).body.data.inviteCode as string;
    expect(inviteCode).toBe(a.user.inviteCode);
    const b = await registerUser(server, { email: 'bob@example.com', nickname: 'Bob', inviteCode });
    const bRow = await server.db.selectFrom('users').select(['inviter_id', 'activated']).where('id', '=', b.user.id).executeTakeFirstOrThrow();
    expect(bRow).toEqual({ inviter_id: a.user.id, activated: false });

    // 2. A reports a deposit of 500 USDT to their address.
    await openAs(page, server.base, a, '/profile/wallet/recharge');
    await page.getByRole('heading', { level: 1, name: '充值' }).waitFor();
    const address = depositAddressFor(server.config.tokenSecret, a.user.id);
    await page.locator(`[data-address="${address}"]`).waitFor();
    await page.locator(`img[data-qr="${address}"]`).waitFor();
    expect(await page.getByText('网络：TRC20').isVisible()).toBe(true);
    await page.getByRole('textbox', { name: '数量' }).fill('500');
    await page.getByRole('button', { name: '提交充值' }).click();
    await page.getByText('充值已提交，确认后到账。').waitFor();
    const depositRow = page.locator('[data-section="deposit-list"] li[data-kind="deposit"]');
    await expect.poll(() => depositRow.count()).toBe(1);
    expect(await text(page, '[data-section="deposit-list"] li')).toContain('充值 500.00 USDT');
    expect(await depositRow.locator('[data-status]').getAttribute('data-status')).toBe('pending');
    expect(await depositRow.getByText('待确认').isVisible()).toBe(true);
    const deposits = await server.db.selectFrom('deposits').select(['id', 'amount', 'status', 'address']).where('user_id', '=', a.user.id).execute();
    expect(deposits).toHaveLength(1);
    expect(deposits[0]).toMatchObject({ status: 'pending', address });
    expect(Number(deposits[0]!.amount)).toBe(500);
    await shot('recharge-pending');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // 3. O, in a desktop window of their own, confirms the deposit in the operator console.
    const operatorContext = await j.browser.newContext({ viewport: VIEWPORTS.desktop, locale: 'zh-CN' });
    const op = await operatorContext.newPage();
    const operatorErrors: string[] = [];
    op.on('pageerror', (error) => operatorErrors.push(error.message));
    const opShot = (name: string) => screenshot(op, name);
    await openAs(op, server.base, o, '/');
    await op.locator('[data-section="operator-menu"]').getByRole('menuitem', { name: '充值审核' }).click();
    await expect.poll(() => hashPath(op)).toBe('/admin/deposits');
    const opDepositRow = op.getByRole('row').filter({ hasText: 'alice@example.com' });
    await opDepositRow.getByRole('button', { name: '确认到账' }).click();
    const confirmDeposit = op.getByRole('dialog');
    await confirmDeposit.getByText('确认为 alice@example.com 入账 500 USDT 吗？').waitFor();
    await opShot('console-deposit-confirm');
    await confirmDeposit.getByRole('button', { name: '确认', exact: true }).click();
    await op.getByText('充值已确认，已为用户入账').waitFor();
    await expect.poll(async () => (await server.db.selectFrom('deposits').select('status').where('id', '=', deposits[0]!.id).executeTakeFirstOrThrow()).status).toBe('confirmed');
    expect((await balances(a.accessToken)).USDT).toEqual({ asset: 'USDT', available: '500', held: '0' });

    // 4. A sees the 500 USDT, converts 100 into fuel, activates with USDT, withdraws 50.
    await page.goto(j.url('/profile/wallet'));
    await page.getByRole('heading', { level: 1, name: '钱包' }).waitFor();
    await expect.poll(() => text(page, '[data-balance="USDT"] [data-field="available"]')).toBe('500.00');
    await page.locator('[data-section="recent"] [data-status="confirmed"]').waitFor();
    await shot('wallet-500');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await page.goto(j.url('/profile/wallet/exchange'));
    await page.getByRole('heading', { level: 1, name: '兑换' }).waitFor();
    await page.getByText('1 USDT = 1 燃料').waitFor();
    await page.locator('[data-available="USDT"]').getByText('可用 500.00 USDT').waitFor();
    await page.getByRole('textbox', { name: '支付USDT' }).fill('100');
    await expect.poll(() => text(page, '[data-field="receive"]')).toBe('100.00 燃料');
    await shot('exchange');
    await page.getByRole('button', { name: '兑换', exact: true }).click();
    // A conversion cannot be undone: it asks first, with the rate and what is given and got.
    const confirm = page.getByRole('dialog', { name: '确认兑换' });
    await confirm.getByText('兑换不可撤销').waitFor();
    await shot('exchange-confirm');
    await confirm.getByRole('button', { name: '确认兑换' }).click();
    await page.getByText('兑换成功').waitFor();
    await page.locator('[data-available="USDT"]').getByText('可用 400.00 USDT').waitFor();
    expect((await balances(a.accessToken)).FUEL!.available).toBe('100');

    await page.goto(j.url('/profile/activate'));
    await page.getByRole('heading', { level: 1, name: '激活账户' }).waitFor();
    await page.locator('[data-price="usdt"]').getByText('100.00 USDT').waitFor();
    await page.locator('[data-available="usdt"]').getByText('当前余额：400.00 USDT').waitFor();
    await shot('activate');
    await page.getByRole('button', { name: '用 USDT 激活' }).click();
    const confirmActivation = page.getByRole('dialog');
    await confirmActivation.getByText('将从钱包扣除 100.00 USDT，操作不可撤销。').waitFor();
    await confirmActivation.getByRole('button', { name: '确认', exact: true }).click();
    await page.locator('[data-state="activated"]').getByRole('heading', { name: '账户已激活' }).waitFor();
    await shot('activated');
    const member = (await server.call('GET', '/api/member/status', undefined, { token: a.accessToken })).body.data;
    expect(member.activated).toBe(true);

    const payout = depositAddressFor('payout-wallet', 'cold-storage');
    // An address of A's book whose 24 hours have passed (the wait itself: server/test/withdrawalAddresses.test.ts).
    await trustAddress(server, a.user.id, payout);
    await page.goto(j.url('/profile/wallet/withdraw'));
    await page.getByRole('heading', { level: 1, name: '提现' }).waitFor();
    await page.locator('[data-available="USDT"]').getByText('可用 300.00 USDT').waitFor();
    await page.getByRole('textbox', { name: '提现地址' }).fill(payout);
    await page.getByRole('textbox', { name: '数量' }).fill('50');
    await expect.poll(() => text(page, '[data-summary="held"]')).toBe('审核期间冻结51.00 USDT');
    await shot('withdraw-form');
    await page.getByRole('button', { name: '提现', exact: true }).click();
    const confirmWithdrawal = page.getByRole('dialog', { name: '确认提现' });
    await confirmWithdrawal.getByText(`确定提现 50.00 USDT 到 ${payout} 吗？`).waitFor();
    await confirmWithdrawal.getByText('将冻结 51.00 USDT（含手续费 1.00 USDT）。').waitFor();
    await confirmWithdrawal.getByLabel('登录密码').fill(a.password);
    await shot('withdraw-confirm');
    await confirmWithdrawal.getByRole('button', { name: '确认提现' }).click();
    await page.getByText('提现已提交，等待审核。').waitFor();
    await confirmWithdrawal.waitFor({ state: 'hidden' });
    const withdrawalRow = page.locator('[data-section="withdrawal-list"] li[data-kind="withdrawal"]');
    await expect.poll(() => withdrawalRow.count()).toBe(1);
    expect(await text(page, '[data-section="withdrawal-list"] li')).toContain('提现 50.00 USDT');
    expect(await withdrawalRow.locator('[data-status]').getAttribute('data-status')).toBe('pending');
    expect(await text(page, '[data-section="withdrawal-list"] li')).toContain('手续费 1.00');
    await shot('withdraw-pending');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect((await balances(a.accessToken)).USDT).toEqual({ asset: 'USDT', available: '249', held: '51' });

    // 5. O approves the withdrawal.
    await op.locator('[data-section="operator-menu"]').getByRole('menuitem', { name: '提现审核' }).click();
    await expect.poll(() => hashPath(op)).toBe('/admin/withdrawals');
    const opWithdrawalRow = op.getByRole('row').filter({ hasText: 'alice@example.com' });
    await opWithdrawalRow.getByText(payout).waitFor();
    await opWithdrawalRow.getByRole('button', { name: '通过' }).click();
    const approve = op.getByRole('dialog', { name: '通过提现' });
    await approve.getByText(`向 ${payout}（alice@example.com）支付 50 USDT 吗？`, { exact: false }).waitFor();
    await opShot('console-withdrawal-approve');
    await approve.getByRole('button', { name: '通过', exact: true }).click();
    await op.getByText('提现已通过').waitFor();
    await expect
      .poll(async () => (await server.db.selectFrom('withdrawals').select('status').where('user_id', '=', a.user.id).executeTakeFirstOrThrow()).status)
      .toBe('approved');
    expect(operatorErrors).toEqual([]);
    await operatorContext.close();

    // 6. A's records show every step; the balances add up.
    const after = await balances(a.accessToken);
    expect(after.USDT).toEqual({ asset: 'USDT', available: '249', held: '0' });
    expect(after.FUEL!.available).toBe('120');
    await page.goto(j.url('/profile/wallet/usdt-records'));
    await page.getByRole('heading', { level: 1, name: 'USDT 记录' }).waitFor();
    const records = page.locator('li[data-record]');
    await expect.poll(() => records.count()).toBe(4);
    const recordTexts = await records.evaluateAll((items) => items.map((item) => (item as HTMLElement).innerText.replace(/\s+/g, ' ')));
    // Newest first: the hold of amount + fee, the activation, the conversion, the deposit; every detail label in Chinese.
    // Full-width colons, and a short reference (8 characters) instead of a whole uuid.
    expect(recordTexts[0]).toMatch(/^提现（冻结） -51\.00 .* 余额 249\.00 手续费：1 · 数量：50 · 提现单：[0-9a-f]{8}$/);
    expect(recordTexts[1]).toMatch(/^激活 -100\.00 .* 余额 300\.00 .*价格：100/);
    expect(recordTexts[2]).toMatch(/^兑换支出 -100\.00 .* 余额 400\.00 .*支付：100 .*获得：100/);
    expect(recordTexts[3]).toMatch(/^充值 \+500\.00 .* 余额 500\.00 充值单：[0-9a-f]{8}/);
    for (const line of recordTexts) expect(line).not.toMatch(/[A-Za-z]+[:：] |: /);
    await shot('usdt-records');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await page.goto(j.url('/profile/wallet'));
    await expect.poll(() => text(page, '[data-balance="USDT"] [data-field="available"]')).toBe('249.00');
    await expect.poll(() => text(page, '[data-balance="FUEL"] [data-field="available"]')).toBe('120.00');
    // The balances shown before the approval are refetched on the way in.
    await expect.poll(() => text(page, '[data-balance="USDT"] [data-field="held"]')).toBe('冻结 0.00');
    await page.locator('[data-section="recent"] [data-status="approved"]').waitFor();
    await shot('wallet-final');

    // 7. B activates through the API (a deposit the operator confirms): A gets the invite reward.
    const bDeposit = await server.call('POST', '/api/wallet/recharge', { amount: '100', idempotencyKey: 'bob-deposit-1' }, { token: b.accessToken });
    expect(bDeposit.body.code).toBe(0);
    expect((await server.call('PUT', `/api/admin/deposits/${bDeposit.body.data.id}`, { status: 'confirmed' }, { token: o.accessToken })).body.code).toBe(0);
    expect((await server.call('POST', '/api/member/activate', { method: 'usdt', idempotencyKey: 'bob-activate-1' }, { token: b.accessToken })).body.code).toBe(0);
    expect((await balances(a.accessToken)).POINTS!.available).toBe('50');

    await page.goto(j.url('/profile/wallet/points-transfer'));
    await page.getByRole('heading', { level: 1, name: '积分转账' }).waitFor();
    await page.locator('[data-available="POINTS"]').getByText('可用 50 积分').waitFor();
    await page.locator(`[data-section="downline"] [data-member="${b.user.id}"]`).waitFor();
    await page.getByRole('textbox', { name: '下级成员' }).fill('bob@example.com');
    await page.getByRole('textbox', { name: '数量' }).fill('20');
    await page.getByRole('button', { name: '转账', exact: true }).click();
    const confirmPoints = page.getByRole('dialog');
    await confirmPoints.getByText('确定向 bob@example.com 转账 20 积分 吗？转账后无法撤回。').waitFor();
    // Points leave the wallet only with the login password.
    await confirmPoints.getByLabel('登录密码').fill(a.password);
    await shot('points-confirm');
    await confirmPoints.getByRole('button', { name: '确认转账', exact: true }).click();
    await page.getByText('积分已转出').waitFor();
    await page.locator('[data-available="POINTS"]').getByText('可用 30 积分').waitFor();
    expect((await balances(b.accessToken)).POINTS!.available).toBe('20');

    // Someone outside the down-line (the operator) is refused with the localized 16000 text.
    await page.getByRole('textbox', { name: '下级成员' }).fill('olga@example.com');
    await page.getByRole('textbox', { name: '数量' }).fill('5');
    await page.getByRole('button', { name: '转账', exact: true }).click();
    await page.getByRole('dialog').getByLabel('登录密码').fill(a.password);
    await page.getByRole('dialog').getByRole('button', { name: '确认转账', exact: true }).click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    const refusal = page.locator('[role="alert"][data-error-code="16000"]');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe('积分只能转给下级');
    await shot('points-refused');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect((await balances(a.accessToken)).POINTS!.available).toBe('30');
    expect((await balances(o.accessToken)).POINTS!.available).toBe('0');

    await page.goto(j.url('/profile/wallet/points-records'));
    await page.getByRole('heading', { level: 1, name: '积分记录' }).waitFor();
    const pointRecords = page.locator('li[data-record]');
    await expect.poll(() => pointRecords.count()).toBe(2);
    const pointTexts = await pointRecords.evaluateAll((items) => items.map((item) => (item as HTMLElement).innerText.replace(/\s+/g, ' ')));
    expect(pointTexts[0]).toMatch(/^积分转出 -20 .* 余额 30 对方：bo\*\*\*@example\.com$/);
    // The invitee as a masked email, never their user id.
    expect(pointTexts[1]).toMatch(/^邀请奖励 \+50 .* 余额 50 被邀请人：bo\*\*\*@example\.com$/);
    await shot('points-records');

    // 8. The guides, in each language.
    const welcome = GUIDES.find((guide) => guide.minutesAgo === 0)!;
    const titles = [welcome.texts['zh-CN'].title, welcome.texts['en-US'].title, welcome.texts['zh-TW'].title];
    expect(new Set(titles).size).toBe(3);
    await page.goto(j.url('/article'));
    await page.getByRole('heading', { level: 1, name: '公告' }).waitFor();
    await expect.poll(() => page.locator('article[data-article]').count()).toBe(GUIDES.length);
    for (const guide of GUIDES) await page.getByRole('heading', { level: 2, name: guide.texts['zh-CN'].title }).waitFor();
    await shot('articles-zh-CN');
    await page.getByRole('heading', { level: 2, name: titles[0] }).click();
    await expect.poll(() => hashPath(page)).toBe(`/article/${welcome.id}`);
    const article = page.locator(`article[data-article="${welcome.id}"]`);
    await article.getByRole('heading', { level: 2, name: titles[0] }).waitFor();
    expect(await article.getAttribute('lang')).toBe('zh-CN');
    await shot('article-zh-CN');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // en-US with the app's language switcher.
    await page.getByRole('button', { name: '切换语言' }).click();
    await page.getByRole('menuitem', { name: /English/ }).click();
    await article.getByRole('heading', { level: 2, name: titles[1] }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Article' }).waitFor();
    expect(await article.getAttribute('lang')).toBe('en-US');
    expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('en-US');
    await shot('article-en-US');

    // zh-TW with the switcher (now in English), kept after a reload.
    await page.getByRole('button', { name: 'Switch language' }).click();
    await page.getByRole('menuitem', { name: /繁體中文/ }).click();
    await article.getByRole('heading', { level: 2, name: titles[2] }).waitFor();
    await page.reload();
    await article.getByRole('heading', { level: 2, name: titles[2] }).waitFor();
    await page.getByRole('heading', { level: 1, name: '文章詳情' }).waitFor();
    expect(await article.getAttribute('lang')).toBe('zh-TW');
    expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('zh-TW');
    await shot('article-zh-TW');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});
