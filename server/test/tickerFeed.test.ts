import type { Exchange } from 'ccxt';
import { afterEach, describe, expect, it } from 'vitest';
import { createTickerFeed, type TickerFeed } from '../src/engine/venues/tickerFeed';
import binanceWs from './fixtures/binance-ws.json';
import { binanceAt, startVenue, until, type Venue } from './recordedStream';

/**
 * The live price feed over ccxt's own Binance websocket class: a local
 * websocket server plays Binance's recorded frames (the SUBSCRIBE answer,
 * then 24hrTicker events), ccxt parses them, the feed shares one stream per
 * symbol.
 */


let venue: Venue | undefined;
let feed: TickerFeed | undefined;

afterEach(async () => {
  await feed?.close();
  await venue?.close();
  feed = undefined;
  venue = undefined;
});

describe('ticker feed over ccxt websockets', () => {
  it('streams the last price from recorded Binance ticker frames, one stream per symbol for every caller', async () => {
    venue = await startVenue();
    const made: Exchange[] = [];
    feed = createTickerFeed({ createExchange: binanceAt(venue, made) });

    expect(feed.price('binance', 'BTC/USDT')).toBeNull();
    await until(() => venue!.subscriptions.length > 0);
    // The full ticker stream: it carries the best bid and ask, the mini ticker does not.
    expect(venue.subscriptions).toEqual(['btcusdt@ticker']);

    venue.send(binanceWs.tickers[0]);
    await until(() => feed!.price('binance', 'BTC/USDT') !== null);
    expect(feed.price('binance', 'BTC/USDT')).toBe('67112');
    expect(feed.quote('binance', 'BTC/USDT')).toMatchObject({ last: '67112', bid: '67111.99', ask: '67112', percentage: '-0.611', timestamp: 1717459261000 });

    venue.send(binanceWs.tickers[1]);
    await until(() => feed!.price('binance', 'BTC/USDT') === '67126.15');

    // A second task, account or tick asking for the same symbol shares the stream.
    feed.price('binance', 'BTC/USDT');
    expect(feed.streams()).toEqual(['binance|BTC/USDT']);
    expect(made).toHaveLength(1);
    expect(venue.subscriptions).toEqual(['btcusdt@ticker']);
  });

  it('answers null once the streamed price is older than the limit, so the caller falls back to REST', async () => {
    venue = await startVenue();
    let clock = 1_000_000;
    feed = createTickerFeed({ createExchange: binanceAt(venue, []), now: () => clock, maxAgeMs: 15_000 });
    feed.price('binance', 'BTC/USDT');
    await until(() => venue!.subscriptions.length > 0);
    venue.send(binanceWs.tickers[0]);
    await until(() => feed!.price('binance', 'BTC/USDT') !== null);
    clock += 15_001;
    expect(feed.price('binance', 'BTC/USDT')).toBeNull();
  });

  it('reconnects after the connection drops and streams again', async () => {
    venue = await startVenue();
    const warnings: object[] = [];
    feed = createTickerFeed({ createExchange: binanceAt(venue, []), log: { warn: (data) => warnings.push(data) } });
    feed.price('binance', 'BTC/USDT');
    await until(() => venue!.subscriptions.length === 1);
    venue.send(binanceWs.tickers[0]);
    await until(() => feed!.price('binance', 'BTC/USDT') === '67112');

    for (const socket of venue.sockets) socket.terminate();
    await until(() => venue!.subscriptions.length === 2, 10_000);
    expect(warnings.length).toBeGreaterThan(0);
    venue.send(binanceWs.tickers[1]);
    await until(() => feed!.price('binance', 'BTC/USDT') === '67126.15');
  });
});
