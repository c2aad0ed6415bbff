import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { WithdrawalAddressBook } from '../../api/wallet';
import { ok } from '../../testing/fakeServer';
import { enterText, findHeading, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { OUT, bodies, wallet } from './walletTestKit';

configure({ asyncUtilTimeout: 5000 });
beforeEach(startSignedInZhCN);

const SAVED = 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8';
const later = new Date(Date.now() + 20 * 3_600_000).toISOString();
const book: WithdrawalAddressBook = {
  whitelist: true,
  list: [
    { id: '6f1c0c1e-0000-4000-8000-000000000002', address: OUT, label: '', network: 'TRC20', createdAt: new Date(Date.now() - 4 * 3_600_000).toISOString(), usableAt: later },
    { id: '6f1c0c1e-0000-4000-8000-000000000001', address: SAVED, label: '冷钱包', network: 'TRC20', createdAt: '2026-03-01T08:00:00.000Z', usableAt: '2026-03-02T08:00:00.000Z' },
  ],
};
const time = (iso: string) => new Intl.DateTimeFormat('zh-CN', { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false }).format(new Date(iso));

describe('withdrawal addresses', () => {
  it('lists the addresses with label, network, added and usable-from times; adds one with a label, confirmed by the password', async () => {
    const app = await renderApp(
      '/profile/wallet/addresses',
      wallet({
        'GET /api/wallet/addresses': () => ok(book),
        'POST /api/wallet/addresses/add': () => ok({ ...book.list[0]!, id: '6f1c0c1e-0000-4000-8000-000000000003', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', label: '交易所' }),
      }),
    );
    await findHeading('提币地址');
    const row = (address: string) => document.querySelector<HTMLElement>(`[data-address="${address}"]`)!;
    await waitFor(() => expect(row(SAVED)).not.toBeNull());
    expect(row(SAVED)).toHaveTextContent('冷钱包');
    expect(within(row(SAVED)).getByText('可用')).toBeInTheDocument();
    expect(within(row(SAVED)).getByText('TRC20')).toBeInTheDocument();
    expect(row(SAVED)).toHaveTextContent(`添加于 ${time('2026-03-01T08:00:00.000Z')}`);
    expect(row(OUT)).toHaveTextContent('无备注');
    expect(within(row(OUT)).getByText('等待中')).toBeInTheDocument();
    expect(row(OUT).querySelector('[data-field="usableAt"]')).toHaveTextContent(`${time(later)} 起可用`);
    const whitelist = screen.getByRole('switch', { name: '白名单：只允许提币到以下地址' });
    expect(whitelist).toBeChecked();

    // Add: the address is checked before the password is asked for.
    const form = within(screen.getByRole('form', { name: '添加地址' }));
    await enterText(form.getByRole('textbox', { name: /^提现地址/ }), 'not-an-address');
    await userEvent.click(form.getByRole('button', { name: '添加地址' }));
    expect(await form.findByText(/TRC20/, { selector: 'p.Mui-error' })).toBeInTheDocument();
    await enterText(form.getByRole('textbox', { name: /^提现地址/ }), 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    await enterText(form.getByRole('textbox', { name: '备注（可选）' }), ' 交易所 ');
    await userEvent.click(form.getByRole('button', { name: '添加地址' }));
    let dialog = within(await screen.findByRole('dialog', { name: '添加此地址' }));
    await enterText(dialog.getByLabelText(/^登录密码/), 'Right-Password-1');
    await userEvent.click(dialog.getByRole('button', { name: '添加' }));
    await waitFor(() => expect(bodies(app, '/api/wallet/addresses/add')).toEqual([{ address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', label: '交易所', password: 'Right-Password-1' }]));
    expect(await screen.findByText(`地址已添加：${time(later)} 起可用。`)).toBeInTheDocument();

  });

  it('turns the whitelist off only with the password: nothing is sent before it', async () => {
    const app = await renderApp('/profile/wallet/addresses', wallet({ 'GET /api/wallet/addresses': () => ok(book), 'POST /api/wallet/addresses/whitelist': () => ok({ ...book, whitelist: false }) }));
    await findHeading('提币地址');
    const whitelist = await screen.findByRole('switch', { name: '白名单：只允许提币到以下地址' });
    await waitFor(() => expect(whitelist).toBeChecked());
    await userEvent.click(whitelist);
    const dialog = within(await screen.findByRole('dialog', { name: '关闭白名单' }));
    expect(bodies(app, '/api/wallet/addresses/whitelist')).toEqual([]);
    await enterText(dialog.getByLabelText(/^登录密码/), 'Right-Password-1');
    await userEvent.click(dialog.getByRole('button', { name: '关闭' }));
    await waitFor(() => expect(bodies(app, '/api/wallet/addresses/whitelist')).toEqual([{ enabled: false, password: 'Right-Password-1' }]));
  });
});
