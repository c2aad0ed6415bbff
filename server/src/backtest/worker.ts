/**
 * A backtest worker thread: parses candle files and runs backtests away from
 * the server's event loop. It keeps the candles it parsed (the bundled
 * sample, an upload, an exchange's history) for the next run on them, and
 * tells the pool which ones it holds.
 */
import { parentPort } from 'node:worker_threads';
import { MAX_BACKTEST_CANDLES } from '../../../src/api/backtest';
import { CandleFormatError, candleInterval, parseCandlesCsv, type Candle } from '../engine/core/candles';
import type { ToWorker, FromWorker, WorkerFailure } from './pool';
import { backtestReport } from './report';
import { readStored, storedLine } from './stored';

/** Parsed candles kept, least recently used first out: about two years of minutes in all. */
const CACHE_CANDLES = 1_100_000;
const PROGRESS_EVERY_MS = 150;

interface Parsed {
  candles: Candle[];
  interval: number;
}

const cache = new Map<string, Parsed>();

const remember = (key: string, parsed: Parsed) => {
  cache.delete(key);
  cache.set(key, parsed);
  let total = [...cache.values()].reduce((sum, entry) => sum + entry.candles.length, 0);
  for (const [old, entry] of cache) {
    if (total <= CACHE_CANDLES || old === key) break;
    cache.delete(old);
    total -= entry.candles.length;
  }
};

const parse = (text: string, maxRows?: number): Parsed => {
  const candles = parseCandlesCsv(text, maxRows === undefined ? {} : { maxRows });
  return { candles, interval: candleInterval(candles) };
};

/** The candles with open times in [from, to). */
const within = (candles: Candle[], from?: number, to?: number): Candle[] => {
  const first = (time: number) => {
    let low = 0;
    let high = candles.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (candles[middle]!.time < time) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  return candles.slice(from === undefined ? 0 : first(from), to === undefined ? candles.length : first(to));
};

const send = (message: FromWorker) => parentPort!.postMessage(message);

const failure = (error: unknown): WorkerFailure =>
  error instanceof CandleFormatError ? { kind: 'format', line: error.line, reason: error.reason } : { kind: 'internal', message: error instanceof Error ? error.message : String(error) };

const handle = (message: ToWorker) => {
  const { id } = message;
  if (message.type === 'parse') {
    const { candles, interval } = parse(message.text, MAX_BACKTEST_CANDLES);
    const csv = candles.map((c) => storedLine(c.time, c.open, c.high, c.low, c.close, c.volume)).join('\n');
    send({ type: 'done', id, result: { csv, candles: candles.length, interval, from: candles[0]!.time, to: candles.at(-1)!.time + interval }, keys: [...cache.keys()] });
    return;
  }
  const { key, text, stored } = message.candles;
  let parsed = cache.get(key);
  if (!parsed) {
    if (text === undefined) {
      send({ type: 'failed', id, error: { kind: 'missing' }, keys: [...cache.keys()] });
      return;
    }
    if (stored) {
      const candles = readStored(text);
      parsed = { candles, interval: candleInterval(candles) };
    } else {
      parsed = parse(text);
    }
  }
  remember(key, parsed);
  const candles = within(parsed.candles, message.range.from, message.range.to);
  if (candles.length === 0 || candles.length > MAX_BACKTEST_CANDLES) {
    send({ type: 'failed', id, error: { kind: 'range', candles: candles.length }, keys: [...cache.keys()] });
    return;
  }
  let sentAt = 0;
  const result = backtestReport({
    ...message.input,
    candles,
    interval: parsed.interval,
    onProgress: (done, total) => {
      const now = Date.now();
      if (now - sentAt < PROGRESS_EVERY_MS && done < total) return;
      sentAt = now;
      send({ type: 'progress', id, done, total });
    },
  });
  send({ type: 'done', id, result, keys: [...cache.keys()] });
};

parentPort!.on('message', (message: ToWorker) => {
  try {
    handle(message);
  } catch (error) {
    send({ type: 'failed', id: message.id, error: failure(error), keys: [...cache.keys()] });
  }
});
