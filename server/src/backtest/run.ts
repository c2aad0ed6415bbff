/**
 * One backtest: a strategy template over recorded candles, through the
 * engine's own parts. decide() makes every decision, the paper exchange fills
 * every order (market orders at the current price, amounts floored to the
 * step, minimums refused, the fee rounded up to 8 decimals) and applyFill()
 * books every fill (position, pro-rata cost of a sale, the remainder carried
 * into the next cycle). Nothing here decides or books money by itself: it
 * feeds prices, carries out the decisions as the live runner does, and counts.
 *
 * Prices per candle (`fill`):
 * - `close`: one tick at the candle's close time and price, as the paper
 *   market's replay plays it to the live runner;
 * - `ohlc`: a tick at the open, then the path to the low, the high and the
 *   close (closed up, close >= open) or to the high, the low and the close
 *   (closed down). Along each leg the price moves through the market's price
 *   grid: the strategy acts at the first grid price where it would (found by
 *   bisection, since along one leg what makes it act only grows), so a level
 *   buys at its trigger and a take profit sells at its price, not at the
 *   candle's extreme. Times inside a candle are spread over its interval.
 * Each tick is one decision, as each engine tick is: a price that gaps through
 * several levels buys one of them now and the next one a tick later.
 *
 * Signals (issue 29), as the engine evaluates them: the strategy's conditions
 * read a symbol's indicators fed the run's candles, each after its prices
 * were decided, so the gates read at the prices of candle m+1 hold what they
 * held at the end of candle m. The first candle's prices read a candle
 * before it that closed at the first open (the minute a running engine would
 * have closed last); indicators warm up from there. Alerts (`alerts`, times in epoch ms) force their action at the
 * first tick at or after their time: a candle's close (`close`) or its open
 * (`ohlc`); one that cannot act then (no position to close, no level left)
 * is spent without effect, as the engine drops it.
 *
 * Funds are unlimited (the figures say how much a cycle really used); an order
 * the exchange's rules refuse (below the minimum amount or cost) stops trading,
 * as it stops the live task until the user acts.
 */
import Big from 'big.js';
import type {
  BacktestChart,
  BacktestCycle,
  BacktestFigures,
  BacktestStop,
  BacktestTrade,
  ChartCandle,
  FillModel,
  MarketRules,
} from '../../../src/api/backtest';
import type { AlertAction } from '../../../src/api/conditions';
import type { StrategySettings } from '../../../src/api/strategy';
import type { DecimalString } from '../../../src/api/types';
import type { Candle } from '../engine/core/candles';
import { gateSignals, hasConditions } from '../engine/core/conditions';
import { alertOutcome, applyOrderFailed, decide, initialCycleState, type Action, type CycleState, type Decision, type Signals, type TaskParams } from '../engine/core/decide';
import { indicatorKeysOf, SymbolIndicators } from '../engine/core/indicators';
import { applyFill, baseOf, quoteOf, stopOf } from '../engine/core/fills';
import { decimalsOf } from '../engine/core/decimal';
import { createPaperExchange, PaperExchangeError, type PaperPriceFeed } from '../engine/venues/paper/exchange';
import type { PaperMarket, PaperTicker } from '../engine/venues/paper/market';
import { createEquityTracker } from './equity';

export interface RunOptions {
  candles: readonly Candle[];
  /** Milliseconds per candle. */
  interval: number;
  symbol: string;
  settings: StrategySettings;
  firstOrderAmount: DecimalString;
  firstOrderMultiple: boolean;
  /** 1..9999; 9999 runs until the candles end. */
  cycleCount: number;
  market: MarketRules;
  /** The price grid (candle prices lie on it). */
  tickSize: DecimalString;
  fill: FillModel;
  /** Also the trades, cycles and chart (a variant only needs its figures). */
  detail: boolean;
  /** Called every few thousand candles with how many are done. */
  onProgress?: (candles: number) => void;
  /** TradingView alerts to replay, in rising time (epoch ms). */
  alerts?: readonly BacktestAlert[];
}

/** An alert the backtest replays: at `time`, the task's alert action. */
export interface BacktestAlert {
  time: number;
  action: AlertAction;
}

export interface RunResult {
  figures: BacktestFigures;
  cycles: BacktestCycle[];
  trades: BacktestTrade[];
  chart: BacktestChart;
  /** Filled orders (buys + sells), for benchmarks. */
  orders: number;
}

const ACCOUNT = 'backtest';
/** Quote the backtest account starts with: more than any ladder spends. */
const FUNDS = '1000000000000000';
const PROGRESS_EVERY = 8192;
/** The chart keeps at most about this many candles. */
const CHART_CANDLES = 1500;
const CHART_STEPS_MINUTES = [1, 5, 15, 30, 60, 120, 240, 360, 720, 1440, 10080];

/** Milliseconds per chart candle: the finest standard step that keeps the chart within CHART_CANDLES. */
export const chartInterval = (interval: number, span: number): number => {
  for (const minutes of CHART_STEPS_MINUTES) {
    const step = minutes * 60_000;
    if (step >= interval && span / step <= CHART_CANDLES) return step;
  }
  return CHART_STEPS_MINUTES.at(-1)! * 60_000;
};

/** The finest price grid of a candle file: 10^-d for the most decimals any price has. */
export const priceGrid = (candles: readonly Candle[]): DecimalString => {
  let decimals = 0;
  const count = (price: string) => {
    const dot = price.indexOf('.');
    if (dot < 0) return;
    let end = price.length;
    while (end > dot + 1 && price.charCodeAt(end - 1) === 48) end -= 1;
    decimals = Math.max(decimals, end - dot - 1);
  };
  for (const candle of candles) {
    count(candle.open);
    count(candle.high);
    count(candle.low);
    count(candle.close);
  }
  return new Big(1).div(new Big(10).pow(decimals)).toFixed();
};

const pct = (part: Big, whole: Big): DecimalString => (whole.gt(0) ? part.times(100).div(whole).round(2).toFixed() : '0');

const YEAR_MS = 365 * 86_400_000;

/**
 * What a retail user compares a run with: its return spread over a year
 * (simple, not compounded: return x 365 days / the range), and the same money
 * (the most the run had in use) spent on the coin at the first candle's open
 * and held to the last close.
 */
export const comparisonFigures = (returnOnFunds: Big, funds: Big, firstOpen: DecimalString, lastClose: DecimalString, rangeMs: number) => {
  const change = new Big(lastClose).minus(firstOpen).div(firstOpen);
  return {
    annualizedReturnPercent: rangeMs > 0 ? returnOnFunds.times(YEAR_MS).div(rangeMs).round(2).toFixed() : '0',
    holdReturnPercent: change.times(100).round(2).toFixed(),
    holdProfit: funds.times(change).round(8).toFixed(),
  };
};

/** The one market a backtest trades on, at the price the walk sets. */
const createFeed = (spec: PaperMarket) => {
  let price = spec.startPrice;
  let time = 0;
  const ticker = (): PaperTicker => ({
    symbol: spec.symbol,
    timestamp: time,
    datetime: new Date(time).toISOString(),
    last: price,
    close: price,
    bid: price,
    ask: price,
    open: price,
    high: price,
    low: price,
    change: '0',
    percentage: '0',
    baseVolume: '0',
    quoteVolume: '0',
  });
  const feed: PaperPriceFeed = {
    markets: [spec],
    market: (symbol) => (symbol === spec.symbol ? spec : undefined),
    now: () => time,
    // Candles carry no book: bid = ask = the price, as in the paper market's replay.
    bestPrices: () => ({ last: price, bid: price, ask: price }),
    ticker,
  };
  return {
    feed,
    set(nextPrice: DecimalString, nextTime: number) {
      price = nextPrice;
      time = nextTime;
    },
  };
};

export const runBacktest = (options: RunOptions): RunResult => {
  const { candles, interval, symbol, settings, market, detail } = options;
  if (candles.length === 0) throw new RangeError('a backtest needs candles');
  const base = baseOf(symbol);
  const quote = quoteOf(symbol);
  const spec: PaperMarket = {
    symbol,
    base,
    quote,
    startPrice: candles[0]!.open,
    tickSize: options.tickSize,
    amountStep: market.amountStep,
    minAmount: market.minAmount,
    minCost: market.minCost,
    annualVolatility: 0,
    dailyQuoteVolume: 0,
  };
  const { feed, set } = createFeed(spec);
  const paper = createPaperExchange({ market: feed, feeRate: market.feeRate, feeAsset: market.feeAsset, balances: { [ACCOUNT]: { [quote]: FUNDS } } });
  const params: TaskParams = {
    firstOrderAmount: options.firstOrderAmount,
    firstOrderMultiple: options.firstOrderMultiple,
    cycleCount: options.cycleCount,
    replenishStatus: 'replenish_open',
    running: true,
    feeRate: market.feeRate,
    limits: { amountStep: market.amountStep, minAmount: market.minAmount, minCost: market.minCost },
  };

  // The gates: evaluated once per closed candle; undefined without conditions (decide's defaults).
  const conditions = settings.conditions ?? null;
  const indicators = hasConditions(conditions) ? new SymbolIndicators(indicatorKeysOf(conditions)) : null;
  // The minute before the first candle, as a running engine would have closed it: at the first candle's open.
  indicators?.push({ time: candles[0]!.time - interval, close: candles[0]!.open }, interval);
  let gates: Signals | undefined = indicators ? gateSignals(conditions, indicators) : undefined;
  const alerts = options.alerts ?? [];
  let nextAlert = 0;

  let state: CycleState = initialCycleState();
  let trading = true;
  let stopped: BacktestStop | null = null;
  let sequence = 0;
  let buys = 0;
  let sells = 0;
  let realized = new Big(0);
  let closedFees = new Big(0);
  let maxFunds = new Big(0);
  let inPositionMs = 0;
  const cycles: BacktestCycle[] = [];
  const exits = { targetSales: [] as number[], stopLoss: 0, timeStop: 0, breakEven: 0, stopProfit: new Big(0) };
  const trades: BacktestTrade[] = [];
  const equity = createEquityTracker();
  /** The ladder's base of the open cycle, for its row when it closes. */
  let firstPrice: DecimalString | null = null;

  const placeOrder = (action: Extract<Action, { kind: 'buy' | 'sell' }>, price: DecimalString, priceNumber: number, time: number) => {
    const before = state;
    const level = action.kind === 'buy' ? action.level : state.levelsFilled;
    const cycle = state.cyclesDone + 1;
    sequence += 1;
    let order;
    try {
      order =
        action.kind === 'buy'
          ? paper.createOrder({ accountId: ACCOUNT, symbol, side: 'buy', type: 'market', cost: action.quoteAmount, clientOrderId: `b${sequence}` })
          : paper.createOrder({ accountId: ACCOUNT, symbol, side: 'sell', type: 'market', amount: action.quantity, clientOrderId: `b${sequence}` });
    } catch (error) {
      if (!(error instanceof PaperExchangeError)) throw error;
      // As the live task: a refused order waits for the user, so trading stops here.
      state = applyOrderFailed(before);
      trading = false;
      const failure = error.failure;
      const reason = failure.kind === 'invalid_order' && (failure.reason === 'below_min_amount' || failure.reason === 'below_min_cost') ? failure.reason : failure.kind === 'insufficient_funds' ? 'insufficient_funds' : 'order_refused';
      stopped = { reason, side: action.kind, level, time, price };
      return;
    }
    const target = action.kind === 'sell' ? action.target : undefined;
    const partial = action.kind === 'sell' && action.partial === true;
    const outcome = applyFill({ symbol, side: action.kind, reason: action.reason, level, cycle, before, strategy: settings, at: time, partial, target, stop: action.kind === 'sell' ? stopOf(action) : undefined }, { ...order, fees: [order.fee] });
    state = outcome.state;
    if (action.kind === 'buy') {
      buys += 1;
      if (level === 0) firstPrice = order.average;
      const cost = new Big(state.cost);
      if (cost.gt(maxFunds)) maxFunds = cost;
    } else {
      sells += 1;
      if (action.reason === 'take_profit') {
        const index = (action.target ?? 1) - 1;
        while (exits.targetSales.length <= index) exits.targetSales.push(0);
        exits.targetSales[index]! += 1;
      }
    }
    const stop = action.kind === 'sell' && action.reason === 'stop_loss' ? (action.stop ?? 'loss') : undefined;
    const closed = outcome.closed;
    if (closed && stop) {
      if (stop === 'loss') exits.stopLoss += 1;
      else if (stop === 'time') exits.timeStop += 1;
      else exits.breakEven += 1;
      exits.stopProfit = exits.stopProfit.plus(closed.realizedProfit);
    }
    if (closed) {
      realized = realized.plus(closed.realizedProfit);
      closedFees = closedFees.plus(closed.fees);
      if (closed.openedAt !== null) inPositionMs += time - closed.openedAt;
      if (detail) {
        cycles.push({
          cycle: closed.cycle,
          openedAt: closed.openedAt,
          closedAt: time,
          levelsFilled: closed.levelsFilled,
          firstPrice,
          buyCost: closed.buyCost,
          proceeds: closed.sellProceeds,
          profit: closed.realizedProfit,
          fees: closed.fees,
          exitReason: closed.exitReason,
          ...(stop ? { stop } : {}),
        });
      }
    }
    if (detail) {
      trades.push({
        time,
        side: action.kind,
        reason: action.reason,
        cycle,
        level,
        price: order.average!,
        amount: order.filled,
        cost: order.cost,
        fee: order.fee.cost,
        feeCurrency: order.fee.currency,
        ...(target !== undefined ? { target } : {}),
        ...(partial ? { partial } : {}),
        ...(stop ? { stop } : {}),
      });
    }
    equity.position(realized, state.quantity, state.cost, price, priceNumber);
  };

  /** Carries out a decision taken at `price`: its state, then its orders, which fill at that price. */
  const apply = (decision: Decision, price: DecimalString, priceNumber: number, time: number) => {
    state = decision.state;
    for (const action of decision.actions) {
      if (action.kind === 'event') continue;
      placeOrder(action, price, priceNumber, time);
      if (!trading) break;
    }
  };

  /** The gates at a tick at `time`, with the alert due then, if any: spent whether or not it can act. */
  const signalsAt = (time: number): Signals | undefined => {
    let force: AlertAction | null = null;
    while (nextAlert < alerts.length && alerts[nextAlert]!.time <= time) {
      const action = alerts[nextAlert]!.action;
      nextAlert += 1;
      if (alertOutcome(params, settings, state, action) === 'acts') force = action;
    }
    if (!force) return gates;
    return { ...(gates ?? { start: true, replenish: true, close: false }), force };
  };

  /** One tick: the decision at `price` from `from` (the state, its trailing extremes moved along the path). */
  const visit = (from: CycleState, price: DecimalString, priceNumber: number, time: number, signals = gates) => {
    set(price, time);
    if (trading) apply(decide(params, settings, from, price, time, true, signals), price, priceNumber, time);
    equity.price(price, priceNumber);
  };

  // The price grid, for the ohlc walk: prices as whole ticks.
  const tickNumber = Number(options.tickSize);
  const tickDecimals = decimalsOf(options.tickSize);
  const ticksOf = (price: DecimalString) => Math.round(Number(price) / tickNumber);
  // A grid of 10^-d (the usual one) writes a price by placing the point; any other by multiplying.
  const decimalGrid = /^(1|0\.0*1)$/.test(new Big(options.tickSize).toFixed());
  const priceAt = (ticks: number): DecimalString => {
    if (tickDecimals === 0 || !decimalGrid) return new Big(ticks).times(options.tickSize).toFixed(tickDecimals);
    const digits = String(ticks).padStart(tickDecimals + 1, '0');
    return `${digits.slice(0, -tickDecimals)}.${digits.slice(-tickDecimals)}`;
  };

  /**
   * `state` with its trailing high (a rising leg) or low (a falling leg)
   * moved to `ticks`, as ticking through every grid price up to it would.
   */
  const tracked = (ticks: number, direction: number): CycleState => {
    if (direction > 0 && state.trailingSell && ticks > ticksOf(state.trailingSell.high)) return { ...state, trailingSell: { high: priceAt(ticks) } };
    if (direction < 0 && state.trailingBuy && ticks < ticksOf(state.trailingBuy.low)) return { ...state, trailingBuy: { ...state.trailingBuy, low: priceAt(ticks) } };
    return state;
  };

  /** The time at grid price `k` of a leg from (ka, ta) to (kb, tb). */
  const timeAt = (k: number, ka: number, ta: number, kb: number, tb: number) => ta + Math.round(((tb - ta) * (k - ka)) / (kb - ka));

  /** Whether the strategy acts at grid price `k` of a leg going `direction`, having come through every price before it. */
  const actsAt = (k: number, direction: number, time: number) => decide(params, settings, tracked(k - direction, direction), priceAt(k), time, true, gates).actions.length > 0;

  /**
   * The path from `a` (already ticked) to `b`: a tick at each first grid
   * price where the strategy acts, found by bisection, and one at `b`.
   */
  const leg = (aNumber: number, ta: number, b: DecimalString, bNumber: number, tb: number) => {
    const ka = Math.round(aNumber / tickNumber);
    const kb = Math.round(bNumber / tickNumber);
    if (ka === kb) return;
    const direction = kb > ka ? 1 : -1;
    let k = ka;
    for (;;) {
      // Between cycles the decision depends on time only: the next tick is the leg's end.
      if (!trading || state.phase !== 'open') break;
      const atEnd = decide(params, settings, tracked(kb - direction, direction), b, tb, true, gates);
      if (atEnd.actions.length === 0) {
        set(b, tb);
        state = atEnd.state;
        equity.price(b, bNumber);
        return;
      }
      let quiet = k;
      let acting = kb;
      while (Math.abs(acting - quiet) > 1) {
        const middle = quiet + Math.trunc((acting - quiet) / 2);
        if (actsAt(middle, direction, timeAt(middle, ka, ta, kb, tb))) acting = middle;
        else quiet = middle;
      }
      if (acting === kb) {
        set(b, tb);
        apply(atEnd, b, bNumber, tb);
        equity.price(b, bNumber);
        return;
      }
      const price = priceAt(acting);
      visit(tracked(acting - direction, direction), price, Number(price), timeAt(acting, ka, ta, kb, tb));
      k = acting;
    }
    visit(state, b, bNumber, tb);
  };

  // The chart: candles merged to its interval, and the profit at each one's close.
  const span = candles.at(-1)!.time + interval - candles[0]!.time;
  const chartStep = chartInterval(interval, span);
  const chartCandles: ChartCandle[] = [];
  const equityPoints: [number, DecimalString][] = [];
  let bar: ChartCandle | null = null;
  let barHigh = 0;
  let barLow = 0;
  const closeBar = () => {
    if (!bar) return;
    chartCandles.push(bar);
    equityPoints.push([bar[0], equity.equityAt(bar[4]).round(8).toFixed()]);
  };

  for (let i = 0; i < candles.length; i += 1) {
    const candle = candles[i]!;
    const close = candle.time + interval;
    // The chart first: a bar closes with the profit as it stood at the end of its last candle.
    const high = Number(candle.high);
    const low = Number(candle.low);
    const closing = Number(candle.close);
    if (detail) {
      const barTime = Math.floor(candle.time / chartStep) * chartStep;
      if (!bar || bar[0] !== barTime) {
        closeBar();
        bar = [barTime, candle.open, candle.high, candle.low, candle.close];
        barHigh = high;
        barLow = low;
      } else {
        if (high > barHigh) {
          bar[2] = candle.high;
          barHigh = high;
        }
        if (low < barLow) {
          bar[3] = candle.low;
          barLow = low;
        }
        bar[4] = candle.close;
      }
    }
    if (options.fill === 'close') {
      visit(state, candle.close, closing, close, signalsAt(close));
    } else {
      const opening = Number(candle.open);
      const third = Math.round(interval / 3);
      visit(state, candle.open, opening, candle.time, signalsAt(candle.time));
      if (closing >= opening) {
        leg(opening, candle.time, candle.low, low, candle.time + third);
        leg(low, candle.time + third, candle.high, high, candle.time + 2 * third);
        leg(high, candle.time + 2 * third, candle.close, closing, close);
      } else {
        leg(opening, candle.time, candle.high, high, candle.time + third);
        leg(high, candle.time + third, candle.low, low, candle.time + 2 * third);
        leg(low, candle.time + 2 * third, candle.close, closing, close);
      }
    }
    // The candle closed: the gates for the next one's prices.
    if (indicators) {
      indicators.push(candle, interval);
      gates = gateSignals(conditions, indicators);
    }
    if (options.onProgress && (i + 1) % PROGRESS_EVERY === 0) options.onProgress(i + 1);
  }
  closeBar();
  options.onProgress?.(candles.length);

  const last = candles.at(-1)!;
  const end = last.time + interval;
  const quantity = new Big(state.quantity);
  let openPosition: BacktestFigures['openPosition'] = null;
  let floating = new Big(0);
  if (quantity.gt(0)) {
    const value = quantity.times(last.close);
    floating = value.minus(state.cost);
    const inCycle = state.phase === 'open';
    if (inCycle && state.openedAt != null) inPositionMs += end - state.openedAt;
    openPosition = {
      quantity: state.quantity,
      cost: state.cost,
      averagePrice: new Big(state.cost).div(quantity).round(8).toFixed(),
      price: last.close,
      value: value.round(8).toFixed(),
      floatingProfit: floating.round(8).toFixed(),
      levelsFilled: state.levelsFilled,
      inCycle,
      openedAt: inCycle ? (state.openedAt ?? null) : null,
    };
  }
  const fees = closedFees.plus(state.phase === 'open' ? (state.fees ?? '0') : '0');
  const returnOnFunds = maxFunds.gt(0) ? realized.plus(floating).times(100).div(maxFunds) : new Big(0);
  const figures: BacktestFigures = {
    cycles: state.cyclesDone,
    realizedProfit: realized.toFixed(),
    fees: fees.toFixed(),
    buys,
    sells,
    maxFundsInUse: maxFunds.toFixed(),
    maxDrawdown: equity.maxDrawdown().round(8).toFixed(),
    maxDrawdownPercent: pct(equity.maxDrawdown(), maxFunds),
    timeInPositionPercent: pct(new Big(inPositionMs), new Big(end - candles[0]!.time)),
    openPosition,
    returnPercent: pct(realized.plus(floating), maxFunds),
    realizedReturnPercent: pct(realized, maxFunds),
    ...comparisonFigures(returnOnFunds, maxFunds, candles[0]!.open, last.close, end - candles[0]!.time),
    exits: { ...exits, stopProfit: exits.stopProfit.toFixed() },
    stopped,
  };
  return { figures, cycles, trades, chart: { interval: chartStep, candles: chartCandles, equity: equityPoints }, orders: buys + sells };
};
