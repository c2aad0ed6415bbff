/**
 * The notifications' events: what a user is told about, written in the
 * transaction of the change it reports (a rolled-back change leaves no
 * event). The engine hands its tick's journal rows here (engineDomains.ts);
 * they become at most one multi-row insert per tick commit.
 */
import Big from 'big.js';
import { sql } from 'kysely';
import { isAlwaysByEmail, type NotificationKind } from '../../../src/api/notify';
import type { Db } from '../db/database';
import { exchangeName } from '../exchange/catalog';
import type { CycleInsert, EventInsert, PaperPriceChange } from '../engine/store/journal';
import type { NotifyChannel } from './channel';

export type NotifyKind = NotificationKind;

/** Default preferences: fills and TradingView alerts (up to 30 an hour a task) in-app only; cycles, attention and money on every linked channel; security always by e-mail. */
export const defaultEnabled = (kind: string, channel: NotifyChannel): boolean => {
  if (channel === 'inapp') return true;
  if (channel === 'email' && isAlwaysByEmail(kind)) return true;
  if (kind === 'trade.fill' || kind === 'trade.alert') return false;
  return true;
};

export interface NotifyEvent {
  userId: string;
  kind: NotifyKind;
  taskId: string | null;
  /** Figures as decimal strings. */
  payload: Record<string, unknown>;
}

/** A task event of the engine, as a notification (kind and payload), or null when it is not one. */
const fromTaskEvent = (event: EventInsert): { kind: NotifyKind; payload: Record<string, unknown> } | null => {
  const data = event.data;
  switch (event.kind) {
    case 'cycle_started':
    case 'replenished':
      return { kind: 'trade.fill', payload: { side: 'buy', level: data['level'], price: data['price'], amount: data['amount'], cycle: data['cycle'] } };
    case 'sold':
      return { kind: 'trade.fill', payload: { side: 'sell', price: data['price'], amount: data['proceeds'], quantity: data['sold'], cycle: data['cycle'] } };
    case 'stop_loss':
      // Which stop fired (the stop loss from the average or the last level, break-even, time), when the engine knows it.
      return { kind: 'trade.stop_loss', payload: { price: data['price'], amount: data['proceeds'], profit: data['profit'], cycle: data['cycle'], ...(data['stop'] ? { stop: data['stop'] } : {}) } };
    case 'paused':
      return { kind: 'trade.attention', payload: { reason: data['reason'] } };
    case 'error':
      // An error the task stops on (attention): lack of funds for a level, a refused key, ...
      return data['attention'] ? { kind: 'trade.attention', payload: { reason: data['attention'], level: data['level'] ?? null } } : null;
    case 'fuel_empty':
      return { kind: 'member.fuel_empty', payload: { cycle: data['cycle'] } };
    default:
      return null;
  }
};

/** A closed cycle as a notification: profit, ROI (profit / buy cost, percent, 2 places) and duration in seconds. */
const fromCycle = (cycle: CycleInsert): { kind: NotifyKind; payload: Record<string, unknown> } => {
  const cost = new Big(cycle.closed.buyCost);
  const roi = cost.gt(0) ? new Big(cycle.closed.realizedProfit).div(cost).times(100).round(2).toFixed(2) : null;
  return {
    kind: 'trade.cycle_closed',
    payload: { cycle: cycle.closed.cycle, profit: cycle.closed.realizedProfit, buyCost: cycle.closed.buyCost, roi, seconds: cycle.seconds, exitReason: cycle.closed.exitReason },
  };
};

/** A paper account's fall back to simulated prices, or its return to the source's live prices. */
const paperPriceEvent = (change: PaperPriceChange): NotifyEvent => ({
  userId: change.userId,
  kind: change.fallbackSince === null ? 'trade.paper_live' : 'trade.paper_fallback',
  taskId: null,
  payload: { accountId: change.accountId, account: change.accountName, source: change.source, sourceName: exchangeName(change.source), ...(change.fallbackSince === null ? {} : { since: change.fallbackSince }) },
});

/**
 * Writes the notifications of one engine commit in its transaction: one
 * statement, the owner read from the task. Nothing when none of the rows is
 * a notification. A buy of the template's last level is also told as
 * `trade.ladder_full` (no more funds go into this cycle), right after it.
 */
export const recordEngineEvents = async (trx: Db, events: readonly EventInsert[], cycles: readonly CycleInsert[], prices: readonly PaperPriceChange[] = []): Promise<void> => {
  // A paper account's prices: one notice per account and change, for the account (no task).
  await recordEvents(trx, prices.map(paperPriceEvent));
  const rows: { taskId: string; kind: string; payload: string }[] = [];
  let ladderBuys = false;
  for (const event of events) {
    const notice = fromTaskEvent(event);
    if (notice) rows.push({ taskId: event.taskId, kind: notice.kind, payload: JSON.stringify(notice.payload) });
    if (event.kind === 'replenished') ladderBuys = true;
  }
  for (const cycle of cycles) {
    const notice = fromCycle(cycle);
    rows.push({ taskId: cycle.taskId, kind: notice.kind, payload: JSON.stringify(notice.payload) });
  }
  if (rows.length === 0) return;
  const tasks = rows.map((r) => r.taskId);
  const kinds = rows.map((r) => r.kind);
  const payloads = rows.map((r) => r.payload);
  // Most commits have no buy past the first order (a first tick's are all first orders): the plain statement.
  if (!ladderBuys) {
    await sql`
      insert into notification_events (user_id, kind, task_id, payload)
      select t.user_id, x.kind, x.task, (x.payload::jsonb || jsonb_build_object('symbol', t.symbol))
      from unnest(${tasks}::uuid[], ${kinds}::text[], ${payloads}::text[]) with ordinality as x(task, kind, payload, n)
      join trade_tasks t on t.id = x.task
      order by x.n`.execute(trx);
    return;
  }
  await sql`
    with x as (
      select task, kind, payload::jsonb as payload, n
      from unnest(${tasks}::uuid[], ${kinds}::text[], ${payloads}::text[]) with ordinality as x(task, kind, payload, n))
    insert into notification_events (user_id, kind, task_id, payload)
    select user_id, kind, task, payload from (
      select t.user_id, x.kind, x.task, x.payload || jsonb_build_object('symbol', t.symbol) as payload, x.n, 0 as after
      from x join trade_tasks t on t.id = x.task
      union all
      select t.user_id, 'trade.ladder_full', x.task,
        jsonb_build_object('symbol', t.symbol, 'cycle', x.payload->'cycle', 'level', x.payload->'level', 'levels', jsonb_array_length(s.levels), 'price', x.payload->'price'), x.n, 1
      from x join trade_tasks t on t.id = x.task join strategies s on s.id = t.strategy_id
      where x.kind = 'trade.fill' and x.payload->>'side' = 'buy' and x.payload->>'level' = jsonb_array_length(s.levels)::text and jsonb_array_length(s.levels) > 0
    ) e
    order by n, after`.execute(trx);
};

/** Writes events of other domains (wallet, user) in the caller's transaction: one statement. */
export const recordEvents = async (trx: Db, events: readonly NotifyEvent[]): Promise<void> => {
  if (events.length === 0) return;
  await trx
    .insertInto('notification_events')
    .values(events.map((e) => ({ user_id: e.userId, kind: e.kind, task_id: e.taskId, payload: JSON.stringify(e.payload) })))
    .execute();
};
