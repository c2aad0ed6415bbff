import Big from 'big.js';
import { emptyWrites, type Writes } from '../store/journal';
import { paperClient } from '../venues/paperClient';
import { contextOf, messageOf, stateWrite, type CommandKind, type CommandResult, type EngineContext, type LiveTask, type OrderRequest, type TaskAlert } from './context';
import type { Intents } from './intents';
import type { Lanes } from './lanes';
import type { Turn } from './turn';

/**
 * The user's actions on a task the engine drives here: reload (after an
 * edit), replenish now, close the position, and a webhook's alert; in cluster
 * mode also those the API left in `engine_commands` for this process's shards.
 */
export const createCommands = (engine: EngineContext, turn: Turn, lanes: Lanes, intents: Intents) => {
  const { executePaper } = turn;
  const { placeReal } = lanes;
  const { reloadTask } = intents;

  /** The exchange's rules of a task's market and its price now (for closing a position). */
  const marketRules = async (task: LiveTask) => {
    const client = task.real ? (await engine.clients.clientFor(task.accountId))! : paperClient(engine.venues.venueFor(task), task.accountId);
    const rules = (await client.loadMarkets()).find((m) => m.symbol === task.symbol);
    const ticker = await client.fetchTicker(task.symbol);
    return { rules, price: ticker.bid ?? ticker.last };
  };

  /**
   * Places one order the user asked for (replenish now, close) through the
   * same paths as the engine's own orders; `extra` adds to the same
   * transaction (the command's answer).
   */
  const placeOrder = async (task: LiveTask, action: OrderRequest, extra?: (writes: Writes) => void) => {
    if (task.real) {
      await placeReal(task, action, (await engine.clients.clientFor(task.accountId))!, extra);
      return;
    }
    const venue = engine.venues.venueFor(task);
    await engine.venues.ensureAccount(task.accountId, venue);
    const writes = emptyWrites();
    const before = { state: task.state, attention: task.attention, retryAfter: task.retryAfter, params: task.params };
    const snapshot = venue.paper.fetchBalance(task.accountId).total;
    try {
      executePaper([{ task, action, ctx: contextOf(engine, action, task.state), venue }], writes, new Set());
      extra?.(writes);
      writes.states.push(stateWrite(task));
      await engine.journal(writes, engine.fenceFor([task]));
      task.dirty = false;
    } catch (error) {
      venue.paper.restoreBalances(task.accountId, snapshot);
      Object.assign(task, before);
      throw error;
    } finally {
      engine.place(task);
    }
  };

  /**
   * The user's actions on a task the engine drives here: reload (after an
   * edit), replenish now, close the position. `done` adds the command's
   * answer to the same transaction (cluster mode). An alert is only kept on
   * the live task: the task's next decision acts on it (a newer alert
   * replaces one not acted on yet).
   */
  const runCommand = async (taskId: string, kind: CommandKind, done?: (result: CommandResult) => (writes: Writes) => void, alert?: TaskAlert): Promise<CommandResult> => {
    if (kind === 'reload') {
      await reloadTask(taskId);
      return { kind: 'ok' };
    }
    const task = engine.tasks.get(taskId);
    if (!task) return { kind: 'not_loaded' };
    if (kind === 'alert') {
      if (!alert) throw new Error('an alert command carries its alert');
      task.alert = { ...alert };
      return { kind: 'ok' };
    }
    await lanes.laneOf(task.accountId);
    const state = task.state;
    if (kind === 'replenish') {
      if (state.phase !== 'open' || new Big(state.quantity).lte(0) || state.pendingOrder) return { kind: 'no_position' };
      const level = state.levelsFilled + 1;
      const next = task.strategy.levels[level - 1];
      if (!next) return { kind: 'all_filled' };
      task.state = { ...state, pendingOrder: true, trailingBuy: null };
      const result: CommandResult = { kind: 'ok' };
      try {
        await placeOrder(task, { kind: 'buy', reason: 'replenish', level, quoteAmount: new Big(task.params.firstOrderAmount).times(next.multiple).toFixed() }, done?.(result));
      } catch (error) {
        task.state = state;
        throw error;
      }
      return result;
    }
    if (new Big(state.quantity).lte(0) || state.pendingOrder) return { kind: 'no_position' };
    // What the exchange would take: the position rounded down to its step, at least its minimums.
    const { rules, price } = await marketRules(task);
    if (!rules || price === null) return { kind: 'no_position' };
    const step = rules.precision.amount;
    const sellable = new Big(state.quantity).div(step).round(0, Big.roundDown).times(step);
    if (sellable.lte(0) || sellable.lt(rules.limits.amount.min) || sellable.times(price).lt(rules.limits.cost.min)) {
      return { kind: 'below_min', quantity: state.quantity, sellable: sellable.toFixed(), value: sellable.times(price).round(8).toFixed(), minAmount: rules.limits.amount.min, minCost: rules.limits.cost.min };
    }
    const wasRunning = task.params.running;
    task.params = { ...task.params, running: false };
    task.state = { ...state, pendingOrder: true };
    let answer: CommandResult = { kind: 'ok' };
    const restore = () => {
      task.state = state;
      task.params = { ...task.params, running: wasRunning };
    };
    await placeOrder(task, { kind: 'sell', reason: 'close', quantity: state.quantity }, (writes) => {
      const sold = task.state.cyclesDone !== state.cyclesDone;
      if (sold) {
        answer = { kind: 'ok', sold: new Big(state.quantity).minus(task.state.quantity).toFixed(), remainder: task.state.quantity };
        task.attention = null;
        writes.events.push({ taskId: task.id, kind: 'stopped', data: { by: 'close', sold: answer.sold, remainder: answer.remainder } });
      } else {
        // Refused by the exchange: the task keeps running as it did, and shows why it needs attention.
        task.params = { ...task.params, running: wasRunning };
        answer = { kind: 'refused', attention: task.attention };
      }
      done?.(answer)(writes);
    }).catch((error: unknown) => {
      restore();
      throw error;
    });
    engine.place(task);
    return answer;
  };

  /** Cluster mode: the commands the API left for this process's shards, carried out in the tick. */
  const runCommands = async () => {
    if (!engine.run.leases) return;
    for (const command of await engine.store.pendingCommands(engine.run.leases.shards())) {
      const finish = (result: CommandResult) => (writes: Writes) => writes.commands.push({ id: command.id, result });
      try {
        let written = false;
        const result = await runCommand(
          command.taskId,
          command.kind as CommandKind,
          (r) => {
            written = true;
            return finish(r);
          },
          (command.payload ?? undefined) as TaskAlert | undefined,
        );
        if (!written) await engine.journal({ ...emptyWrites(), commands: [{ id: command.id, result }] }, engine.fenceFor([]));
      } catch (error) {
        engine.log.error({ err: error, command }, 'command failed');
        await engine.journal({ ...emptyWrites(), commands: [{ id: command.id, result: { kind: 'error', message: messageOf(error) } }] }).catch(() => undefined);
      }
    }
  };

  return { runCommand, runCommands };
};
