import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, addPaperTask, registerUser, startServer, type TestServer } from './harness';

const DAY = 86_400;

describe.each(BACKENDS)("a stopped task's run time (%s)", (backend) => {
  let server: TestServer;
  let token: string;
  let taskId: string;
  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token });

  beforeAll(async () => {
    server = await startServer(backend);
    token = (await registerUser(server, { email: 'stopped@example.com', activated: true })).accessToken;
    taskId = await addPaperTask(server, token, { task: { running: false } });
  }, 120_000);
  afterAll(async () => server?.close());

  it('ends at the stop: it does not keep counting (and the APR does not drift) while the task does nothing', async () => {
    expect((await call('POST', '/api/trade/action', { id: taskId, action: 'stop' })).body.code).toBe(0);
    // The task was created three days ago and stopped one day ago.
    await server.db.updateTable('trade_tasks').set({ created_at: sql`now() - interval '3 days'` }).where('id', '=', taskId).execute();
    await server.db.updateTable('task_events').set({ created_at: sql`now() - interval '1 day'` }).where('task_id', '=', taskId).where('kind', '=', 'stopped').execute();
    const first = (await call('GET', `/api/trade/returns?taskId=${taskId}`)).body;
    expect(first.code).toBe(0);
    expect(first.data.runSeconds).toBe(2 * DAY);
    expect(Math.floor((Date.parse(first.data.endedAt) - Date.parse(first.data.startedAt)) / 1000)).toBe(2 * DAY);
  });

  it('counts again from the creation once the task runs again', async () => {
    expect((await call('POST', '/api/trade/action', { id: taskId, action: 'start' })).body.code).toBe(0);
    const answer = (await call('GET', `/api/trade/returns?taskId=${taskId}`)).body.data;
    expect(answer.endedAt).toBeNull();
    expect(answer.runSeconds).toBeGreaterThanOrEqual(3 * DAY);
  });
});
