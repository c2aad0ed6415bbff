/**
 * Backtest runs: the request checked and resolved at once (a refusal changes
 * nothing), then the run in the background: candles read (the bundled
 * sample, an upload, or an exchange's history, fetched with progress), the
 * market's rules, and the computation in a worker thread. Runs are rows, so
 * any server process sharing the database answers their progress and report.
 *
 * Per user: one run at a time (a new one ends the one before), and at most
 * RUN_LIMITS runs in a window (10009).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import Big from 'big.js';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Selectable } from 'kysely';
import {
  DEFAULT_HISTORY_DAYS,
  GENERIC_MARKET_RULES,
  INTERVAL_MS,
  MAX_BACKTEST_CANDLES,
  MAX_BACKTEST_WORK,
  SAMPLE_FROM,
  SAMPLE_SYMBOL,
  SAMPLE_TO,
  type BacktestJob,
  type BacktestReport,
  type BacktestStatus,
  type CandleUpload,
  type HistoryInterval,
  type MarketRules,
  type PresetFiguresAnswer,
  type PresetSource,
  PRESET_FIRST_ORDER,
} from '../../../src/api/backtest';
import { ErrorCode } from '../../../src/api/errors';
import { DEFAULT_FEE_RATE, describeProblem, strategyProblem, type StrategySettings } from '../../../src/api/strategy';
import type { DecimalString } from '../../../src/api/types';
import type { Db } from '../db/database';
import type { BacktestRunsTable } from '../db/schema';
import { parseTime } from '../engine/core/candles';
import type { PaperMarketInfo } from '../engine/venues/paper/exchange';
import { BusinessError, fail, tooManyAttempts } from '../http/errors';
import { settingsOf, systemTemplates } from '../strategy/service';
import type { Limit, Throttle } from '../shared/throttle';
import type { PresetsQuery, RunBody } from './schemas';
import { DAY_MS, type History } from './history';
import { WorkerError, type ParsedCandles, type WorkerPool } from './pool';
import { variantSettings } from './report';
import type { BacktestAlert } from './run';

export const SAMPLE_FILE = join(import.meta.dirname, '..', '..', 'market-data', 'BTCUSDT-1m-2023-03-01_2023-03-21.csv');

/** Backtests per user: 30 in 10 minutes, 300 a day. */
const RUN_LIMITS: Limit[] = [
  { max: 30, windowSeconds: 600 },
  { max: 300, windowSeconds: 86_400 },
];
/** Uploads per user, refused ones included: 20 an hour. */
const UPLOAD_LIMITS: Limit[] = [{ max: 20, windowSeconds: 3600 }];
/** The wait a refusal for uploads already being received suggests. */
const UPLOAD_RETRY_SECONDS = 5;
/** Runs and uploads a user keeps; older ones are deleted. */
const KEEP_RUNS = 10;
const KEEP_UPLOADS = 5;
/** How long the start call waits for a run to finish before answering with its progress. */
const ANSWER_WITHIN_MS = 2500;
const SAVE_PROGRESS_MS = 1000;
/** A run nobody has moved for this long was left by a server that stopped; a live one is touched every HEARTBEAT_MS. */
const STALE_MS = 120_000;
const HEARTBEAT_MS = 30_000;
const ACTIVE: readonly BacktestStatus[] = ['queued', 'loading', 'running'];


export interface BacktestDeps {
  db: Db;
  log: FastifyBaseLogger;
  pool: WorkerPool;
  history: History;
  /** Counts the runs and uploads of each user (the app's shared throttle). */
  throttle: Throttle;
  /** The paper exchange's markets: the rules of the sample and of uploads. */
  paperMarkets: () => PaperMarketInfo[];
  /** The exchange an id names (30100 unknown, 30101 not offered). */
  exchangeKind: (exchangeId: string) => 'paper' | 'real';
  /** Uploads being received at once: per user and in all (BACKTEST_UPLOADS_PER_USER, BACKTEST_UPLOADS_TOTAL). */
  uploadsPerUser: number;
  uploadsTotal: number;
  now?: () => number;
}

/** Where a run's candles come from, resolved. */
type Candles =
  | { kind: 'sample' }
  | { kind: 'upload'; id: string }
  | { kind: 'exchange'; exchange: string; interval: keyof typeof INTERVAL_MS };

interface Resolved {
  request: RunBody;
  settings: StrategySettings;
  candles: Candles;
  from: number;
  to: number;
  /** Candles the range holds at most. */
  estimate: number;
  /** The alerts to replay, in rising time. */
  alerts: BacktestAlert[];
}

interface Live {
  status: BacktestStatus;
  done: number;
  total: number;
  savedAt: number;
  cancel: () => void;
  finished: Promise<void>;
}

type RunRow = Selectable<BacktestRunsTable>;

const unzip = promisify(gunzip);
const zip = promisify(gzip);

/** A template's settings alone, as a run takes them. */
const settingsFrom = ({ levels, takeProfitPercent, takeProfitCallbackPercent, replenishCallbackPercent, stopLossPercent, cooldownSeconds }: StrategySettings): StrategySettings => ({
  levels,
  takeProfitPercent,
  takeProfitCallbackPercent,
  replenishCallbackPercent,
  stopLossPercent,
  cooldownSeconds,
});

const timeOf = (text: string | undefined, field: 'from' | 'to'): number | undefined => {
  if (text === undefined) return undefined;
  const time = parseTime(text.trim());
  if (time === null) fail(ErrorCode.PARAM_FORMAT, `${field} is not a time (ISO-8601 or epoch milliseconds)`, { field });
  return time!;
};

export const createBacktestService = (deps: BacktestDeps) => {
  const { db, log, pool, history, throttle } = deps;
  const now = deps.now ?? Date.now;
  const live = new Map<string, Live>();

  const settingsFor = async (userId: string, request: RunBody): Promise<StrategySettings> => {
    if (request.settings && request.strategyId) fail(ErrorCode.INVALID, 'give a strategyId or settings, not both', { field: 'settings' });
    if (request.settings) return request.settings;
    if (!request.strategyId) return fail(ErrorCode.PARAM_REQUIRED, 'a strategyId or settings is required', { field: 'strategyId' });
    const row = await db
      .selectFrom('strategies')
      .select(['levels', 'take_profit_percent', 'take_profit_callback_percent', 'replenish_callback_percent', 'stop_loss_percent', 'cooldown_seconds'])
      .where('id', '=', request.strategyId)
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('user_id', 'is', null)]))
      .executeTakeFirst();
    if (!row) return fail(ErrorCode.STRATEGY_NOT_EXIST, 'strategy does not exist', { field: 'strategyId' });
    return settingsOf(row);
  };

  /** Checks everything that can be checked without the candles; a refusal changes nothing. */
  const resolve = async (userId: string, request: RunBody): Promise<Resolved> => {
    const settings = await settingsFor(userId, request);
    const feeRate = request.market?.feeRate ?? DEFAULT_FEE_RATE;
    const problem = strategyProblem(settings, feeRate);
    if (problem) fail(ErrorCode.INVALID, describeProblem(problem), { field: 'settings', ...problem });
    (request.variants ?? []).forEach((variant, i) => {
      const found = strategyProblem(variantSettings(settings, variant), feeRate);
      if (found) fail(ErrorCode.INVALID, `variant ${i + 1}: ${describeProblem(found)}`, { field: 'variants', variant: i + 1, ...found });
    });
    const alerts = (request.alerts ?? [])
      .map((alert, i) => {
        const time = parseTime(alert.time.trim());
        if (time === null) fail(ErrorCode.PARAM_FORMAT, `alert ${i + 1}: the time is not a time (ISO-8601 or epoch milliseconds)`, { field: 'alerts', alert: i + 1 });
        return { time: time!, action: alert.action };
      })
      .sort((a, b) => a.time - b.time);
    if (new Big(request.firstOrderAmount).lte(0)) fail(ErrorCode.PARAM_RANGE, 'the first order amount must be above 0', { field: 'firstOrderAmount' });
    const step = request.market?.amountStep;
    if (step !== undefined && new Big(step).lte(0)) fail(ErrorCode.PARAM_RANGE, 'the amount step must be above 0', { field: 'market.amountStep' });

    let from = timeOf(request.from, 'from');
    let to = timeOf(request.to, 'to');
    const source = request.source;
    let candles: Candles;
    let interval: number;
    if (source.kind === 'sample') {
      if (request.symbol !== SAMPLE_SYMBOL) fail(ErrorCode.INVALID, `the sample is ${SAMPLE_SYMBOL}`, { field: 'symbol' });
      candles = { kind: 'sample' };
      interval = INTERVAL_MS['1m'];
      from = Math.max(from ?? SAMPLE_FROM, SAMPLE_FROM);
      to = Math.min(to ?? SAMPLE_TO, SAMPLE_TO);
    } else if (source.kind === 'upload') {
      if (!source.id) return fail(ErrorCode.PARAM_REQUIRED, 'the uploaded file is required', { field: 'source.id' });
      const upload = await db
        .selectFrom('backtest_candle_sets')
        .select(['id', 'interval_ms', 'first_time', 'last_time'])
        .where('id', '=', source.id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!upload) return fail(ErrorCode.PARAM_NOT_EXIST, 'the uploaded file does not exist', { field: 'source.id' });
      candles = { kind: 'upload', id: upload.id };
      interval = Number(upload.interval_ms);
      from = Math.max(from ?? Number(upload.first_time), Number(upload.first_time));
      to = Math.min(to ?? Number(upload.last_time) + interval, Number(upload.last_time) + interval);
    } else {
      if (!source.exchange) return fail(ErrorCode.PARAM_REQUIRED, 'the exchange is required', { field: 'source.exchange' });
      if (deps.exchangeKind(source.exchange) === 'paper') fail(ErrorCode.NOT_SUPPORTED, 'the paper exchange keeps no history: use the sample or an exchange', { field: 'source.exchange', reason: 'history_not_available' });
      const name = source.interval ?? '1m';
      candles = { kind: 'exchange', exchange: source.exchange, interval: name };
      interval = INTERVAL_MS[name];
      // Whole candles that have closed: the current one is still moving.
      const latest = Math.floor(now() / interval) * interval;
      to = Math.min(to ?? latest, latest);
      from = from ?? to - DEFAULT_HISTORY_DAYS * 86_400_000;
      from = Math.ceil(from / interval) * interval;
    }
    if (!(from < to)) fail(ErrorCode.PARAM_RANGE, 'from must be before to, within the candles', { field: 'from' });
    const estimate = Math.ceil((to - from) / interval);
    if (estimate > MAX_BACKTEST_CANDLES) fail(ErrorCode.PARAM_RANGE, `at most ${MAX_BACKTEST_CANDLES} candles in one backtest`, { field: 'from', limit: MAX_BACKTEST_CANDLES });
    const work = estimate * (1 + (request.variants?.length ?? 0));
    if (work > MAX_BACKTEST_WORK) fail(ErrorCode.PARAM_RANGE, `at most ${MAX_BACKTEST_WORK} candles times variants in one backtest`, { field: 'variants', limit: MAX_BACKTEST_WORK });
    return { request, settings, candles, from, to, estimate, alerts };
  };

  /** The pair's rules on the exchange the candles come from (the paper exchange for the sample and uploads), overridden by the request. */
  const rulesFor = async (resolved: Resolved): Promise<{ rules: MarketRules; tickSize?: DecimalString }> => {
    const { request, candles } = resolved;
    let rules = GENERIC_MARKET_RULES;
    let tickSize: DecimalString | undefined;
    if (candles.kind === 'exchange') {
      const market = await history.market(candles.exchange, request.symbol);
      rules = { feeRate: market.taker ?? DEFAULT_FEE_RATE, feeAsset: 'received', amountStep: market.precision.amount, minAmount: market.limits.amount.min, minCost: market.limits.cost.min };
      tickSize = market.precision.price;
    } else {
      const market = deps.paperMarkets().find((m) => m.symbol === request.symbol);
      if (market) {
        rules = { feeRate: market.taker, feeAsset: 'received', amountStep: market.precision.amount, minAmount: market.limits.amount.min, minCost: market.limits.cost.min };
        tickSize = market.precision.price;
      }
    }
    const overrides = Object.fromEntries(Object.entries(request.market ?? {}).filter(([, value]) => value !== undefined));
    return { rules: { ...rules, ...overrides }, ...(tickSize ? { tickSize } : {}) };
  };

  /** Writes a run that is still under way; a run already ended (stopped from another process) stays as it ended. */
  const save = (id: string, values: { status?: BacktestStatus; done?: number; total?: number; result?: BacktestReport; error?: BacktestJob['error'] }) =>
    db
      .updateTable('backtest_runs')
      .set({
        ...(values.status ? { status: values.status } : {}),
        ...(values.done !== undefined ? { done: values.done } : {}),
        ...(values.total !== undefined ? { total: values.total } : {}),
        ...(values.result ? { result: JSON.stringify(values.result) } : {}),
        ...(values.error ? { error: JSON.stringify(values.error) } : {}),
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .where('status', 'in', [...ACTIVE])
      .execute();

  /** Progress in memory at once, in the database at most once a second (and at every change of status). */
  const progress = (id: string, state: Live, status: BacktestStatus, done: number, total: number) => {
    const changed = state.status !== status;
    Object.assign(state, { status, done, total });
    if (!changed && now() - state.savedAt < SAVE_PROGRESS_MS) return;
    state.savedAt = now();
    save(id, { status, done, total }).catch((error: unknown) => log.warn({ err: error, runId: id }, 'backtest progress not saved'));
  };

  /** Why a run failed, as the catalogue says it. */
  const errorOf = (error: unknown, runId: string): BacktestJob['error'] => {
    if (error instanceof BusinessError) return { code: error.code, message: error.message, data: error.data };
    if (error instanceof WorkerError && error.failure.kind === 'range') {
      return { code: ErrorCode.PARAM_RANGE, message: 'no candles between from and to', data: { field: 'from', candles: error.failure.candles } };
    }
    if (error instanceof WorkerError && error.failure.kind === 'format') {
      return { code: ErrorCode.PARAM_FORMAT, message: `line ${error.failure.line}: ${error.failure.reason}`, data: { line: error.failure.line, reason: error.failure.reason } };
    }
    log.error({ err: error, runId }, 'backtest failed');
    return { code: ErrorCode.UNDEFINED_ERROR, message: 'the backtest failed', data: { runId } };
  };

  const loadUpload = async (id: string): Promise<string> => {
    const row = await db.selectFrom('backtest_candle_sets').select('data').where('id', '=', id).executeTakeFirstOrThrow();
    return (await unzip(row.data)).toString('utf8');
  };

  /** Where a resolved run's candles come from: the key threads know them by, and how to read them (an exchange's history fetched first). */
  const candleSource = async (resolved: Resolved, signal: AbortSignal | undefined, onLoading: (done: number, total: number) => void) => {
    const { request, candles } = resolved;
    // Uploads and history are stored in the server's own form, already checked; the sample is a file to parse.
    const stored = candles.kind !== 'sample';
    if (candles.kind === 'exchange') {
      onLoading(0, resolved.estimate);
      const fetched = await history.candles({ ...candles, symbol: request.symbol, from: resolved.from, to: resolved.to, ...(signal ? { signal } : {}), onProgress: onLoading });
      return { stored, key: `exchange:${candles.exchange}:${request.symbol}:${candles.interval}:${resolved.from}:${resolved.to}`, load: async () => fetched.csv };
    }
    if (candles.kind === 'upload') return { stored, key: `upload:${candles.id}`, load: () => loadUpload(candles.id) };
    return { stored, key: 'sample', load: () => readFile(SAMPLE_FILE, 'utf8') };
  };

  /** The worker's input for a resolved run. */
  const runInput = (resolved: Resolved, rules: MarketRules, tickSize: DecimalString | undefined) => {
    const { request } = resolved;
    return {
      symbol: request.symbol,
      settings: resolved.settings,
      firstOrderAmount: new Big(request.firstOrderAmount).toFixed(),
      firstOrderMultiple: request.firstOrderMultiple ?? false,
      cycleCount: request.cycleCount ?? 9999,
      market: rules,
      ...(tickSize ? { tickSize } : {}),
      fill: request.fill ?? 'close',
      variants: request.variants ?? [],
      rankBy: request.rankBy ?? 'returnPercent',
      ...(resolved.alerts.length > 0 ? { alerts: resolved.alerts } : {}),
    };
  };

  /** The run in the background, from candles to report. */
  const execute = async (userId: string, id: string, resolved: Resolved, state: Live, signal: AbortSignal, setCancel: (cancel: () => void) => void) => {
    const { request } = resolved;
    const total = resolved.estimate * (1 + (request.variants?.length ?? 0));
    const { key, load, stored } = await candleSource(resolved, signal, (done, all) => progress(id, state, 'loading', done, all));
    const { rules, tickSize } = await rulesFor(resolved);
    if (signal.aborted) throw signal.reason;
    progress(id, state, 'running', 0, total);
    const job = pool.run({
      owner: userId,
      key,
      load,
      stored,
      range: { from: resolved.from, to: resolved.to },
      input: runInput(resolved, rules, tickSize),
      onProgress: (done, all) => progress(id, state, 'running', done, all),
    });
    setCancel(job.cancel);
    return job.promise;
  };

  /**
   * The system templates' figures on a pair over its last `days` (issue 28): one run in the pool (the first
   * template, the others as its variants), for the user who asks first and counted against that user's
   * backtests; kept for the rest of the UTC day, so every other user asking the same pair and period that
   * day is answered from memory (asking while it computes waits for the same run).
   */
  const presetCache = new Map<string, { day: number; answer: Promise<PresetFiguresAnswer> }>();
  const presets = async (userId: string, query: PresetsQuery): Promise<PresetFiguresAnswer> => {
    const day = Math.floor(now() / DAY_MS);
    const source: PresetSource = query.source;
    if (source === 'exchange' && !query.exchange) fail(ErrorCode.PARAM_REQUIRED, 'the exchange is required', { field: 'exchange' });
    const exchange = source === 'exchange' ? query.exchange! : null;
    const cacheKey = `${source}:${exchange ?? ''}:${query.symbol}:${query.days}`;
    const cached = presetCache.get(cacheKey);
    if (cached && cached.day === day) return cached.answer;

    // Kept at once, before any await: a second ask while this one is refused or computing waits for it.
    const compute = async (): Promise<PresetFiguresAnswer> => {
      const templates = await systemTemplates(db);
      if (templates.length === 0) return fail(ErrorCode.NOT_ENABLED, 'no system templates', { reason: 'no_presets' });
      // The period: the last `days` of the sample, or the last `days` whole UTC days of the exchange's history.
      const end = source === 'sample' ? SAMPLE_TO : day * DAY_MS;
      const interval: HistoryInterval = source === 'sample' || query.days <= DEFAULT_HISTORY_DAYS ? '1m' : '1h';
      const [first, ...others] = templates;
      const request: RunBody = {
        settings: settingsFrom(first!),
        symbol: query.symbol,
        source: source === 'sample' ? { kind: 'sample' } : { kind: 'exchange', exchange: exchange!, interval },
        from: String(end - query.days * DAY_MS),
        to: String(end),
        firstOrderAmount: PRESET_FIRST_ORDER,
        variants: others.map((t, i) => ({ label: `#${i + 1}`, ...settingsFrom(t) })),
      };
      // Every refusal (pair, period, exchange) before anything is counted or kept.
      const attempt = await throttle.take([{ key: `backtest:${userId}`, limits: RUN_LIMITS }]);
      let resolved: Resolved;
      try {
        resolved = await resolve(userId, request);
      } catch (error) {
        await attempt.release();
        throw error;
      }
      const { key, load, stored } = await candleSource(resolved, undefined, () => undefined);
      const { rules, tickSize } = await rulesFor(resolved);
      const report = await pool.run({ owner: userId, key, load, stored, range: { from: resolved.from, to: resolved.to }, input: runInput(resolved, rules, tickSize) }).promise;
      const figuresOf = (index: number) => (index === 0 ? report.figures : report.variants!.find((v) => v.index === index)!.figures);
      return {
        symbol: report.symbol,
        source,
        exchange,
        interval: report.interval,
        from: report.from,
        to: report.to,
        candles: report.candles,
        firstOrderAmount: report.firstOrderAmount,
        computedAt: new Date(now()).toISOString(),
        presets: templates.map((t, index) => ({ strategyId: t.id, name: t.name, settings: index === 0 ? report.settings : report.variants!.find((v) => v.index === index)!.settings, figures: figuresOf(index) })),
      };
    };
    // A failed run is said as the catalogue says it, to every user waiting for it.
    const answer = compute().catch((error: unknown): never => {
      if (error instanceof BusinessError) throw error;
      const failure = errorOf(error, 'presets')!;
      return fail(failure.code as BusinessError['code'], failure.message, failure.data);
    });
    // Yesterday's figures go when today's first come; a failed run is not kept.
    for (const [k, entry] of presetCache) if (entry.day !== day) presetCache.delete(k);
    presetCache.set(cacheKey, { day, answer });
    answer.catch(() => {
      if (presetCache.get(cacheKey)?.answer === answer) presetCache.delete(cacheKey);
    });
    return answer;
  };

  const start = async (userId: string, request: RunBody): Promise<BacktestJob> => {
    // Reserved before the work; a request refused before its run exists gives the slot back.
    const attempt = await throttle.take([{ key: `backtest:${userId}`, limits: RUN_LIMITS }]);
    let resolved: Awaited<ReturnType<typeof resolve>>;
    let row: { id: string };
    let total: number;
    try {
      resolved = await resolve(userId, request);

      // One run per user: a new one ends the one before.
      const previous = await db.selectFrom('backtest_runs').select('id').where('user_id', '=', userId).where('status', 'in', [...ACTIVE]).execute();
      for (const active of previous) await cancel(userId, active.id);

      total = resolved.estimate * (1 + (request.variants?.length ?? 0));
      row = await db
        .insertInto('backtest_runs')
        .values({ user_id: userId, status: 'queued', done: 0, total, request: JSON.stringify(request) })
        .returning('id')
        .executeTakeFirstOrThrow();
    } catch (error) {
      await attempt.release();
      throw error;
    }
    await db
      .deleteFrom('backtest_runs')
      .where('user_id', '=', userId)
      .where('id', 'not in', db.selectFrom('backtest_runs').select('id').where('user_id', '=', userId).orderBy('created_at', 'desc').limit(KEEP_RUNS))
      .execute();

    const id = row.id;
    const controller = new AbortController();
    let cancelWork = () => undefined as void;
    const state: Live = {
      status: 'queued',
      done: 0,
      total,
      savedAt: now(),
      cancel: () => {
        controller.abort(new WorkerError({ kind: 'canceled' }));
        cancelWork();
      },
      finished: Promise.resolve(),
    };
    live.set(id, state);
    // A run waiting for a thread writes no progress: this says it is still alive (see STALE_MS).
    const heartbeat = setInterval(() => void save(id, {}).catch(() => undefined), HEARTBEAT_MS).unref();
    state.finished = execute(userId, id, resolved, state, controller.signal, (cancelJob) => (cancelWork = cancelJob))
      .then(async (result) => {
        state.status = 'done';
        await save(id, { status: 'done', done: total, total, result });
      })
      .catch(async (error: unknown) => {
        const canceled = controller.signal.aborted || (error instanceof WorkerError && error.failure.kind === 'canceled');
        state.status = canceled ? 'canceled' : 'failed';
        await save(id, canceled ? { status: 'canceled' } : { status: 'failed', error: errorOf(error, id) });
      })
      .catch((error: unknown) => log.error({ err: error, runId: id }, 'backtest outcome not saved'))
      .finally(() => {
        clearInterval(heartbeat);
        live.delete(id);
      });

    await Promise.race([state.finished, new Promise((resolve) => setTimeout(resolve, ANSWER_WITHIN_MS).unref())]);
    return get(userId, id);
  };

  const toJob = (row: Pick<RunRow, 'id' | 'status' | 'done' | 'total' | 'created_at' | 'result' | 'error' | 'updated_at'>): BacktestJob => {
    const state = live.get(row.id);
    return {
      id: row.id,
      status: state?.status ?? row.status,
      progress: { done: state?.done ?? Number(row.done), total: state?.total ?? Number(row.total) },
      createdAt: new Date(row.created_at).toISOString(),
      result: (row.result as BacktestReport | null) ?? null,
      error: (row.error as BacktestJob['error']) ?? null,
    };
  };

  const get = async (userId: string, id: string): Promise<BacktestJob> => {
    const row = await db
      .selectFrom('backtest_runs')
      .select(['id', 'status', 'done', 'total', 'created_at', 'updated_at', 'result', 'error'])
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) return fail(ErrorCode.PARAM_NOT_EXIST, 'backtest does not exist', { field: 'id' });
    const stale = ACTIVE.includes(row.status) && !live.has(id) && now() - new Date(row.updated_at).getTime() > STALE_MS;
    if (stale) {
      // Left by a server that stopped: say so, once and for all.
      const error = { code: ErrorCode.NOT_ENABLED, message: 'the backtest was interrupted: run it again', data: { reason: 'interrupted' } };
      await save(id, { status: 'failed', error });
      return toJob({ ...row, status: 'failed', error });
    }
    return toJob(row);
  };

  const cancel = async (userId: string, id: string): Promise<BacktestJob> => {
    const job = await get(userId, id);
    if (!ACTIVE.includes(job.status)) return job;
    const state = live.get(id);
    if (state) {
      state.cancel();
      await state.finished;
    } else {
      await save(id, { status: 'canceled' });
    }
    return get(userId, id);
  };

  const toUpload = (row: { id: string; name: string; candles: number; interval_ms: string; first_time: string; last_time: string; created_at: Date }): CandleUpload => ({
    id: row.id,
    name: row.name,
    candles: row.candles,
    interval: Number(row.interval_ms),
    from: Number(row.first_time),
    to: Number(row.last_time) + Number(row.interval_ms),
    createdAt: new Date(row.created_at).toISOString(),
  });
  const UPLOAD_COLUMNS = ['id', 'name', 'candles', 'interval_ms', 'first_time', 'last_time', 'created_at'] as const;

  /**
   * Uploads being received, per user and in all (issue 26): taken when the request arrives, before its
   * body is read (routes.ts), so a user cannot have more than `uploadsPerUser` files in memory at once nor
   * everyone together more than `uploadsTotal`; refused with 10009 and a short retryAfter. Every upload,
   * refused ones too, also counts against the user's hourly limit.
   */
  const receiving = new Map<string, number>();
  let receivingTotal = 0;
  const admitUpload = async (userId: string): Promise<() => void> => {
    const mine = receiving.get(userId) ?? 0;
    if (mine >= deps.uploadsPerUser || receivingTotal >= deps.uploadsTotal) tooManyAttempts(UPLOAD_RETRY_SECONDS);
    receiving.set(userId, mine + 1);
    receivingTotal += 1;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      receivingTotal -= 1;
      const left = (receiving.get(userId) ?? 1) - 1;
      if (left > 0) receiving.set(userId, left);
      else receiving.delete(userId);
    };
    try {
      // Counted whatever becomes of the file: a refused or malformed one costs what a good one does.
      const attempt = await throttle.take([{ key: `backtest-upload:${userId}`, limits: UPLOAD_LIMITS }]);
      await attempt.settle();
    } catch (error) {
      release();
      throw error;
    }
    return release;
  };

  /** Checks a candle file in a worker thread (shared fairly between users) and keeps it, normalized and compressed. */
  const upload = async (userId: string, { name, csv }: { name: string; csv: string }): Promise<CandleUpload> => {
    let parsed: ParsedCandles;
    try {
      parsed = await pool.parse(csv, userId);
    } catch (error) {
      if (error instanceof WorkerError && error.failure.kind === 'format') {
        return fail(ErrorCode.PARAM_FORMAT, `line ${error.failure.line}: ${error.failure.reason}`, { field: 'csv', line: error.failure.line, reason: error.failure.reason });
      }
      throw error;
    }
    const data = await zip(Buffer.from(parsed.csv, 'utf8'));
    const row = await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('backtest_candle_sets')
        .values({ user_id: userId, name: name.trim(), candles: parsed.candles, interval_ms: parsed.interval, first_time: parsed.from, last_time: parsed.to - parsed.interval, data })
        .returning(UPLOAD_COLUMNS)
        .executeTakeFirstOrThrow();
      await trx
        .deleteFrom('backtest_candle_sets')
        .where('user_id', '=', userId)
        .where('id', 'not in', trx.selectFrom('backtest_candle_sets').select('id').where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id').limit(KEEP_UPLOADS))
        .execute();
      return inserted;
    });
    return toUpload(row);
  };

  const uploads = async (userId: string) => {
    const rows = await db.selectFrom('backtest_candle_sets').select(UPLOAD_COLUMNS).where('user_id', '=', userId).orderBy('created_at', 'desc').execute();
    return { list: rows.map(toUpload), total: rows.length };
  };

  return {
    start,
    presets,
    get,
    cancel,
    admitUpload,
    upload,
    uploads,
    async close() {
      for (const state of live.values()) state.cancel();
      await pool.close();
    },
  };
};

export type BacktestService = ReturnType<typeof createBacktestService>;

