import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WIZARD_STORAGE_KEY, defaultWizardDraft } from '../api/defaults';
import { ok } from '../testing/fakeServer';
import { findHeading, identityRoute, renderApp, signIn } from '../testing/renderApp';
import { strategyTemplate } from '../testing/tasks';
import { resetApp, restoreGlobals } from './appTestKit';
import { wizardDraft } from './trade/wizard/draftStore';

const identity = identityRoute;
const pair = (symbol: string) => ({ id: symbol, symbol, base: symbol.split('/')[0], quote: 'USDT', price: '100', change24h: '1.5', quoteVolume24h: '1000000', minCost: '5', tickSize: '0.01', amountStep: '0.00001' });
const market = {
  ...identity,
  'GET /api/trade/pairs': () => ok({ list: ['BTC/USDT', 'ETH/USDT', 'SOL/USDT'].map(pair), total: 3 }),
  'GET /api/trade/hot-pairs': () => ok([pair('BTC/USDT')]),
};


beforeEach(resetApp);
afterEach(restoreGlobals);

describe('trade wizard draft', () => {
  const stored = () => JSON.parse(sessionStorage.getItem(WIZARD_STORAGE_KEY) ?? 'null');

  it('is saved to session storage under wizard-trade on every change', async () => {
    signIn();
    await renderApp('/trade/add', identity);
    // The wizard's area loads lazily: its heading first, with the time a loaded machine needs.
    await findHeading('添加交易对');
    const amount = await screen.findByRole('textbox', { name: /首单金额/ });
    await userEvent.clear(amount);
    await userEvent.type(amount, '25.5');
    expect(stored()).toMatchObject({ firstOrderAmount: '25.5', cycleTimes: 9999, running: true, status: 'replenish_open' });
    await userEvent.click(screen.getByRole('switch', { name: '首单加倍' }));
    expect(stored().firstOrderLeverage).toBe(true);
  });

  it('survives moving between /trade/add and /trade/pair-select, and resets when leaving them', async () => {
    signIn();
    await renderApp('/trade/add', market);
    await findHeading('添加交易对');
    wizardDraft.update({ selectedApi: 'e0000000-0000-4000-8000-000000000001', selectedPairs: ['BTC/USDT', { id: 'ETH/USDT' }] });
    await userEvent.click(await screen.findByRole('link', { name: '选择交易对' }));
    expect(await findHeading('选择交易对')).toBeInTheDocument();
    expect(await screen.findByRole('checkbox', { name: 'ETH/USDT' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'SOL/USDT' })).not.toBeChecked();
    expect(stored().selectedPairs).toHaveLength(2);

    await userEvent.click(screen.getByRole('menuitem', { name: '交易' }));
    await findHeading('交易任务');
    expect(wizardDraft.get()).toEqual(defaultWizardDraft());
    expect(sessionStorage.getItem(WIZARD_STORAGE_KEY)).toBeNull();
  });

  it('is reset on a first load of another page while pairs are selected', async () => {
    sessionStorage.setItem(WIZARD_STORAGE_KEY, JSON.stringify({ ...defaultWizardDraft(), selectedPairs: ['SOL/USDT'] }));
    wizardDraft.reload();
    signIn();
    await renderApp('/strategy', identity);
    await findHeading('策略');
    await waitFor(() => expect(wizardDraft.get().selectedPairs).toEqual([]));
    expect(sessionStorage.getItem(WIZARD_STORAGE_KEY)).toBeNull();
  });

  it('is kept on a first load of the wizard itself', async () => {
    sessionStorage.setItem(WIZARD_STORAGE_KEY, JSON.stringify({ ...defaultWizardDraft(), selectedApi: 'e0000000-0000-4000-8000-000000000001', selectedPairs: ['SOL/USDT'] }));
    wizardDraft.reload();
    signIn();
    await renderApp('/trade/pair-select', market);
    await findHeading('选择交易对');
    expect(await screen.findByRole('checkbox', { name: 'SOL/USDT' })).toBeChecked();
    expect(stored().selectedPairs).toEqual(['SOL/USDT']);
  });
});

describe('wizard submission', () => {
  it("refuses an incomplete form with '表单未填写完整' and sends nothing", async () => {
    signIn();
    const app = await renderApp('/trade/add', identity);
    await userEvent.click(await screen.findByRole('button', { name: '创建任务' }));
    expect(await screen.findByText('表单未填写完整')).toBeInTheDocument();
    expect(app.server.requests.filter((r) => r.path === '/api/trade/add')).toHaveLength(0);
  });

  it("creates the tasks, toasts '创建交易成功' and clears the draft", async () => {
    signIn();
    wizardDraft.update({ selectedApi: 'e0000000-0000-4000-8000-000000000001', selectedApiName: 'Paper', selectedPairs: ['BTC/USDT', { id: 'ETH/USDT' }], selectedTemplate: 'b0000000-0000-4000-8000-000000000001', templateName: 'Balanced' });
    const app = await renderApp('/trade/add', { ...identity, 'POST /api/trade/add': () => ok([{ id: 'a0000000-0000-4000-8000-000000000011' }, { id: 'a0000000-0000-4000-8000-000000000012' }]) });
    await userEvent.click(await screen.findByRole('button', { name: '创建任务' }));
    expect(await screen.findByText('创建交易成功')).toBeInTheDocument();
    const sent = app.server.requests.find((r) => r.path === '/api/trade/add');
    expect(sent?.body).toEqual({
      exchangeId: 'e0000000-0000-4000-8000-000000000001',
      coinIdList: ['BTC/USDT', 'ETH/USDT'],
      cycleCount: 9999,
      firstOrderAmount: '10',
      firstOrderMultiple: false,
      running: true,
      replenishStatus: 'replenish_open',
      strategyId: 'b0000000-0000-4000-8000-000000000001',
    });
    await waitFor(() => expect(app.pathname()).toBe('/trade'));
    expect(sessionStorage.getItem(WIZARD_STORAGE_KEY)).toBeNull();
  });

  it('sizes the tasks by a total to invest: shows the first order it makes and sends both', async () => {
    signIn();
    const template = strategyTemplate('b0000000-0000-4000-8000-000000000001', 'Balanced', { system: true });
    wizardDraft.update({ selectedApi: 'e0000000-0000-4000-8000-000000000001', selectedApiName: 'Paper', selectedPairs: ['BTC/USDT', 'ETH/USDT'], selectedTemplate: template.id, templateName: 'Balanced' });
    const app = await renderApp('/trade/add', {
      ...identity,
      'GET /api/trade/config-templates': () => ok([template]),
      'POST /api/trade/add': () => ok([{ id: 'a0000000-0000-4000-8000-000000000011' }, { id: 'a0000000-0000-4000-8000-000000000012' }]),
    });
    await findHeading('添加交易对');
    await userEvent.click(await screen.findByRole('button', { name: '按投入总额' }));
    const invest = await screen.findByLabelText('投入总额（USDT）');
    await userEvent.clear(invest);
    await userEvent.type(invest, '500');
    // 1 + 1 + 2 first orders a cycle with 0.1 % fees, for two pairs: 500 / 2 / 4.004 = 62.43.
    await waitFor(() => expect(wizardDraft.get().firstOrderAmount).toBe('62.43'));
    expect(document.querySelector('[data-derived="62.43"]')).toHaveTextContent('首单 62.43 USDT');
    expect(screen.getByText(/首单按两倍金额买入（124\.86 USDT）/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '创建任务' }));
    expect(await screen.findByText('创建交易成功')).toBeInTheDocument();
    expect(app.server.requests.find((r) => r.path === '/api/trade/add')?.body).toMatchObject({ firstOrderAmount: '62.43', investAmount: '500', coinIdList: ['BTC/USDT', 'ETH/USDT'] });
  });

  it('shows the localized text of a server error code and keeps the draft', async () => {
    signIn();
    wizardDraft.update({ selectedApi: 'e0000000-0000-4000-8000-000000000001', selectedPairs: ['BTC/USDT'], selectedTemplate: 'b0000000-0000-4000-8000-000000000001' });
    await renderApp('/trade/add', { ...identity, 'POST /api/trade/add': () => ({ body: { code: 14001, message: 'max 3', data: null } }) });
    await userEvent.click(await screen.findByRole('button', { name: '创建任务' }));
    expect(await screen.findByText('每个币种最多 3 个任务')).toBeInTheDocument();
    expect(wizardDraft.get().selectedPairs).toEqual(['BTC/USDT']);
  });
});
