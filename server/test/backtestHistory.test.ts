import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Big from 'big.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHistory, DAY_MS } from '../src/backtest/history';
import { parseCandlesCsv, type Candle } from '../src/engine/core/candles';
import binanceOrders from './fixtures/binance-orders.json';
import okxOrders from './fixtures/okx-orders.json';
import { BACKENDS, startServer, type TestServer } from './harness';
import { recordedExchange, type RecordedAnswer, type Replay } from './recordedExchange';

/**
 * Exchange history through ccxt's own Binance and OKX classes, on answers
 * shaped as each exchange documents them: Binance's GET /api/v3/klines (rows
 * of [open time, open, high, low, close, volume, close time, quote volume,
 * trades, taker base, taker quote, ignore] with 8-decimal strings, oldest
 * first, from `startTime`) and OKX's GET /api/v5/market/history-candles
 * (`{code, msg, data}` with rows of [ts, o, h, l, c, vol, volCcy,
 * volCcyQuote, confirm], newest first, between `before` and `after`). The
 * candles in them are the bundled recorded BTC/USDT minutes of 9 and 10 March
 * 2023, so what comes out can be compared with the file.
 */
const SAMPLE = join(import.meta.dirname, '..', 'market-data', 'BTCUSDT-1m-2023-03-01_2023-03-21.csv');
const FROM = Date.UTC(2023, 2, 9);
const TO = Date.UTC(2023, 2, 11);
const MINUTE = 60_000;
const recorded: Candle[] = parseCandlesCsv(readFileSync(SAMPLE, 'utf8'));
const inRange = recorded.filter((c) => c.time >= FROM && c.time < TO);
const eight = (value: string) => new Big(value).toFixed(8);

/** Binance answers 1000 candles from startTime (it has more after the range). */
const binancePage = (startTime: number): RecordedAnswer => ({
  method: 'GET',
  path: '/api/v3/klines',
  query: { symbol: 'BTCUSDT', interval: '1m', startTime: String(startTime) },
  status: 200,
  body: recorded
    .filter((c) => c.time >= startTime)
    .slice(0, 1000)
    .map((c) => [c.time, eight(c.open), eight(c.high), eight(c.low), eight(c.close), eight(c.volume), c.time + MINUTE - 1, '0.00000000', 10, '0.00000000', '0.00000000', '0']),
});

/** OKX answers the candles strictly between `before` and `after`, newest first (ccxt asks 300 from `since`). */
const okxPage = (since: number): RecordedAnswer => ({
  method: 'GET',
  path: '/api/v5/market/history-candles',
  query: { instId: 'BTC-USDT', bar: '1m', before: String(since - 1) },
  status: 200,
  body: {
    code: '0',
    msg: '',
    data: recorded
      .filter((c) => c.time > since - 1 && c.time < since + 300 * MINUTE)
      .reverse()
      .map((c) => [String(c.time), c.open, c.high, c.low, c.close, c.volume, '0', '0', '1']),
  },
});

/** The candles as history gives them: each number as the exchange's decimal (the file's "20180.0" is 20180). */
const linesOf = (candles: Candle[]) => candles.map((c) => [c.time, ...[c.open, c.high, c.low, c.close, c.volume].map((v) => new Big(v).toFixed())].join(','));

describe.each(BACKENDS)('exchange history for backtests (%s)', (backend) => {
  let server: TestServer;
  let replay: Replay;
  beforeEach(async () => {
    server = await startServer(backend);
    replay = recordedExchange();
  });
  afterEach(async () => server.close());

  const history = (now = Date.UTC(2026, 0, 1)) => createHistory({ db: server.db, createExchange: replay.factory, now: () => now, retryDelayMs: 1 });
  const klinesAsked = () => replay.requests.filter((r) => r.url.includes('/klines')).map((r) => Number(new URL(r.url).searchParams.get('startTime')));

  it('pages through Binance from the start of the range, 1000 candles a request, and caches the days', async () => {
    replay.answer(binanceOrders.exchangeInfo as RecordedAnswer, ...[0, 1000, 2000].map((n) => binancePage(FROM + n * MINUTE)));
    const progress: number[] = [];
    const first = await history().candles({ exchange: 'binance', symbol: 'BTC/USDT', interval: '1m', from: FROM, to: TO, onProgress: (done) => progress.push(done) });
    expect(replay.unexpected).toEqual([]);
    expect(klinesAsked()).toEqual([FROM, FROM + 1000 * MINUTE, FROM + 2000 * MINUTE]);
    // Binance's "23141.57000000" is the file's 23141.57; the third page's candles after the range are dropped.
    expect(first).toEqual({ csv: linesOf(inRange).join('\n'), candles: 2880 });
    expect(progress).toEqual([1000, 2000, 2880]);
    const stored = await server.db.selectFrom('market_candles').select(['day', 'complete']).orderBy('day').execute();
    expect(stored.map((row) => [Number(row.day), row.complete])).toEqual([
      [FROM, true],
      [FROM + DAY_MS, true],
    ]);

    // The same range again, and a part of it: from the database, nothing asked.
    const before = replay.requests.length;
    expect((await history().candles({ exchange: 'binance', symbol: 'BTC/USDT', interval: '1m', from: FROM, to: TO })).csv).toBe(first.csv);
    const part = await history().candles({ exchange: 'binance', symbol: 'BTC/USDT', interval: '1m', from: FROM + 90 * MINUTE, to: FROM + 100 * MINUTE });
    expect(part.csv).toBe(linesOf(inRange.slice(90, 100)).join('\n'));
    expect(replay.requests.length).toBe(before);
  });

  it('fetches a day that had not ended again, and only that day', async () => {
    replay.answer(binanceOrders.exchangeInfo as RecordedAnswer, ...[0, 1000, 2000].map((n) => binancePage(FROM + n * MINUTE)));
    // "Now" is 10 March, 12:00: the day is stored incomplete, up to now.
    const noon = FROM + DAY_MS + 12 * 60 * MINUTE;
    const partial = await history(noon).candles({ exchange: 'binance', symbol: 'BTC/USDT', interval: '1m', from: FROM, to: TO });
    expect(partial.candles).toBe(1440 + 720);
    expect((await server.db.selectFrom('market_candles').select('complete').orderBy('day').execute()).map((r) => r.complete)).toEqual([true, false]);
    replay.requests.length = 0;
    replay.answer(binanceOrders.exchangeInfo as RecordedAnswer, binancePage(FROM + DAY_MS), binancePage(FROM + DAY_MS + 1000 * MINUTE));
    const later = await history().candles({ exchange: 'binance', symbol: 'BTC/USDT', interval: '1m', from: FROM, to: TO });
    expect(replay.unexpected).toEqual([]);
    expect(klinesAsked()).toEqual([FROM + DAY_MS, FROM + DAY_MS + 1000 * MINUTE]);
    expect(later.csv).toBe(linesOf(inRange).join('\n'));
  });

  it('pages through OKX, whose answers are windows of 300 minutes, newest first, across a gap', async () => {
    // A window where OKX has nothing (maintenance): the next request starts one page further.
    const gap = FROM + 600 * MINUTE;
    const pages = Array.from({ length: 10 }, (_, i) => okxPage(FROM + i * 300 * MINUTE)).map((page) =>
      page.query!.before === String(gap - 1) ? { ...page, body: { code: '0', msg: '', data: [] } } : page,
    );
    replay.answer(okxOrders.instruments as RecordedAnswer, ...pages);
    const result = await history().candles({ exchange: 'okx', symbol: 'BTC/USDT', interval: '1m', from: FROM, to: TO });
    expect(replay.unexpected).toEqual([]);
    const expected = inRange.filter((c) => c.time < gap || c.time >= gap + 300 * MINUTE);
    expect(result).toEqual({ csv: linesOf(expected).join('\n'), candles: 2580 });
    expect(replay.requests.filter((r) => r.url.includes('history-candles'))).toHaveLength(10);
  });

  it('gives the pair market of the exchange, and refuses what cannot be had', async () => {
    replay.answer(binanceOrders.exchangeInfo as RecordedAnswer);
    const h = history();
    expect(await h.market('binance', 'BTC/USDT')).toMatchObject({ symbol: 'BTC/USDT', precision: { amount: '0.00001', price: '0.01' }, limits: { amount: { min: '0.00001' } } });
    await expect(h.market('binance', 'DOGE/BTC')).rejects.toMatchObject({ code: 10006 });

    // HTX's candle API has no start time at all: refused before asking.
    const asked = replay.requests.length;
    await expect(h.candles({ exchange: 'htx', symbol: 'BTC/USDT', interval: '1m', from: FROM, to: TO })).rejects.toMatchObject({ code: 20001 });
    expect(replay.requests.length).toBe(asked);

    // The exchange cannot be reached: tried three times, then 20002.
    replay.failNetwork();
    const requests = replay.requests.length;
    await expect(h.candles({ exchange: 'binance', symbol: 'BTC/USDT', interval: '1m', from: FROM + 7 * DAY_MS, to: FROM + 8 * DAY_MS })).rejects.toMatchObject({
      code: 20002,
      data: { reason: 'exchange_unreachable' },
    });
    expect(replay.requests.length - requests).toBe(3);
    expect(await server.db.selectFrom('market_candles').select('day').execute()).toEqual([]);
  });
});
