/** Trading tasks, orders and market data as the /api/trade/* calls answer them. */
import type { StrategySettings } from './strategy';
import type { DecimalString, ReplenishStatus } from './types';

export type CyclePhase = 'ready' | 'open' | 'cooldown' | 'finished';

export interface TradeTask {
  id: string;
  exchangeId: string;
  exchangeName: string;
  symbol: string;
  strategyId: string;
  strategyName: string;
  strategySystem: boolean;
  firstOrderAmount: DecimalString;
  firstOrderMultiple: boolean;
  cycleCount: number;
  cyclesDone: number;
  running: boolean;
  status: ReplenishStatus;
  finished: boolean;
  phase: CyclePhase;
  /** Base held in the open cycle. */
  quantity: DecimalString;
  /** Quote spent in the open cycle, fees included. */
  cost: DecimalString;
  averagePrice: DecimalString | null;
  lastPrice: DecimalString | null;
  /** Value of the position at the last price minus its cost. */
  floatingProfit: DecimalString;
  /** Sum of the closed cycles' profit. */
  realizedProfit: DecimalString;
  levelsFilled: number;
  levelsTotal: number;
  createdAt: string;
}

export interface TaskEvent {
  id: string;
  kind: string;
  data: Record<string, unknown>;
  createdAt: string;
}

export interface TradeTaskDetail extends TradeTask {
  strategy: StrategySettings;
  firstFillPrice: DecimalString | null;
  takeProfitArmed: boolean;
  events: TaskEvent[];
}

export interface TradeOrder {
  id: string;
  taskId: string;
  symbol: string;
  cycle: number;
  level: number;
  side: 'buy' | 'sell';
  reason: string;
  status: 'intent' | 'open' | 'closed' | 'canceled' | 'failed';
  price: DecimalString | null;
  amount: DecimalString;
  cost: DecimalString;
  fee: DecimalString;
  feeCurrency: string | null;
  error: string | null;
  createdAt: string;
}

export interface TradePair {
  id: string;
  symbol: string;
  base: string;
  quote: string;
  price: DecimalString;
  change24h: DecimalString;
  quoteVolume24h: DecimalString;
  minCost: DecimalString;
}

export type TradeAction = 'start' | 'stop' | 'replenish';

export interface ProfitSummary {
  /** Today in the asked time zone, YYYY-MM-DD. */
  date: string;
  realizedTotal: DecimalString;
  realizedToday: DecimalString;
  cyclesToday: number;
}
