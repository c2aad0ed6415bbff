import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/api/errors';
import type { App } from '../src/app';
import { BACKENDS, registerUser, startOtherProcess, startServer, type OtherProcess, type TestServer } from './harness';

/**
 * Every call checks its session (http/sessionCache.ts): from memory, dropped
 * when the database announces a change (PGlite within the committing query;
 * PostgreSQL on each process's listening connection, a writing call answering
 * once its own process has heard it). Two API processes on one database (on
 * PostgreSQL as in production, each with its own pool and listening
 * connection; on PGlite two apps on its one connection): whatever ends a
 * session through the API of one refuses its token in the other on the very
 * next call; a change written into the database directly, as soon as its
 * notice is heard (at once on PGlite).
 */
describe.each(BACKENDS)('session revocation across processes (%s)', { timeout: 60_000 }, (backend) => {
  let server: TestServer;
  let otherProcess: OtherProcess | undefined;
  let other: App;
  let otherBase: string;
  afterEach(async () => {
    await otherProcess?.close();
    otherProcess = undefined;
    await server?.close();
  });
  /** Both processes have heard every notice committed so far (at once on PGlite). */
  const heard = () => Promise.all([server.app.sessionCache.sync(), other.sessionCache.sync()]);

  const start = async () => {
    server = await startServer(backend);
    otherProcess = await startOtherProcess(server, backend);
    ({ app: other, base: otherBase } = otherProcess);
  };
  /** GET /api/user/me on the second process. */
  const meThere = async (token: string) => {
    const answer = await fetch(`${otherBase}/api/user/me`, { headers: { authorization: `Bearer ${token}` } });
    return { status: answer.status, body: (await answer.json()) as { code: number } };
  };
  const login = async (email: string, password: string) =>
    (await server.call('POST', '/api/user/login', { email, password })).body.data as { accessToken: string };
  /** Both processes answered the token from memory at least once. */
  const warm = async (...tokens: string[]) => {
    for (const token of tokens) {
      expect((await meThere(token)).body.code).toBe(0);
      expect((await server.call('GET', '/api/user/me', undefined, { token })).body.code).toBe(0);
    }
    for (const app of [server.app, other]) {
      expect(app.sessionCache.size()).toBeGreaterThanOrEqual(tokens.length);
    }
  };

  it('a logout in one process refuses the token in the other at once', async () => {
    await start();
    const session = await registerUser(server, { email: 'leave@example.com' });
    const second = await login('leave@example.com', session.password);
    await warm(session.accessToken, second.accessToken);

    expect((await server.call('POST', '/api/user/logout', undefined, { token: session.accessToken })).body.code).toBe(0);
    const refused = await meThere(session.accessToken);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe(ErrorCode.UNAUTHORIZED);
    expect((await server.call('GET', '/api/user/me', undefined, { token: session.accessToken })).status).toBe(401);
    // The user's other session goes on, from memory still.
    expect((await meThere(second.accessToken)).body.code).toBe(0);
  });

  it('a password change in one process ends the other sessions in the other at once', async () => {
    await start();
    const session = await registerUser(server, { email: 'change@example.com' });
    const second = await login('change@example.com', session.password);
    await warm(session.accessToken, second.accessToken);

    const changed = await server.call('POST', '/api/user/change-password', { oldPassword: session.password, newPassword: 'Brand-New-Passw0rd!', secondPassword: 'Brand-New-Passw0rd!' }, { token: session.accessToken });
    expect(changed.body.code).toBe(0);
    expect((await meThere(second.accessToken)).status).toBe(401);
    expect((await server.call('GET', '/api/user/me', undefined, { token: second.accessToken })).status).toBe(401);
    // The session that changed it stays.
    expect((await meThere(session.accessToken)).body.code).toBe(0);
  });

  it('a logout in the second process refuses the token in the first at once', async () => {
    await start();
    const session = await registerUser(server, { email: 'there@example.com' });
    await warm(session.accessToken);
    const logout = await fetch(`${otherBase}/api/user/logout`, { method: 'POST', headers: { authorization: `Bearer ${session.accessToken}` } });
    expect(((await logout.json()) as { code: number }).code).toBe(0);
    expect((await server.call('GET', '/api/user/me', undefined, { token: session.accessToken })).status).toBe(401);
  });

  it('any writer counts: sessions ended, a user disabled or made an operator in the database directly', async () => {
    await start();
    const first = await registerUser(server, { email: 'direct@example.com' });
    const second = await login('direct@example.com', first.password);
    await warm(first.accessToken, second.accessToken);

    await server.db.updateTable('sessions').set({ revoked_at: sql`now()` }).where('user_id', '=', first.user.id).where('id', '=', sql<string>`(select id from sessions where user_id = ${first.user.id} order by created_at limit 1)`).execute();
    await heard();
    const codes = [(await meThere(first.accessToken)).status, (await meThere(second.accessToken)).status].sort();
    expect(codes).toEqual([200, 401]);

    // The role comes from the database: an operator's calls open as soon as it is granted.
    const live = (await meThere(first.accessToken)).status === 200 ? first.accessToken : second.accessToken;
    const settings = async () => ((await (await fetch(`${otherBase}/api/admin/settings`, { headers: { authorization: `Bearer ${live}` } })).json()) as { code: number }).code;
    expect(await settings()).toBe(ErrorCode.UNAUTHORIZED);
    await server.db.updateTable('users').set({ role: 'operator' }).where('id', '=', first.user.id).execute();
    await heard();
    expect(await settings()).toBe(0);

    await server.db.updateTable('users').set({ disabled: true }).where('id', '=', first.user.id).execute();
    await heard();
    expect((await meThere(live)).status).toBe(401);
    expect((await server.call('GET', '/api/user/me', undefined, { token: live })).status).toBe(401);
    await server.db.updateTable('users').set({ disabled: false }).where('id', '=', first.user.id).execute();
    await heard();
    expect((await meThere(live)).body.code).toBe(0);
  });

  it('signs in and out many times without keeping ended sessions', async () => {
    await start();
    const session = await registerUser(server, { email: 'many@example.com' });
    for (let i = 0; i < 5; i++) {
      const next = await login('many@example.com', session.password);
      await warm(next.accessToken);
      expect((await server.call('POST', '/api/user/logout', undefined, { token: next.accessToken })).body.code).toBe(0);
      expect((await meThere(next.accessToken)).status).toBe(401);
    }
    // No ended session is left in either process's memory.
    expect(other.sessionCache.size()).toBe(0);
    expect(server.app.sessionCache.size()).toBe(0);
  });

  if (backend === 'postgres') it('keeps nothing while its listening connection is down, and starts afresh once back', async () => {
    await start();
    const session = await registerUser(server, { email: 'cut@example.com' });
    await warm(session.accessToken);
    const pid = other.sessionCache.listenerPid();
    expect(pid).toBeTypeOf('number');

    // The listening connection of the second process is cut: it forgets what it kept and asks the database.
    await sql`select pg_terminate_backend(${pid})`.execute(server.db);
    const cut = Date.now();
    while (other.sessionCache.listening()) {
      if (Date.now() - cut > 10_000) throw new Error('the cut connection was not noticed');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(other.sessionCache.size()).toBe(0);
    // A session ended meanwhile (its notice is lost for the cut connection) is refused there at once.
    await server.db.updateTable('sessions').set({ revoked_at: sql`now()` }).where('user_id', '=', session.user.id).execute();
    expect((await meThere(session.accessToken)).status).toBe(401);
    const next = await login('cut@example.com', session.password);
    expect((await meThere(next.accessToken)).body.code).toBe(0);
    if (!other.sessionCache.listening()) expect(other.sessionCache.size()).toBe(0);

    // Back on a new connection, it starts afresh and keeps sessions again.
    while (!other.sessionCache.listening()) {
      if (Date.now() - cut > 10_000) throw new Error('the listening connection did not come back');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(other.sessionCache.listenerPid()).not.toBe(pid);
    expect((await meThere(session.accessToken)).status).toBe(401);
    expect((await meThere(next.accessToken)).body.code).toBe(0);
    expect(other.sessionCache.size()).toBeGreaterThanOrEqual(1);
    expect((await server.call('POST', '/api/user/logout', undefined, { token: next.accessToken })).body.code).toBe(0);
    expect((await meThere(next.accessToken)).status).toBe(401);
  });
});
