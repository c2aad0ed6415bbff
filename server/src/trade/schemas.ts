/** The JSON schemas of the trade calls: the validation, the OpenAPI document and (by their shape) the handlers' inputs. */
import { CANDLE_TIMEFRAMES, type CloseResult, type OhlcvAnswer, type ProfitSummary, type TaskAttention, type TaskWaiting, type TradeOrder, type TradePair, type TradeTask, type TradeTaskDetail } from '../../../src/api/trade';
import type { ReturnsOverview, TaskCycle, TaskReturns } from '../../../src/api/returns';
import type { Static, TProperties } from 'typebox';
import type { CreateTradePayload, Page, TradeActionPayload, UpdateTradePayload } from '../../../src/api/types';
import { Answer, DecimalText, Nullable, PageOf } from '../http/answers';
import { Body, IdParams, Query, SafeText, SameShape, StringEnum, TimeZone, Type, Uuid, pagingProperties, type Same } from '../http/schemas';
import { settingsSchema as templateSettingsSchema } from '../strategy/schemas';
import { ALERT_ACTIONS } from '../../../src/api/conditions';
import type { SignatureFields } from '../../../src/api/signing';
import { ALERT_OUTCOMES, type TaskAlertRecord, type TaskWebhook, type TaskWebhookPayload } from '../../../src/api/webhook';
import { signatureProperties } from '../http/signature';

/** A curve has at most this many points: cycles closed in one time bucket make one point. */
export const MAX_CURVE_POINTS = 500;

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
  /** "Invest X": the total for every pair's full cycle, fees included; the server derives the first order from it (firstOrderForInvestment). */
  investAmount: Type.Optional(decimal),
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

/* What the trade calls answer (src/api/trade.ts); the serializer sends only what these list. */
const text = Type.String();
const number = DecimalText;
const prices = Type.Object({ source: text, live: Type.Boolean() });
const tradePair = Type.Object({
  id: text,
  symbol: text,
  base: text,
  quote: text,
  price: number(),
  change24h: number(),
  quoteVolume24h: number(),
  minCost: number(),
  tickSize: number(),
  amountStep: number(),
});
const attention = Type.Object({
  reason: StringEnum(['insufficient_funds', 'below_min_order', 'above_max_order', 'exchange_canceled', 'order_refused', 'permission_denied', 'engine_error']),
  since: text,
  side: Type.Optional(StringEnum(['buy', 'sell'])),
  level: Type.Optional(Type.Integer()),
  detail: Type.Record(Type.String(), Type.String()),
  retrying: Type.Boolean(),
});
const waiting = Type.Object({
  gate: StringEnum(['start', 'replenish', 'close']),
  since: text,
  readings: Type.Array(Type.Object({ path: Type.Array(Type.Integer()), current: Nullable('string'), holds: Type.Boolean() })),
  text,
});
const taskProperties = {
  id: text,
  exchangeId: text,
  exchangeName: text,
  symbol: text,
  strategyId: text,
  strategyName: text,
  strategySystem: Type.Boolean(),
  firstOrderAmount: number(),
  firstOrderMultiple: Type.Boolean(),
  cycleCount: Type.Integer(),
  cyclesDone: Type.Integer(),
  running: Type.Boolean(),
  status: replenishStatus,
  finished: Type.Boolean(),
  phase: StringEnum(['ready', 'open', 'cooldown', 'finished']),
  quantity: number(),
  cost: number(),
  averagePrice: Nullable('string'),
  lastPrice: Nullable('string'),
  floatingProfit: number(),
  realizedProfit: number(),
  levelsFilled: Type.Integer(),
  levelsTotal: Type.Integer(),
  tickSize: Nullable('string'),
  amountStep: Nullable('string'),
  attention: Type.Union([attention, Type.Null()]),
  waiting: Type.Union([waiting, Type.Null()], { description: 'What the task waits for while a condition of its strategy does not hold (issue 29); null otherwise' }),
  prices,
  createdAt: text,
};
const task = Type.Object(taskProperties);
const taskDetail = Type.Object({
  ...taskProperties,
  strategy: templateSettingsSchema,
  firstFillPrice: Nullable('string'),
  takeProfitArmed: Type.Boolean(),
  events: Type.Array(Type.Object({ id: text, kind: text, data: Type.Record(Type.String(), Type.Unknown()), createdAt: text })),
});
const tradeOrder = Type.Object({
  id: text,
  taskId: text,
  symbol: text,
  cycle: Type.Integer(),
  level: Type.Integer(),
  side: StringEnum(['buy', 'sell']),
  reason: text,
  status: StringEnum(['intent', 'open', 'closed', 'canceled', 'failed']),
  price: Nullable('string'),
  amount: number(),
  cost: number(),
  fee: number(),
  feeCurrency: Nullable('string'),
  error: Nullable('string'),
  tickSize: Nullable('string', { description: "The market's price tick ('0.01'); null when its market is not known now" }),
  amountStep: Nullable('string', { description: "The market's amount step ('0.00001'); null when its market is not known now" }),
  createdAt: text,
});
const candle = Type.Object({ time: Type.Integer(), open: number(), high: number(), low: number(), close: number(), volume: number() });
const ohlcv = Type.Object({ symbol: text, timeframe: StringEnum(CANDLE_TIMEFRAMES), prices, candles: Type.Array(candle) });
const closeResult = Type.Object({ symbol: text, sold: number(), remainder: number() });
const profitSummary = Type.Object({ date: text, realizedTotal: number(), realizedToday: number(), cyclesToday: Type.Integer() });
const taskId = Type.Object({ id: text });
const coinPrices = Type.Record(Type.String(), Type.String());

// The contract's answers (src/api/trade.ts, what the pages read) and these schemas describe the same values.
SameShape<Same<Static<typeof tradePair>, TradePair>>();
SameShape<Same<Static<typeof attention>, TaskAttention>>();
SameShape<Same<Static<typeof waiting>, TaskWaiting>>();
SameShape<Same<Static<typeof task>, TradeTask>>();
SameShape<Same<Static<typeof taskDetail>, TradeTaskDetail>>();
SameShape<Same<Static<typeof tradeOrder>, TradeOrder>>();
SameShape<Same<Static<typeof ohlcv>, OhlcvAnswer>>();
SameShape<Same<Static<typeof closeResult>, CloseResult>>();
SameShape<Same<Static<typeof profitSummary>, ProfitSummary>>();
SameShape<Same<Static<typeof coinPrices>, Record<string, string>>>();

export const schemas = {
  pairs: { summary: 'Tradable pairs of an exchange account', querystring: pairsQuery, response: { 200: Answer(PageOf(tradePair)) } },
  hotPairs: { summary: 'Pairs by 24 h volume or change', querystring: hotPairsQuery, response: { 200: Answer(Type.Array(tradePair)) } },
  coinPrice: { summary: 'Last prices of pairs or coins', body: coinPriceBody, response: { 200: Answer(coinPrices) } },
  add: { summary: 'Create one task per coin', body: addBody, response: { 200: Answer(Type.Array(taskId)) } },
  list: { summary: "The user's tasks, sorted and paged in the database", querystring: listQuery, response: { 200: Answer(PageOf(task)) } },
  detail: { summary: 'One task with its cycle and events', params: IdParams(), response: { 200: Answer(taskDetail) } },
  update: { summary: 'Change a task', body: updateBody, response: { 200: Answer(taskId) } },
  action: { summary: 'Start, stop or replenish now', body: actionBody, response: { 200: Answer(Type.Null()) } },
  close: { summary: 'Sell the whole position at market and stop the task', params: IdParams(), response: { 200: Answer(closeResult) } },
  profitSummary: {
    summary: 'Realized profit in total and today (in the given time zone)',
    querystring: Query({ timeZone: TimeZone() }, strict),
    response: { 200: Answer(profitSummary) },
  },
  ohlcv: { summary: "Candles of a task's pair on the prices it trades on, oldest first", querystring: ohlcvQuery, response: { 200: Answer(ohlcv) } },
  orderHistory: { summary: "Orders of one task or of all tasks, each with its market's price tick and amount step", querystring: orderHistoryQuery, response: { 200: Answer(PageOf(tradeOrder)) } },
};

/* The returns calls (returnsRoutes.ts, returns.ts): a task's returns and closed cycles, the account's overview. */
const signedDecimal = Type.String({ pattern: '^-?\\d+(\\.\\d+)?$' });
const nullableDecimal = Nullable('string', { pattern: '^-?\\d+(\\.\\d+)?$' });
const time = Type.String({ format: 'date-time' });
const count = Type.Integer({ minimum: 0 });
const closedObject = <P extends TProperties>(properties: P) => Type.Object(properties, strict);

const curve = Type.Array(closedObject({ time, profit: signedDecimal }), { maxItems: MAX_CURVE_POINTS });
const taskReturns = closedObject({
  taskId: uuid,
  symbol: Type.String(),
  invested: signedDecimal,
  maxInvested: signedDecimal,
  realizedProfit: signedDecimal,
  floatingProfit: signedDecimal,
  totalProfit: signedDecimal,
  fees: signedDecimal,
  roi: nullableDecimal,
  apr: nullableDecimal,
  lastPrice: nullableDecimal,
  startedAt: time,
  endedAt: Nullable('string', { format: 'date-time' }),
  runSeconds: count,
  cyclesClosed: count,
  curve,
});
const taskCycle = closedObject({
  id: Type.String(),
  cycle: Type.Integer(),
  openedAt: Nullable('string', { format: 'date-time' }),
  closedAt: time,
  durationSeconds: Nullable('integer', { minimum: 0 }),
  levelsFilled: count,
  fundsUsed: signedDecimal,
  sellProceeds: signedDecimal,
  realizedProfit: signedDecimal,
  fees: signedDecimal,
  roi: nullableDecimal,
  exitReason: Type.Union([StringEnum(['take_profit', 'stop_loss', 'close', 'signal']), Type.Null()]),
});
const cyclePage = closedObject({ list: Type.Array(taskCycle), total: count });
const overview = closedObject({
  assets: closedObject({
    total: signedDecimal,
    wallet: signedDecimal,
    accounts: Type.Array(closedObject({ id: uuid, name: Type.String(), exchange: Type.String(), value: nullableDecimal })),
    complete: Type.Boolean(),
  }),
  realizedProfit: signedDecimal,
  floatingProfit: signedDecimal,
  totalProfit: signedDecimal,
  maxInvested: signedDecimal,
  roi: nullableDecimal,
  tasks: count,
  cyclesClosed: count,
  curve,
});

const returnsQuery = Query({ taskId: uuid }, strict);
const cyclesQuery = Query({ taskId: uuid, ...paging }, strict);
export type CyclesQuery = Static<typeof cyclesQuery>;

// The contract's answers (src/api/returns.ts, what the pages read) and these schemas describe the same values.
SameShape<Same<Static<typeof taskReturns>, TaskReturns>>();
SameShape<Same<Static<typeof taskCycle>, TaskCycle>>();
SameShape<Same<Static<typeof cyclePage>, Page<TaskCycle>>>();
SameShape<Same<Static<typeof overview>, ReturnsOverview>>();

export const returnsSchemas = {
  returns: {
    summary: "A task's invested funds, realized and floating profit, ROI, APR, run time and cumulative-profit curve",
    querystring: returnsQuery,
    response: { 200: Answer(taskReturns) },
  },
  cycles: { summary: "A task's closed cycles, newest first", querystring: cyclesQuery, response: { 200: Answer(cyclePage) } },
  overview: {
    summary: 'Total assets (wallet USDT and every exchange account valued in USDT) and the return of all tasks',
    response: { 200: Answer(overview) },
  },
};

/* A task's TradingView webhook (webhookRoutes.ts, webhook.ts): its owner's calls; the alerts' own endpoint is public. */
const alertAction = StringEnum(ALERT_ACTIONS);
const webhookBody = Body({ id: uuid, action: alertAction, ...signatureProperties });
const webhookOffBody = Body({ id: uuid, ...signatureProperties });
const taskAlertRecord = Type.Object({
  alertId: text,
  action: alertAction,
  outcome: StringEnum(ALERT_OUTCOMES),
  ticker: Nullable('string'),
  price: Nullable('string'),
  time: text,
  receivedAt: text,
});
const taskWebhook = Type.Object({
  taskId: text,
  url: text,
  secret: text,
  action: alertAction,
  template: text,
  createdAt: text,
  rotatedAt: text,
  alerts: Type.Array(taskAlertRecord),
});

SameShape<Same<Static<typeof webhookBody>, TaskWebhookPayload & SignatureFields>>();
SameShape<Same<Static<typeof taskAlertRecord>, TaskAlertRecord>>();
SameShape<Same<Static<typeof taskWebhook>, TaskWebhook>>();

export const webhookSchemas = {
  get: { summary: "A task's TradingView webhook: its address, secret, message template and last alerts (null when it has none)", params: IdParams(), response: { 200: Answer(Type.Union([taskWebhook, Type.Null()])) } },
  save: { summary: "Create a task's TradingView webhook, or give it a new secret and default action (the old secret stops working)", body: webhookBody, response: { 200: Answer(taskWebhook) } },
  off: { summary: "Turn a task's TradingView webhook off", body: webhookOffBody, response: { 200: Answer(Type.Null()) } },
};
