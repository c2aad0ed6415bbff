/**
 * A task's TradingView webhook (issue 29): its owner creates, rotates or
 * turns it off; TradingView posts alerts to its public address, which are
 * checked (secret, replay, time, task, limit), kept with a task event and a
 * notification in one transaction, and handed to the engine, whose next
 * decision for the task acts on them.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import { ALERT_ACTIONS, type AlertAction } from '../../../src/api/conditions';
import { ErrorCode, type ErrorCodeValue } from '../../../src/api/errors';
import {
  ALERT_LIMITS,
  ALERT_MAX_AGE_MS,
  ALERT_MAX_AHEAD_MS,
  ALERTS_SHOWN,
  alertTemplate,
  tradingViewHookPath,
  type AlertOutcome,
  type TaskAlertRecord,
  type TaskWebhook,
} from '../../../src/api/webhook';
import type { Db } from '../db/database';
import type { EngineFacade } from '../engine/facade';
import { createSecretBox } from '../engine/venues/exchangeAccess';
import { BusinessError, fail } from '../http/errors';
import { recordEvents } from '../notify/events';
import type { Throttle } from '../shared/throttle';

export interface WebhookDeps {
  db: Db;
  engine: EngineFacade;
  throttle: Throttle;
  masterKey: string;
  now?: () => number;
}

/** A refusal of an alert: the HTTP status TradingView's log shows, and `{code, message}`. */
export class AlertRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: Exclude<ErrorCodeValue, 0>,
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'AlertRefusal';
  }
}

const refuse = (status: number, code: Exclude<ErrorCodeValue, 0>, message: string): never => {
  throw new AlertRefusal(status, code, message);
};

/** An alert's body once read: what the template sends. */
export interface AlertBody {
  secret: string;
  id: string;
  time: number;
  ticker: string | null;
  price: string | null;
  action: AlertAction | null;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const EPOCH = /^\d{10}(\d{3})?$/;
const PRICE = /^\d{1,20}(\.\d{1,16})?$/;
const TICKER = /^[A-Za-z0-9:._!/-]{1,40}$/;
const ALERT_ID = /^[\x21-\x7e]([\x20-\x7e]{0,98}[\x21-\x7e])?$/;

const text = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : undefined);

/** Reads an alert message (JSON, sent as text/plain or application/json); refuses what is not the template's shape. */
export const readAlertBody = (raw: unknown): AlertBody => {
  let body: unknown = raw;
  if (typeof raw === 'string') {
    try {
      body = JSON.parse(raw);
    } catch {
      refuse(400, ErrorCode.PARAM_FORMAT, 'the alert message is not JSON: paste the template shown with the webhook');
    }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return refuse(400, ErrorCode.PARAM_FORMAT, 'the alert message is not a JSON object');
  const fields = body as Record<string, unknown>;
  const secret = fields['secret'];
  if (typeof secret !== 'string' || secret.length === 0) return refuse(403, ErrorCode.UNAUTHORIZED, 'the secret does not match');
  const id = text(fields['id']);
  if (!id) return refuse(400, ErrorCode.PARAM_REQUIRED, 'id is required');
  if (!ALERT_ID.test(id)) return refuse(400, ErrorCode.PARAM_FORMAT, 'id must be 1 to 100 printable characters');
  const timeText = text(fields['time']);
  if (!timeText) return refuse(400, ErrorCode.PARAM_REQUIRED, 'time is required');
  const time = EPOCH.test(timeText) ? Number(timeText) * (timeText.length === 10 ? 1000 : 1) : ISO_TIME.test(timeText) ? Date.parse(timeText) : Number.NaN;
  if (Number.isNaN(time)) return refuse(400, ErrorCode.PARAM_FORMAT, 'time must be {{timenow}} (ISO 8601) or Unix time');
  const ticker = text(fields['ticker']) || null;
  if (ticker !== null && !TICKER.test(ticker)) return refuse(400, ErrorCode.PARAM_FORMAT, 'ticker must be {{ticker}}');
  const price = text(fields['price']) || null;
  if (price !== null && !PRICE.test(price)) return refuse(400, ErrorCode.PARAM_FORMAT, 'price must be a decimal number such as {{close}}');
  const action = fields['action'] === undefined || fields['action'] === '' ? null : fields['action'];
  if (action !== null && !ALERT_ACTIONS.includes(action as AlertAction)) return refuse(400, ErrorCode.INVALID, `action must be one of ${ALERT_ACTIONS.join(', ')}`);
  return { secret, id, time, ticker, price, action: action as AlertAction | null };
};

/** Equal secrets, compared in constant time (digests of equal length, whatever was sent). */
const sameSecret = (sent: string, kept: string) => timingSafeEqual(createHash('sha256').update(sent).digest(), createHash('sha256').update(kept).digest());

const sealContext = (taskId: string) => `task_webhooks:${taskId}`;
const newHookId = () => randomBytes(16).toString('base64url');
const newSecret = () => randomBytes(24).toString('base64url');
const alertKey = (taskId: string) => `tv-alert:${taskId}`;

export const createWebhookService = ({ db, engine, throttle, masterKey, now = Date.now }: WebhookDeps) => {
  const box = createSecretBox(masterKey);

  const ownTask = async (userId: string, taskId: string) => {
    const row = await db.selectFrom('trade_tasks').select(['id', 'status']).where('id', '=', taskId).where('user_id', '=', userId).executeTakeFirst();
    if (!row) fail(ErrorCode.PARAM_NOT_EXIST, 'task does not exist', { field: 'id' });
    return row!;
  };

  const alertsOf = async (taskId: string): Promise<TaskAlertRecord[]> => {
    const rows = await db
      .selectFrom('task_alerts')
      .select(['alert_id', 'action', 'outcome', 'detail', 'alert_time', 'received_at'])
      .where('task_id', '=', taskId)
      .orderBy('id', 'desc')
      .limit(ALERTS_SHOWN)
      .execute();
    return rows.map((row) => ({
      alertId: row.alert_id,
      action: row.action as AlertAction,
      outcome: row.outcome,
      ticker: typeof row.detail['ticker'] === 'string' ? row.detail['ticker'] : null,
      price: typeof row.detail['price'] === 'string' ? row.detail['price'] : null,
      time: new Date(row.alert_time).toISOString(),
      receivedAt: new Date(row.received_at).toISOString(),
    }));
  };

  const answer = async (taskId: string, base: string): Promise<TaskWebhook | null> => {
    const row = await db.selectFrom('task_webhooks').selectAll().where('task_id', '=', taskId).executeTakeFirst();
    if (!row) return null;
    const secret = box.open(row.secret_sealed, sealContext(taskId));
    return {
      taskId,
      url: `${base}${tradingViewHookPath(row.hook_id)}`,
      secret,
      action: row.action,
      template: alertTemplate(secret, row.action),
      createdAt: new Date(row.created_at).toISOString(),
      rotatedAt: new Date(row.rotated_at).toISOString(),
      alerts: await alertsOf(taskId),
    };
  };

  return {
    /** The task's webhook with its secret (its owner only), or null when it has none. */
    async get(userId: string, taskId: string, base: string) {
      await ownTask(userId, taskId);
      return answer(taskId, base);
    },

    /** Creates the task's webhook, or gives it a new secret (the old one stops working) and the chosen action; the address stays. */
    async save(userId: string, taskId: string, action: AlertAction, base: string) {
      const task = await ownTask(userId, taskId);
      if (task.status === 'finished') fail(ErrorCode.ROBOT_NOT_STARTED, 'the task has finished its cycles');
      const sealed = box.seal(newSecret(), sealContext(taskId));
      await db
        .insertInto('task_webhooks')
        .values({ task_id: taskId, hook_id: newHookId(), secret_sealed: sealed, action })
        .onConflict((oc) => oc.column('task_id').doUpdateSet({ secret_sealed: sealed, action, rotated_at: sql`now()` }))
        .execute();
      return (await answer(taskId, base))!;
    },

    /** Turns the task's webhook off: its address and secret stop working at once (the alerts received stay in the log). */
    async remove(userId: string, taskId: string) {
      await ownTask(userId, taskId);
      await db.deleteFrom('task_webhooks').where('task_id', '=', taskId).execute();
      return null;
    },

    /**
     * An alert TradingView posted to a hook. Refused with an AlertRefusal
     * (nothing written) for: a wrong secret or an unknown hook (the same
     * answer), an alert id already received for the task or a time outside
     * the window, a stopped or finished task (kept in the log as such), more
     * than ALERT_LIMITS alerts. Otherwise the alert, its task event and its
     * notification are written in one transaction and the engine is given it.
     */
    async receive(hookId: string, raw: unknown): Promise<{ action: AlertAction }> {
      const body = readAlertBody(raw);
      const hook = await db
        .selectFrom('task_webhooks')
        .innerJoin('trade_tasks', 'trade_tasks.id', 'task_webhooks.task_id')
        .select(['task_webhooks.task_id', 'task_webhooks.secret_sealed', 'task_webhooks.action', 'trade_tasks.user_id', 'trade_tasks.symbol', 'trade_tasks.running', 'trade_tasks.status'])
        .where('task_webhooks.hook_id', '=', hookId)
        .executeTakeFirst();
      // An unknown hook costs the same comparison as a known one, and gets the same answer.
      const kept = hook ? box.open(hook.secret_sealed, sealContext(hook.task_id)) : newSecret();
      if (!sameSecret(body.secret, kept) || !hook) return refuse(403, ErrorCode.UNAUTHORIZED, 'the secret does not match');
      const taskId = hook.task_id;
      const received = now();
      if (body.time < received - ALERT_MAX_AGE_MS) return refuse(409, ErrorCode.PARAM_RANGE, 'the alert is older than 5 minutes');
      if (body.time > received + ALERT_MAX_AHEAD_MS) return refuse(409, ErrorCode.PARAM_RANGE, 'the alert time is ahead of ours by more than a minute');
      const action = body.action ?? hook.action;
      const replay = () => refuse(409, ErrorCode.ALREADY_EXISTS, 'this alert id was received already');
      const seen = await db.selectFrom('task_alerts').select('id').where('task_id', '=', taskId).where('alert_id', '=', body.id).executeTakeFirst();
      if (seen) return replay();
      const detail = JSON.stringify({ ticker: body.ticker, price: body.price });
      const keep = (outcome: AlertOutcome, trx: Db = db) =>
        trx
          .insertInto('task_alerts')
          .values({ task_id: taskId, alert_id: body.id, action, outcome, detail, alert_time: new Date(body.time).toISOString() })
          .onConflict((oc) => oc.columns(['task_id', 'alert_id']).doNothing())
          .returning('id')
          .executeTakeFirst();
      let reservation;
      try {
        reservation = await throttle.take([{ key: alertKey(taskId), limits: ALERT_LIMITS }]);
      } catch (error) {
        if (!(error instanceof BusinessError)) throw error;
        const wait = Number((error.data as { retryAfter?: number } | null)?.retryAfter ?? 60);
        throw new AlertRefusal(429, ErrorCode.TOO_MANY_REQUESTS, `more than ${ALERT_LIMITS.map((l) => `${l.max} alerts per ${l.windowSeconds / 60} min`).join(' or ')}`, wait);
      }
      // An alert for a stopped task counts too: it is kept in the log, so a flood of them must stop at the limit.
      if (hook.status === 'finished' || !hook.running) {
        if (!(await keep('task_stopped'))) {
          await reservation.release();
          return replay();
        }
        return refuse(409, ErrorCode.ROBOT_NOT_STARTED, hook.status === 'finished' ? 'the task has finished its cycles' : 'the task is stopped');
      }
      const inserted = await db.transaction().execute(async (trx) => {
        const row = await keep('accepted', trx);
        if (!row) return null;
        const data = { alertId: body.id, action, ticker: body.ticker, price: body.price };
        await trx.insertInto('task_events').values({ task_id: taskId, kind: 'alert_received', data: JSON.stringify(data) }).execute();
        await recordEvents(trx, [{ userId: hook.user_id, kind: 'trade.alert', taskId, payload: { symbol: hook.symbol, action, ticker: body.ticker, price: body.price } }]);
        return row;
      });
      if (!inserted) {
        await reservation.release();
        return replay();
      }
      const result = await engine.alert(taskId, { id: body.id, action, receivedAt: received });
      if (result.kind !== 'ok') {
        await db.updateTable('task_alerts').set({ outcome: 'undelivered' }).where('id', '=', inserted.id).execute();
        return refuse(503, ErrorCode.ROBOT_NOT_STARTED, 'the robot does not run this task now; try again shortly');
      }
      return { action };
    },
  };
};

export type WebhookService = ReturnType<typeof createWebhookService>;
