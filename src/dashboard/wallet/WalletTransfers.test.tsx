import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommunityMember } from '../../api/member';
import { fail, ok } from '../../testing/fakeServer';
import { enterText, findHeading, renderApp, startSignedInZhCN, pageUser } from '../../testing/renderApp';
import { record, page, wallet, sent, bodies, queryOf, KEY, answers, badGateway, amountInput, spendInput, confirmWithPassword } from './walletTestKit';

// Whole-app renders on a busy machine: give every wait some slack.
configure({ asyncUtilTimeout: 5000 });

beforeEach(startSignedInZhCN);
afterEach(() => vi.unstubAllGlobals());

describe('transfer', () => {
  const send = async (to: string, amount: string) => {
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const recipient = screen.getByRole('textbox', { name: /^收款人/ });
    await pageUser.clear(recipient);
    await enterText(recipient, to);
    await pageUser.clear(amountInput());
    await enterText(amountInput(), amount);
    await pageUser.click(screen.getByRole('button', { name: '转账' }));
    await confirmWithPassword();
  };

  it('keeps the key when the same transfer is retried after a failure, and makes a new one when the form changes or after success', async () => {
    const app = await renderApp(
      '/profile/wallet/transfer',
      wallet({
        'POST /api/wallet/transfer': answers(badGateway(), fail(11003, 'insufficient USDT balance', { asset: 'USDT' }), fail(11000), ok(record('r-1')), ok(record('r-2'))),
      }),
    );
    await findHeading('转账');
    await screen.findByText(/可用 1,234.50 USDT/);
    expect(screen.getByText(/最少 1.00 USDT/)).toBeInTheDocument();

    await send('friend@example.com', '12.5');
    expect(await screen.findByRole('alert')).toHaveTextContent('服务器返回错误（HTTP 502）。');
    // The same transfer again: the lost answer may have gone through, so the same key.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await pageUser.click(screen.getByRole('button', { name: '转账' }));
    expect(within(await screen.findByRole('dialog')).getByText('确定向 friend@example.com 转账 12.50 USDT 吗？转账后无法撤回。')).toBeInTheDocument();
    await confirmWithPassword();
    expect(await screen.findByText('余额不足')).toBeInTheDocument();
    // Another amount is another transfer.
    await send('friend@example.com', '10');
    expect(await screen.findByText('用户不存在')).toBeInTheDocument();
    // ... and that one retried keeps its key, then succeeds.
    await send('friend@example.com', '10');
    expect(await screen.findByText('转账成功')).toBeInTheDocument();
    await waitFor(() => expect(amountInput()).toHaveValue(''));
    await send('friend@example.com', '10');
    await waitFor(() => expect(bodies(app, '/api/wallet/transfer')).toHaveLength(5));

    const keys = bodies(app, '/api/wallet/transfer').map((b) => b.idempotencyKey as string);
    expect(bodies(app, '/api/wallet/transfer')[0]).toMatchObject({ to: 'friend@example.com', amount: '12.5', password: 'Right-Password-1' });
    keys.forEach((key) => expect(key).toMatch(KEY));
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(keys[3]).toBe(keys[2]);
    expect(keys[4]).not.toBe(keys[3]);
  }, 60_000);

  it('confirms by the login password: none is not sent, a wrong one (11002) stays in the dialog with the same key; the demo account is told why it cannot send', async () => {
    const app = await renderApp(
      '/profile/wallet/transfer',
      wallet({
        'POST /api/wallet/transfer': answers(
          fail(11002, 'wrong password', { field: 'password' }),
          fail(11005, 'the demo account cannot move money out', { reason: 'demo_account' }),
        ),
      }),
    );
    await screen.findByText(/可用 1,234.50 USDT/);
    await enterText(screen.getByRole('textbox', { name: /^收款人/ }), 'friend@example.com');
    await enterText(amountInput(), '12.5');
    await pageUser.click(screen.getByRole('button', { name: '转账' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('确定向 friend@example.com 转账 12.50 USDT 吗？转账后无法撤回。')).toBeInTheDocument();
    await pageUser.click(dialog.getByRole('button', { name: '确认转账' }));
    expect(await dialog.findByText('必填')).toBeInTheDocument();
    expect(bodies(app, '/api/wallet/transfer')).toHaveLength(0);

    await enterText(dialog.getByLabelText(/^登录密码/), 'wrong-one');
    await pageUser.click(dialog.getByRole('button', { name: '确认转账' }));
    expect(await dialog.findByText('密码错误')).toBeInTheDocument();
    expect(dialog.getByLabelText(/^登录密码/)).toHaveValue('');

    await confirmWithPassword('Right-Password-1');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const refusal = await screen.findByRole('alert');
    expect(refusal).toHaveTextContent('演示账户不能把资金转出钱包。请注册自己的账户后再提现或转账。');
    expect(refusal).not.toHaveTextContent(/demo/i);
    const [first, second] = bodies(app, '/api/wallet/transfer');
    expect(first).toMatchObject({ to: 'friend@example.com', amount: '12.5', password: 'wrong-one', idempotencyKey: expect.stringMatching(KEY) });
    expect(second).toMatchObject({ password: 'Right-Password-1', idempotencyKey: first!.idempotencyKey });
  }, 60_000);

  it('disables the button while the transfer is in flight, and refreshes the balances after it', async () => {
    const app = await renderApp('/profile/wallet/transfer', wallet({ 'POST /api/wallet/transfer': () => ({ ...ok(record('r-1')), delayMs: 300 }) }));
    await screen.findByText(/可用 1,234.50 USDT/);
    const before = sent(app, 'GET', '/api/wallet/balances').length;
    await send('u-2', '3');
    // The confirmation stays, its buttons blocked, until the answer arrives.
    const dialog = within(screen.getByRole('dialog'));
    await waitFor(() => expect(dialog.getByRole('button', { name: '确认转账' })).toBeDisabled());
    expect(dialog.getByRole('button', { name: '取消' })).toBeDisabled();
    expect(await screen.findByText('转账成功')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('button', { name: '转账' })).toBeEnabled();
    await waitFor(() => expect(sent(app, 'GET', '/api/wallet/balances').length).toBeGreaterThan(before));
    expect(bodies(app, '/api/wallet/transfer')).toHaveLength(1);
  });
});

describe('points transfer', () => {
  const members: CommunityMember[] = [
    { id: 'u-7', email: 'a***@example.com', nickname: 'Alice', level: 1, activated: true, depth: 1, runningTasks: 2, joinedAt: '2026-01-01T00:00:00Z', lastActiveAt: null },
  ];

  it('explains the down-line rule, offers the team, and shows 16000 and 16001', async () => {
    const app = await renderApp(
      '/profile/wallet/points-transfer',
      wallet({
        'GET /api/invite/community': () => ok({ list: members, total: 1, direct: 1, team: 1 }),
        'POST /api/wallet/points-transfer': answers(fail(16000), fail(16001), ok(record('p-1', { asset: 'POINTS', kind: 'points_out' }))),
      }),
    );
    await findHeading('积分转账');
    expect(screen.getByText(/积分只能转给自己的下级/)).toBeInTheDocument();
    await screen.findByText(/可用 88.25 积分/);
    const recipient = screen.getByRole('textbox', { name: /^下级成员/ });
    await enterText(recipient, 'stranger@example.com');
    await enterText(amountInput(), '5');
    await pageUser.click(await screen.findByRole('button', { name: '转账' }, { timeout: 5_000 }));
    await confirmWithPassword();
    expect(await screen.findByText('积分只能转给下级')).toBeInTheDocument();

    await pageUser.clear(recipient);
    await enterText(recipient, 'demo@example.com');
    await pageUser.click(await screen.findByRole('button', { name: '转账' }, { timeout: 5_000 }));
    await confirmWithPassword();
    expect(await screen.findByText('不能转给自己')).toBeInTheDocument();

    await pageUser.click(await screen.findByRole('button', { name: 'Alice · a***@example.com' }));
    expect(recipient).toHaveValue('u-7');
    await pageUser.click(await screen.findByRole('button', { name: '转账' }, { timeout: 5_000 }));
    await confirmWithPassword();
    expect(await screen.findByText('积分已转出')).toBeInTheDocument();
    const sentBodies = bodies(app, '/api/wallet/points-transfer');
    expect(sentBodies.map((b) => [b.to, b.amount])).toEqual([
      ['stranger@example.com', '5'],
      ['demo@example.com', '5'],
      ['u-7', '5'],
    ]);
    expect(new Set(sentBodies.map((b) => b.idempotencyKey)).size).toBe(3);
  }, 60_000);
});

describe('swap', () => {
  it('previews what the chosen rate gives, whole cards only, and sends the conversion', async () => {
    const app = await renderApp('/profile/wallet/exchange', wallet({ 'POST /api/wallet/exchange': answers(fail(10002), ok(record('s-1', { kind: 'swap_out' }))) }));
    await findHeading('兑换');
    const receive = () => document.querySelector('[data-field="receive"]');
    expect(await screen.findByText('1 USDT = 1 燃料')).toBeInTheDocument();
    await enterText(spendInput(), '12.345');
    expect(receive()).toHaveTextContent('12.345 燃料');

    // USDT -> activation cards at 0.01: 100 USDT a card.
    await pageUser.click(screen.getByRole('combobox', { name: '兑换方向' }));
    await pageUser.click(await screen.findByRole('option', { name: 'USDT → 激活卡' }));
    expect(screen.getByText('1 USDT = 0.01 张')).toBeInTheDocument();
    await pageUser.clear(spendInput());
    await enterText(spendInput(), '150');
    expect(receive()).toHaveTextContent('1 张');
    expect(screen.getByText('激活卡只能按整数兑换：请支付 100 USDT 的整数倍。')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '兑换' })).toBeDisabled();
    await pageUser.clear(spendInput());
    await enterText(spendInput(), '300');
    expect(receive()).toHaveTextContent('3 张');

    // One tap only asks: the rate, what is given and got, and that it cannot be undone; cancelling sends nothing.
    await pageUser.click(screen.getByRole('button', { name: '兑换' }));
    const dialog = await screen.findByRole('dialog', { name: '确认兑换' });
    expect(dialog).toHaveTextContent('支付 300.00 USDT，获得 3 张，汇率 1 USDT = 0.01 张。兑换不可撤销。');
    await pageUser.click(within(dialog).getByRole('button', { name: /取消/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodies(app, '/api/wallet/exchange')).toHaveLength(0);
    const confirmed = async () => {
      await pageUser.click(screen.getByRole('button', { name: '兑换' }));
      await pageUser.click(within(await screen.findByRole('dialog', { name: '确认兑换' })).getByRole('button', { name: '确认兑换' }));
      // The dialog hides the page from the next query while it fades out.
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    };
    await confirmed();
    expect(await screen.findByText('参数超出范围')).toBeInTheDocument();
    await confirmed();
    expect(await screen.findByText('兑换成功')).toBeInTheDocument();
    const [first, second] = bodies(app, '/api/wallet/exchange');
    expect(first).toMatchObject({ from: 'USDT', to: 'CARD', amount: '300', idempotencyKey: expect.stringMatching(KEY) });
    expect(second!.idempotencyKey).toBe(first!.idempotencyKey);

    // Points to fuel at 0.5.
    await pageUser.click(screen.getByRole('combobox', { name: '兑换方向' }));
    await pageUser.click(await screen.findByRole('option', { name: '积分 → 燃料' }));
    await enterText(spendInput(), '0.3');
    expect(receive()).toHaveTextContent('0.15 燃料');
  }, 60_000);
});

describe('swap: balance first', () => {
  it('refuses more than the available balance before sending anything', async () => {
    const app = await renderApp('/profile/wallet/exchange', wallet());
    await findHeading('兑换');
    expect(await screen.findByText('1 USDT = 1 燃料')).toBeInTheDocument();
    await screen.findByText(/可用 1,234.50/);
    await enterText(spendInput(), '2000');
    await pageUser.click(screen.getByRole('button', { name: '兑换' }));
    expect(await screen.findByText(/超过可用余额 1,234.50/)).toBeInTheDocument();
    expect(bodies(app, '/api/wallet/exchange')).toHaveLength(0);
  });
});

describe('records', () => {
  const records = [
    record('r-1'),
    record('r-2', {
      kind: 'recharge',
      amount: '100',
      balanceAfter: '1000',
      detail: { depositId: 'd9e8f7a6-0000-4000-8000-000000000009', reason: 'demo account' },
      createdAt: '2026-03-02T10:00:00.000Z',
    }),
  ];

  it('lists the records of the asset with kind, signed amount, balance after and details', async () => {
    const app = await renderApp('/profile/wallet/usdt-records', wallet({ 'GET /api/wallet/records': () => page(records, 2) }));
    await findHeading('USDT 记录');
    const table = await screen.findByRole('table', { name: '记录' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByText('转出')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('-12.50')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('987.50')).toBeInTheDocument();
    // Full-width colons in Chinese.
    expect(within(rows[1]!).getByText('对方：b***@example.com')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('充值')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('+100.00')).toBeInTheDocument();
    // A uuid as a short reference (the full one on hover and for copying); a reason the server sends as words, localized.
    // Each label and its value one piece of the line (it wraps between pairs).
    const detail = within(rows[2]!).getByText(/^充值单：/).parentElement!;
    expect(detail).toHaveTextContent('充值单：d9e8f7a6 · 原因：演示账户初始资金');
    expect(detail).not.toHaveTextContent('demo account');
    expect(within(detail).getByRole('button', { name: '复制编号 d9e8f7a6-0000-4000-8000-000000000009' })).toHaveTextContent(/^d9e8f7a6$/);
    const [request] = sent(app, 'GET', '/api/wallet/records');
    expect(queryOf(request!)).toEqual({ asset: 'USDT', timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, page: '1', pageSize: '20' });
  });

  it("labels a swap's assets as given and got, not as a transfer's people", async () => {
    const swap = record('s-1', { kind: 'swap_out', amount: '-10', balanceAfter: '990', detail: { from: 'USDT', to: 'FUEL', rate: '10', paid: '10', received: '100' } });
    await renderApp('/profile/wallet/usdt-records', wallet({ 'GET /api/wallet/records': () => page([swap]) }));
    const detail = (await screen.findByText(/^兑出币种：/)).parentElement!;
    expect(detail).toHaveTextContent('兑出币种：USDT · 兑入币种：FUEL · 汇率：10 · 支付：10 · 获得：100');
    expect(detail).not.toHaveTextContent(/转给|来自/);
  });

  it('sends the kind and date filters and the page, back to page 1 when a filter changes', async () => {
    const app = await renderApp('/profile/wallet/card-records', wallet({ 'GET /api/wallet/records': () => page([record('c-1', { asset: 'CARD', kind: 'activation', amount: '-1', balanceAfter: '1' })], 45) }));
    await findHeading('激活卡记录');
    await screen.findByText('激活');
    const last = () => queryOf(sent(app, 'GET', '/api/wallet/records').at(-1)!);
    expect(last()).toMatchObject({ asset: 'CARD', page: '1', pageSize: '20' });

    await pageUser.click(screen.getByRole('button', { name: /下一页|next page/i }));
    await waitFor(() => expect(last()).toMatchObject({ page: '2' }));

    await pageUser.click(screen.getByRole('combobox', { name: '类型' }));
    await pageUser.click(await screen.findByRole('option', { name: '兑换获得' }));
    await waitFor(() => expect(last()).toMatchObject({ asset: 'CARD', kind: 'swap_in', page: '1' }));

    // Dates in the page's order (year first in Chinese), whatever the browser's language.
    const dateInput = (name: string) => document.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
    const startGroup = screen.getByRole('group', { name: '开始日期' });
    expect(within(startGroup).getAllByRole('spinbutton').map((s) => s.getAttribute('aria-label'))).toEqual(['年份', '月份', '日期']);
    fireEvent.change(dateInput('from'), { target: { value: '2026/03/01' } });
    fireEvent.change(dateInput('to'), { target: { value: '2026/03/31' } });
    await waitFor(() => expect(last()).toMatchObject({ kind: 'swap_in', from: '2026-03-01', to: '2026-03-31', timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone }));

    // An end before the start is not asked.
    const count = sent(app, 'GET', '/api/wallet/records').length;
    fireEvent.change(dateInput('to'), { target: { value: '2026/02/01' } });
    expect(await screen.findByText('结束日期早于开始日期')).toBeInTheDocument();
    expect(sent(app, 'GET', '/api/wallet/records')).toHaveLength(count);

    await pageUser.click(screen.getByRole('button', { name: '清除筛选' }));
    await waitFor(() => expect(last()).toEqual({ asset: 'CARD', timeZone: expect.any(String), page: '1', pageSize: '20' }));
  }, 60_000);

  it('says when there is nothing to show', async () => {
    await renderApp('/profile/wallet/points-records', wallet({ 'GET /api/wallet/records': () => page([]) }));
    await findHeading('积分记录');
    expect(await screen.findByText('暂无记录。')).toBeInTheDocument();
  });
});
