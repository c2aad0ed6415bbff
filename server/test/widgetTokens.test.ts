import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WIDGET_GRANT_LIMIT, WIDGET_READ_CALLS } from '../../src/api/widget';
import { createWidgetTokens } from '../src/widget/tokens';
import { BACKENDS, registerUser, startServer, type TestServer } from './harness';

const A_UUID = '00000000-0000-4000-8000-000000000001';
const SITE = 'https://partner.example';

/** Every route the server publishes, as `METHOD path` with its path parameters filled in. */
const publishedRoutes = async (server: TestServer) => {
  const document = (await server.call('GET', '/api/openapi.json')).body as unknown as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, A_UUID) })),
  );
};

describe.each(BACKENDS)('widget tokens (%s)', (backend) => {
  let server: TestServer;
  let session: Awaited<ReturnType<typeof registerUser>>;

  beforeEach(async () => {
    server = await startServer(backend);
    session = await registerUser(server, { email: 'wendy@example.com', nickname: 'Wendy' });
  });
  afterEach(async () => server.close());

  const call = (method: string, path: string, body?: unknown, token = session.accessToken) => server.call(method, path, body, { token });
  const issue = async (name = 'Partner blog', ttlSeconds?: number) => {
    const answer = await call('POST', '/api/user/widget-token', { name, origin: SITE, ...(ttlSeconds ? { ttlSeconds } : {}) });
    expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
    return answer.body.data as { id: string; name: string; token: string; key: string; expiresAt: string };
  };
  const widgetRead = (token: string) => call('GET', '/api/wallet/balances', undefined, token);

  it('issues a grant with a token of at most an hour and a partner key; refuses bad requests and creates nothing', async () => {
    const before = Date.now();
    const grant = await issue('  Partner blog  ');
    expect(grant).toMatchObject({ name: 'Partner blog', id: expect.any(String), token: expect.any(String), key: expect.any(String) });
    const lifetime = Date.parse(grant.expiresAt) - before;
    expect(lifetime).toBeGreaterThan(3590_000);
    expect(lifetime).toBeLessThanOrEqual(3601_000);
    expect(Date.parse((await issue('Short', 600)).expiresAt) - before).toBeLessThanOrEqual(601_000);

    const refusals: [unknown, number][] = [
      [{ name: 'x', origin: SITE, ttlSeconds: 3601 }, 10002],
      [{ name: 'x', origin: SITE, ttlSeconds: 59 }, 10002],
      [{ name: 'x', origin: SITE, ttlSeconds: '600' }, 10001],
      [{ name: '', origin: SITE }, 10004],
      [{ name: '   ', origin: SITE }, 10003],
      [{ name: 'x'.repeat(41), origin: SITE }, 10004],
      [{ name: '<b>', origin: SITE }, 10003],
      [{ name: 'x', origin: SITE, scope: 'all' }, 10008],
      [{}, 10000],
    ];
    for (const [body, code] of refusals) expect((await call('POST', '/api/user/widget-token', body)).body.code, JSON.stringify(body)).toBe(code);
    expect((await server.call('POST', '/api/user/widget-token', { name: 'x' })).status).toBe(401);
    expect((await call('GET', '/api/user/widget-tokens')).body.data.map((g: { name: string }) => g.name)).toEqual(['Short', 'Partner blog']);
    // Neither the token nor the key is ever written to the log.
    const logs = server.logs.join('');
    expect(logs).not.toContain(grant.token);
    expect(logs).not.toContain(grant.key);
  });

  it("opens the widgets' read calls with the same answers the user gets", async () => {
    const { token } = await issue();
    expect(WIDGET_READ_CALLS).toEqual(['GET /api/trade/profit-summary', 'GET /api/profit/summary', 'GET /api/trade/list', 'GET /api/wallet/balances']);
    for (const path of ['/api/trade/profit-summary?timeZone=UTC', '/api/profit/summary?timeZone=UTC&days=14', '/api/trade/list?page=1&pageSize=5&running=true', '/api/wallet/balances']) {
      const asWidget = await call('GET', path, undefined, token);
      expect(asWidget.status, path).toBe(200);
      expect(asWidget.body.code, path).toBe(0);
      expect(asWidget.body.data, path).toEqual((await call('GET', path)).body.data);
    }
  });

  it('is refused with 11005 by every other call that needs a login, which then changes nothing', async () => {
    const { token } = await issue();
    const routes = await publishedRoutes(server);
    expect(routes.length).toBeGreaterThan(60);
    let refused = 0;
    for (const { method, path } of routes) {
      const body = method === 'GET' ? undefined : {};
      // Calls that answer without a login give a widget token nothing either.
      if ((await server.call(method, path, body)).status !== 401) continue;
      const answer = await call(method, path, body, token);
      if (WIDGET_READ_CALLS.includes(`${method} ${path}`)) {
        expect(answer.body.code, `${method} ${path}`).not.toBe(11005);
        continue;
      }
      expect({ route: `${method} ${path}`, status: answer.status, code: answer.body.code }).toEqual({ route: `${method} ${path}`, status: 200, code: 11005 });
      refused += 1;
    }
    expect(refused).toBeGreaterThan(50);
    // It cannot make more of itself, nor end the user's sessions.
    expect((await call('POST', '/api/user/widget-token', { name: 'again', origin: SITE }, token)).body.code).toBe(11005);
    expect((await call('GET', '/api/user/widget-tokens')).body.data).toHaveLength(1);
    expect((await call('GET', '/api/user/me')).body.code).toBe(0);
  });

  it('a partner backend refreshes with its key; revoking ends the tokens and the key at once', async () => {
    const grant = await issue();
    const refreshed = await server.call('PUT', '/api/user/widget-token', { key: grant.key, ttlSeconds: 900 });
    expect(refreshed.body).toMatchObject({ code: 0, data: { id: grant.id, token: expect.any(String) } });
    const fresh = refreshed.body.data.token as string;
    expect(fresh).not.toBe(grant.token);
    expect((await widgetRead(fresh)).body.code).toBe(0);
    const [listed] = (await call('GET', '/api/user/widget-tokens')).body.data;
    expect(listed).toEqual({ id: grant.id, name: 'Partner blog', origin: SITE, createdAt: expect.any(String), lastIssuedAt: expect.any(String), expiresAt: refreshed.body.data.expiresAt });
    expect(listed).not.toHaveProperty('key');

    for (const key of ['not-a-key-at-all-but-long-enough', `${grant.key}x`]) {
      expect(await server.call('PUT', '/api/user/widget-token', { key })).toMatchObject({ status: 200, body: { code: 11005 } });
    }
    expect((await server.call('PUT', '/api/user/widget-token', { key: grant.key, ttlSeconds: 7200 })).body.code).toBe(10002);

    // Someone else's grant is not theirs to revoke.
    const other = await registerUser(server, { email: 'otto@example.com' });
    expect((await call('POST', '/api/user/widget-tokens/revoke', { id: grant.id }, other.accessToken)).body.code).toBe(10006);
    expect((await widgetRead(fresh)).body.code).toBe(0);

    expect((await call('POST', '/api/user/widget-tokens/revoke', { id: grant.id })).body.code).toBe(0);
    for (const token of [grant.token, fresh]) expect((await widgetRead(token)).status).toBe(401);
    expect((await server.call('PUT', '/api/user/widget-token', { key: grant.key })).body.code).toBe(11005);
    expect((await call('GET', '/api/user/widget-tokens')).body.data).toEqual([]);
    expect((await call('POST', '/api/user/widget-tokens/revoke', { id: grant.id })).body.code).toBe(0);
    expect((await call('POST', '/api/user/widget-tokens/revoke', { id: 'nope' })).body.code).toBe(10003);
  });

  it('ends with a password change, a disabled account and its own expiry', async () => {
    const kept = await issue('before');
    const expired = await createWidgetTokens(server.config.tokenSecret).issue({ userId: session.user.id, grantId: kept.id }, 60, Math.floor(Date.now() / 1000) - 120);
    expect((await widgetRead(expired)).status).toBe(401);
    // A token signed with the access tokens' key is no widget token.
    expect((await widgetRead(`${kept.token.slice(0, -4)}AAAA`)).status).toBe(401);

    const changed = await call('POST', '/api/user/change-password', { oldPassword: session.password, newPassword: 'Another-Passw0rd!', secondPassword: 'Another-Passw0rd!' });
    expect(changed.body.code).toBe(0);
    expect((await widgetRead(kept.token)).status).toBe(401);
    expect((await server.call('PUT', '/api/user/widget-token', { key: kept.key })).body.code).toBe(11005);
    expect((await call('GET', '/api/user/widget-tokens')).body.data).toEqual([]);

    const after = await issue('after');
    expect((await widgetRead(after.token)).body.code).toBe(0);
    await server.db.updateTable('users').set({ disabled: true }).where('id', '=', session.user.id).execute();
    expect((await widgetRead(after.token)).status).toBe(401);
    expect((await server.call('PUT', '/api/user/widget-token', { key: after.key })).body.code).toBe(11005);
  });

  it(`holds at most ${WIDGET_GRANT_LIMIT} live grants`, async () => {
    const grants = await Promise.all(Array.from({ length: WIDGET_GRANT_LIMIT }, (_, i) => call('POST', '/api/user/widget-token', { name: `site ${i}`, origin: SITE })));
    expect(grants.every((g) => g.body.code === 0)).toBe(true);
    expect((await call('POST', '/api/user/widget-token', { name: 'one more', origin: SITE })).body).toMatchObject({ code: 10005, data: { max: WIDGET_GRANT_LIMIT } });
    await call('POST', '/api/user/widget-tokens/revoke', { id: grants[0]!.body.data.id });
    expect((await call('POST', '/api/user/widget-token', { name: 'one more', origin: SITE })).body.code).toBe(0);
  });
});
