import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, ok } from '../../testing/fakeServer';
import { findHeading, identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { strategyTemplate } from '../../testing/tasks';

const me = identityRoute;
const balanced = strategyTemplate('00000000-0000-4000-8000-000000000002', 'balanced');

beforeEach(startSignedInZhCN);
afterEach(() => vi.unstubAllGlobals());

describe('strategy editor', () => {
  it('copies a system template, previews its ladder and saves it under a new name', async () => {
    const app = await renderApp(`/strategy/add?copy=${balanced.id}`, {
      ...me,
      [`GET /api/strategy/detail/${balanced.id}`]: () => ok(balanced),
      'POST /api/strategy/add': (req) => ok({ ...balanced, ...req.body, id: 'b0000000-0000-4000-8000-000000000021', system: false }),
      'GET /api/strategy/list': () => ok({ list: [], total: 0 }),
      'GET /api/trade/config-templates': () => ok([balanced]),
    });
    await findHeading('新建策略');
    expect(await screen.findByDisplayValue('均衡型 2')).toBeInTheDocument();
    // First order 10 + levels 10 and 20.
    expect(await screen.findByText('单轮最多占用资金：40.00 USDT')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(app.pathname()).toBe('/strategy'));
    const sent = app.server.requests.find((r) => r.path === '/api/strategy/add');
    expect(sent?.body).toEqual({
      name: '均衡型 2',
      levels: balanced.levels,
      takeProfitPercent: '1.5',
      takeProfitCallbackPercent: '0.3',
      replenishCallbackPercent: '0.3',
      stopLossPercent: null,
      cooldownSeconds: 120,
    });
  });

  it('previews every level to one tick: the decimals the first fill price is written to, at least cents', async () => {
    await renderApp(`/strategy/add?copy=${balanced.id}`, {
      ...me,
      [`GET /api/strategy/detail/${balanced.id}`]: () => ok(balanced),
      'GET /api/strategy/list': () => ok({ list: [], total: 0 }),
      'GET /api/trade/config-templates': () => ok([balanced]),
    });
    await findHeading('新建策略');
    await screen.findByRole('table', { name: '阶梯预览' });
    /** The price, average and take-profit cells of each level (the table is drawn anew for a new price). */
    const prices = () =>
      within(screen.getByRole('table', { name: '阶梯预览' }))
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent ?? ''))
        .map((cells) => [cells[2], cells[5], cells[6]]);
    await waitFor(() => expect(prices()).toHaveLength(3));
    // 100 and its levels 99 and 97.5: the average 99.4975… shows at the same two decimals as 100.00.
    expect(prices()[0]).toEqual(['100.00', '100.00', '101.50']);
    expect(prices()[1]![0]).toBe('99.00');
    expect(prices()[1]![1]).toBe('99.50');
    for (const cell of prices().flat()) expect(cell).toMatch(/^\d+\.\d{2}$/);
    const price = screen.getByRole('textbox', { name: '首单成交价' });
    await userEvent.clear(price);
    await userEvent.type(price, '0.00000850');
    await waitFor(() => expect(prices()[0]![0]).toBe('0.00000850'));
    for (const cell of prices().flat()) expect(cell).toMatch(/^0\.\d{8}$/);
  });

  it('explains a ladder that makes no sense and does not let it be saved', async () => {
    const app = await renderApp('/strategy/add', me);
    await findHeading('新建策略');
    const drops = screen.getAllByRole('textbox', { name: '跌幅（%）' });
    await userEvent.clear(drops[1]!);
    await userEvent.type(drops[1]!, '0.5');
    expect(await screen.findByRole('alert')).toHaveTextContent('第 2 档：跌幅必须大于上一档');
    expect(screen.getByRole('button', { name: '保存' })).toBeDisabled();
    expect(app.server.requests.filter((r) => r.path === '/api/strategy/add')).toHaveLength(0);
  });

  it('an empty name: marked, brought into view and focused, nothing sent', async () => {
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this);
    });
    const app = await renderApp('/strategy/add', me);
    await findHeading('新建策略');
    const name = screen.getByRole('textbox', { name: /名称/ });
    await userEvent.clear(name);
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('必填')).toBeInTheDocument();
    await waitFor(() => expect(scrolled).toContain(name));
    expect(name).toHaveFocus();
    expect(app.server.requests.filter((r) => r.path === '/api/strategy/add')).toHaveLength(0);
  });

  it('generates a 3Commas-style ladder', async () => {
    await renderApp('/strategy/add', me);
    await findHeading('新建策略');
    const count = screen.getByRole('textbox', { name: '档数' });
    await userEvent.clear(count);
    await userEvent.type(count, '3');
    await userEvent.click(screen.getByRole('button', { name: '生成阶梯' }));
    const drops = screen.getAllByRole('textbox', { name: '跌幅（%）' }).map((input) => (input as HTMLInputElement).value);
    expect(drops).toEqual(['1', '2.5', '4.75']);
    expect(screen.getByText('单轮最多占用资金：80.00 USDT')).toBeInTheDocument();
  });

  it('shows no form while the template loads, nor when it cannot be loaded', async () => {
    const id = '00000000-0000-4000-8000-0000000000aa';
    const app = await renderApp(`/strategy/edit/${id}`, { ...me, [`GET /api/strategy/detail/${id}`]: () => ({ ...fail(13001, 'strategy does not exist'), delayMs: 100 }) });
    await findHeading('编辑策略');
    expect(document.querySelector('[data-state="loading"]')).not.toBeNull();
    expect(screen.queryByRole('textbox', { name: /名称/ })).toBeNull();
    expect(await screen.findByText('策略不存在')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /名称/ })).toBeNull();
    expect(screen.queryByRole('button', { name: '保存' })).toBeNull();
    // It stays on the page with a retry.
    expect(screen.getByRole('button', { name: '重试' })).toBeInTheDocument();
    expect(app.pathname()).toBe(`/strategy/edit/${id}`);
  });

  it('edits a template: loads it, sends the change with its id, and shows a name already taken at the name', async () => {
    const mine = { ...balanced, id: 'b0000000-0000-4000-8000-000000000011', name: '我的阶梯', system: false };
    let edits = 0;
    const app = await renderApp('/strategy/edit/b0000000-0000-4000-8000-000000000011', {
      ...me,
      'GET /api/strategy/detail/b0000000-0000-4000-8000-000000000011': () => ok(mine),
      'POST /api/strategy/edit': (req) => (++edits === 1 ? fail(13000, 'strategy already exists', { field: 'name' }) : ok({ ...mine, ...req.body })),
      'GET /api/strategy/list': () => ok({ list: [mine], total: 1 }),
      'GET /api/trade/config-templates': () => ok([balanced]),
    });
    const name = await screen.findByDisplayValue('我的阶梯');
    await userEvent.clear(name);
    await userEvent.type(name, '均衡');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('策略已存在')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(app.pathname()).toBe('/strategy/edit/b0000000-0000-4000-8000-000000000011');
    await userEvent.type(name, ' 二');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(app.pathname()).toBe('/strategy'));
    const sent = app.server.requests.filter((r) => r.path === '/api/strategy/edit').map((r) => r.body);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({ id: 'b0000000-0000-4000-8000-000000000011', name: '均衡 二', levels: balanced.levels, cooldownSeconds: 120 });
  });
});
