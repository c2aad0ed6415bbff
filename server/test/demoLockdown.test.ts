import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/api/errors';
import { hashPassword } from '../src/shared/passwords';
import { DEMO_EMAIL, DEMO_PASSWORD, ensureDemoAccount } from '../src/demo/account';
import { NotifyChannelEndpoint } from '../../src/api/notifyChannels';
import { BACKENDS, startServer, type TestServer } from './harness';

/**
 * The demo account is shared by every visitor (README "Run"): nobody takes it
 * over or changes it for the others, one visitor's wrong passwords lock
 * nobody out, and visitors never see or end each other's sessions.
 */
describe.each(BACKENDS)('the shared demo account cannot be taken over (%s)', (backend) => {
  let server: TestServer;
  const demoRefusal = { code: ErrorCode.UNAUTHORIZED, data: { reason: 'demo_account' } };

  /** One visitor: a login of their own, in their own browser. */
  const visit = async (browser: string) => {
    const login = await server.call('POST', '/api/user/login', { email: DEMO_EMAIL, password: DEMO_PASSWORD }, { headers: { 'User-Agent': browser } });
    expect(login.body.code).toBe(0);
    const token = login.body.data.accessToken as string;
    return {
      token,
      refreshToken: login.body.data.refreshToken as string,
      call: (method: string, path: string, body?: unknown) => server.call(method, path, body, { token, headers: { 'User-Agent': browser } }),
    };
  };
  const counters = async () => (await server.db.selectFrom('throttle_counters').select(['key', 'count']).execute()).filter((row) => row.key.includes(DEMO_EMAIL));

  beforeAll(async () => {
    server = await startServer(backend);
    await ensureDemoAccount(server.db, server.config.scryptCost);
  });
  afterAll(async () => server?.close());

  it('refuses a password change with 11005 demo_account, counts nothing, and the published password keeps working for everyone', async () => {
    const alice = await visit('Alice Browser');
    const bob = await visit('Bob Browser');
    const changed = await alice.call('POST', '/api/user/change-password', { oldPassword: DEMO_PASSWORD, newPassword: 'Taken-Over-2026!', secondPassword: 'Taken-Over-2026!' });
    expect(changed.body).toMatchObject(demoRefusal);
    // A wrong old password is refused the same way, before it is checked or counted.
    const guessed = await alice.call('POST', '/api/user/change-password', { oldPassword: 'wrong-guess-1', newPassword: 'Taken-Over-2026!', secondPassword: 'Taken-Over-2026!' });
    expect(guessed.body).toMatchObject(demoRefusal);
    expect((await bob.call('GET', '/api/user/me')).body.code).toBe(0);
    expect((await server.call('POST', '/api/user/login', { email: DEMO_EMAIL, password: DEMO_PASSWORD })).body.code).toBe(0);
    expect((await server.call('POST', '/api/user/login', { email: DEMO_EMAIL, password: 'Taken-Over-2026!' })).body.code).toBe(ErrorCode.PASSWORD_ERROR);
  });

  it('refuses a password reset by e-mail code: no code is sent and no reset is accepted', async () => {
    const mails = server.outbox().length;
    expect((await server.call('POST', '/api/user/verify-code', { email: DEMO_EMAIL, type: 'reset' })).body).toMatchObject(demoRefusal);
    expect(server.outbox()).toHaveLength(mails);
    const reset = await server.call('POST', '/api/user/reset-password', { email: DEMO_EMAIL, newPassword: 'Taken-Over-2026!', captcha: '123456' });
    expect(reset.body).toMatchObject(demoRefusal);
    expect((await server.call('POST', '/api/user/login', { email: 'Demo@Example.com', password: DEMO_PASSWORD })).body.code).toBe(0);
  });

  it('keeps its nickname and avatar: a profile edit is refused and changes nothing', async () => {
    const alice = await visit('Alice Browser');
    const before = (await alice.call('GET', '/api/user/me')).body.data;
    expect((await alice.call('POST', '/api/user/profile', { nickname: 'Owned by Alice' })).body).toMatchObject(demoRefusal);
    expect((await alice.call('GET', '/api/user/me')).body.data).toEqual(before);
  });

  it('grants no widget access and lets nobody revoke one', async () => {
    const alice = await visit('Alice Browser');
    expect((await alice.call('POST', '/api/user/widget-token', { name: 'My blog', origin: 'https://blog.example' })).body).toMatchObject(demoRefusal);
    expect((await alice.call('POST', '/api/user/widget-tokens/revoke', { id: '00000000-0000-4000-8000-000000000000' })).body).toMatchObject(demoRefusal);
    expect(await server.db.selectFrom('widget_grants').select('id').execute()).toEqual([]);
  });

  it('shows each visitor only their own session, and no visitor ends another one', async () => {
    const alice = await visit('Alice Browser');
    const bob = await visit('Bob Browser');
    const seen = (await alice.call('GET', '/api/user/sessions')).body.data as { id: string; userAgent: string | null; current: boolean }[];
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ userAgent: 'Alice Browser', current: true });
    const bobs = (await bob.call('GET', '/api/user/sessions')).body.data as { id: string; userAgent: string | null }[];
    expect(bobs).toEqual([expect.objectContaining({ userAgent: 'Bob Browser' })]);
    // Alice knows Bob's session id (say it leaked): it is answered as an unknown one, and Bob stays logged in.
    expect((await alice.call('POST', '/api/user/sessions/revoke', { id: bobs[0]!.id })).body.code).toBe(ErrorCode.PARAM_NOT_EXIST);
    expect((await bob.call('GET', '/api/user/me')).body.code).toBe(0);
    expect((await server.call('PUT', '/api/user/refresh', { refreshToken: bob.refreshToken })).body.code).toBe(0);
    // Her own session she may end.
    expect((await alice.call('POST', '/api/user/sessions/revoke', { id: seen[0]!.id })).body.code).toBe(0);
    expect((await alice.call('GET', '/api/user/me')).status).toBe(401);
  });

  it("shows no visitor's sign-in to the others and links no notification channel: its preferences stay everyone's", async () => {
    await visit('Alice Browser');
    const bob = await visit('Bob Browser on another device');
    const inbox = (await bob.call('GET', '/api/notifications')).body;
    expect(inbox.code).toBe(0);
    expect(JSON.stringify(inbox.data)).not.toContain('Alice Browser');
    expect(await server.db.selectFrom('notification_events').select('kind').where('kind', '=', 'user.new_login').execute()).toEqual([]);

    const before = (await bob.call('GET', '/api/notifications/preferences')).body.data;
    expect((await bob.call('PUT', '/api/notifications/preferences', { list: [{ kind: 'trade.cycle_closed', channel: 'email', enabled: false }] })).body).toMatchObject(demoRefusal);
    expect((await bob.call('GET', '/api/notifications/preferences')).body.data).toEqual(before);
    expect((await bob.call('POST', NotifyChannelEndpoint.webhookSave, { url: 'https://hooks.example.com/demo' })).body).toMatchObject(demoRefusal);
    expect((await bob.call('POST', NotifyChannelEndpoint.pushSubscribe, { endpoint: 'https://push.example.com/x', keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) } })).body).toMatchObject(demoRefusal);
    expect(await server.db.selectFrom('webhooks').select('url').execute()).toEqual([]);
    expect(await server.db.selectFrom('push_subscriptions').select('endpoint').execute()).toEqual([]);
    // Reading stays open: the channels' state answers.
    expect((await bob.call('GET', NotifyChannelEndpoint.state)).body.code).toBe(0);
  });

  it("one visitor's wrong passwords lock nobody out, and there is no cap on the account's logins", async () => {
    for (let i = 0; i < 7; i += 1) {
      expect((await server.call('POST', '/api/user/login', { email: DEMO_EMAIL, password: `wrong-guess-${i}` })).body.code).toBe(ErrorCode.PASSWORD_ERROR);
    }
    for (let i = 0; i < 12; i += 1) {
      expect((await server.call('POST', '/api/user/login', { email: DEMO_EMAIL, password: DEMO_PASSWORD })).body.code).toBe(0);
    }
    // Nothing is counted against the account itself (each caller's address keeps its own limits).
    expect(await counters()).toEqual([]);
  });

  it('gets its published password back on the next start if it was changed before', async () => {
    const alice = await visit('Alice Browser');
    await server.db.updateTable('users').set({ password_hash: await hashPassword('Changed-Long-Ago-1!', server.config.scryptCost) }).where('email', '=', DEMO_EMAIL).execute();
    expect(await ensureDemoAccount(server.db, server.config.scryptCost)).toEqual({ email: DEMO_EMAIL, password: DEMO_PASSWORD });
    expect((await server.call('POST', '/api/user/login', { email: DEMO_EMAIL, password: DEMO_PASSWORD })).body.code).toBe(0);
    // Whoever held it with the other password is logged out.
    expect((await alice.call('GET', '/api/user/me')).status).toBe(401);
  });
});

describe("the login page's one-tap demo (GET /api/user/demo)", () => {
  it('answers the published login only where the demo account exists: the embedded database, DEMO_ACCOUNT on', async () => {
    const withDemo = await startServer('pglite', { demoAccount: true });
    const without = await startServer('pglite');
    try {
      expect((await withDemo.call('GET', '/api/user/demo')).body).toMatchObject({ code: 0, data: { email: DEMO_EMAIL, password: DEMO_PASSWORD } });
      expect((await without.call('GET', '/api/user/demo')).body).toMatchObject({ code: 0, data: null });
    } finally {
      await withDemo.close();
      await without.close();
    }
  });
});
