import Big from 'big.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCcxtClient } from '../src/engine/venues/ccxtClient';
import { SPOT_SETTINGS } from '../src/engine/venues/exchangeAccess';
import { ExchangeClientError, type ExchangeClient, type Order } from '../src/engine/venues/exchangeClient';
import { createExchangePauses } from '../src/engine/venues/exchangePauses';
import okx from './fixtures/okx-orders.json';
import { startLocalOkx, type LocalOkx } from './localExchange/okx';
import { OKX_ORIGIN, pointedAt } from './localExchange/pointed';
import { failureOf, recordedExchange, type RecordedAnswer } from './recordedExchange';

/**
 * The engine's exchange client over ccxt's own OKX class, trading against
 * the local OKX: markets, balance, market orders by clOrdId and their fills,
 * an order's cancel, and the faults OKX answers with, queued or drawn from a
 * seed.
 */

const KEY = { apiKey: '7c1e4b2a-9d3f-4e8a-b6c5-2f1a0d9e8c7b', secret: '5E8A1C4F7B2D9E6A3C0F5B8D1E4A7C2F', password: 'Local-Okx-Passphrase-1' };

let local: LocalOkx;

const clientOf = (credentials = KEY) =>
  createCcxtClient({ exchangeId: 'okx', credentials, createExchange: pointedAt({ [OKX_ORIGIN]: local.origin }), timeoutMs: 1_000, retryDelayMs: 10, pauses: createExchangePauses() });

const fillsOf = (ordId: string) => local.fills.filter((fill) => fill.ordId === ordId);

/** Asked again until the exchange answers, as the runner does on its next turns; a refusal is thrown. */
const untilAnswered = async <T>(call: () => Promise<T>): Promise<T> => {
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ExchangeClientError) || error.failure.kind !== 'transient') throw error;
    }
  }
};

beforeEach(async () => {
  local = await startLocalOkx();
  local.addAccount(KEY.apiKey, KEY.secret, KEY.password, { USDT: '1000' });
});
afterEach(async () => local.close());

describe('trading on the local OKX through ccxt', () => {
  it('loads the spot instruments as from the recorded OKX, and reads the balance', async () => {
    const client = clientOf();
    const replay = recordedExchange();
    replay.answer(okx.instruments as RecordedAnswer);
    const recorded = createCcxtClient({ exchangeId: 'okx', credentials: KEY, createExchange: replay.factory });
    expect(await client.loadMarkets()).toEqual(await recorded.loadMarkets());
    expect(await client.fetchBalance()).toEqual({ free: { USDT: '1000' }, used: { USDT: '0' }, total: { USDT: '1000' } });
  });

  it('buys by cost and sells by amount with our clOrdId, each fill and fee as OKX booked it', async () => {
    const client = clientOf();
    const bought = await client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '100', clientOrderId: 'qtokxbuy1' });
    const [buyFill] = fillsOf(bought.id);
    expect(local.orders.map((order) => order.clOrdId)).toEqual(['qtokxbuy1']);
    expect(bought).toMatchObject({ status: 'closed', clientOrderId: 'qtokxbuy1', filled: buyFill!.fillSz.toFixed(), fee: { currency: 'BTC', cost: buyFill!.fee.toFixed() } });
    expect(local.balance(KEY.apiKey, 'BTC')).toBe(new Big(bought.filled).minus(bought.fee!.cost).toFixed());

    const sold = await client.createMarketOrder({ symbol: 'BTC/USDT', side: 'sell', amount: '0.001', clientOrderId: 'qtokxsell1' });
    const [sellFill] = fillsOf(sold.id);
    expect(sold).toMatchObject({ status: 'closed', filled: '0.001', fee: { currency: 'USDT', cost: sellFill!.fee.toFixed() } });
    expect(await client.fetchOrderFees('BTC/USDT', sold.id)).toEqual([{ currency: 'USDT', cost: sellFill!.fee.toFixed() }]);
    expect((await client.fetchBalance()).free.USDT).toBe(local.balance(KEY.apiKey, 'USDT'));
  });

  it('finds an order whose answer was lost by its clOrdId, without placing a second', async () => {
    const client = clientOf();
    await client.loadMarkets();
    local.fault('POST /trade/batch-orders', { kind: 'drop_answer' });
    expect(await failureOf(client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '50', clientOrderId: 'qtokxlost1' }))).toEqual({ kind: 'unknown_outcome', clientOrderId: 'qtokxlost1' });
    expect(await client.fetchOrderByClientOrderId('BTC/USDT', 'qtokxlost1')).toMatchObject({ status: 'closed', filled: fillsOf(local.orders[0]!.ordId)[0]!.fillSz.toFixed() });
    expect(local.count('POST /trade/batch-orders')).toBe(1);
    expect(await client.fetchOrderByClientOrderId('BTC/USDT', 'qtokxnever1')).toBeNull();
  });

  it.each([
    ['more than the balance (51008)', { side: 'buy', cost: '5000' }, { kind: 'insufficient_funds' }],
    ['less than the minimum size (51020)', { side: 'buy', cost: '0.5' }, { kind: 'invalid_order', reason: 'below_min_amount' }],
    ['above the largest market order (51202)', { side: 'buy', cost: '1000000.5' }, { kind: 'invalid_order', reason: 'above_max_amount' }],
  ] as const)('refuses %s for good and places nothing', async (_, request, failure) => {
    const client = clientOf();
    expect(await failureOf(client.createMarketOrder({ symbol: 'BTC/USDT', clientOrderId: 'qtokxrefused1', ...request }))).toEqual(failure);
    expect(local.count('POST /trade/batch-orders')).toBe(1);
    expect(local.orders).toEqual([]);
  });

  it('retries a read through 429 (50011), and takes maintenance (50001) as the exchange being away', async () => {
    const client = clientOf();
    local.fault('GET /account/balance', { kind: 'rate_limit' });
    expect((await client.fetchBalance()).free.USDT).toBe('1000');
    local.fault('GET /account/balance', { kind: 'maintenance' }, { kind: 'maintenance' }, { kind: 'maintenance' });
    expect(await failureOf(client.fetchBalance())).toEqual({ kind: 'transient', reason: 'exchange_unreachable', retryable: true });
  });

  it('takes an order refused as too large (51202) as a size to fix, and one sent during maintenance (50001) as not placed', async () => {
    const client = clientOf();
    await client.loadMarkets();
    local.fault('POST /trade/batch-orders', { kind: 'too_large' });
    expect(await failureOf(client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '50', clientOrderId: 'qtokxlarge1' }))).toEqual({ kind: 'invalid_order', reason: 'above_max_amount' });
    local.fault('POST /trade/batch-orders', { kind: 'maintenance' });
    // Its outcome is not known from the answer: looked up by clOrdId, it was never placed.
    expect(await failureOf(client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '50', clientOrderId: 'qtokxmaint1' }))).toEqual({ kind: 'unknown_outcome', clientOrderId: 'qtokxmaint1' });
    expect(await client.fetchOrderByClientOrderId('BTC/USDT', 'qtokxmaint1')).toBeNull();
    expect(local.orders).toEqual([]);
    expect(local.requests.filter((request) => request.endpoint === 'POST /trade/batch-orders').map((request) => [request.status, request.code])).toEqual([
      [200, '51202'],
      [503, '50001'],
    ]);
  });

  it('syncs its clock when OKX finds the timestamp expired (50102), and trades', async () => {
    const client = clientOf();
    local.skewClock(45_000);
    expect((await client.fetchBalance()).free.USDT).toBe('1000');
    // Refused once, then asked again after reading OKX's time.
    expect(local.requests.map((request) => request.endpoint).filter((endpoint) => endpoint !== 'GET /public/instruments')).toEqual(['GET /account/balance', 'GET /public/time', 'GET /account/balance']);
    expect(await client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '20', clientOrderId: 'qtokxskew1' })).toMatchObject({ status: 'closed' });
    expect(local.count('POST /trade/batch-orders')).toBe(1);
  });

  it('says a wrong passphrase or signature is a key to fix', async () => {
    expect(await failureOf(clientOf({ ...KEY, password: 'wrong-passphrase' }).fetchBalance())).toEqual({ kind: 'permission', reason: 'invalid_key' });
    expect(await failureOf(clientOf({ ...KEY, secret: '0000111122223333444455556666AAAA' }).fetchBalance())).toEqual({ kind: 'permission', reason: 'invalid_key' });
  });

  it('reports a partial fill that never completes as open with what filled; its rest cancelled, the fill and its fee stay as booked', async () => {
    const client = clientOf();
    local.fault('POST /trade/batch-orders', { kind: 'partial_fill', share: '0.5' });
    const order = await client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '100', clientOrderId: 'qtokxpart1' });
    const [fill] = fillsOf(order.id);
    // Its cost is what the half filled spent, not the 100 USDT asked for.
    expect(order).toMatchObject({ status: 'open', filled: fill!.fillSz.toFixed(), cost: fill!.fillSz.times(fill!.fillPx).toFixed() });
    expect(new Big(order.filled).lt('0.00149')).toBe(true);
    expect((await client.fetchOpenOrders('BTC/USDT')).map((open) => open.clientOrderId)).toEqual(['qtokxpart1']);

    await client.cancelOrder!('BTC/USDT', order.id);
    expect(local.orders[0]).toMatchObject({ state: 'canceled', cancelSource: '1' });
    const after = await client.fetchOrderByClientOrderId('BTC/USDT', 'qtokxpart1');
    expect(after).toMatchObject({ status: 'canceled', filled: order.filled, cost: order.cost, fee: { currency: 'BTC', cost: fill!.fee.toFixed() } });
    expect(await client.fetchOpenOrders('BTC/USDT')).toEqual([]);
    expect(local.balance(KEY.apiKey, 'BTC')).toBe(fill!.fillSz.minus(fill!.fee).toFixed());
    expect(local.balance(KEY.apiKey, 'USDT')).toBe(new Big('1000').minus(fill!.fillSz.times(fill!.fillPx)).toFixed());

    // Cancelled already (51401), filled (51402), unknown (51400): refused, nothing moves, the order query tells.
    const filled = await client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '20', clientOrderId: 'qtokxfull1' });
    const balances = [local.balance(KEY.apiKey, 'BTC'), local.balance(KEY.apiKey, 'USDT')];
    for (const ordId of [order.id, filled.id, '1']) {
      expect(await failureOf(client.cancelOrder!('BTC/USDT', ordId))).toEqual({ kind: 'invalid_order', reason: 'order_not_found' });
    }
    expect(local.requests.filter((request) => request.endpoint === 'POST /trade/cancel-order').map((request) => [request.status, request.code])).toEqual([
      [200, undefined],
      [200, '51401'],
      [200, '51402'],
      [200, '51400'],
    ]);
    expect([local.balance(KEY.apiKey, 'BTC'), local.balance(KEY.apiKey, 'USDT')]).toEqual(balances);
    expect(local.orders.map((placed) => placed.state)).toEqual(['canceled', 'filled']);
  });

  it("answers a cancel as OKX documents it: ccxt's okx parser reads the same cancel and the same cancelled order from both", async () => {
    const replay = recordedExchange();
    replay.answer(...([okx.instruments, okx.orderCanceled, okx.orderQueryCanceled] as RecordedAnswer[]));
    const recorded = { raw: replay.factory('okx', { ...KEY, ...SPOT_SETTINGS }), client: createCcxtClient({ exchangeId: 'okx', credentials: KEY, createExchange: replay.factory }) };
    const here = { raw: pointedAt({ [OKX_ORIGIN]: local.origin })('okx', { ...KEY, ...SPOT_SETTINGS }), client: clientOf() };
    // The recorded order is the same buy: 100 USDT at 67112.1, half of it filled.
    local.fault('POST /trade/batch-orders', { kind: 'partial_fill', share: '0.5' });
    const placed = await here.client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '100', clientOrderId: okx.clientOrderId });
    const cancelledHere = await here.raw.cancelOrder(placed.id, 'BTC/USDT');
    const cancelledThere = await recorded.raw.cancelOrder(okx.orderCanceled.body.data[0]!.ordId, 'BTC/USDT');
    const shape = (order: typeof cancelledHere) => ({ ...order, id: 'id', info: 'info', timestamp: 'time', datetime: 'time', lastUpdateTimestamp: 'time' });
    expect(shape(cancelledHere)).toEqual(shape(cancelledThere));
    expect(cancelledHere).toMatchObject({ id: placed.id, clientOrderId: okx.clientOrderId });
    const orderHere = await here.client.fetchOrderByClientOrderId('BTC/USDT', okx.clientOrderId);
    const orderThere = await recorded.client.fetchOrderByClientOrderId('BTC/USDT', okx.clientOrderId);
    expect({ ...orderHere, id: 'id', timestamp: 'time' }).toEqual({ ...orderThere, id: 'id', timestamp: 'time' });
    expect(orderHere).toMatchObject({ status: 'canceled', filled: '0.00074502', cost: '49.999856742', fee: { currency: 'BTC', cost: '0.00000075' } });
    // Refused as OKX refuses a cancel of an order already done.
    replay.answer(...([okx.instruments, okx.cancelRefused] as RecordedAnswer[]));
    expect(await failureOf(recorded.client.cancelOrder!('BTC/USDT', okx.orderCanceled.body.data[0]!.ordId))).toEqual(await failureOf(here.client.cancelOrder!('BTC/USDT', placed.id)));
    expect(replay.unexpected).toEqual([]);
  });

  it('retries a read through a 5XX (500 with 50026, a gateway\'s 502 and 504) and through an answer later than its timeout; three in a row fail it as the exchange being away', async () => {
    const client = clientOf();
    await client.loadMarkets();
    local.fault('GET /account/balance', { kind: 'server_error', status: 500 }, { kind: 'server_error', status: 502 });
    expect((await client.fetchBalance()).free.USDT).toBe('1000');
    local.fault('GET /market/ticker', { kind: 'server_error', status: 504 });
    expect(await client.fetchTicker('BTC/USDT')).toMatchObject({ last: '67112.1' });
    const placed = await client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '30', clientOrderId: 'qtokxlate1' });
    // Answered after the client's 1 s timeout: asked again, answered.
    local.fault('GET /trade/order', { kind: 'delay_answer', ms: 1_500 });
    const started = Date.now();
    expect(await client.fetchOrderByClientOrderId('BTC/USDT', 'qtokxlate1')).toMatchObject({ id: placed.id, status: 'closed', filled: placed.filled });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    const statuses = (endpoint: string) => local.requests.filter((request) => request.endpoint === endpoint).map((request) => [request.status, request.code, request.fault]);
    expect(statuses('GET /account/balance')).toEqual([
      [500, '50026', 'server_error'],
      [502, undefined, 'server_error'],
      [200, undefined, undefined],
    ]);
    expect(statuses('GET /market/ticker')).toEqual([
      [504, undefined, 'server_error'],
      [200, undefined, undefined],
    ]);
    // The late answer is counted as lost once the client closed its connection.
    await expect.poll(() => statuses('GET /trade/order').slice(-2)).toEqual([
      [-1, undefined, 'delay_answer'],
      [200, undefined, undefined],
    ]);
    local.fault('GET /account/balance', { kind: 'server_error', status: 500 }, { kind: 'delay_answer', ms: 1_500 }, { kind: 'server_error', status: 504 });
    expect(await failureOf(client.fetchBalance())).toEqual({ kind: 'transient', reason: 'exchange_unreachable', retryable: true });
    // A read's fault is not an order's: one order, placed once.
    expect(local.count('POST /trade/batch-orders')).toBe(1);
  });

  it('places each order once and reports every fill under faults drawn from its seed; a stuck partial fill is cancelled and booked as filled', async () => {
    await local.close();
    local = await startLocalOkx({ seed: 4 });
    local.addAccount(KEY.apiKey, KEY.secret, KEY.password, { USDT: '1000' });
    const client: ExchangeClient = clientOf();
    await client.loadMarkets();
    local.randomFaults({
      rate: 0.5,
      kinds: [
        { kind: 'drop_answer' },
        { kind: 'partial_fill', share: '0.3' },
        { kind: 'delay_answer', ms: 1_200 },
        { kind: 'server_error', status: 500 },
        { kind: 'server_error', status: 502 },
        { kind: 'server_error', status: 504 },
        { kind: 'maintenance' },
        { kind: 'partial_fill', share: '0.5' },
      ],
    });
    const ours = new Map<string, Order | null>();
    let unknown = 0;
    let cancelled = 0;
    for (let index = 0; index < 20; index += 1) {
      local.walk();
      const clientOrderId = `qtokxseeded${index}`;
      const request = index % 2 === 0 ? { side: 'buy' as const, cost: '12' } : { side: 'sell' as const, amount: '0.00004' };
      try {
        await client.createMarketOrder({ symbol: 'BTC/USDT', clientOrderId, ...request });
      } catch (error) {
        if (!(error instanceof ExchangeClientError) || error.failure.kind !== 'unknown_outcome') throw error;
        unknown += 1;
      }
      // As the runner does: the order looked up until the exchange answers (never sent again); one still open has its rest cancelled.
      let order = await untilAnswered(() => client.fetchOrderByClientOrderId('BTC/USDT', clientOrderId));
      if (order?.status === 'open') {
        cancelled += 1;
        // A cancel carried out whose answer came late is refused when asked again (51401): the order query tells.
        await untilAnswered(() => client.cancelOrder!('BTC/USDT', order!.id)).catch((error: unknown) => {
          if (!(error instanceof ExchangeClientError) || error.failure.kind !== 'invalid_order') throw error;
        });
        order = await untilAnswered(() => client.fetchOrderByClientOrderId('BTC/USDT', clientOrderId));
      }
      ours.set(clientOrderId, order);
    }
    local.randomFaults(undefined);
    expect({ unknown: unknown > 0, cancelled: cancelled > 0 }).toEqual({ unknown: true, cancelled: true });
    for (const kind of ['drop_answer', 'delay_answer', 'server_error', 'partial_fill'] as const) expect(local.faultsMet(kind), kind).toBeGreaterThan(0);
    // One exchange order per order we placed, none twice, none left open, each with the fill we hold.
    expect(local.orders.map((order) => order.clOrdId)).toEqual([...ours].filter(([, order]) => order !== null).map(([id]) => id));
    for (const order of local.orders) {
      expect(order.state === 'filled' || order.state === 'canceled').toBe(true);
      expect(ours.get(order.clOrdId)!.filled).toBe(order.accFillSz.toFixed());
      expect(ours.get(order.clOrdId)!.cost).toBe(order.quote.toFixed());
    }
    // The account's coin is what the fills say.
    const bought = local.fills.filter((fill) => fill.side === 'buy').reduce((sum, fill) => sum.plus(fill.fillSz).minus(fill.fee), new Big(0));
    const sold = local.fills.filter((fill) => fill.side === 'sell').reduce((sum, fill) => sum.plus(fill.fillSz), new Big(0));
    expect(local.balance(KEY.apiKey, 'BTC')).toBe(bought.minus(sold).toFixed());
  });
});
