import type { FastifyBaseLogger } from 'fastify';
import type { EngineOutage } from '../../../../src/api/trade';
import { ExchangeClientError } from '../venues/exchangeClient';

/**
 * Outages of what every task shares: the database, or an exchange for every
 * task on it (design section 5: a shared outage pauses no task). Such a
 * failure is nobody's own: no task counts it, backs off for it or is paused
 * by it. It is reported once, in the log and in the engine status, while it
 * lasts; the first write (or the first answer of the exchange) that passes
 * ends it, and the tasks go on where they were.
 */

/** 'database', or 'exchange:<id>' (a real exchange's ccxt id, or a paper venue's key). */
export type Dependency = 'database' | `exchange:${string}`;

/**
 * SQLSTATE classes and codes that say the database cannot take writes now,
 * whoever writes: connection failures (08), insufficient resources (53: disk
 * full, out of memory, too many connections), an operator's or a crash's
 * shutdown (57P01-57P03) and a read-only server (25006, a standby after a
 * failover). A constraint or a trigger refusing one task's row is that task's.
 */
const UNAVAILABLE_CLASSES = ['08', '53'];
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '25006']);
/** What the drivers say when the server cannot be reached at all. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const NETWORK_MESSAGES = /connection terminated|connection timeout|timeout exceeded when trying to connect|client has encountered a connection error|pglite is closed/i;

/** Whether an error says the database is unavailable, rather than refusing one write. */
export const isDatabaseUnavailable = (error: unknown): boolean => {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (UNAVAILABLE_CODES.has(code) || NETWORK_CODES.has(code)) return true;
      if (code.length === 5 && UNAVAILABLE_CLASSES.includes(code.slice(0, 2))) return true;
    }
    if (current instanceof Error && NETWORK_MESSAGES.test(current.message)) return true;
  }
  return false;
};

/** Whether an exchange's failure is the whole exchange's (down, busy, banning or throttling this server), not one account's or order's. */
export const isExchangeWide = (error: unknown): boolean => error instanceof ExchangeClientError && error.failure.kind === 'transient';

const MESSAGE_LENGTH = 300;

export const createOutages = (log: FastifyBaseLogger) => {
  const down = new Map<Dependency, { since: number; message: string; failedTicks: number }>();

  /** The shared dependency an error says is down, if any; `exchange` is the ccxt id (or venue key) the failing call went to. */
  const sharedCause = (error: unknown, exchange?: string | null): Dependency | null => {
    if (isDatabaseUnavailable(error)) return 'database';
    if (exchange && isExchangeWide(error)) return `exchange:${exchange}`;
    return null;
  };

  return {
    sharedCause,
    /** Records that a dependency is down (logged once, when the outage starts); true when this starts the outage. */
    down(dependency: Dependency, error: unknown): boolean {
      if (down.has(dependency)) return false;
      const message = (error instanceof Error ? error.message : String(error)).slice(0, MESSAGE_LENGTH);
      down.set(dependency, { since: Date.now(), message, failedTicks: 0 });
      log.error({ err: error, dependency }, `${dependency} is down: every task waits for it, none is paused`);
      return true;
    },
    /** Records that a dependency answers again (logged once, with how long it was down); the milliseconds it was down, or null when it was not. */
    up(dependency: Dependency): number | null {
      const outage = down.get(dependency);
      if (!outage) return null;
      down.delete(dependency);
      const downMs = Date.now() - outage.since;
      log.warn({ dependency, downMs, failedTicks: outage.failedTicks }, `${dependency} is back: the tasks go on`);
      return downMs;
    },
    isDown: (dependency: Dependency) => down.has(dependency),
    /**
     * Ends the tick: answers whether its writes failed for the database, and
     * counts it on that outage.
     */
    tickFailed(): boolean {
      const database = down.get('database');
      if (database) database.failedTicks += 1;
      return !!database;
    },
    /** The outages now, for the engine status. */
    list: (): EngineOutage[] =>
      [...down].map(([dependency, outage]) => ({
        dependency: dependency === 'database' ? 'database' : 'exchange',
        exchange: dependency === 'database' ? null : dependency.slice('exchange:'.length),
        since: new Date(outage.since).toISOString(),
        failedTicks: outage.failedTicks,
        message: outage.message,
      })),
  };
};

export type Outages = ReturnType<typeof createOutages>;
