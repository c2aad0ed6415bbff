import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addPaperTask, registerUser, startOtherProcess, startServer, type TestServer } from './harness';

interface HookAnswer {
  status: number;
  headers: Headers;
  text: string;
  body: { code: number; message: string; data: unknown } | null;
}

/**
 * A TradingView webhook's life and its alerts to the live task, over HTTP
 * (issue 29): its life ('life') or the alerts it refuses ('refusals'), one
 * file each per database, sharing this set-up.
 */
export const describeTaskWebhook = (backend: 'pglite' | 'postgres', part: 'life' | 'refusals') =>
  describe(`task webhook: ${part} (${backend})`, () => {
    let server: TestServer;
    let token: string;
    let userId: string;
    let taskId: string;

    const call = (method: string, path: string, body?: unknown, as = token) => server.call(method, path, body, { token: as });
    const save = async (action = 'start_cycle', id = taskId) => {
      const answer = await call('POST', '/api/trade/task/webhook', { id, action });
      expect(answer.body.code).toBe(0);
      return answer.body.data as { url: string; secret: string; action: string; template: string; taskId: string };
    };
    const post = async (url: string, body: string, contentType = 'text/plain; charset=utf-8', method = 'POST'): Promise<HookAnswer> => {
      const response = await fetch(url, { method, headers: { 'Content-Type': contentType }, body: method === 'POST' ? body : undefined });
      const text = await response.text();
      return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : null };
    };
    let serial = 0;
    /** The template's message as TradingView fills it in: a fresh id and the time now, unless told otherwise. */
    const alert = (secret: string, fields: Record<string, unknown> = {}) =>
      JSON.stringify({ secret, id: `${new Date().toISOString()}-BTCUSDT-${++serial}`, time: new Date().toISOString(), ticker: 'BTCUSDT', price: '43250.5', ...fields });
    const liveTask = () => server.app.engine.tasks.get(taskId);
    const events = async (kind: string) => server.db.selectFrom('task_events').select('data').where('task_id', '=', taskId).where('kind', '=', kind).execute();
    const alerts = () => server.db.selectFrom('task_alerts').select(['alert_id', 'outcome', 'action']).where('task_id', '=', taskId).orderBy('id').execute();
    const notices = () => server.db.selectFrom('notification_events').select(['kind', 'payload', 'task_id']).where('user_id', '=', userId).where('kind', '=', 'trade.alert').execute();

    beforeEach(async () => {
      server = await startServer(backend);
      const user = await registerUser(server, { email: 'hook@example.com' });
      token = user.accessToken;
      userId = user.user.id;
      taskId = await addPaperTask(server, token);
      // The engine drives the task (on PostgreSQL, once its first tick has leased the shards).
      await server.app.engine.tick(1);
      expect(liveTask()).toBeDefined();
    });
    afterEach(async () => server.close());

    if (part === 'life') {
      it('creates a webhook whose alert is kept with a task event and a notification and reaches the live task', async () => {
        expect((await call('GET', `/api/trade/task/webhook/${taskId}`)).body).toMatchObject({ code: 0, data: null });
        const hook = await save('buy_level');
        expect(hook.url).toMatch(new RegExp(`^${server.base}/hooks/tradingview/[A-Za-z0-9_-]{22}$`));
        expect(hook.secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
        expect(JSON.parse(hook.template)).toEqual({ secret: hook.secret, id: '{{timenow}}-{{ticker}}', time: '{{timenow}}', ticker: '{{ticker}}', price: '{{close}}', action: 'buy_level' });
        // Kept sealed: the stored value is not the secret and does not contain it.
        const stored = await server.db.selectFrom('task_webhooks').select('secret_sealed').where('task_id', '=', taskId).executeTakeFirstOrThrow();
        expect(stored.secret_sealed).not.toContain(hook.secret);

        // Without `action` the webhook's own; as TradingView sends it (text/plain).
        const message = JSON.stringify({ secret: hook.secret, id: 'a-1', time: new Date().toISOString(), ticker: 'BTCUSDT', price: '43250.5' });
        const before = Date.now();
        const accepted = await post(hook.url, message);
        expect(accepted.status).toBe(200);
        expect(accepted.body).toEqual({ code: 0, message: 'ok', data: { action: 'buy_level' } });
        expect(liveTask()!.alert).toEqual({ id: 'a-1', action: 'buy_level', receivedAt: expect.any(Number) });
        expect(liveTask()!.alert!.receivedAt).toBeGreaterThanOrEqual(before);
        expect(await alerts()).toEqual([{ alert_id: 'a-1', outcome: 'accepted', action: 'buy_level' }]);
        expect((await events('alert_received')).map((e) => e.data)).toEqual([{ alertId: 'a-1', action: 'buy_level', ticker: 'BTCUSDT', price: '43250.5' }]);
        expect(await notices()).toEqual([{ kind: 'trade.alert', task_id: taskId, payload: { symbol: 'BTC/USDT', action: 'buy_level', ticker: 'BTCUSDT', price: '43250.5' } }]);

        // The message's own action wins; JSON sent as application/json is read alike; a newer alert replaces one not acted on.
        const closing = await post(hook.url, alert(hook.secret, { id: 'a-2', action: 'close_position' }), 'application/json');
        expect(closing.body).toMatchObject({ code: 0, data: { action: 'close_position' } });
        expect(liveTask()!.alert).toMatchObject({ id: 'a-2', action: 'close_position' });

        // The task's log and the owner's webhook call show them, newest first.
        const detail = (await call('GET', `/api/trade/detail/${taskId}`)).body.data;
        expect(detail.events.filter((e: { kind: string }) => e.kind === 'alert_received')).toHaveLength(2);
        const read = (await call('GET', `/api/trade/task/webhook/${taskId}`)).body.data;
        expect(read).toMatchObject({ url: hook.url, secret: hook.secret, action: 'buy_level' });
        expect(read.alerts.map((a: { alertId: string; outcome: string }) => [a.alertId, a.outcome])).toEqual([
          ['a-2', 'accepted'],
          ['a-1', 'accepted'],
        ]);
        expect(read.alerts[1]).toMatchObject({ action: 'buy_level', ticker: 'BTCUSDT', price: '43250.5' });
      });

      it('rotates the secret (the address stays, the old secret stops), turns the webhook off, and keeps it to its owner', async () => {
        const first = await save();
        const second = await save('close_position');
        expect(second.url).toBe(first.url);
        expect(second.secret).not.toBe(first.secret);
        expect(second.action).toBe('close_position');
        const old = await post(first.url, alert(first.secret));
        expect(old.status).toBe(403);
        expect(old.body).toMatchObject({ code: 11005 });
        expect((await post(second.url, alert(second.secret))).body).toMatchObject({ code: 0, data: { action: 'close_position' } });

        // Another user sees none of it and cannot change it.
        const other = (await registerUser(server, { email: 'other@example.com' })).accessToken;
        expect((await call('GET', `/api/trade/task/webhook/${taskId}`, undefined, other)).body).toMatchObject({ code: 10006, data: { field: 'id' } });
        expect((await call('POST', '/api/trade/task/webhook', { id: taskId, action: 'start_cycle' }, other)).body.code).toBe(10006);
        expect((await call('POST', '/api/trade/task/webhook/off', { id: taskId }, other)).body.code).toBe(10006);
        // The owner's calls are signed: an unsigned one changes nothing.
        const unsigned = await server.call('POST', '/api/trade/task/webhook', { id: taskId, action: 'start_cycle' }, { token, sign: false });
        expect(unsigned.body.code).not.toBe(0);
        // A bad action is refused as invalid input.
        expect((await call('POST', '/api/trade/task/webhook', { id: taskId, action: 'sell_all' })).body.code).toBe(10008);
        expect((await call('GET', `/api/trade/task/webhook/${taskId}`)).body.data.secret).toBe(second.secret);

        expect((await call('POST', '/api/trade/task/webhook/off', { id: taskId })).body).toMatchObject({ code: 0, data: null });
        expect((await call('GET', `/api/trade/task/webhook/${taskId}`)).body.data).toBeNull();
        const off = await post(second.url, alert(second.secret));
        expect(off.status).toBe(403);
        expect(off.body).toMatchObject({ code: 11005 });
      });

      if (backend === 'postgres') {
        it('reaches the live task through engine_commands when another process takes the alert', async () => {
          const hook = await save();
          const other = await startOtherProcess(server, backend);
          try {
            const path = new URL(hook.url).pathname;
            const sent = post(`${other.base}${path}`, alert(hook.secret, { id: 'elsewhere', action: 'buy_level' }));
            let answer: HookAnswer | undefined;
            void sent.then((a) => (answer = a));
            for (let i = 0; i < 200 && !answer; i++) {
              await server.app.engine.tick(1);
              await new Promise((resolve) => setTimeout(resolve, 20));
            }
            expect(answer?.body).toMatchObject({ code: 0, data: { action: 'buy_level' } });
            const command = await server.db.selectFrom('engine_commands').select(['kind', 'payload', 'result']).where('task_id', '=', taskId).where('kind', '=', 'alert').executeTakeFirstOrThrow();
            expect(command).toMatchObject({ payload: { id: 'elsewhere', action: 'buy_level' }, result: { kind: 'ok' } });
            // Set on the live task, unless its next decision has acted on it already (and said so in the log).
            const acted = await server.db.selectFrom('task_events').select('kind').where('task_id', '=', taskId).where('kind', 'in', ['alert_acted', 'alert_ignored']).execute();
            if (acted.length === 0) expect(liveTask()!.alert).toMatchObject({ id: 'elsewhere', action: 'buy_level' });
          } finally {
            await other.close();
          }
        });
      }
    }

    if (part === 'refusals') {
      it('never writes the secret to the log or shows it in any answer but the owner’s webhook call', async () => {
        const hook = await save();
        await post(hook.url, alert(hook.secret));
        await post(hook.url, alert(`${hook.secret}-wrong`));
        await post(hook.url, 'not json');
        const answers = [
          await call('GET', `/api/trade/detail/${taskId}`),
          await call('GET', '/api/trade/list'),
          await call('GET', '/api/notifications'),
        ];
        for (const answer of answers) expect(JSON.stringify(answer.body)).not.toContain(hook.secret);
        expect(server.logs.join('')).not.toContain(hook.secret);
        const written = await sql<{ text: string }>`select (select coalesce(string_agg(data::text, ''), '') from task_events) || (select coalesce(string_agg(payload::text, ''), '') from notification_events) || (select coalesce(string_agg(detail::text, ''), '') from task_alerts) as text`.execute(server.db);
        expect(written.rows[0]!.text).not.toContain(hook.secret);
      });

      it('refuses a wrong or missing secret the same way as an unknown hook, and writes nothing', async () => {
        const hook = await save();
        const wrong = await post(hook.url, alert(`${hook.secret.slice(0, -1)}x`));
        const unknown = await post(`${server.base}/hooks/tradingview/AAAAAAAAAAAAAAAAAAAAAA`, alert(hook.secret));
        const missing = await post(hook.url, JSON.stringify({ id: 'x', time: new Date().toISOString() }));
        for (const answer of [wrong, unknown, missing]) {
          expect(answer.status).toBe(403);
          expect(answer.text).toBe(wrong.text);
        }
        expect(wrong.body).toEqual({ code: 11005, message: 'the secret does not match', data: null });
        expect(await alerts()).toEqual([]);
        expect(await events('alert_received')).toEqual([]);
        expect(liveTask()!.alert ?? null).toBeNull();
      });

      it('refuses a replay, a stale or future time and a bad message, each with its answer and nothing written', async () => {
        const hook = await save();
        const message = alert(hook.secret, { id: 'once' });
        expect((await post(hook.url, message)).status).toBe(200);
        const replay = await post(hook.url, message);
        expect(replay.status).toBe(409);
        expect(replay.body).toMatchObject({ code: 10007, message: 'this alert id was received already' });

        const stale = await post(hook.url, alert(hook.secret, { time: new Date(Date.now() - 6 * 60_000).toISOString() }));
        expect(stale.status).toBe(409);
        expect(stale.body).toMatchObject({ code: 10002 });
        const ahead = await post(hook.url, alert(hook.secret, { time: new Date(Date.now() + 3 * 60_000).toISOString() }));
        expect(ahead.status).toBe(409);
        expect(ahead.body).toMatchObject({ code: 10002 });

        const bad: Array<[string, number, number]> = [
          ['not json at all', 400, 10003],
          ['[1, 2]', 400, 10003],
          [JSON.stringify({ secret: hook.secret, time: new Date().toISOString() }), 400, 10000],
          [alert(hook.secret, { time: 'yesterday' }), 400, 10003],
          [alert(hook.secret, { price: '1e5' }), 400, 10003],
          [alert(hook.secret, { action: 'sell_everything' }), 400, 10008],
        ];
        for (const [body, status, code] of bad) {
          const answer = await post(hook.url, body);
          expect([answer.status, answer.body?.code]).toEqual([status, code]);
        }
        const large = await post(hook.url, alert(hook.secret, { note: 'x'.repeat(5000) }));
        expect(large.status).toBe(413);
        expect(large.body).toMatchObject({ code: 10005 });

        // A GET or HEAD to the hook is refused cleanly, naming the method it takes.
        for (const method of ['GET', 'HEAD']) {
          const answer = await post(hook.url, '', 'text/plain', method);
          expect(answer.status).toBe(405);
          expect(answer.headers.get('allow')).toBe('POST');
          if (method === 'GET') expect(answer.body).toMatchObject({ code: 20001 });
        }
        expect((await alerts()).map((a) => a.alert_id)).toEqual(['once']);
        expect(await events('alert_received')).toHaveLength(1);
      });

      it('refuses alerts for a stopped or finished task, or one the engine does not drive now (kept in the log as such)', async () => {
        const hook = await save();
        // The engine lost the task (it is being loaded again, say): the alert is kept as undelivered and the answer says to try again.
        server.app.engine.tasks.delete(taskId);
        const lost = await post(hook.url, alert(hook.secret, { id: 'while-lost' }));
        expect(lost.status).toBe(503);
        expect(lost.body).toMatchObject({ code: 15000 });
        expect(await alerts()).toEqual([{ alert_id: 'while-lost', outcome: 'undelivered', action: 'start_cycle' }]);
        await server.app.engine.reload(taskId);
        await server.db.deleteFrom('task_alerts').execute();
        await server.db.deleteFrom('notification_events').where('kind', '=', 'trade.alert').execute();
        await server.db.deleteFrom('task_events').where('kind', '=', 'alert_received').execute();

        expect((await call('POST', '/api/trade/action', { id: taskId, action: 'stop' })).body.code).toBe(0);
        const stopped = await post(hook.url, alert(hook.secret, { id: 'while-stopped' }));
        expect(stopped.status).toBe(409);
        expect(stopped.body).toMatchObject({ code: 15000, message: 'the task is stopped' });
        expect(await alerts()).toEqual([{ alert_id: 'while-stopped', outcome: 'task_stopped', action: 'start_cycle' }]);
        expect(await events('alert_received')).toEqual([]);
        expect(await notices()).toEqual([]);
        expect(liveTask()?.alert ?? null).toBeNull();

        await server.db.updateTable('trade_tasks').set({ running: true, status: 'finished' }).where('id', '=', taskId).execute();
        const finished = await post(hook.url, alert(hook.secret));
        expect(finished.body).toMatchObject({ code: 15000, message: 'the task has finished its cycles' });
      });

      it('counts each task’s alerts: 5 a minute and 30 an hour', async () => {
        const hook = await save();
        for (let i = 0; i < 5; i++) expect((await post(hook.url, alert(hook.secret))).status).toBe(200);
        const limited = await post(hook.url, alert(hook.secret, { id: 'sixth' }));
        expect(limited.status).toBe(429);
        expect(limited.body).toMatchObject({ code: 10009 });
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
        expect((await alerts()).map((a) => a.alert_id)).not.toContain('sixth');

        // A minute later the minute's window is free; the hour's holds 30 (its counter moved on to 29 here).
        await sql`update throttle_counters set window_start = window_start - interval '61 seconds' where key = ${`tv-alert:${taskId}`} and window_seconds = 60`.execute(server.db);
        await sql`update throttle_counters set count = 29 where key = ${`tv-alert:${taskId}`} and window_seconds = 3600`.execute(server.db);
        // The refusal a moment ago is repeated from memory for a second: wait it out.
        await new Promise((resolve) => setTimeout(resolve, 1100));
        expect((await post(hook.url, alert(hook.secret))).status).toBe(200);
        const hourly = await post(hook.url, alert(hook.secret));
        expect(hourly.status).toBe(429);
        expect(Number(hourly.headers.get('retry-after'))).toBeGreaterThan(60);
        expect(await alerts()).toHaveLength(6);
      });
    }
  });
