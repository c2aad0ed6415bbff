import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { ExchangeClientError } from './exchangeClient';
import { createMarket, PAPER_MARKETS } from './paper/market';
import { paperClient } from './paperClient';
import { createPaperVenues } from './paperVenues';

const BTC = 'BTC/USDT';

/** The simulator's venue with one account holding 10 000 USDT. */
const setup = async () => {
  const market = createMarket(7);
  const venues = createPaperVenues({ market, feeRate: '0.001', loadBalances: async () => ({ USDT: '10000' }) });
  await venues.ensureAccount('a1');
  return { market, venues, client: paperClient(venues.simulator, 'a1') };
};

describe('the paper venue behind the exchange interface', () => {
  it('places a market buy at once and answers it as a real exchange would', async () => {
    const { market, client } = await setup();
    const order = client.placeInTick({ symbol: BTC, side: 'buy', cost: '100', clientOrderId: 'qt1' });
    expect(order).toMatchObject({ clientOrderId: 'qt1', symbol: BTC, side: 'buy', status: 'closed', average: market.bestPrices(BTC).ask });
    expect(new Big(order.cost).lte(100)).toBe(true);
    expect(order.fee?.currency).toBe('BTC');
    expect(await client.fetchOrderByClientOrderId(BTC, 'qt1')).toEqual(order);
    expect(await client.fetchOrderByClientOrderId(BTC, 'qt-unknown')).toBeNull();
    expect(await client.fetchOrderFees(BTC, order.id)).toEqual([order.fee]);
    const balance = await client.fetchBalance();
    expect(new Big(balance.free.USDT!).plus(order.cost).eq(10000)).toBe(true);
    expect(await client.fetchOpenOrders(BTC)).toEqual([]);
  });

  it('places through createMarketOrder the same way, and sells what it bought', async () => {
    const { client } = await setup();
    const bought = await client.createMarketOrder({ symbol: BTC, side: 'buy', cost: '500', clientOrderId: 'qt2' });
    const sold = await client.createMarketOrder({ symbol: BTC, side: 'sell', amount: new Big(bought.filled).minus(bought.fee!.cost).toFixed(), clientOrderId: 'qt3' });
    expect(sold.status).toBe('closed');
    expect(sold.fee?.currency).toBe('USDT');
  });

  it('refuses as a real exchange would: the failure the engine acts on', async () => {
    const { client } = await setup();
    const refusal = (() => {
      try {
        client.placeInTick({ symbol: BTC, side: 'buy', cost: '20000', clientOrderId: 'qt4' });
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(refusal).toBeInstanceOf(ExchangeClientError);
    expect((refusal as ExchangeClientError).failure).toMatchObject({ kind: 'insufficient_funds', asset: 'USDT' });
    await expect(client.fetchTicker('NOPE/USDT')).rejects.toMatchObject({ failure: { kind: 'invalid_order', reason: 'bad_symbol' } });
    await expect(client.fetchOHLCV(BTC, '1m', 10)).rejects.toBeInstanceOf(ExchangeClientError);
  });

  it('answers the markets and prices of its feed', async () => {
    const { market, client } = await setup();
    const markets = await client.loadMarkets();
    expect(markets.map((m) => m.symbol)).toEqual(PAPER_MARKETS.map((m) => m.symbol));
    expect(markets[0]).toMatchObject({ taker: '0.001', precision: { amount: expect.any(String) }, limits: { cost: { min: expect.any(String) } } });
    const ticker = await client.fetchTicker(BTC);
    expect(ticker).toMatchObject({ symbol: BTC, bid: market.bestPrices(BTC).bid, ask: market.bestPrices(BTC).ask });
    expect((await client.fetchTickers([BTC])).map((t) => t.symbol)).toEqual([BTC]);
  });
});
