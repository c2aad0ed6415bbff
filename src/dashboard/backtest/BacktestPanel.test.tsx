import { decimalsOf, formatPercent, formatPrice } from '../../api/format';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rankResults, type BacktestJob, type BacktestReport, type BacktestRequest, type VariantResult } from '../../api/backtest';
import { buildLevels, levelMultiples, stepScaleDrops } from '../../api/strategy';
import { variantSettings } from '../../../server/src/backtest/report';
import { reportOn } from '../../testing/backtestReports';
import { runSchema, uploadSchema } from '../../../server/src/backtest/schemas';
import { validationCode } from '../../../server/src/http/errors';
import type { Candle } from '../../../server/src/engine/core/candles';
import { fail, ok, type Handler } from '../../testing/fakeServer';
import { findElement, findHeading, identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { wizardDraft } from '../trade/wizard/draftStore';

/**
 * The panel against a network that checks every backtest request with the
 * server's own JSON schemas (a request the server would refuse is refused
 * here, with the server's code), and answers with reports computed by the
 * server's own backtest code on two days of made-up minutes.
 */
const ajv = new Ajv({ strict: false, coerceTypes: false });
addFormats.default(ajv);
const checked = (schema: object, handler: Handler): Handler => {
  const valid = ajv.compile(schema);
  return (request) => (valid(request.body) ? handler(request) : fail(validationCode(valid.errors![0]!.keyword), 'invalid', { field: valid.errors![0]!.instancePath }));
};

const T0 = Date.UTC(2023, 2, 1);
/** A slow wave with noise: cycles close, levels fill. */
const candles: Candle[] = Array.from({ length: 2880 }, (_, i) => {
  const price = (p: number) => (20_000 * (1 + 0.03 * Math.sin(i / 150) + 0.004 * Math.sin(i * 1.7 + p))).toFixed(2);
  const [open, close, a, b] = [price(0), price(1), price(2), price(3)];
  const values = [open, close, a, b].map(Number);
  return { time: T0 + i * 60_000, open, high: Math.max(...values).toFixed(2), low: Math.min(...values).toFixed(2), close, volume: '1' };
});
const reportFor = (body: BacktestRequest): BacktestReport => reportOn(candles, body);
const job = (overrides: Partial<BacktestJob>): BacktestJob => ({ id: 'c0000000-0000-4000-8000-000000000001', status: 'done', progress: { done: 2880, total: 2880 }, createdAt: '2026-11-24T00:00:00.000Z', result: null, error: null, ...overrides });
const sentRuns = (app: Awaited<ReturnType<typeof renderApp>>) => app.server.requests.filter((r) => r.path === '/api/strategy/backtest').map((r) => r.body as unknown as BacktestRequest);

const editorRoutes = (run: Handler): Record<string, Handler> => ({
  ...identityRoute,
  'POST /api/strategy/backtest': checked(runSchema.body, run),
  'GET /api/exchange/catalog': () => ok({ list: [{ id: 'paper', name: 'Paper', kind: 'paper', credentials: [], checksPermissions: false, startBalances: {} }, { id: 'okx', name: 'OKX', kind: 'real', credentials: ['apiKey', 'secret', 'password'], checksPermissions: true, startBalances: null }], total: 2 }),
});

const openPanel = async () => {
  // Asked of the backtest section only: role queries over the whole editor are slow in jsdom.
  const section = await findElement('[data-section="backtest"]');
  await userEvent.click(within(section).getByRole('button', { name: '回测' }));
  // The panel's code loads when it opens.
  return within(section).findByRole('button', { name: '开始回测' }, { timeout: 10_000 });
};
const figure = (name: string) => document.querySelector(`[data-figure="${name}"] > div:last-child`)?.textContent;

// jsdom has no canvas: the chart is drawn and checked in Chromium (e2e/backtest.test.ts).
vi.mock('./BacktestChart', () => ({ default: () => <div data-chart="backtest" /> }));

beforeEach(startSignedInZhCN);
afterEach(() => vi.unstubAllGlobals());

describe('the backtest panel in the strategy editor', () => {
  it('runs the template being edited on the sample and shows the figures, the rules and every cycle', async () => {
    const app = await renderApp('/strategy/add', editorRoutes((request) => ok(job({ result: reportFor(request.body as unknown as BacktestRequest) }))));
    await findHeading('新建策略');
    const run = await openPanel();
    const amount = within(document.querySelector<HTMLElement>('[data-section="backtest-panel"]')!).getByRole('textbox', { name: '首单金额（USDT）' });
    await userEvent.clear(amount);
    await userEvent.type(amount, '20');
    await userEvent.click(run);
    await screen.findByText(/共 2,880 根 K 线/, undefined, { timeout: 5000 });
    // The editor's default ladder, without its name; the whole sample.
    expect(sentRuns(app)).toEqual([
      {
        settings: {
          levels: buildLevels(stepScaleDrops('1', '1.5', 5), levelMultiples('doubling', 5)),
          takeProfitPercent: '1.5',
          takeProfitCallbackPercent: '0.3',
          replenishCallbackPercent: '0.2',
          stopLossPercent: null,
          cooldownSeconds: 60,
        },
        symbol: 'BTC/USDT',
        source: { kind: 'sample' },
        from: '2023-03-01T00:00:00.000Z',
        to: '2023-03-22T00:00:00.000Z',
        firstOrderAmount: '20',
        firstOrderMultiple: false,
        cycleCount: 9999,
        fill: 'close',
      },
    ]);
    const report = reportFor(sentRuns(app)[0]!);
    expect(report.figures.cycles).toBeGreaterThan(3);
    expect(figure('cycles')).toBe(String(report.figures.cycles));
    expect(figure('trades')).toBe(`${report.figures.buys} / ${report.figures.sells}`);
    expect(figure('returnPercent')).toBe(formatPercent(report.figures.returnPercent, 'zh-CN', { signed: true }));
    expect(figure('returnPercent')).toMatch(/^[+-]?[\d,]+(\.\d{1,2})?%$/);
    expect(screen.getByText('手续费 0.1%，扣自收到的资产 · 数量步长 0.00001 · 最小数量 0.00001 · 最小金额 5 · 成交价：每根 K 线的收盘价')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: '每轮明细' });
    expect(within(table).getAllByRole('row')).toHaveLength(1 + Math.min(10, report.cycles.length));
    // Each cycle's first fill to the run's tick: every price with the tick's decimals, no more, no fewer.
    expect(report.tickSize).toBeDefined();
    const places = decimalsOf(report.tickSize!);
    const header = within(table).getAllByRole('columnheader').map((th) => th.textContent);
    const column = header.indexOf('首单成交价');
    expect(column).toBeGreaterThan(0);
    const firstPrices = within(table).getAllByRole('row').slice(1).map((row) => row.querySelectorAll('td')[column]!.textContent!);
    expect(firstPrices[0]).toBe(formatPrice(report.cycles[0]!.firstPrice, 'zh-CN', { tick: report.tickSize }));
    for (const price of firstPrices) expect(price).toMatch(places === 0 ? /^[\d,]+$/ : new RegExp(`^[\\d,]+\\.\\d{${places}}$`));
  });

  it('follows a long run to its end, and stops one when asked', async () => {
    let polls = 0;
    const app = await renderApp('/strategy/add', {
      ...editorRoutes(() => ok(job({ status: 'running', progress: { done: 0, total: 1000 } }))),
      'GET /api/strategy/backtest/c0000000-0000-4000-8000-000000000001': () => {
        polls += 1;
        return polls < 3 ? ok(job({ status: 'running', progress: { done: 500, total: 1000 } })) : ok(job({ result: reportFor(sentRuns(app)[0]!) }));
      },
      'POST /api/strategy/backtest/cancel': () => ok(job({ status: 'canceled' })),
    });
    await findHeading('新建策略');
    await userEvent.click(await openPanel());
    expect(await screen.findByText('计算中：50%')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '开始回测' })).toBeDisabled();
    await screen.findByText(/共 2,880 根 K 线/, undefined, { timeout: 4000 });

    polls = -100;
    await userEvent.click(screen.getByRole('button', { name: '开始回测' }));
    await userEvent.click(await screen.findByRole('button', { name: '停止' }));
    expect(await screen.findByText('回测已停止。')).toBeInTheDocument();
    expect(app.server.requests.find((r) => r.path === '/api/strategy/backtest/cancel')?.body).toEqual({ id: 'c0000000-0000-4000-8000-000000000001' });
  });

  it('says in the user’s words why a backtest was refused or failed', async () => {
    let answer: ReturnType<Handler> = fail(10008, 'variant 2', { field: 'variants', variant: 2, code: 'take_profit_floor', floor: '0.25' });
    await renderApp('/strategy/add', editorRoutes(() => answer));
    await findHeading('新建策略');
    await userEvent.click(await openPanel());
    expect(await screen.findByText('变体 2：止盈（扣除回调后）至少 0.25%，才能覆盖一买一卖两笔手续费')).toBeInTheDocument();
    answer = ok(job({ status: 'failed', error: { code: 20002, message: 'the exchange could not be asked now', data: { reason: 'exchange_unreachable' } } }));
    await userEvent.click(screen.getByRole('button', { name: '开始回测' }));
    expect(await screen.findByText('暂时无法连接交易所：请稍后再试，或使用样本、上传文件。')).toBeInTheDocument();
    // A form the server would refuse is not sent.
    const amount = within(document.querySelector<HTMLElement>('[data-section="backtest-panel"]')!).getByRole('textbox', { name: '首单金额（USDT）' });
    await userEvent.clear(amount);
    expect(screen.getByText('首单金额必须大于 0。')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '开始回测' })).toBeDisabled();
  });

  it('compares every combination of the values given, ranked, and shows a variant in full', async () => {
    const app = await renderApp('/strategy/add', editorRoutes((request) => ok(job({ result: reportFor(request.body as unknown as BacktestRequest) }))));
    await findHeading('新建策略');
    await openPanel();
    await userEvent.type(screen.getByRole('textbox', { name: '止盈（%）' }), '1, 2');
    await userEvent.type(screen.getByRole('textbox', { name: '金额倍数' }), '1.5，2 2.5');
    expect(screen.getByText('6 个变体')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('combobox', { name: '排序依据' }));
    await userEvent.click(await screen.findByRole('option', { name: '已实现收益' }));
    await userEvent.click(screen.getByRole('button', { name: '运行对比' }));
    const table = await screen.findByRole('table', { name: '参数对比' });
    const sent = sentRuns(app)[0]!;
    expect(sent.rankBy).toBe('realizedProfit');
    // Labelled in the page's language.
    expect(sent.variants!.map((v) => v.label)).toEqual(['止盈 1 金额倍数 1.5', '止盈 1 金额倍数 2', '止盈 1 金额倍数 2.5', '止盈 2 金额倍数 1.5', '止盈 2 金额倍数 2', '止盈 2 金额倍数 2.5']);
    // The doubling ladder's multiples 1, 2, 4... become 1, 2.5, 6.25... with an amount scale of 2.5.
    expect(sent.variants![2]!.levels!.map((l) => l.multiple)).toEqual(['1', '2.5', '6.25', '15.625', '39.0625']);
    const ranked: VariantResult[] = rankResults(reportFor(sent).variants!, 'realizedProfit');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]!.textContent)).toEqual(ranked.map((v) => (v.index === 0 ? '当前模板' : v.label)));

    await userEvent.click(within(rows.find((row) => row.textContent?.includes('止盈 2 金额倍数 2.5'))!).getByRole('button', { name: '查看' }));
    expect(await screen.findByText('正在查看变体 止盈 2 金额倍数 2.5')).toBeInTheDocument();
    await waitFor(() => expect(sentRuns(app)).toHaveLength(2));
    const viewed = sentRuns(app)[1]!;
    expect(viewed.variants).toBeUndefined();
    expect(viewed.settings).toEqual(variantSettings(sent.settings!, sent.variants![5]!));
    // The ranking stays while a variant is shown.
    expect(screen.getByRole('table', { name: '参数对比' })).toBeInTheDocument();
  });

  it('uploads a klines file (its first six columns), then backtests it', async () => {
    const uploaded = { id: '00000000-0000-4000-8000-0000000000c1', name: 'BTCUSDT-1m.csv', candles: 2, interval: 60_000, from: T0, to: T0 + 120_000, createdAt: '2026-11-24T00:00:00.000Z' };
    let uploads: (typeof uploaded)[] = [];
    const app = await renderApp('/strategy/add', {
      ...editorRoutes((request) => ok(job({ result: reportFor(request.body as unknown as BacktestRequest) }))),
      'POST /api/strategy/backtest/candles': checked(uploadSchema.body, () => {
        uploads = [uploaded];
        return ok(uploaded);
      }),
      'GET /api/strategy/backtest/candles': () => ok({ list: uploads, total: uploads.length }),
    });
    await findHeading('新建策略');
    await openPanel();
    await userEvent.click(screen.getByRole('combobox', { name: 'K 线来源' }));
    await userEvent.click(await screen.findByRole('option', { name: '上传 CSV' }));
    expect(screen.getByText('请选择或上传一个 K 线文件。')).toBeInTheDocument();
    const file = new File(['1677628800000,10,11,9,10.5,1,1677628859999,10,5,1,1,0\r\n1677628860000,10.5,12,10,11,2,1677628919999,22,6,1,1,0\r\n'], 'BTCUSDT-1m.csv', { type: 'text/csv' });
    await act(async () => {
      fireEvent.change(document.querySelector('input[type="file"]')!, { target: { files: [file] } });
    });
    await screen.findByRole('combobox', { name: '已上传的文件' });
    expect(app.server.requests.find((r) => r.path === '/api/strategy/backtest/candles' && r.method === 'POST')?.body).toEqual({
      name: 'BTCUSDT-1m.csv',
      csv: '1677628800000,10,11,9,10.5,1\n1677628860000,10.5,12,10,11,2\n',
    });
    // The dates follow the file: its two minutes are on 1 March, shown year first as a Chinese page writes them.
    expect([document.querySelector<HTMLInputElement>('input[name="from"]')!.value, document.querySelector<HTMLInputElement>('input[name="to"]')!.value]).toEqual(['2023/03/01', '2023/03/01']);
    expect(within(screen.getByRole('group', { name: '开始（UTC）' })).getAllByRole('spinbutton').map((s) => s.getAttribute('aria-label'))).toEqual(['年份', '月份', '日期']);
    // A day typed in the page's order is the day sent.
    fireEvent.change(document.querySelector<HTMLInputElement>('input[name="to"]')!, { target: { value: '2023/03/02' } });
    await userEvent.click(screen.getByRole('button', { name: '开始回测' }));
    await screen.findByText(/共 2,880 根 K 线/, undefined, { timeout: 5000 });
    expect(sentRuns(app)[0]).toMatchObject({ source: { kind: 'upload', id: uploaded.id }, from: '2023-03-01T00:00:00.000Z', to: '2023-03-03T00:00:00.000Z' });
  });
});

describe('the backtest panel in the trade wizard', () => {
  const balanced = {
    id: '00000000-0000-4000-8000-000000000002',
    name: 'balanced',
    system: true,
    levels: [
      { dropPercent: '1.5', multiple: '1' },
      { dropPercent: '3.75', multiple: '2' },
    ],
    takeProfitPercent: '1.5',
    takeProfitCallbackPercent: '0.3',
    replenishCallbackPercent: '0.3',
    stopLossPercent: null,
    cooldownSeconds: 120,
  };

  it('starts from the chosen template, pair, account and first order, and Enter never creates the task', async () => {
    const app = await renderApp('/trade/add', {
      ...editorRoutes((request) => ok(job({ result: reportFor(request.body as unknown as BacktestRequest) }))),
      'GET /api/exchange/list': () => ok({ list: [{ id: 'e0000000-0000-4000-8000-000000000002', exchange: 'okx', name: 'My OKX', apiKeyHint: 'abcd****wxyz', paperBalances: null, createdAt: '', updatedAt: '' }], total: 1 }),
      'GET /api/strategy/list': () => ok({ list: [], total: 0 }),
      'GET /api/trade/config-templates': () => ok([balanced]),
    });
    await findHeading('添加交易对');
    act(() => wizardDraft.update({ selectedApi: 'e0000000-0000-4000-8000-000000000002', selectedPairs: ['ETH/USDT'], selectedTemplate: balanced.id, firstOrderAmount: '15', firstOrderLeverage: true }));
    await openPanel();
    expect(screen.getByRole('combobox', { name: 'K 线来源' })).toHaveTextContent('交易所历史');
    expect(screen.getByRole('textbox', { name: '交易对' })).toHaveValue('ETH/USDT');
    expect(await screen.findByRole('combobox', { name: '交易所' })).toHaveTextContent('OKX');
    const amount = within(document.querySelector<HTMLElement>('[data-section="backtest-panel"]')!).getByRole('textbox', { name: '首单金额（USDT）' });
    expect(amount).toHaveValue('15');
    await userEvent.type(amount, '{Enter}');
    await userEvent.click(screen.getByRole('button', { name: '开始回测' }));
    await screen.findByText(/共 2,880 根 K 线/, undefined, { timeout: 5000 });
    expect(sentRuns(app)[0]).toMatchObject({ symbol: 'ETH/USDT', source: { kind: 'exchange', exchange: 'okx', interval: '1m' }, firstOrderAmount: '15', firstOrderMultiple: true, settings: { levels: balanced.levels } });
    expect(app.server.requests.some((r) => r.path === '/api/trade/add')).toBe(false);
  });
});
