/** The JSON schemas of the trade calls: the validation, the OpenAPI document and (by their shape) the handlers' inputs. */
import { CANDLE_TIMEFRAMES } from '../../../src/api/trade';
import type { Static } from 'typebox';
import type { CreateTradePayload, TradeActionPayload, UpdateTradePayload } from '../../../src/api/types';
import { Body, IdParams, Query, SafeText, SameShape, StringEnum, TimeZone, Type, Uuid, envelope, pagingProperties, type Same } from '../http/schemas';

const uuid = Uuid();
const decimal = Type.String({ pattern: '^\\d{1,12}(\\.\\d{1,8})?$' });
const paging = pagingProperties();
const SYMBOL = '^[A-Z0-9]{1,15}/[A-Z0-9]{1,10}$';
const strict = { additionalProperties: false } as const;

/** The task list's sort fields (react-admin's `sort`), and their columns. */
export const TASK_SORTS = ['createdAt', 'symbol', 'realizedProfit', 'cyclesDone'] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

const order = StringEnum(['ASC', 'DESC', 'asc', 'desc'], { default: 'DESC' });
const replenishStatus = StringEnum(['replenish_open', 'replenish_closed']);

const pairsQuery = Query({ exchangeId: Type.Optional(uuid), q: Type.Optional(Type.String({ maxLength: 20 })), quote: Type.Optional(Type.String({ maxLength: 10 })), ...paging }, strict);
const hotPairsQuery = Query(
  { exchangeId: Type.Optional(uuid), sort: StringEnum(['volume', 'change'], { default: 'volume' }), limit: Type.Integer({ minimum: 1, maximum: 50, default: 10 }) },
  strict,
);
const coinPriceBody = Body({ exchangeId: Type.Optional(uuid), coins: Type.Array(Type.String({ minLength: 1, maxLength: 20 }), { maxItems: 50 }) });
const addBody = Body({
  exchangeId: uuid,
  coinIdList: Type.Array(Type.String({ pattern: SYMBOL }), { minItems: 1, maxItems: 20, uniqueItems: true }),
  cycleCount: Type.Integer({ minimum: 1, maximum: 9999 }),
  firstOrderAmount: decimal,
  firstOrderMultiple: Type.Boolean(),
  running: Type.Boolean(),
  replenishStatus,
  strategyId: uuid,
});
const listQuery = Query(
  {
    ...paging,
    running: Type.Optional(Type.Boolean()),
    symbol: Type.Optional(SafeText({ maxLength: 30 })),
    finished: Type.Optional(Type.Boolean()),
    sort: StringEnum(TASK_SORTS, { default: 'createdAt' }),
    order,
  },
  strict,
);
const updateBody = Body({
  id: uuid,
  cycleCount: Type.Integer({ minimum: 1, maximum: 9999 }),
  firstOrderAmount: decimal,
  firstOrderMultiple: Type.Boolean(),
  running: Type.Boolean(),
  status: replenishStatus,
  strategyId: uuid,
});
const actionBody = Body({ id: uuid, action: StringEnum(['start', 'stop', 'replenish']) });
const ohlcvQuery = Query(
  { taskId: uuid, timeframe: StringEnum(CANDLE_TIMEFRAMES, { default: '1m' }), limit: Type.Integer({ minimum: 1, maximum: 500, default: 200 }) },
  strict,
);
const orderHistoryQuery = Query(
  { taskId: Type.Optional(uuid), side: Type.Optional(StringEnum(['buy', 'sell'])), ...paging, sort: StringEnum(['createdAt'], { default: 'createdAt' }), order },
  strict,
);

export type PairsQuery = Static<typeof pairsQuery>;
export type HotPairsQuery = Static<typeof hotPairsQuery>;
export type CoinPriceBody = Static<typeof coinPriceBody>;
export type TaskListQuery = Static<typeof listQuery>;
export type OhlcvQuery = Static<typeof ohlcvQuery>;
export type OrderHistoryQuery = Static<typeof orderHistoryQuery>;
export type { CreateTradePayload, UpdateTradePayload };

// The contract's payloads (src/api/types.ts, what the dashboard sends) and these schemas describe the same values.
SameShape<Same<Static<typeof addBody>, CreateTradePayload>>();
SameShape<Same<Static<typeof updateBody>, UpdateTradePayload>>();
SameShape<Same<Static<typeof actionBody>, TradeActionPayload>>();

const nullableString = { type: ['string', 'null'] } as const;

/** An order as the order history answers it (src/api/trade.ts TradeOrder). */
const orderAnswer = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    taskId: { type: 'string' },
    symbol: { type: 'string' },
    cycle: { type: 'integer' },
    level: { type: 'integer' },
    side: { type: 'string', enum: ['buy', 'sell'] },
    reason: { type: 'string' },
    status: { type: 'string', enum: ['intent', 'open', 'closed', 'canceled', 'failed'] },
    price: nullableString,
    amount: { type: 'string' },
    cost: { type: 'string' },
    fee: { type: 'string' },
    feeCurrency: nullableString,
    error: nullableString,
    tickSize: { ...nullableString, description: "The market's price tick ('0.01'); null when its market is not known now" },
    amountStep: { ...nullableString, description: "The market's amount step ('0.00001'); null when its market is not known now" },
    createdAt: { type: 'string' },
  },
} as const;

export const schemas = {
  pairs: { summary: 'Tradable pairs of an exchange account', querystring: pairsQuery },
  hotPairs: { summary: 'Pairs by 24 h volume or change', querystring: hotPairsQuery },
  coinPrice: { summary: 'Last prices of pairs or coins', body: coinPriceBody },
  add: { summary: 'Create one task per coin', body: addBody },
  list: { summary: "The user's tasks, sorted and paged in the database", querystring: listQuery },
  detail: { summary: 'One task with its cycle and events', params: IdParams() },
  update: { summary: 'Change a task', body: updateBody },
  action: { summary: 'Start, stop or replenish now', body: actionBody },
  close: { summary: 'Sell the whole position at market and stop the task', params: IdParams() },
  profitSummary: {
    summary: 'Realized profit in total and today (in the given time zone)',
    querystring: Query({ timeZone: TimeZone() }, strict),
  },
  ohlcv: { summary: "Candles of a task's pair on the prices it trades on, oldest first", querystring: ohlcvQuery },
  orderHistory: {
    summary: 'Orders of one task or of all tasks, each with its market’s price tick and amount step',
    querystring: orderHistoryQuery,
    response: { 200: envelope({ type: 'object', properties: { list: { type: 'array', items: orderAnswer }, total: { type: 'integer' } } }) },
  },
};
