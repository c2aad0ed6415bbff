/**
 * Backtest worker threads, so a year of candles or fifty variants never
 * stall the API or the engine: a small pool (one thread on two cores), a
 * queue in front of it, progress from the thread, and canceling (a running
 * job's thread is ended and replaced). Candles are sent to a thread only when
 * it does not hold them already.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { BacktestReport } from '../../../src/api/backtest';
import type { ReportInput } from './report';

export type RunInput = Omit<ReportInput, 'candles' | 'interval' | 'onProgress'>;

export type WorkerFailure =
  /** A malformed candle file: the line and what is wrong with it. */
  | { kind: 'format'; line: number; reason: string }
  /** No candles (or too many) between from and to. */
  | { kind: 'range'; candles: number }
  /** The thread no longer holds the candles it was asked about (the pool sends them again). */
  | { kind: 'missing' }
  | { kind: 'canceled' }
  | { kind: 'internal'; message: string };

export type ToWorker =
  | { type: 'parse'; id: number; text: string }
  | { type: 'run'; id: number; candles: { key: string; text?: string; stored: boolean }; range: { from?: number; to?: number }; input: RunInput };

export type FromWorker =
  | { type: 'progress'; id: number; done: number; total: number }
  | { type: 'done'; id: number; result: unknown; keys: string[] }
  | { type: 'failed'; id: number; error: WorkerFailure; keys: string[] };

export class WorkerError extends Error {
  constructor(readonly failure: WorkerFailure) {
    super(`backtest worker: ${failure.kind}${'message' in failure ? `: ${failure.message}` : ''}`);
    this.name = 'WorkerError';
  }
}

/** An uploaded file, checked and normalized (`time,open,high,low,close,volume` lines, epoch ms). */
export interface ParsedCandles {
  csv: string;
  candles: number;
  interval: number;
  from: number;
  to: number;
}

export interface RunRequest {
  /** The user the run is for (jobs without one share the owner ''). */
  owner?: string;
  /** Names the candles, so a thread that holds them is not sent them again. */
  key: string;
  /** The candle file, read only when the chosen thread does not hold `key`. */
  load: () => Promise<string>;
  /** The file is in the server's own stored form (checked when it came in), not one to check. */
  stored: boolean;
  range: { from?: number; to?: number };
  input: RunInput;
  onProgress?: (done: number, total: number) => void;
}

interface Job {
  id: number;
  /** Whose job it is (a user id): the queue is shared round robin between owners. */
  owner: string;
  message: ToWorker;
  key?: string;
  load?: () => Promise<string>;
  onProgress?: (done: number, total: number) => void;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  /** Candle keys the thread holds (it says so after every job). */
  keys: Set<string>;
}

const BOOT = new URL('./workerBoot.mjs', import.meta.url);

/** One thread per spare core, at least one and at most two: the API and the engine keep a core. */
export const defaultPoolSize = () => Math.max(1, Math.min(2, availableParallelism() - 1));

/**
 * The next queued job, shared fairly between owners (issue 26): an owner with
 * fewer jobs running goes first, then the owner served longest ago, then the
 * oldest job. So one user's big runs (or many uploads) never hold back another
 * user's next job by more than the jobs already running.
 */
export const nextJob = <J extends { owner: string; id: number }>(queue: readonly J[], running: ReadonlyMap<string, number>, lastServed: ReadonlyMap<string, number>): J | undefined => {
  let best: J | undefined;
  const rank = (job: J) => [running.get(job.owner) ?? 0, lastServed.get(job.owner) ?? -1, job.id] as const;
  for (const job of queue) {
    if (!best) {
      best = job;
      continue;
    }
    const [a, b] = [rank(job), rank(best)];
    if (a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] < b[2])))) best = job;
  }
  return best;
};

/**
 * `size` threads; when all of them run other owners' jobs, one more (`fairThreads`) may start for an owner
 * with nothing running, so a 1-day run does not wait behind another user's year-long one (the extra
 * thread ends when its job does and the pool is back above its size).
 */
export const createWorkerPool = ({ size = defaultPoolSize(), log, fairThreads = 1 }: { size?: number; log: FastifyBaseLogger; fairThreads?: number }) => {
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let sequence = 0;
  let served = 0;
  const lastServed = new Map<string, number>();
  let closed = false;

  const runningByOwner = () => {
    const counts = new Map<string, number>();
    for (const slot of slots) if (slot.job) counts.set(slot.job.owner, (counts.get(slot.job.owner) ?? 0) + 1);
    return counts;
  };

  const finish = (slot: Slot) => {
    slot.job = null;
    // A thread started beyond the pool's size for fairness ends with its job.
    if (slots.length > size && !queue.some((job) => !runningByOwner().has(job.owner))) retire(slot);
    dispatch();
  };

  const retire = (slot: Slot) => {
    const index = slots.indexOf(slot);
    if (index >= 0) slots.splice(index, 1);
    void slot.worker.terminate();
  };

  const onMessage = (slot: Slot, message: FromWorker) => {
    const job = slot.job;
    if (!job || job.id !== message.id) return;
    if (message.type === 'progress') {
      job.onProgress?.(message.done, message.total);
      return;
    }
    slot.keys = new Set(message.keys);
    if (message.type === 'done') {
      job.resolve(message.result);
      finish(slot);
    } else if (message.error.kind === 'missing' && job.load) {
      void send(slot, job);
    } else {
      job.reject(new WorkerError(message.error));
      finish(slot);
    }
  };

  const spawn = (): Slot => {
    // execArgv: [] so the thread does not inherit the parent's loader flags; the boot file registers tsx itself.
    const worker = new Worker(BOOT, { execArgv: [] });
    worker.unref();
    const slot: Slot = { worker, job: null, keys: new Set() };
    worker.on('message', (message: FromWorker) => onMessage(slot, message));
    const crashed = (error: Error) => {
      if (!slots.includes(slot)) return;
      log.error({ err: error }, 'backtest worker stopped');
      slots.splice(slots.indexOf(slot), 1);
      slot.job?.reject(new WorkerError({ kind: 'internal', message: error.message }));
      slot.job = null;
      dispatch();
    };
    worker.on('error', crashed);
    worker.on('exit', (code) => crashed(new Error(`exited with code ${code}`)));
    slots.push(slot);
    return slot;
  };

  /** Sends a job to its thread, with the candles when the thread does not hold them. */
  const send = async (slot: Slot, job: Job) => {
    let message = job.message;
    if (message.type === 'run' && job.key && job.load && !slot.keys.has(job.key)) {
      try {
        message = { ...message, candles: { ...message.candles, text: await job.load() } };
      } catch (error) {
        job.reject(error as Error);
        finish(slot);
        return;
      }
      // Canceled while the candles were read.
      if (slot.job !== job) return;
    }
    slot.worker.postMessage(message);
  };

  const dispatch = () => {
    while (!closed && queue.length > 0) {
      const running = runningByOwner();
      const job = nextJob(queue, running, lastServed)!;
      const idle = slots.filter((slot) => slot.job === null);
      const fair = !running.has(job.owner) && slots.length < size + fairThreads;
      const slot = idle.find((s) => job.key !== undefined && s.keys.has(job.key)) ?? idle[0] ?? (slots.length < size || fair ? spawn() : undefined);
      if (!slot) return;
      queue.splice(queue.indexOf(job), 1);
      served += 1;
      lastServed.set(job.owner, served);
      if (lastServed.size > 10_000) lastServed.clear();
      slot.job = job;
      void send(slot, job);
    }
  };

  const submit = <T>(make: (id: number) => Omit<Job, 'resolve' | 'reject'>) => {
    let job!: Job;
    const promise = new Promise<T>((resolve, reject) => {
      sequence += 1;
      job = { ...make(sequence), resolve: resolve as (value: unknown) => void, reject };
    });
    if (closed) job.reject(new WorkerError({ kind: 'canceled' }));
    else {
      queue.push(job);
      dispatch();
    }
    const cancel = () => {
      const queued = queue.indexOf(job);
      if (queued >= 0) {
        queue.splice(queued, 1);
        job.reject(new WorkerError({ kind: 'canceled' }));
        return;
      }
      const slot = slots.find((s) => s.job === job);
      if (!slot) return;
      slot.job = null;
      retire(slot);
      job.reject(new WorkerError({ kind: 'canceled' }));
      dispatch();
    };
    return { promise, cancel };
  };

  return {
    /** Runs a backtest; `cancel` ends it wherever it is (queued or computing). */
    run: (request: RunRequest) =>
      submit<BacktestReport>((id) => ({
        id,
        owner: request.owner ?? '',
        key: request.key,
        load: request.load,
        ...(request.onProgress ? { onProgress: request.onProgress } : {}),
        message: { type: 'run', id, candles: { key: request.key, stored: request.stored }, range: request.range, input: request.input },
      })),
    /** Checks and normalizes an uploaded candle file (a malformed one fails with its line). */
    parse: (text: string, owner = '') => submit<ParsedCandles>((id) => ({ id, owner, message: { type: 'parse', id, text } })).promise,
    /** Jobs waiting for a thread. */
    queued: () => queue.length,
    /** Threads alive (at most the size, plus the fair-share ones while they run). */
    threads: () => slots.length,
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new WorkerError({ kind: 'canceled' }));
      const running = [...slots];
      slots.length = 0;
      for (const slot of running) slot.job?.reject(new WorkerError({ kind: 'canceled' }));
      await Promise.all(running.map((slot) => slot.worker.terminate()));
    },
  };
};

export type WorkerPool = ReturnType<typeof createWorkerPool>;
