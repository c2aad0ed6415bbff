import type { FastifyBaseLogger } from 'fastify';
import { SIMULATOR, type PaperPrices } from '../../../../../src/api/exchange';
import type { ExchangeFactory } from '../exchangeAccess';
import { createCcxtClient } from '../ccxtClient';
import type { ExchangeShared } from '../exchangeShared';
import { PRICE_READ } from '../rateBudget';
import { cachedReads } from './cachedReads';
import type { TickerFeed } from '../tickerFeed';
import { createLiveMarket, type LiveMarket } from './liveMarket';

/**
 * The live public markets paper accounts trade on, one per exchange, made
 * when first asked for and shared by the engine and the API of the process.
 */
export const createPriceSources = ({
  log,
  createExchange,
  shared,
  stream = null,
  now = Date.now,
}: {
  log: FastifyBaseLogger;
  createExchange?: ExchangeFactory | undefined;
  /** The server's exchange budgets and market lists, shared with its users' account clients (a test's recorded exchange keeps its own). */
  shared: ExchangeShared;
  /** The exchanges' websocket ticker streams, preferred over REST where they flow. */
  stream?: TickerFeed | null;
  /** The markets' clock (tests move it to make prices stale). */
  now?: () => number;
}) => {
  const markets = new Map<string, LiveMarket>();
  const liveMarket = (exchangeId: string): LiveMarket => {
    let market = markets.get(exchangeId);
    if (!market) {
      // One cached reader per exchange for every paper account and chart; its requests come after the engine's own in the exchange's budget.
      const client = cachedReads(createCcxtClient({ exchangeId, ...(createExchange ? { createExchange } : { shared }), pauses: shared.pauses, timeoutMs: 5_000, readPriority: PRICE_READ }));
      market = createLiveMarket({ exchangeId, client, log, stream, now });
      market.start();
      markets.set(exchangeId, market);
    }
    return market;
  };
  return {
    liveMarket,
    now,
    /** Where a source's prices come from now. */
    status: (source: string): PaperPrices => (source === SIMULATOR ? { source, live: false, fallbackSince: null } : liveMarket(source).status()),
    stop() {
      for (const market of markets.values()) market.stop();
    },
  };
};

export type PriceSources = ReturnType<typeof createPriceSources>;
