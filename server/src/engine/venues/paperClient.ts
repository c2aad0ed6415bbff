import { ExchangeClientError, fromPaperFailure, type ExchangeClient, type MarketInfo, type MarketOrderRequest, type Order, type Ticker } from './exchangeClient';
import { PaperExchangeError, type PaperMarketInfo, type PaperOrder } from './paper/exchange';
import type { PaperVenue } from './paperVenues';

/** A paper market as the venue interface describes markets (also what the facade answers for processes without an engine). */
export const toMarketInfo = (m: PaperMarketInfo): MarketInfo => ({
  symbol: m.symbol,
  base: m.base,
  quote: m.quote,
  precision: { amount: m.precision.amount, price: m.precision.price },
  limits: { amount: { min: m.limits.amount.min }, cost: { min: m.limits.cost.min } },
  taker: m.taker,
});

const toOrder = (order: PaperOrder): Order => ({
  id: order.id,
  clientOrderId: order.clientOrderId,
  symbol: order.symbol,
  side: order.side,
  status: order.status,
  average: order.average,
  filled: order.filled,
  cost: order.cost,
  fee: { currency: order.fee.currency, cost: order.fee.cost },
  timestamp: order.timestamp,
});

/** Runs a call on the paper exchange; its refusals become the failures a real exchange's would be. */
const paperCall = <T>(call: () => T): T => {
  try {
    return call();
  } catch (error) {
    if (error instanceof PaperExchangeError) throw new ExchangeClientError(fromPaperFailure(error.failure));
    throw error;
  }
};

/**
 * A paper account on its venue (the simulator or a live market) behind the
 * same ExchangeClient as a real exchange's. Its orders fill at once in
 * memory, so it also places synchronously (`placeInTick`): the order and its
 * fill are written in the tick's own transaction, and put back with the
 * balances if that transaction fails. Candles are not kept here (the journal
 * has the simulator's).
 */
export const paperClient = (venue: PaperVenue, accountId: string): ExchangeClient & Required<Pick<ExchangeClient, 'placeInTick'>> => {
  const { paper } = venue;
  const ticker = (symbol: string): Ticker => {
    const t = paperCall(() => paper.fetchTicker(symbol));
    return { symbol, timestamp: t.timestamp, bid: t.bid, ask: t.ask, last: t.last, change24h: t.percentage, quoteVolume24h: t.quoteVolume };
  };
  const placeInTick = (request: MarketOrderRequest): Order =>
    toOrder(
      paperCall(() =>
        paper.createOrder({
          accountId,
          symbol: request.symbol,
          side: request.side,
          type: 'market',
          ...(request.cost !== undefined ? { cost: request.cost } : {}),
          ...(request.amount !== undefined ? { amount: request.amount } : {}),
          clientOrderId: request.clientOrderId,
        }),
      ),
    );
  return {
    placeInTick,
    loadMarkets: async (): Promise<MarketInfo[]> => paper.fetchMarkets().map(toMarketInfo),
    fetchTicker: async (symbol) => ticker(symbol),
    fetchTickers: async (symbols) => symbols.map(ticker),
    fetchOHLCV: async () => {
      throw new ExchangeClientError({ kind: 'refused' }, 'the paper venue keeps no candles; the journal has them');
    },
    fetchBalance: async () => {
      const { free, used, total } = paper.fetchBalance(accountId);
      return { free, used, total };
    },
    createMarketOrder: async (request) => placeInTick(request),
    fetchOrderByClientOrderId: async (_symbol, clientOrderId) => {
      try {
        return toOrder(paper.fetchOrderByClientOrderId(accountId, clientOrderId));
      } catch (error) {
        if (error instanceof PaperExchangeError && error.failure.kind === 'order_not_found') return null;
        throw error;
      }
    },
    fetchOrderFees: async (_symbol, orderId) => {
      const { fee } = paperCall(() => paper.fetchOrder(accountId, orderId));
      return [{ currency: fee.currency, cost: fee.cost }];
    },
    fetchOpenOrders: async (symbol) => paper.fetchOpenOrders(accountId, symbol).map(toOrder),
  };
};
