/**
 * One request budget per exchange (and per testnet flavour, another server
 * with its own limits), shared by every account's client, every task and
 * the price reads of the process, and split between the engine processes.
 *
 * Binance counts request weight per IP address and minute; every request
 * waits here for room in the minute before it is signed and sent, so nothing
 * reaches the exchange beyond the budget, and nothing at all while the
 * exchange is paused by a 429 or a 418 (exchangePauses.ts): a call queued
 * when the pause begins waits it out, or fails as transient when the pause
 * is longer than it may wait. The queue is ordered by priority: orders
 * (placing and cancelling), then the engine's reads, then the shared price
 * reads (tickers and candles for the dashboard and paper accounts); each
 * lower priority may use a smaller part of the minute, so orders always find
 * room.
 *
 * Across processes: the engine processes on one server share its address,
 * so each takes limit / N of the minute, N being the live engine processes
 * (the heartbeats the leases keep; a process that just died still counts
 * until its heartbeat expires, which only makes the shares smaller). The
 * exchange's own count (X-MBX-USED-WEIGHT-1M) is the truth across
 * processes: each answer's count, plus what this process sent since, must
 * stay under the limit too. A process that has not yet read the exchange's
 * count (just started, maybe after a kill -9 of one that spent most of the
 * minute) sends one request at a time until it has.
 */
import { ExchangeClientError } from './exchangeClient';
import type { ExchangePauses } from './exchangePauses';

/** 0: orders (placing, cancelling); 1: the engine's reads; 2: shared price reads. */
export type Priority = 0 | 1 | 2;
export const ORDER: Priority = 0;
export const ENGINE_READ: Priority = 1;
export const PRICE_READ: Priority = 2;

export interface BudgetRules {
  /** Weight allowed per window, per address (all processes together). */
  limit: number;
  windowMs: number;
  /** Part of the limit the processes' shares add up to: the rest is a margin for clocks and answers in flight (the exchange's own count may use all of it). */
  safety: number;
  /** Part of a process's share each priority may fill (orders: 1). */
  shares: Record<Priority, number>;
  /** The answer header carrying the exchange's count of the window's weight, lower case. */
  usedHeader?: string;
  /**
   * Requests in flight at once. Those sent before a 429 comes back reach the
   * exchange after it; a burst of them on a busy process arrives late enough
   * to count as asking again after the 429, which earns a ban.
   */
  maxInFlight: number;
}

export interface BudgetStats {
  /** The most weight this process sent in one window. */
  peak: number;
  /** Weight sent in the current window. */
  spent: number;
  /** The exchange's last count in the current window, or undefined. */
  seen: number | undefined;
  queued: number;
}

export interface RateBudget {
  /**
   * Waits until `weight` may be sent at `priority`; rejects (transient,
   * exchange_busy) when the exchange is paused for longer than `maxWaitMs`.
   * The caller must call the returned `done` with the answer's headers once
   * the request ended.
   */
  take(weight: number, priority: Priority, maxWaitMs: number): Promise<(headers?: unknown) => void>;
  /** An answer's headers: the exchange's count of the window's weight, when it gives one. */
  observe(headers: unknown): void;
  stats(): BudgetStats;
}

interface Waiter {
  weight: number;
  priority: Priority;
  seq: number;
  maxWaitMs: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** A response header by name, whatever its case. */
export const headerOf = (headers: unknown, name: string): string | undefined => {
  if (!headers || typeof headers !== 'object') return undefined;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : String((headers as Record<string, unknown>)[key]);
};

export interface RateBudgetsOptions {
  pauses: ExchangePauses;
  now?: () => number;
}

export const createRateBudgets = ({ pauses, now = Date.now }: RateBudgetsOptions) => {
  let processes = 1;
  const budgets = new Map<string, RateBudget & { wake(): void }>();

  const create = (key: string, rules: BudgetRules): RateBudget & { wake(): void } => {
    let window = -1;
    let spent = 0;
    let peak = 0;
    /** The exchange's count in this window, and what this process had sent when it was read. */
    let seen: { used: number; spentThen: number } | undefined;
    /** Whether the exchange told its count at all since this process started. */
    let everSeen = rules.usedHeader === undefined;
    let inFlight = 0;
    let seq = 0;
    const queue: Waiter[] = [];
    let timer: NodeJS.Timeout | undefined;
    let timerAt = 0;

    const roll = (at: number) => {
      const current = Math.floor(at / rules.windowMs);
      if (current === window) return;
      window = current;
      spent = 0;
      seen = undefined;
    };

    const cap = (priority: Priority) => Math.floor(((rules.limit * rules.safety) / Math.max(1, processes)) * rules.shares[priority]);
    /** The whole address's weight as far as we know (the exchange's count plus what we sent since) may reach this. */
    const globalCap = (priority: Priority) => Math.floor(rules.limit * rules.shares[priority]);

    /** Whether the request may go now, else what it waits for: an answer telling the exchange's count, or the next window. */
    const fits = (waiter: Waiter): true | 'answer' | 'window' => {
      if (spent + waiter.weight > Math.max(cap(waiter.priority), spent === 0 ? waiter.weight : 0)) return 'window';
      if (seen && seen.used + (spent - seen.spentThen) + waiter.weight > globalCap(waiter.priority)) return 'window';
      if (!everSeen ? inFlight > 0 : inFlight >= rules.maxInFlight) return 'answer';
      return true;
    };

    const schedule = (at: number) => {
      if (timer && timerAt <= at) return;
      if (timer) clearTimeout(timer);
      timerAt = at;
      timer = setTimeout(() => {
        timer = undefined;
        wake();
      }, Math.max(0, at - now()));
      timer.unref?.();
    };

    const busy = (wait: number) =>
      new ExchangeClientError({ kind: 'transient', reason: 'exchange_busy', retryable: true }, `${key} is paused for ${Math.ceil(wait / 1000)} s (rate limit)`);

    const wake = () => {
      const at = now();
      roll(at);
      queue.sort((a, b) => a.priority - b.priority || a.seq - b.seq);
      let blocked: Priority | undefined;
      for (let i = 0; i < queue.length; ) {
        const waiter = queue[i]!;
        const until = pauses.until(key, waiter.priority === ORDER ? 'order' : 'read');
        if (until !== undefined && until > at) {
          queue.splice(i, 1);
          if (until - at > waiter.maxWaitMs) waiter.reject(busy(until - at));
          else {
            queue.splice(i, 0, waiter);
            schedule(until);
            i += 1;
          }
          continue;
        }
        // Orders go before reads: while an order waits for room, no read takes it.
        if (blocked !== undefined && waiter.priority > blocked) break;
        const room = fits(waiter);
        if (room !== true) {
          const next = (window + 1) * rules.windowMs;
          // No room before the next window, and it may not wait that long: refused, not sent.
          if (room === 'window' && next - at > waiter.maxWaitMs) {
            queue.splice(i, 1);
            waiter.reject(
              new ExchangeClientError({ kind: 'transient', reason: 'exchange_busy', retryable: true }, `${key}: this window's request budget is spent; next in ${Math.ceil((next - at) / 1000)} s`),
            );
            continue;
          }
          blocked ??= waiter.priority;
          if (room === 'window') schedule(next);
          i += 1;
          continue;
        }
        queue.splice(i, 1);
        spent += waiter.weight;
        peak = Math.max(peak, spent);
        inFlight += 1;
        waiter.resolve();
      }
    };

    const observe = (headers: unknown) => {
      const used = rules.usedHeader ? Number(headerOf(headers, rules.usedHeader)) : NaN;
      if (Number.isFinite(used)) {
        everSeen = true;
        roll(now());
        if (!seen || used >= seen.used) seen = { used, spentThen: spent };
      }
    };
    /**
     * An answer that ends frees its place in flight, but another answer that
     * arrived in the same turn of the event loop may be a 429 or a 418 not yet
     * read: the queue moves on after the turn's answers were read (setImmediate
     * runs after the poll phase), so a request is not let go into a pause the
     * process already received. On a busy process those answers pile up, and a
     * request sent then reaches the exchange long after its 429: a ban.
     */
    let waking = false;
    const wakeAfterAnswers = () => {
      if (waking) return;
      waking = true;
      setImmediate(() => {
        waking = false;
        wake();
      });
    };
    const done = (headers?: unknown) => {
      inFlight -= 1;
      if (headers !== undefined) observe(headers);
      if (queue.length > 0) wakeAfterAnswers();
    };

    return {
      take(weight, priority, maxWaitMs) {
        return new Promise<(headers?: unknown) => void>((resolve, reject) => {
          let finished = false;
          const finish = (headers?: unknown) => {
            if (finished) return;
            finished = true;
            done(headers);
          };
          queue.push({ weight, priority, seq: (seq += 1), maxWaitMs, resolve: () => resolve(finish), reject });
          wake();
        });
      },
      observe,
      stats: () => ({ peak, spent, seen: seen?.used, queued: queue.length }),
      wake,
    };
  };

  return {
    /** The budget of an exchange flavour (created with its rules on first use). */
    budgetFor(key: string, rules: BudgetRules): RateBudget {
      let budget = budgets.get(key);
      if (!budget) {
        budget = create(key, rules);
        budgets.set(key, budget);
      }
      return budget;
    },
    /** The live engine processes sharing this server's address (from the leases' heartbeats). */
    setProcesses(count: number) {
      processes = Math.max(1, Math.floor(count));
      for (const budget of budgets.values()) budget.wake();
    },
    processes: () => processes,
    stats: () => Object.fromEntries([...budgets].map(([key, budget]) => [key, budget.stats()])),
  };
};

export type RateBudgets = ReturnType<typeof createRateBudgets>;
