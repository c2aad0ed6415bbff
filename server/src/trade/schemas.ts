/** The JSON schemas of the trade calls: the validation, the OpenAPI document and (by their shape) the handlers' inputs. */
import { CANDLE_TIMEFRAMES, type CandleTimeframe } from '../../../src/api/trade';
import { SafeText, TimeZone, pagingProperties } from '../http/schemas';
import type { CreateTradePayload, UpdateTradePayload } from '../../../src/api/types';

const uuid = { type: 'string', format: 'uuid' } as const;
const decimal = { type: 'string', pattern: '^\\d{1,12}(\\.\\d{1,8})?$' } as const;
const paging = pagingProperties();
const SYMBOL = '^[A-Z0-9]{1,15}/[A-Z0-9]{1,10}$';
const idParam = { type: 'object', required: ['id'], properties: { id: uuid } } as const;

/** The task list's sort fields (react-admin's `sort`), and their columns. */
export const TASK_SORTS = ['createdAt', 'symbol', 'realizedProfit', 'cyclesDone'] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

export interface PairsQuery {
  exchangeId?: string;
  q?: string;
  quote?: string;
  page: number;
  pageSize: number;
}
export interface HotPairsQuery {
  exchangeId?: string;
  sort: 'volume' | 'change';
  limit: number;
}
export interface CoinPriceBody {
  exchangeId?: string;
  coins: string[];
}
export interface TaskListQuery {
  page: number;
  pageSize: number;
  running?: boolean;
  finished?: boolean;
  symbol?: string;
  sort: TaskSort;
  order: 'ASC' | 'DESC' | 'asc' | 'desc';
}
export interface OhlcvQuery {
  taskId: string;
  timeframe: CandleTimeframe;
  limit: number;
}
export interface OrderHistoryQuery {
  taskId?: string;
  side?: 'buy' | 'sell';
  page: number;
  pageSize: number;
  sort: 'createdAt';
  order: 'ASC' | 'DESC' | 'asc' | 'desc';
}
export type { CreateTradePayload, UpdateTradePayload };

const order = { type: 'string', enum: ['ASC', 'DESC', 'asc', 'desc'], default: 'DESC' } as const;

export const schemas = {
  pairs: {
    summary: 'Tradable pairs of an exchange account',
    querystring: { type: 'object', additionalProperties: false, properties: { exchangeId: uuid, q: { type: 'string', maxLength: 20 }, quote: { type: 'string', maxLength: 10 }, ...paging } },
  },
  hotPairs: {
    summary: 'Pairs by 24 h volume or change',
    querystring: {
      type: 'object',
      additionalProperties: false,
      properties: { exchangeId: uuid, sort: { type: 'string', enum: ['volume', 'change'], default: 'volume' }, limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 } },
    },
  },
  coinPrice: {
    summary: 'Last prices of pairs or coins',
    body: { type: 'object', additionalProperties: false, required: ['coins'], properties: { exchangeId: uuid, coins: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 20 } } } },
  },
  add: {
    summary: 'Create one task per coin',
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['exchangeId', 'coinIdList', 'cycleCount', 'firstOrderAmount', 'firstOrderMultiple', 'running', 'replenishStatus', 'strategyId'],
      properties: {
        exchangeId: uuid,
        coinIdList: { type: 'array', minItems: 1, maxItems: 20, uniqueItems: true, items: { type: 'string', pattern: SYMBOL } },
        cycleCount: { type: 'integer', minimum: 1, maximum: 9999 },
        firstOrderAmount: decimal,
        firstOrderMultiple: { type: 'boolean' },
        running: { type: 'boolean' },
        replenishStatus: { type: 'string', enum: ['replenish_open', 'replenish_closed'] },
        strategyId: uuid,
      },
    },
  },
  list: {
    summary: "The user's tasks, sorted and paged in the database",
    querystring: {
      type: 'object',
      additionalProperties: false,
      properties: {
        ...paging,
        running: { type: 'boolean' },
        symbol: SafeText({ maxLength: 30 }),
        finished: { type: 'boolean' },
        sort: { type: 'string', enum: [...TASK_SORTS], default: 'createdAt' },
        order,
      },
    },
  },
  detail: { summary: 'One task with its cycle and events', params: idParam },
  update: {
    summary: 'Change a task',
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'cycleCount', 'firstOrderAmount', 'firstOrderMultiple', 'running', 'status', 'strategyId'],
      properties: {
        id: uuid,
        cycleCount: { type: 'integer', minimum: 1, maximum: 9999 },
        firstOrderAmount: decimal,
        firstOrderMultiple: { type: 'boolean' },
        running: { type: 'boolean' },
        status: { type: 'string', enum: ['replenish_open', 'replenish_closed'] },
        strategyId: uuid,
      },
    },
  },
  action: {
    summary: 'Start, stop or replenish now',
    body: { type: 'object', additionalProperties: false, required: ['id', 'action'], properties: { id: uuid, action: { type: 'string', enum: ['start', 'stop', 'replenish'] } } },
  },
  close: { summary: 'Sell the whole position at market and stop the task', params: idParam },
  profitSummary: {
    summary: 'Realized profit in total and today (in the given time zone)',
    querystring: { type: 'object', additionalProperties: false, properties: { timeZone: TimeZone() } },
  },
  ohlcv: {
    summary: "Candles of a task's pair on the prices it trades on, oldest first",
    querystring: {
      type: 'object',
      additionalProperties: false,
      required: ['taskId'],
      properties: { taskId: uuid, timeframe: { type: 'string', enum: [...CANDLE_TIMEFRAMES], default: '1m' }, limit: { type: 'integer', minimum: 1, maximum: 500, default: 200 } },
    },
  },
  orderHistory: {
    summary: 'Orders of one task or of all tasks',
    querystring: {
      type: 'object',
      additionalProperties: false,
      properties: { taskId: uuid, side: { type: 'string', enum: ['buy', 'sell'] }, ...paging, sort: { type: 'string', enum: ['createdAt'], default: 'createdAt' }, order },
    },
  },
} as const;
