import type { StrategySettings, StrategyTemplate } from '../api/strategy';
import type { TradeOrder, TradeTask } from '../api/trade';

/** The settings of the 'balanced' system template: two levels (1 % x1, 2.5 % x2), 1.5 % take profit, for the page tests. */
export const balancedSettings: StrategySettings = {
  levels: [
    { dropPercent: '1', multiple: '1' },
    { dropPercent: '2.5', multiple: '2' },
  ],
  takeProfitPercent: '1.5',
  takeProfitCallbackPercent: '0.3',
  replenishCallbackPercent: '0.3',
  stopLossPercent: null,
  cooldownSeconds: 120,
};

/** A system template with those settings, as the server answers it. */
export const strategyTemplate = (id: string, name: string, extra: Partial<StrategyTemplate> = {}): StrategyTemplate => ({
  id,
  name,
  system: true,
  ...balancedSettings,
  ...extra,
});

/** A running BTC task on the paper account, as the server lists it, for the page tests. */
export const btcTask: TradeTask = {
  id: 'a0000000-0000-4000-8000-000000000001',
  exchangeId: 'e0000000-0000-4000-8000-000000000001',
  exchangeName: '练手账户',
  symbol: 'BTC/USDT',
  strategyId: '00000000-0000-4000-8000-000000000002',
  strategyName: 'balanced',
  strategySystem: true,
  firstOrderAmount: '10',
  firstOrderMultiple: false,
  cycleCount: 9999,
  cyclesDone: 2,
  running: true,
  status: 'replenish_open',
  finished: false,
  phase: 'open',
  quantity: '0.2',
  cost: '20.02',
  averagePrice: '100.1',
  lastPrice: '99',
  floatingProfit: '-0.22',
  realizedProfit: '1.25',
  levelsFilled: 1,
  levelsTotal: 2,
  tickSize: '0.01',
  amountStep: '0.00001',
  attention: null,
  waiting: null,
  prices: { source: 'simulator', live: false },
  createdAt: '2026-03-01T08:00:00.000Z',
};

/** A filled first buy of the BTC task (0.1 at 100 USDT), as the order history answers it; `over` changes any field. */
export const tradeOrder = (over: Partial<TradeOrder> = {}): TradeOrder => ({
  id: 'o0000000-0000-4000-8000-000000000001',
  taskId: btcTask.id,
  symbol: 'BTC/USDT',
  cycle: 1,
  level: 0,
  side: 'buy',
  reason: 'first',
  status: 'closed',
  price: '100',
  amount: '0.1',
  cost: '10',
  fee: '0.01',
  feeCurrency: 'USDT',
  error: null,
  tickSize: '0.01',
  amountStep: '0.00001',
  createdAt: '2026-03-01T08:00:00.000Z',
  ...over,
});
