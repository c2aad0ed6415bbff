import { describe, expect, it } from 'vitest';
import type { ExchangeClient, Ticker } from '../exchangeClient';
import { cachedReads } from './cachedReads';

const counting = () => {
  const asked: string[] = [];
  let fail = false;
  const ticker = (symbol: string): Ticker => ({ symbol, timestamp: 1, bid: '1', ask: '2', last: String(asked.length), change24h: null, quoteVolume24h: null });
  const client = {
    fetchTicker: async (symbol: string) => {
      asked.push(`ticker ${symbol}`);
      if (fail) throw new Error('down');
      return ticker(symbol);
    },
    fetchTickers: async (symbols: string[]) => (asked.push(`tickers ${symbols.join(',')}`), symbols.map(ticker)),
    fetchOHLCV: async (symbol: string, timeframe: string) => (asked.push(`candles ${symbol} ${timeframe}`), []),
  } as unknown as ExchangeClient;
  return { asked, client, failNext: (value: boolean) => (fail = value) };
};

describe('the shared, cached reads of a live public market', () => {
  it('asks the exchange once for many callers, again after the time to live, and not at all for a failure kept', async () => {
    let clock = 0;
    const { asked, client, failNext } = counting();
    const reads = cachedReads(client, { tickerTtlMs: 500, candleTtlMs: 10_000, now: () => clock });
    const answers = await Promise.all(Array.from({ length: 50 }, () => reads.fetchTicker('BTC/USDT')));
    expect(new Set(answers.map((answer) => answer.last))).toEqual(new Set(['1']));
    await reads.fetchTickers(['DOGE/USDT', 'BTC/USDT']);
    await reads.fetchTickers(['BTC/USDT', 'DOGE/USDT']);
    await reads.fetchOHLCV('BTC/USDT', '1m', 100);
    clock = 400;
    await reads.fetchTicker('BTC/USDT');
    await reads.fetchOHLCV('BTC/USDT', '1m', 100);
    expect(asked).toEqual(['ticker BTC/USDT', 'tickers DOGE/USDT,BTC/USDT', 'candles BTC/USDT 1m']);
    clock = 600;
    failNext(true);
    await expect(reads.fetchTicker('BTC/USDT')).rejects.toThrow('down');
    failNext(false);
    expect((await reads.fetchTicker('BTC/USDT')).last).toBe('5');
    expect(asked.filter((line) => line === 'ticker BTC/USDT')).toHaveLength(3);
  });
});
