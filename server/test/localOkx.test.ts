import Big from 'big.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCcxtClient } from '../src/engine/venues/ccxtClient';
import { createExchangePauses } from '../src/engine/venues/exchangePauses';
import okx from './fixtures/okx-orders.json';
import { startLocalOkx, type LocalOkx } from './localExchange/okx';
import { pointedAt } from './localExchange/pointed';
import { failureOf, recordedExchange, type RecordedAnswer } from './recordedExchange';

/**
 * The engine's exchange client over ccxt's own OKX class, trading against
 * the local OKX: markets, balance, market orders by clOrdId and their fills,
 * and the faults OKX answers with.
 */

const KEY = { apiKey: '7c1e4b2a-9d3f-4e8a-b6c5-2f1a0d9e8c7b', secret: '5E8A1C4F7B2D9E6A3C0F5B8D1E4A7C2F', password: 'Local-Okx-Passphrase-1' };

let local: LocalOkx;

const clientOf = (credentials = KEY) =>
  createCcxtClient({ exchangeId: 'okx', credentials, createExchange: pointedAt({ 'https://www.okx.com': local.origin }), timeoutMs: 1_000, retryDelayMs: 10, pauses: createExchangePauses() });

const fillsOf = (ordId: string) => local.fills.filter((fill) => fill.ordId === ordId);

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

  it('reports a partial fill as open with what filled', async () => {
    const client = clientOf();
    local.fault('POST /trade/batch-orders', { kind: 'partial_fill', share: '0.5' });
    const order = await client.createMarketOrder({ symbol: 'BTC/USDT', side: 'buy', cost: '100', clientOrderId: 'qtokxpart1' });
    expect(order).toMatchObject({ status: 'open', filled: fillsOf(order.id)[0]!.fillSz.toFixed() });
    expect((await client.fetchOpenOrders('BTC/USDT')).map((open) => open.clientOrderId)).toEqual(['qtokxpart1']);
  });
});
