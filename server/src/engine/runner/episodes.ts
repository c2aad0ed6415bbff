import type { ExchangeDownCause } from '../../../../src/api/trade';
import { emptyWrites } from '../store/journal';
import { ExchangeClientError } from '../venues/exchangeClient';
import { processPauses } from '../venues/exchangePauses';
import type { EngineContext, LiveTask } from './context';
import type { Dependency } from './outages';

/**
 * An exchange's outage as its tasks' users see it: one `exchange_down` event
 * on each running task of that exchange when it starts (why, and until when
 * the exchange asked us to wait), one `exchange_up` when it ends. Nothing is
 * paused or marked (outages.ts); no notification is sent either, since a ban
 * of the server's address would tell every user of the exchange at once
 * about something none of them can change.
 */

/** Why an exchange stopped answering, from the failure that showed it. */
export const causeOf = (error: unknown): ExchangeDownCause => {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ExchangeClientError && error.failure.kind === 'transient' && error.failure.reason === 'exchange_busy') {
    return / 418 |banned/i.test(message) ? 'banned' : 'rate_limited';
  }
  if (/-1016|"50001"|maintenance| 503 /i.test(message)) return 'maintenance';
  return 'unreachable';
};

const exchangeTasks = (engine: EngineContext, exchangeId: string): LiveTask[] =>
  [...engine.tasks.values()].filter((task) => task.real && !task.finished && task.params.running && engine.clients.exchangeOf(task.accountId) === exchangeId);

const record = async (engine: EngineContext, tasks: LiveTask[], kind: 'exchange_down' | 'exchange_up', data: Record<string, unknown>) => {
  if (tasks.length === 0) return;
  const writes = emptyWrites();
  for (const task of tasks) writes.events.push({ taskId: task.id, kind, data });
  try {
    await engine.journal(writes, engine.fenceFor(tasks));
  } catch (error) {
    // The outage is in the log and the status; its line in the task log is not worth failing a turn.
    engine.log.warn({ err: error, kind }, 'an exchange outage could not be written to its tasks');
  }
};

/** A shared dependency is down: an exchange's outage starts an episode on its tasks (once). */
export const reportDown = async (engine: EngineContext, dependency: Dependency, error: unknown): Promise<void> => {
  if (!engine.outages.down(dependency, error) || dependency === 'database') return;
  const exchangeId = dependency.slice('exchange:'.length);
  const until = processPauses.until(exchangeId, 'order');
  await record(engine, exchangeTasks(engine, exchangeId), 'exchange_down', {
    exchange: exchangeId,
    cause: causeOf(error),
    ...(until === undefined ? {} : { until: new Date(until).toISOString() }),
  });
};

/** An exchange answered again: its episode ends on its tasks. */
export const reportUp = async (engine: EngineContext, exchangeId: string): Promise<void> => {
  const downMs = engine.outages.up(`exchange:${exchangeId}`);
  if (downMs === null) return;
  await record(engine, exchangeTasks(engine, exchangeId), 'exchange_up', { exchange: exchangeId, seconds: Math.round(downMs / 1000) });
};
