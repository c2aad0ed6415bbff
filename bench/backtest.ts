/**
 * The backtest's speed, on one core (the main thread, as a worker thread runs it):
 *  1. one template over 30 days of minutes (43 200 candles): goal <= 100 ms;
 *  2. 50 variants of it over the same 30 days: goal <= 5 s;
 *  3. one template over a year of minutes (525 600 candles): goal <= 2 s;
 *  4. the template with a start condition, RSI(14,1h) < 30, over the 30 days
 *     (the indicators fed every minute, the gates evaluated once per minute):
 *     measured, with no goal of its own beyond the month's;
 * with both fill models, and the time to read a year of minutes: parsing a
 * file a user gives (once, when it is uploaded) and reading the server's
 * stored form (before a first run on it; a worker keeps what it read).
 *
 * The candles are the bundled sample's real minutes (BTC/USDT, March 2023),
 * played forward, then backward (the same candles in reverse order, open and
 * close swapped, which ends where the sample began), and so on: real minute
 * moves, any length, every price on the pair's grid. The template is the
 * "balanced" system template (six levels, both callbacks), first order
 * 10 USDT, on the paper exchange's BTC/USDT rules.
 *
 * Prints JSON with the work done (candles, filled orders, cycles), the cold
 * first run, the median wall and CPU time of the runs after it (a goal is met
 * when the CPU time is within it: that is the cost on one core, whatever else
 * the machine runs), and exits 1 when a run did no work.
 *
 *   npm run bench:backtest          (BENCH_REPEAT: timed runs per figure, default 5)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sweepVariants, type MarketRules } from '../src/api/backtest';
import { strategyProblem, type StrategySettings } from '../src/api/strategy';
import { backtestReport } from '../server/src/backtest/report';
import { runBacktest } from '../server/src/backtest/run';
import { readStored, storedLine } from '../server/src/backtest/stored';
import { parseCandlesCsv, type Candle } from '../server/src/engine/core/candles';

const MINUTE = 60_000;
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
const sample = parseCandlesCsv(readFileSync(join(import.meta.dirname, '..', 'server', 'market-data', 'BTCUSDT-1m-2023-03-01_2023-03-21.csv'), 'utf8'));

/** `count` minutes of the sample, forward then backward, again and again. */
const minutes = (count: number): Candle[] => {
  const backward = [...sample].reverse().map((c) => ({ ...c, open: c.close, close: c.open }));
  const start = sample[0]!.time;
  return Array.from({ length: count }, (_, i) => {
    const pass = Math.floor(i / sample.length);
    const source = (pass % 2 === 0 ? sample : backward)[i % sample.length]!;
    return { ...source, time: start + i * MINUTE };
  });
};

const balanced: StrategySettings = {
  levels: [
    { dropPercent: '1.5', multiple: '1' },
    { dropPercent: '3.75', multiple: '2' },
    { dropPercent: '7.13', multiple: '4' },
    { dropPercent: '12.19', multiple: '8' },
    { dropPercent: '19.78', multiple: '16' },
    { dropPercent: '31.17', multiple: '32' },
  ],
  takeProfitPercent: '1.5',
  takeProfitCallbackPercent: '0.3',
  replenishCallbackPercent: '0.3',
  stopLossPercent: null,
  cooldownSeconds: 120,
};
const market: MarketRules = { feeRate: '0.001', feeAsset: 'received', amountStep: '0.00001', minAmount: '0.00001', minCost: '5' };
const common = { symbol: 'BTC/USDT', firstOrderAmount: '10', firstOrderMultiple: false, cycleCount: 9999, market, tickSize: '0.01' };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => Math.round(value * 10) / 10;

/** CPU time of the process (all its threads: V8's compiler and GC helpers count too, so this errs high). */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * The first (cold) run, then, after two more to let the JIT settle (a worker
 * thread runs backtest after backtest), the median of REPEAT runs: wall time,
 * and CPU time, which is what one core spends whatever else the machine runs.
 */
const timed = <T>(work: () => T) => {
  let t = performance.now();
  const result = work();
  const cold = performance.now() - t;
  work();
  work();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const c = cpuMs();
    t = performance.now();
    work();
    wall.push(performance.now() - t);
    cpu.push(cpuMs() - c);
  }
  return { result, coldMs: ms(cold), medianMs: ms(median(wall)), cpuMs: ms(median(cpu)) };
};

const month = minutes(30 * 1440);
const variants = sweepVariants(balanced, { takeProfitPercent: ['1', '1.5', '2', '2.5', '3'], takeProfitCallbackPercent: ['0', '0.3'], amountScale: ['1', '1.5', '2', '2.5', '3'] });
if (variants.length !== 50 || variants.some((v) => strategyProblem({ ...balanced, ...v }) !== null)) throw new Error('the 50 variants are not valid templates');

const single = (candles: Candle[], fill: 'close' | 'ohlc', goalMs: number, settings: StrategySettings = balanced) => {
  const { result, coldMs, medianMs, cpuMs } = timed(() => runBacktest({ ...common, candles, interval: MINUTE, settings, fill, detail: true }));
  return { candles: candles.length, orders: result.orders, cycles: result.figures.cycles, coldMs, medianMs, cpuMs, goalMs, met: cpuMs <= goalMs };
};

const sweep = (fill: 'close' | 'ohlc', goalMs: number) => {
  const { result, coldMs, medianMs, cpuMs } = timed(() => backtestReport({ ...common, candles: month, interval: MINUTE, settings: balanced, fill, variants, rankBy: 'returnPercent' }));
  const ranked = result.variants!;
  return {
    runs: ranked.length,
    candles: month.length * ranked.length,
    orders: ranked.reduce((sum, v) => sum + v.figures.buys + v.figures.sells, 0),
    cycles: ranked.reduce((sum, v) => sum + v.figures.cycles, 0),
    best: ranked[0]!.label || 'template',
    coldMs,
    medianMs,
    cpuMs,
    goalMs,
    met: cpuMs <= goalMs,
  };
};

// The month first, before a year of candles is in memory (a worker thread holds only the candles it runs on).
const monthResults = { close: single(month, 'close', 100), ohlc: single(month, 'ohlc', 100) };
const rsiStart: StrategySettings = { ...balanced, conditions: { start: { mode: 'all', conditions: [{ kind: 'rsi', period: 14, timeframe: '1h', op: 'below', value: '30' }] } } };
const monthRsiResults = { close: single(month, 'close', 100, rsiStart), ohlc: single(month, 'ohlc', 100, rsiStart) };
const sweepResults = { close: sweep('close', 5000), ohlc: sweep('ohlc', 5000) };
const year = minutes(365 * 1440);
const yearResults = { close: single(year, 'close', 2000), ohlc: single(year, 'ohlc', 2000) };
const yearCsv = year.map((c) => storedLine(c.time, c.open, c.high, c.low, c.close, c.volume)).join('\n');
const parse = timed(() => parseCandlesCsv(yearCsv));
const read = timed(() => readStored(yearCsv));

const results = {
  machine: { node: process.version, repeat: REPEAT },
  month: monthResults,
  monthRsiStart: monthRsiResults,
  monthFiftyVariants: sweepResults,
  year: yearResults,
  parseYear: { candles: parse.result.length, coldMs: parse.coldMs, medianMs: parse.medianMs, cpuMs: parse.cpuMs },
  readStoredYear: { candles: read.result.length, coldMs: read.coldMs, medianMs: read.medianMs, cpuMs: read.cpuMs },
};
console.log(JSON.stringify(results, null, 2));

const work = [results.month.close, results.month.ohlc, results.monthRsiStart.close, results.monthRsiStart.ohlc, results.monthFiftyVariants.close, results.monthFiftyVariants.ohlc, results.year.close, results.year.ohlc];
if (work.some((w) => w.candles === 0 || w.orders === 0 || w.cycles === 0) || results.parseYear.candles !== year.length || results.readStoredYear.candles !== year.length) {
  console.error('a benchmark run did no work');
  process.exit(1);
}
