import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Withdrawal } from '../../api/wallet';
import { fail, ok } from '../../testing/fakeServer';
import { enterText, findHeading, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { balances, ADDRESS, OUT, HASH, deposit, withdrawal, page, wallet, sent, bodies, KEY, answers, amountInput } from './walletTestKit';

// Whole-app renders on a busy machine: give every wait some slack.
configure({ asyncUtilTimeout: 5000 });

beforeEach(startSignedInZhCN);
afterEach(() => vi.unstubAllGlobals());

describe('wallet overview', () => {
  it('shows the four balances with what is held, the actions, the record links and the recent deposits and withdrawals', async () => {
    await renderApp('/profile/wallet', wallet());
    await findHeading('钱包');
    const card = (asset: string) => document.querySelector<HTMLElement>(`[data-balance="${asset}"]`)!;
    await waitFor(() => expect(card('USDT').querySelector('[data-field="available"]')).toHaveTextContent('1,234.50'));
    expect(within(card('USDT')).getByText('冻结 21.00')).toBeInTheDocument();
    expect(within(card('CARD')).getByText('激活卡')).toBeInTheDocument();
    expect(card('CARD').querySelector('[data-field="available"]')).toHaveTextContent(/^2$/);
    expect(card('POINTS').querySelector('[data-field="available"]')).toHaveTextContent('88.25');
    expect(within(card('FUEL')).getByText('燃料')).toBeInTheDocument();
    expect(within(card('USDT')).getByRole('link', { name: '查看记录' })).toHaveAttribute('href', '/profile/wallet/usdt-records');
    expect(within(card('CARD')).getByRole('link', { name: '查看记录' })).toHaveAttribute('href', '/profile/wallet/card-records');

    const actions = within(screen.getByRole('navigation', { name: '钱包操作' }));
    expect(actions.getByRole('link', { name: '充值' })).toHaveAttribute('href', '/profile/wallet/recharge');
    expect(actions.getByRole('link', { name: '提现' })).toHaveAttribute('href', '/profile/wallet/withdraw');
    expect(actions.getByRole('link', { name: '转账' })).toHaveAttribute('href', '/profile/wallet/transfer');
    expect(actions.getByRole('link', { name: '兑换' })).toHaveAttribute('href', '/profile/wallet/exchange');
    expect(actions.getByRole('link', { name: '积分转账' })).toHaveAttribute('href', '/profile/wallet/points-transfer');
    expect(screen.getByRole('link', { name: 'USDT 记录' })).toHaveAttribute('href', '/profile/wallet/usdt-records');
    expect(screen.getByRole('link', { name: '激活卡记录' })).toHaveAttribute('href', '/profile/wallet/card-records');
    expect(screen.getByRole('link', { name: '积分记录' })).toHaveAttribute('href', '/profile/wallet/points-records');

    const recent = document.querySelector<HTMLElement>('[data-section="recent"]')!;
    await waitFor(() => expect(recent.querySelectorAll('[data-movement]')).toHaveLength(2));
    // Pending first.
    expect(recent.querySelector('[data-movement]')).toHaveAttribute('data-movement', 'd-1');
    expect(within(recent).getByText('充值 100.00 USDT')).toBeInTheDocument();
    expect(within(recent).getByText('待确认')).toBeInTheDocument();
    expect(within(recent).getByText('提现 20.00 USDT')).toBeInTheDocument();
    expect(within(recent).getByText('已拒绝')).toBeInTheDocument();
    expect(within(recent).getByText('原因：address on a blocked list')).toBeInTheDocument();
  });

  it('shows a failed load with a retry that loads again', async () => {
    let down = true;
    const app = await renderApp('/profile/wallet', wallet({ 'GET /api/wallet/balances': () => (down ? fail(99999) : ok(balances)) }));
    expect(await screen.findByText('未知错误')).toBeInTheDocument();
    down = false;
    await userEvent.click(screen.getByRole('button', { name: '重试' }));
    await waitFor(() => expect(document.querySelector('[data-balance="USDT"] [data-field="available"]')).toHaveTextContent('1,234.50'));
    expect(sent(app, 'GET', '/api/wallet/balances').length).toBeGreaterThanOrEqual(2);
  });

  it('says so when there is no deposit or withdrawal yet', async () => {
    await renderApp('/profile/wallet', wallet({ 'GET /api/wallet/deposits': () => page([]), 'GET /api/wallet/withdrawals': () => page([]) }));
    expect(await screen.findByText('暂无充值或提现。')).toBeInTheDocument();
  });
});

describe('recharge', () => {
  it('shows the deposit address with its network, QR code and copy button', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await renderApp('/profile/wallet/recharge', wallet());
    await findHeading('充值');
    expect(await screen.findByText(ADDRESS)).toBeInTheDocument();
    expect(screen.getByText('网络：TRC20')).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: '充值地址二维码' })).toHaveAttribute('src', expect.stringMatching(/^data:image\/svg\+xml/));
    await userEvent.click(screen.getByRole('button', { name: '复制地址' }));
    expect(writeText).toHaveBeenCalledWith(ADDRESS);
    expect(await screen.findByText('地址已复制')).toBeInTheDocument();
    // The user's deposits, with their status.
    const list = document.querySelector<HTMLElement>('[data-section="deposit-list"]')!;
    await waitFor(() => expect(within(list).getByText('待确认')).toBeInTheDocument());
    expect(within(list).getByText('交易 0xfeed')).toBeInTheDocument();
  });

  it('files a pending deposit with an idempotency key, checks the amount first, and refreshes the list', async () => {
    const app = await renderApp('/profile/wallet/recharge', wallet({ 'POST /api/wallet/recharge': (r) => ok({ ...deposit, id: 'd-2', amount: r.body?.amount }) }));
    await screen.findByText(ADDRESS);
    await enterText(amountInput(), 'abc');
    await userEvent.click(screen.getByRole('button', { name: '提交充值' }));
    expect(await screen.findByText('请输入数字，例如 10 或 10.5')).toBeInTheDocument();
    await userEvent.clear(amountInput());
    await enterText(amountInput(), '1.123456789');
    await userEvent.click(screen.getByRole('button', { name: '提交充值' }));
    expect(await screen.findByText('最多 8 位小数')).toBeInTheDocument();
    await userEvent.clear(amountInput());
    await enterText(amountInput(), '0');
    await userEvent.click(screen.getByRole('button', { name: '提交充值' }));
    expect(await screen.findByText('数量必须大于 0')).toBeInTheDocument();
    expect(bodies(app, '/api/wallet/recharge')).toHaveLength(0);

    await userEvent.clear(amountInput());
    await enterText(amountInput(), '100.50');
    const hash = screen.getByRole('textbox', { name: /交易哈希/ });
    await enterText(hash, '0xabc');
    await userEvent.click(screen.getByRole('button', { name: '提交充值' }));
    expect(await screen.findByText('交易哈希为 64 位十六进制字符（可带 0x）')).toBeInTheDocument();
    expect(bodies(app, '/api/wallet/recharge')).toHaveLength(0);
    await userEvent.clear(hash);
    await enterText(hash, ` ${HASH} `);
    const listsBefore = sent(app, 'GET', '/api/wallet/deposits').length;
    await userEvent.click(screen.getByRole('button', { name: '提交充值' }));
    expect(await screen.findByText('充值已提交，确认后到账。')).toBeInTheDocument();
    const [body] = bodies(app, '/api/wallet/recharge');
    expect(body).toEqual({ amount: '100.5', txHash: HASH, idempotencyKey: expect.stringMatching(KEY) });
    expect(amountInput()).toHaveValue('');
    await waitFor(() => expect(sent(app, 'GET', '/api/wallet/deposits').length).toBeGreaterThan(listsBefore));
  }, 60_000);
});

describe('withdraw', () => {
  const fillAndReview = async (address: string, amount: string) => {
    const addressInput = screen.getByRole('textbox', { name: /^提现地址/ });
    await userEvent.clear(addressInput);
    await enterText(addressInput, address);
    await userEvent.clear(amountInput());
    await enterText(amountInput(), amount);
    await userEvent.click(screen.getByRole('button', { name: '提现' }));
  };

  it('shows the fee, the minimum, what arrives and what is held', async () => {
    await renderApp('/profile/wallet/withdraw', wallet());
    await findHeading('提现');
    const summary = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('[data-section="withdraw-summary"]');
      expect(found).not.toBeNull();
      return found!;
    });
    expect(summary.querySelector('[data-summary="fee"]')).toHaveTextContent('手续费1.00 USDT');
    expect(summary.querySelector('[data-summary="min"]')).toHaveTextContent('最小提现10.00 USDT');
    await waitFor(() => expect(screen.getByText('可用 1,234.50 USDT')).toBeInTheDocument());
    await enterText(amountInput(), '50');
    expect(summary.querySelector('[data-summary="arrives"]')).toHaveTextContent('实际到账50.00 USDT');
    expect(summary.querySelector('[data-summary="held"]')).toHaveTextContent('审核期间冻结51.00 USDT');
    // The user's withdrawals, with status and reason.
    const list = document.querySelector<HTMLElement>('[data-section="withdrawal-list"]')!;
    await waitFor(() => expect(within(list).getByText('原因：address on a blocked list')).toBeInTheDocument());
    expect(within(list).getByText('已拒绝')).toBeInTheDocument();
  });

  it('refuses an amount under the minimum before asking for the password', async () => {
    const app = await renderApp('/profile/wallet/withdraw', wallet());
    await screen.findByText('可用 1,234.50 USDT');
    await fillAndReview('TAddr', '5');
    expect(await screen.findByText('不能少于 10')).toBeInTheDocument();
    expect(screen.getByText('不是有效的 TRC20 地址')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(bodies(app, '/api/wallet/withdraw')).toHaveLength(0);
  });

  it('checks the balance (amount plus fee) before asking for the password, and offers All: the available less the fee', async () => {
    const app = await renderApp('/profile/wallet/withdraw', wallet());
    await screen.findByText('可用 1,234.50 USDT');
    await fillAndReview(OUT, '1234');
    expect(await screen.findByText('加上手续费 1.00 USDT 共需 1,235.00 USDT，超过可用余额 1,234.50 USDT，请减少数量或点「全部」')).toBeInTheDocument();
    expect(amountInput()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '全部' }));
    expect(amountInput()).toHaveValue('1233.5');
    await userEvent.click(screen.getByRole('button', { name: '提现' }));
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(bodies(app, '/api/wallet/withdraw')).toHaveLength(0);
  });

  it('confirms by the login password; a wrong one (11002) keeps the key for the retry; a new withdrawal gets a new key', async () => {
    const app = await renderApp(
      '/profile/wallet/withdraw',
      wallet({ 'POST /api/wallet/withdraw': answers(fail(11002, 'wrong password'), ok({ ...withdrawal, status: 'pending' }), fail(11003)) }),
    );
    await screen.findByText('可用 1,234.50 USDT');
    await fillAndReview(` ${OUT} `, '50');
    let dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(`确定提现 50.00 USDT 到 ${OUT} 吗？`)).toBeInTheDocument();
    expect(dialog.getByText('将冻结 51.00 USDT（含手续费 1.00 USDT）。')).toBeInTheDocument();
    await enterText(dialog.getByLabelText(/^登录密码/), 'wrong-one');
    await userEvent.click(dialog.getByRole('button', { name: '确认提现' }));
    expect(await dialog.findByText('密码错误')).toBeInTheDocument();

    await enterText(dialog.getByLabelText(/^登录密码/), 'Right-Password-1');
    await userEvent.click(dialog.getByRole('button', { name: '确认提现' }));
    expect(await screen.findByText('提现已提交，等待审核。')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [first, second] = bodies(app, '/api/wallet/withdraw');
    expect(first).toMatchObject({ amount: '50', address: OUT, password: 'wrong-one', idempotencyKey: expect.stringMatching(KEY) });
    expect(second).toMatchObject({ amount: '50', address: OUT, password: 'Right-Password-1', idempotencyKey: first!.idempotencyKey });
    // A signed call: the client adds uuid, timestamp and sign.
    expect(second).toMatchObject({ uuid: expect.stringMatching(KEY), sign: expect.any(String), timestamp: expect.any(Number) });

    // The same figures again are a new withdrawal: a new key.
    await fillAndReview(OUT, '50');
    dialog = within(await screen.findByRole('dialog'));
    await enterText(dialog.getByLabelText(/^登录密码/), 'Right-Password-1');
    await userEvent.click(dialog.getByRole('button', { name: '确认提现' }));
    expect(await dialog.findByText('余额不足')).toBeInTheDocument();
    const third = bodies(app, '/api/wallet/withdraw')[2]!;
    expect(third.idempotencyKey).toMatch(KEY);
    expect(third.idempotencyKey).not.toBe(first!.idempotencyKey);
  }, 60_000);

  it("explains a refusal to one's own deposit address, and says when the address was another user's (paid at once, no fee)", async () => {
    const internal: Withdrawal = { ...withdrawal, id: 'w-2', status: 'approved', fee: '0', reason: null, internal: true };
    const app = await renderApp(
      '/profile/wallet/withdraw',
      wallet({
        'POST /api/wallet/withdraw': answers(fail(10008, 'this is your own deposit address', { field: 'address', reason: 'own_address' }), ok(internal)),
        'GET /api/wallet/withdrawals': () => page([internal]),
      }),
    );
    // The list says it went to another user, at once and without fee.
    expect(await screen.findByText(/站内转给其他用户，即时到账，无手续费/)).toBeInTheDocument();
    await screen.findByText('可用 1,234.50 USDT');
    await fillAndReview(OUT, '50');
    const dialog = within(await screen.findByRole('dialog'));
    await enterText(dialog.getByLabelText(/^登录密码/), 'Right-Password-1');
    await userEvent.click(dialog.getByRole('button', { name: '确认提现' }));
    expect(await dialog.findByText('这是你自己的充值地址，请提现到钱包以外的地址。')).toBeInTheDocument();
    await enterText(dialog.getByLabelText(/^登录密码/), 'Right-Password-1');
    await userEvent.click(dialog.getByRole('button', { name: '确认提现' }));
    expect(await screen.findByText('该地址属于本平台的其他用户：已即时入账给对方，不收手续费。')).toBeInTheDocument();
    expect(bodies(app, '/api/wallet/withdraw')).toHaveLength(2);
  }, 60_000);
});
