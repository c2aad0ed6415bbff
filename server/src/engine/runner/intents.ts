import Big from 'big.js';
import { PAPER_EXCHANGE } from '../../../../src/api/exchange';
import { isTaskStop } from '../../../../src/api/trade';
import { applyOrderFailed } from '../core/decide';
import type { StoredTask } from '../store/journal';
import { stateWrite, type EngineContext, type LiveTask, type OrderRequest } from './context';

/**
 * The tasks this process drives, and the orders they left unfinished: on
 * loading, a paper intent is marked not sent (it was never sent), a real one
 * waits for its task's next turn, which asks the exchange (lanes.ts).
 */
export const createIntents = (engine: EngineContext) => {
  const toLive = (stored: StoredTask): LiveTask => ({
    ...stored,
    real: stored.exchange !== PAPER_EXCHANGE,
    dirty: false,
    retryAfter: stored.attention && !stored.attention.retrying ? Number.POSITIVE_INFINITY : 0,
    backoffUntilTick: 0,
    failures: 0,
    exchangeCancels: 0,
    fuelWaitUntil: null,
  });

  /**
   * On loading tasks: paper intents left by a crash were never sent (a paper
   * order is sent and filled inside the transaction that stores it, which
   * rolled back), so any found is marked not sent and the task decides again.
   * Real accounts: the order may have reached the exchange, so the intent
   * waits for its task's next turn, which asks the exchange.
   */
  const adopt = async (loaded: StoredTask[]) => {
    const live = loaded.map(toLive);
    const intents = await engine.store.intents(live.map((task) => task.id));
    await engine.store.markNotSent(intents.filter((row) => row.exchange === PAPER_EXCHANGE).map((row) => row.client_order_id));
    for (const task of live) {
      engine.tasks.set(task.id, task);
      if (!task.real && !task.finished) await engine.venues.ensureAccount(task.accountId, engine.venues.venueFor(task));
    }
    for (const row of intents) {
      const task = engine.tasks.get(row.task_id);
      if (!task) continue;
      if (row.exchange === PAPER_EXCHANGE) {
        task.state = applyOrderFailed(task.state);
        continue;
      }
      task.state = { ...task.state, pendingOrder: true };
      engine.pendingIntents.set(task.id, {
        clientOrderId: row.client_order_id,
        side: row.side,
        reason: row.reason as OrderRequest['reason'],
        level: row.level,
        cycle: row.cycle,
        before: task.state,
        // A take profit for less than the position was a target's partial sale.
        ...(row.side === 'sell' && row.reason === 'take_profit' && new Big(row.requested).lt(task.state.quantity) ? { partial: true } : {}),
        // The stop or the target it sells for, as stored with the intent.
        ...(row.stop && isTaskStop(row.stop) ? { stop: row.stop } : {}),
        ...(row.target !== null ? { target: row.target } : {}),
        createdAt: new Date(row.created_at).getTime(),
      });
    }
    for (const task of live) engine.place(task);
  };

  /** (Re)reads one task after the API changed it. */
  const reloadTask = async (taskId: string) => {
    const existing = engine.tasks.get(taskId);
    if (existing?.dirty) await engine.store.flushStates([stateWrite(existing)]);
    engine.tasks.delete(taskId);
    engine.index.remove(taskId);
    engine.pendingIntents.delete(taskId);
    const [stored] = await engine.store.loadTasks({ ids: [taskId] });
    if (stored && (!engine.run.leases || engine.run.leases.holdsShard(stored.shard))) {
      if (stored.exchange !== PAPER_EXCHANGE) engine.clients.forget(stored.accountId);
      await adopt([stored]);
    }
  };

  /** Stops driving the tasks of shards given back or lost (their state is written by whoever drives them next). */
  const drop = (shards: readonly number[]) => {
    const gone = new Set(shards);
    for (const task of [...engine.tasks.values()]) {
      if (!gone.has(task.shard)) continue;
      engine.tasks.delete(task.id);
      engine.index.remove(task.id);
      engine.pendingIntents.delete(task.id);
      engine.venues.forgetAccount(task.accountId);
    }
  };

  return { adopt, reloadTask, drop };
};

export type Intents = ReturnType<typeof createIntents>;
