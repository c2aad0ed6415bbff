import Big from 'big.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCandlesCsv } from '../src/engine/core/candles';
import { createCcxtClient } from '../src/engine/venues/ccxtClient';
import { SPOT_SETTINGS } from '../src/engine/venues/exchangeAccess';
import { createExchangePauses, type ExchangePauses } from '../src/engine/venues/exchangePauses';
import { createExchangeShared, type ExchangeShared } from '../src/engine/venues/exchangeShared';
import { ExchangeClientError, type ExchangeClient } from '../src/engine/venues/exchangeClient';
import binance from './fixtures/binance-orders.json';
import okx from './fixtures/okx-orders.json';
import { startLocalBinance, type LocalBinance } from './localExchange/binance';
import { BINANCE_ORIGIN, pointedAt } from './localExchange/pointed';
import { failureOf, recordedExchange, type RecordedAnswer } from './recordedExchange';

/**
 * The engine's exchange client over ccxt's own Binance class, trading
 * against the local Binance (server/test/localExchange): fills and their
 * fees against the exchange's own trade list, and each fault the exchange
 * can throw at it.
 */

const KEY = { apiKey: 'Lx7Qm2Vt9Rk4Hs1Np6Wc3Jd8Fb5Gy0Za2Xe7Uq4Io9Pl1Kn6Mh3Tr8Sv5Bw0Cf7D', secret: 'tG4hJ8kL2mN6pQ0rS4tU8vW2xY6zA0bC4dE8fG2hI6jK0lM4nO8pQ2rS6tU0vW4x' };
const OTHER = { apiKey: 'Zq1Wx5Ec9Rv3Tb7Yn1Um5Ik9Ol3Pa7Sd1Fg5Hj9Kl3Zx7Cv1Bn5Mq9We3Rt7Yu1I', secret: 'aB3cD7eF1gH5iJ9kL3mN7oP1qR5sT9uV3wX7yZ1aB5cD9eF3gH7iJ1kL5mN9oP3q' };

let local: LocalBinance;
let pauses: ExchangePauses;
/** The budget and market list of the test's clients, as a server's are shared by its clients. */
let shared: ExchangeShared;

const clientOf = (credentials = KEY, timeoutMs = 2_000, maxWaitMs = 5_000): ExchangeClient =>
  createCcxtClient({ exchangeId: 'binance', credentials, createExchange: pointedAt({ [BINANCE_ORIGIN]: local.origin }), timeoutMs, retryDelayMs: 10, pauses, maxWaitMs, shared });

/** Binance counts weight by the clock's minute: a test that fills it starts well before the minute turns. */
const notAtMinuteTurn = async () => {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 55_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute));
};

/** The exchange's own trades of an order, summed: what the client must report to the last unit. */
const tradesOf = (orderId: string) => {
  const trades = local.trades.filter((trade) => String(trade.orderId) === orderId);
  const sum = (pick: (trade: (typeof trades)[number]) => Big) => trades.reduce((total, trade) => total.plus(pick(trade)), new Big(0)).toFixed();
  return { count: trades.length, qty: sum((t) => t.qty), quote: sum((t) => t.quoteQty), commission: sum((t) => t.commission), assets: [...new Set(trades.map((t) => t.commissionAsset))] };
};

beforeEach(async () => {
  // BTC fills 0.001 a level, so a 100 USDT buy is two fills at two prices, as on the real book.
  local = await startLocalBinance({ levelQty: { BTCUSDT: '0.001' } });
  local.addAccount(KEY.apiKey, KEY.secret, { USDT: '1000', BTC: '0', BNB: '0.05' });
  local.addAccount(OTHER.apiKey, OTHER.secret, { USDT: '500' });
  pauses = createExchangePauses();
  shared = createExchangeShared(pauses);
});
afterEach(async () => local.close());

describe('trading on the local Binance through ccxt', () => {
  it("answers as the recorded Binance does: ccxt reads the same markets and the same order from both", async () => {
    const client = clientOf();
    const replay = recordedExchange();
    replay.answer(...([binance.exchangeInfo, binance.orderQuery] as RecordedAnswer[]));
    const recordedClient = createCcxtClient({ exchangeId: 'binance', credentials: KEY, createExchange: replay.factory, pauses });
    const markets = await client.loadMarkets();
    expect(markets.filter((market) => market.symbol !== 'BNB/USDT')).toEqual(await recordedClient.loadMarkets());
    expect(markets.map((market) => market.symbol)).toEqual(['BTC/USDT', 'DOGE/USDT', 'BNB/USDT']);
    const placed = await client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '100', clientOrderId: binance.clientOrderId });
    const here = await client.fetchOrderByClientOrderId('BTC/USDT', binance.clientOrderId);
    const recorded = await recordedClient.fetchOrderByClientOrderId('BTC/USDT', binance.clientOrderId);
    // The recorded order is the same buy (100 USDT, 0.00149 BTC in two fills, a tick apart) on the real exchange.
    const shape = (order: typeof here) => ({ ...order, id: 'id', timestamp: 'time', cost: new Big(order!.cost).round(0).toFixed(), average: new Big(order!.average!).round(0).toFixed() });
    expect(shape(here)).toEqual(shape(recorded));
    expect(here).toMatchObject({ id: placed.id, filled: placed.filled, cost: placed.cost });
    // Prices and candles from the price path.
    expect(await client.fetchTicker('BTC/USDT')).toMatchObject({ last: '67112.01', bid: '67112', ask: '67112.01' });
    const candles = await client.fetchOHLCV('BTC/USDT', '1m', 3);
    expect(candles.map((candle) => candle.close)).toEqual(['67112.01', '67112.01', '67112.01']);
    expect(candles[2]!.time - candles[0]!.time).toBe(120_000);
  });

  it("rests, fills and cancels limit orders as ccxt's own calls see them, and refuses a price off the tick (PRICE_FILTER)", async () => {
    const exchange = pointedAt({ [BINANCE_ORIGIN]: local.origin })('binance', { ...KEY, ...SPOT_SETTINGS });
    const resting = await exchange.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 66000, { clientOrderId: 'qtlimit1' });
    expect(resting).toMatchObject({ status: 'open', filled: 0, price: 66000, amount: 0.001 });
    expect(local.balance(KEY.apiKey, 'USDT')).toEqual({ free: '934', locked: '66' });
    const other = await exchange.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 65000, { clientOrderId: 'qtlimit2' });
    local.setPrice('BTCUSDT', '65990.00');
    expect(await exchange.fetchOrder(resting.id!, 'BTC/USDT')).toMatchObject({ status: 'closed', filled: 0.001, cost: 66 });
    expect(await exchange.cancelOrder(other.id!, 'BTC/USDT')).toMatchObject({ status: 'canceled' });
    expect(local.balance(KEY.apiKey, 'USDT')).toEqual({ free: '934', locked: '0' });
    expect(local.balance(KEY.apiKey, 'BTC').free).toBe('0.000999');
    // ccxt's unified calls round to the market's steps; sent as they are, the filters refuse them.
    await expect(exchange.privatePostOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '65000.005', newClientOrderId: 'qtlimit4' })).rejects.toThrow(
      /Filter failure: PRICE_FILTER/,
    );
    await expect(exchange.privatePostOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.000015', price: '65000', newClientOrderId: 'qtlimit5' })).rejects.toThrow(
      /Filter failure: LOT_SIZE/,
    );
  });

  it('buys by cost and sells back, each fill and fee as the exchange booked it, the fee in the bought coin', async () => {
    const client = clientOf();
    const bought = await client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '100', clientOrderId: 'qtround1buy' });
    const buyTrades = tradesOf(bought.id);
    expect(buyTrades.count).toBe(2);
    expect(bought).toMatchObject({ status: 'closed', side: 'buy', clientOrderId: 'qtround1buy', filled: buyTrades.qty, cost: buyTrades.quote, fee: { currency: 'BTC', cost: buyTrades.commission } });
    // 0.001 at 67112.01 and 0.00049 at 67112.02: 100 USDT buys 0.00149 BTC on the 0.00001 step.
    expect(bought.filled).toBe('0.00149');
    expect(local.balance(KEY.apiKey, 'BTC').free).toBe(new Big(bought.filled).minus(bought.fee!.cost).toFixed());
    expect(local.balance(KEY.apiKey, 'USDT').free).toBe(new Big(1000).minus(bought.cost).toFixed());

    // Sell what the fee left, on the step: the fee is now in USDT, the coin received.
    local.setPrice('BTCUSDT', '68000.00');
    const held = (await client.fetchBalance()).free.BTC!;
    const sold = await client.createMarketOrder({ symbol: 'BTC/USDT', side: 'sell', amount: held, clientOrderId: 'qtround1sell' });
    const sellTrades = tradesOf(sold.id);
    expect(sold).toMatchObject({ status: 'closed', side: 'sell', filled: sellTrades.qty, cost: sellTrades.quote, fee: { currency: 'USDT', cost: sellTrades.commission } });
    expect(local.balance(KEY.apiKey, 'BTC').free).toBe(new Big(held).minus(sold.filled).toFixed());
    expect((await client.fetchBalance()).free.USDT).toBe(new Big(1000).minus(bought.cost).plus(sold.cost).minus(sold.fee!.cost).toFixed());
    expect(local.count('POST /order')).toBe(2);
  });

  it('reports a fee paid in BNB, summed over the fills, and the whole coin bought', async () => {
    local.addAccount(KEY.apiKey, KEY.secret, { USDT: '1000', BNB: '0.05' }, { payFeesInBnb: true });
    const client = clientOf();
    const order = await client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '100', clientOrderId: 'qtbnbfee1' });
    const trades = tradesOf(order.id);
    expect(trades.assets).toEqual(['BNB']);
    expect(order.fee).toEqual({ currency: 'BNB', cost: trades.commission });
    expect(local.balance(KEY.apiKey, 'BTC').free).toBe(order.filled);
    expect(local.balance(KEY.apiKey, 'BNB').free).toBe(new Big('0.05').minus(trades.commission).toFixed());
    // The order query has no fills: the trades say what it paid.
    expect(await client.fetchOrderFees('BTC/USDT', order.id)).toEqual([{ currency: 'BNB', cost: trades.commission }]);
  });

  it('finds an order whose answer was lost by its client order id, without placing a second', async () => {
    const client = clientOf(KEY, 500);
    local.fault('POST /order', { kind: 'drop_answer' });
    expect(await failureOf(client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '50', clientOrderId: 'qtlost1' }))).toEqual({ kind: 'unknown_outcome', clientOrderId: 'qtlost1' });
    local.fault('POST /order', { kind: 'delay_answer', ms: 1_000 });
    expect(await failureOf(client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '50', clientOrderId: 'qtlost2' }))).toEqual({ kind: 'unknown_outcome', clientOrderId: 'qtlost2' });
    for (const clientOrderId of ['qtlost1', 'qtlost2']) {
      const found = await client.fetchOrderByClientOrderId('BTC/USDT', clientOrderId);
      expect(found).toMatchObject({ clientOrderId, status: 'closed', filled: tradesOf(found!.id).qty, cost: tradesOf(found!.id).quote });
    }
    expect(local.count('POST /order')).toBe(2);
    expect(local.orders).toHaveLength(2);
    // Never placed: the lookup says so.
    expect(await client.fetchOrderByClientOrderId('BTC/USDT', 'qtneverplaced')).toBeNull();
  });

  it('waits out Retry-After after a 429 and is not banned', async () => {
    const client = clientOf();
    await client.loadMarkets();
    local.fault('GET /account', { kind: 'rate_limit', retryAfterSeconds: 1 });
    expect((await client.fetchBalance()).free.USDT).toBe('1000');
    const asked = local.requests.filter((request) => request.endpoint === 'GET /account');
    expect(asked.map((request) => request.status)).toEqual([429, 200]);
    expect(asked[1]!.at - asked[0]!.at).toBeGreaterThanOrEqual(1_000);
  });

  it('stops asking Binance, for every account, while banned (418), and no other exchange', async () => {
    const client = clientOf();
    const other = clientOf(OTHER);
    await client.loadMarkets();
    await other.loadMarkets();
    local.fault('GET /account', { kind: 'ban', seconds: 120 });
    expect(await failureOf(client.fetchBalance())).toEqual({ kind: 'transient', reason: 'exchange_busy', retryable: true });
    const before = local.requests.length;
    expect(await failureOf(other.fetchBalance())).toEqual({ kind: 'transient', reason: 'exchange_busy', retryable: true });
    expect(await failureOf(other.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '50', clientOrderId: 'qtbanned1' }))).toMatchObject({ kind: 'transient' });
    // Nothing reached the exchange during the ban (asking would lengthen it).
    expect(local.requests.length).toBe(before);
    expect(pauses.until('binance')).toBeGreaterThan(Date.now() + 100_000);

    // OKX, behind the same pauses, is not paused.
    const replay = recordedExchange();
    replay.answer(...([okx.instruments, okx.balance] as RecordedAnswer[]));
    const okxClient = createCcxtClient({ exchangeId: 'okx', credentials: { apiKey: 'k-okx', secret: 's-okx', password: 'p-okx' }, createExchange: replay.factory, pauses });
    expect((await okxClient.fetchBalance()).total.USDT).toBe('2500.5');
  });

  it('stops at the weight limit: a 429 until the minute ends pauses Binance, and no request earns a ban', async () => {
    await local.close();
    local = await startLocalBinance({ weightLimit: 100 });
    local.addAccount(KEY.apiKey, KEY.secret, { USDT: '1000' });
    const client = clientOf(KEY, 2_000, 0);
    await notAtMinuteTurn();
    await client.loadMarkets();
    // 20 weight a balance: the fifth goes over 100.
    const answers = [];
    for (let call = 0; call < 8; call += 1) answers.push(await client.fetchBalance().then(() => 'ok', (error: ExchangeClientError) => error.failure));
    expect(answers.slice(0, 4)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(answers.slice(4)).toEqual(Array.from({ length: 4 }, () => ({ kind: 'transient', reason: 'exchange_busy', retryable: true })));
    expect(local.requests.map((request) => request.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(local.requests.map((request) => request.endpoint).slice(1)).toEqual(Array.from({ length: 5 }, () => 'GET /account'));
    expect(pauses.until('binance')).toBeGreaterThan(Date.now());
  });

  it('keeps the last tenth of the minute\'s weight (X-MBX-USED-WEIGHT-1M) for orders: reads wait for the next minute', async () => {
    const client = clientOf(KEY, 2_000, 0);
    await notAtMinuteTurn();
    await client.loadMarkets();
    // Other work on this address has used 5,390 of 6,000; a balance (20) takes it past 5,400.
    local.useWeight(5_390);
    expect((await client.fetchBalance()).free.USDT).toBe('1000');
    const sent = local.requests.length;
    expect(await failureOf(client.fetchBalance())).toEqual({ kind: 'transient', reason: 'exchange_busy', retryable: true });
    expect(await failureOf(clientOf(OTHER, 2_000, 0).fetchTicker('BTC/USDT'))).toMatchObject({ kind: 'transient', reason: 'exchange_busy' });
    // Neither read was sent, not even the other account's markets; the order still goes.
    expect(local.requests.length).toBe(sent);
    expect(await client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '20', clientOrderId: 'qtweight1' })).toMatchObject({ status: 'closed' });
    expect(local.requests.slice(sent).map((request) => [request.endpoint, request.status])).toEqual([['POST /order', 200]]);
  });

  it.each([
    ['behind ours', -3_000],
    ['ahead of ours', 20_000],
  ])('trades when the exchange clock is %s (-1021): it syncs its clock and asks again', async (_, skew) => {
    const client = clientOf();
    local.skewClock(skew);
    expect((await client.fetchBalance()).free.USDT).toBe('1000');
    expect(local.requests.filter((r) => r.endpoint === 'GET /account').map((r) => r.status)).toEqual([400, 200]);
    expect(await client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '20', clientOrderId: 'qtskewed1' })).toMatchObject({ status: 'closed' });
    expect(local.orders).toHaveLength(1);
  });

  it.each([
    ['a buy below the minimum notional (-1013 NOTIONAL)', { side: 'buy', cost: '4.99' }, { kind: 'invalid_order', reason: 'below_min_cost' }],
    ['a sell below the minimum notional', { side: 'sell', amount: '0.00002' }, { kind: 'invalid_order', reason: 'below_min_cost' }],
    ['more than the balance (-2010)', { side: 'buy', cost: '5000' }, { kind: 'insufficient_funds' }],
  ] as const)('refuses %s for good, with the reason, and places nothing', async (_, request, failure) => {
    local.addAccount(KEY.apiKey, KEY.secret, { USDT: '1000', BTC: '0.001' });
    const client = clientOf();
    expect(await failureOf(client.createMarketOrder({ symbol: 'BTC/USDT', clientOrderId: 'qtfilter1', ...request }))).toEqual(failure);
    expect(local.requests.filter((r) => r.endpoint === 'POST /order').map((r) => r.status)).toEqual([400]);
    expect(local.orders).toEqual([]);
  });

  it('says the key is wrong for good: a bad signature (-1022), an unknown key (-2015), a malformed key (-2014)', async () => {
    const keys = [
      { apiKey: KEY.apiKey, secret: OTHER.secret },
      { apiKey: 'Nn0Kk9Yy8Tt7Rr6Ee5Ww4Qq3Aa2Ss1Dd0Ff9Gg8Hh7Jj6Kk5Ll4Zz3Xx2Cc1Vv0Bb', secret: KEY.secret },
      { apiKey: 'not-a-binance-key', secret: KEY.secret },
    ];
    for (const credentials of keys) expect(await failureOf(clientOf(credentials).fetchBalance())).toEqual({ kind: 'permission', reason: 'invalid_key' });
    expect(local.requests.filter((r) => r.endpoint === 'GET /account').map((r) => r.status)).toEqual([400, 401, 401]);
  });

  it('reports a partial fill as it stands, its remainder cancelled by the exchange, and an order the exchange cancelled at once', async () => {
    const client = clientOf();
    local.fault('POST /order', { kind: 'partial_fill', share: '0.5' });
    const order = await client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '100', clientOrderId: 'qtpartial1' });
    expect(order).toMatchObject({ status: 'open', filled: tradesOf(order.id).qty, cost: tradesOf(order.id).quote, fee: { currency: 'BTC', cost: tradesOf(order.id).commission } });
    expect(new Big(order.filled).lt('0.00149')).toBe(true);
    expect((await client.fetchOpenOrders('BTC/USDT')).map((open) => open.clientOrderId)).toEqual(['qtpartial1']);

    local.cancelByExchange('qtpartial1');
    const after = await client.fetchOrderByClientOrderId('BTC/USDT', 'qtpartial1');
    expect(after).toMatchObject({ status: 'canceled', filled: order.filled, cost: order.cost });
    expect(await client.fetchOrderFees('BTC/USDT', order.id)).toEqual([{ currency: 'BTC', cost: tradesOf(order.id).commission }]);
    expect(await client.fetchOpenOrders('BTC/USDT')).toEqual([]);

    // Cancelled by the exchange as soon as accepted: nothing filled, nothing to book.
    local.fault('POST /order', { kind: 'cancel_by_exchange' });
    expect(await client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '100', clientOrderId: 'qtexpired1' })).toMatchObject({ status: 'canceled', filled: '0', cost: '0', average: null });
  });

  it('places every order once and loses no fill under faults drawn from a seed, on recorded minutes', async () => {
    await local.close();
    // BTC follows the bundled minute history (March 2023, about 23,000 USDT).
    const minutes = parseCandlesCsv(readFileSync(join(import.meta.dirname, '..', 'market-data', 'BTCUSDT-1m-2023-03-01_2023-03-21.csv'), 'utf8')).slice(0, 30);
    local = await startLocalBinance({ levelQty: { BTCUSDT: '0.0003' }, history: { BTCUSDT: minutes.map((minute) => minute.close) }, seed: 7 });
    local.addAccount(KEY.apiKey, KEY.secret, { USDT: '1000' });
    const client = clientOf(KEY, 300);
    await client.loadMarkets();
    expect(local.price('BTCUSDT')).toBe(minutes[0]!.close);
    local.randomFaults({
      rate: 0.35,
      kinds: [{ kind: 'drop_answer' }, { kind: 'delay_answer', ms: 400 }, { kind: 'server_error', status: 502 }, { kind: 'maintenance' }, { kind: 'partial_fill', share: '0.5' }],
    });
    const ours = new Map<string, Awaited<ReturnType<ExchangeClient['createMarketOrder']>> | null>();
    let unknown = 0;
    for (let index = 0; index < 24; index += 1) {
      local.walk();
      const clientOrderId = `qtseeded${index}`;
      const request = index % 2 === 0 ? { side: 'buy' as const, cost: '12' } : { side: 'sell' as const, amount: '0.00022' };
      try {
        ours.set(clientOrderId, await client.createMarketOrder({ symbol: 'BTC/USDT', clientOrderId, ...request }));
      } catch (error) {
        if (!(error instanceof ExchangeClientError) || error.failure.kind !== 'unknown_outcome') throw error;
        unknown += 1;
        // As the runner does: ask again until the exchange answers, never send again.
        let found: Awaited<ReturnType<ExchangeClient['fetchOrderByClientOrderId']>> | undefined;
        while (found === undefined) found = await client.fetchOrderByClientOrderId('BTC/USDT', clientOrderId).catch(() => undefined);
        ours.set(clientOrderId, found);
      }
    }
    local.randomFaults(undefined);
    expect(unknown).toBeGreaterThan(2);
    expect(local.price('BTCUSDT')).toBe(minutes[24]!.close);
    // One exchange order per order we placed, none twice, and each with the fill we hold.
    expect(local.orders.map((order) => order.clientOrderId)).toEqual([...ours].filter(([, order]) => order !== null).map(([id]) => id));
    for (const order of local.orders) {
      const held = ours.get(order.clientOrderId)!;
      expect([held.filled, held.cost]).toEqual([order.executedQty.toFixed(), order.cummulativeQuoteQty.toFixed()]);
    }
    // The account's coin is what the fills say.
    const bought = local.trades.filter((trade) => trade.isBuyer).reduce((sum, trade) => sum.plus(trade.qty).minus(trade.commission), new Big(0));
    const sold = local.trades.filter((trade) => !trade.isBuyer).reduce((sum, trade) => sum.plus(trade.qty), new Big(0));
    expect(local.balance(KEY.apiKey, 'BTC').free).toBe(bought.minus(sold).toFixed());
  });

  it('retries reads through a 5xx, and takes maintenance (-1016, 503) as the exchange being away, not as a refusal', async () => {
    const client = clientOf();
    local.fault('GET /account', { kind: 'server_error', status: 502 });
    expect((await client.fetchBalance()).free.USDT).toBe('1000');
    local.maintenance(true);
    expect(await failureOf(client.fetchBalance())).toEqual({ kind: 'transient', reason: 'exchange_unreachable', retryable: true });
    expect(await failureOf(client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '50', clientOrderId: 'qtmaint1' }))).toEqual({ kind: 'unknown_outcome', clientOrderId: 'qtmaint1' });
    local.maintenance(false);
    expect(await client.fetchOrderByClientOrderId('BTC/USDT', 'qtmaint1')).toBeNull();
  });
});
