import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import Ajv from 'ajv';
import { FEE_ASSETS, FILL_MODELS, GENERIC_MARKET_RULES, MAX_BACKTEST_CANDLES, type BacktestFigures, type BacktestStop, type FeeAsset, type FillModel, type MarketRules } from '../../../src/api/backtest';
import { describeProblem, strategyProblem, type StrategySettings } from '../../../src/api/strategy';
import { settingsSchema } from '../strategy/schemas';
import { backtestReport } from '../backtest/report';
import { CandleFormatError, candleInterval, parseCandlesCsv } from '../engine/core/candles';
import { UNTIL_STOPPED } from '../engine/core/decide';
import { isDecimalString } from '../engine/core/decimal';
import type { CommandOutput } from './operator';

/**
 * `npm run backtest -- --candles FILE.csv --strategy STRATEGY.json --first-order 10 ...`:
 * a strategy template over a klines CSV, through the engine's own decision,
 * fills and accounting (the same run as `POST /api/strategy/backtest`).
 * `--json` prints one JSON object and nothing else (run it as
 * `npm run -s backtest` so npm does not print its own banner first).
 */
export const USAGE = `usage: npm run backtest -- --candles FILE.csv --strategy STRATEGY.json --first-order 10
         [--first-order-multiple] [--cycles N] [--fee 0.001] [--fee-asset received|quote]
         [--amount-step X] [--min-amount X] [--min-cost X] [--fill close|ohlc] [--json]

  --candles       Binance klines CSV: open_time, open, high, low, close, volume (header optional,
                  open_time in Unix ms, s or ISO-8601; extra columns ignored), up to ${MAX_BACKTEST_CANDLES} rows
  --strategy      the strategy API's settings: levels[{dropPercent, multiple}], takeProfitPercent,
                  takeProfitCallbackPercent, replenishCallbackPercent, stopLossPercent, cooldownSeconds
  --first-order   quote amount of the first order (--first-order-multiple doubles it)
  --cycles        cycles to run, 1-9999 (default 9999: until the candles end)
  --fee           taker fee, a fraction (default ${GENERIC_MARKET_RULES.feeRate})
  --fee-asset     received (default: in the asset an order receives) or quote
  --amount-step, --min-amount, --min-cost
                  the market's rules (default: step ${GENERIC_MARKET_RULES.amountStep}, no minimums)
  --fill          close (default: one tick per candle at its close) or ohlc (open, low, high, close
                  when it closed up; open, high, low, close when it closed down)
  --json          print cycles, realizedProfit, fees, buys, sells, maxFundsInUse, maxDrawdown,
                  openPosition and stopped (why trading stopped early, or null) as one JSON object

  Exit status: 0 done, 1 a file that cannot be used, 2 a wrong option, 3 the market's rules
  refuse the very first order (nothing was traded: raise --first-order or change the rules).`;

/** Usage errors exit 2, unreadable or invalid files 1. */
class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 | 3,
  ) {
    super(message);
  }
}

const OPTIONS = {
  candles: { type: 'string' },
  strategy: { type: 'string' },
  'first-order': { type: 'string' },
  'first-order-multiple': { type: 'boolean' },
  cycles: { type: 'string' },
  fee: { type: 'string' },
  'fee-asset': { type: 'string' },
  'amount-step': { type: 'string' },
  'min-amount': { type: 'string' },
  'min-cost': { type: 'string' },
  fill: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const validSettings = new Ajv({ allErrors: false, strict: false }).compile(settingsSchema);

const decimalOption = (name: string, value: string | undefined, fallback: string): string => {
  if (value === undefined) return fallback;
  if (!isDecimalString(value)) throw new CommandError(`--${name} must be a plain decimal such as 0.001 (got "${value}")`, 2);
  return value;
};

/** The strategy file: the API's settings shape; numbers are taken as the decimals they write. */
const readStrategy = async (path: string, feeRate: string): Promise<StrategySettings> => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new CommandError(`${path}: ${error instanceof SyntaxError ? `not JSON (${error.message})` : (error as Error).message}`, 1);
  }
  const asText = (value: unknown): unknown => (typeof value === 'number' ? String(value) : value);
  const raw = parsed as Record<string, unknown>;
  const settings =
    raw && typeof raw === 'object'
      ? {
          ...raw,
          levels: Array.isArray(raw.levels) ? raw.levels.map((level: Record<string, unknown>) => ({ dropPercent: asText(level?.dropPercent), multiple: asText(level?.multiple) })) : raw.levels,
          takeProfitPercent: asText(raw.takeProfitPercent),
          takeProfitCallbackPercent: asText(raw.takeProfitCallbackPercent ?? '0'),
          replenishCallbackPercent: asText(raw.replenishCallbackPercent ?? '0'),
          stopLossPercent: asText(raw.stopLossPercent ?? null),
          cooldownSeconds: raw.cooldownSeconds ?? 0,
        }
      : raw;
  if (!validSettings(settings)) {
    const first = validSettings.errors![0]!;
    throw new CommandError(`${path}: ${first.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'settings'} ${first.message}`, 1);
  }
  const { levels, takeProfitPercent, takeProfitCallbackPercent, replenishCallbackPercent, stopLossPercent, cooldownSeconds } = settings as unknown as StrategySettings;
  const strategy = { levels, takeProfitPercent, takeProfitCallbackPercent, replenishCallbackPercent, stopLossPercent, cooldownSeconds };
  const problem = strategyProblem(strategy, feeRate);
  if (problem) throw new CommandError(`${path}: ${describeProblem(problem)}`, 1);
  return strategy;
};

const readCandles = async (path: string) => {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CommandError(`${path}: ${(error as Error).message}`, 1);
  }
  try {
    return parseCandlesCsv(text, { maxRows: MAX_BACKTEST_CANDLES });
  } catch (error) {
    if (error instanceof CandleFormatError) throw new CommandError(`${path} line ${error.line}: ${error.reason}`, 1);
    throw error;
  }
};

const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

const STOP_REASONS: Record<BacktestStop['reason'], string> = {
  below_min_amount: 'below the minimum amount (--min-amount)',
  below_min_cost: 'below the minimum cost (--min-cost)',
  insufficient_funds: 'not enough funds',
  order_refused: 'refused by the market',
};

/** Why trading stopped, in words. */
const stopText = (stop: BacktestStop) => `the market's rules refuse the ${stop.side} of level ${stop.level} at ${stop.price}, ${when(stop.time)} UTC: ${STOP_REASONS[stop.reason]}`;

const table = (figures: BacktestFigures, quote: string): string[] => {
  const open = figures.openPosition;
  const rows: [string, string][] = [
    ['Cycles', String(figures.cycles)],
    ['Realized profit', `${figures.realizedProfit} ${quote}`],
    ['Fees', `${figures.fees} ${quote}`],
    ['Buys / sells', `${figures.buys} / ${figures.sells}`],
    ['Most funds in use', `${figures.maxFundsInUse} ${quote}`],
    ['Max drawdown', `${figures.maxDrawdown} ${quote} (${figures.maxDrawdownPercent} % of the most funds in use)`],
    ['Time in position', `${figures.timeInPositionPercent} %`],
    ['Return on funds', `${figures.returnPercent} % (realized only: ${figures.realizedReturnPercent} %)`],
    ['Open position', open ? `${open.quantity} at ${open.averagePrice} average, worth ${open.value} ${quote} at ${open.price}: ${open.floatingProfit} ${quote} floating` : 'none'],
  ];
  if (figures.stopped) rows.push(['Stopped', stopText(figures.stopped)]);
  return rows.map(([label, value]) => `${label.padEnd(18)} ${value}`);
};

/** Runs the command; answers the exit code (0, 1 for unusable input, 2 for a usage error, 3 when the rules refuse the first order). */
export const runBacktestCommand = async (args: readonly string[], out: CommandOutput): Promise<number> => {
  try {
    let values;
    try {
      ({ values } = parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: false }));
    } catch (error) {
      throw new CommandError((error as Error).message, 2);
    }
    if (values.help) {
      out.log(USAGE);
      return 0;
    }
    if (!values.candles || !values.strategy || values['first-order'] === undefined) throw new CommandError('--candles, --strategy and --first-order are required', 2);
    const firstOrder = decimalOption('first-order', values['first-order'], '');
    if (!(Number(firstOrder) > 0)) throw new CommandError('--first-order must be above 0', 2);
    const cycles = values.cycles === undefined ? UNTIL_STOPPED : Number(values.cycles);
    if (!Number.isInteger(cycles) || cycles < 1 || cycles > UNTIL_STOPPED) throw new CommandError('--cycles must be a whole number from 1 to 9999', 2);
    const feeAsset = (values['fee-asset'] ?? 'received') as FeeAsset;
    if (!FEE_ASSETS.includes(feeAsset)) throw new CommandError('--fee-asset must be received or quote', 2);
    const fill = (values.fill ?? 'close') as FillModel;
    if (!FILL_MODELS.includes(fill)) throw new CommandError('--fill must be close or ohlc', 2);
    const market: MarketRules = {
      feeRate: decimalOption('fee', values.fee, GENERIC_MARKET_RULES.feeRate),
      feeAsset,
      amountStep: decimalOption('amount-step', values['amount-step'], GENERIC_MARKET_RULES.amountStep),
      minAmount: decimalOption('min-amount', values['min-amount'], GENERIC_MARKET_RULES.minAmount),
      minCost: decimalOption('min-cost', values['min-cost'], GENERIC_MARKET_RULES.minCost),
    };
    if (!(Number(market.feeRate) < 1)) throw new CommandError('--fee must be below 1 (0.001 is 0.1 %)', 2);
    if (!(Number(market.amountStep) > 0)) throw new CommandError('--amount-step must be above 0', 2);

    const settings = await readStrategy(values.strategy, market.feeRate);
    const candles = await readCandles(values.candles);
    const interval = candleInterval(candles);
    const report = backtestReport({
      candles,
      interval,
      // The file names no pair: the position is in BASE, money in QUOTE.
      symbol: 'BASE/QUOTE',
      settings,
      firstOrderAmount: firstOrder,
      firstOrderMultiple: values['first-order-multiple'] ?? false,
      cycleCount: cycles,
      market,
      fill,
      variants: [],
      rankBy: 'returnPercent',
    });
    const figures = report.figures;
    // Nothing traded because the rules refuse the first order: a run that says nothing, so not a success.
    const refused = figures.stopped && figures.buys === 0 ? figures.stopped : null;
    if (values.json) {
      const { cycles: done, realizedProfit, fees, buys, sells, maxFundsInUse, maxDrawdown, openPosition, stopped } = figures;
      out.log(JSON.stringify({ cycles: done, realizedProfit, fees, buys, sells, maxFundsInUse, maxDrawdown, openPosition, stopped }));
    } else {
      out.log(`${report.candles} candles of ${interval / 60_000} min, ${when(report.from)} to ${when(report.to)} UTC, fill ${fill}`);
      out.log(`Fee ${market.feeRate} (${market.feeAsset}), amount step ${market.amountStep}, minimum amount ${market.minAmount}, minimum cost ${market.minCost}`);
      out.log('');
      for (const line of table(figures, 'QUOTE')) out.log(line);
    }
    if (refused) throw new CommandError(`nothing was traded: ${stopText(refused)}. Raise --first-order or change the market's rules.`, 3);
    return 0;
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    out.error(error.message);
    if (error.exitCode === 2) out.error(USAGE);
    return error.exitCode;
  }
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runBacktestCommand(process.argv.slice(2), { log: console.log, error: console.error })
    .then((code) => process.exit(code))
    .catch((error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
