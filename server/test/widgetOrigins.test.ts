import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WIDGET_READ_CALLS } from '../../src/api/widget';
import { BACKENDS, registerUser, startServer, type TestServer } from './harness';

/**
 * Widget grants bound to the origin the user authorised (README "Widget
 * tokens"): the widgets' read calls carrying a grant's token are opened
 * (CORS, preflight included) to that origin and only to it; nothing else is.
 */

const BLOG = 'http://127.0.0.2:4173';
const OTHER_SITE = 'https://other.example';
const STRANGER = 'https://stranger.example';
const A_UUID = '00000000-0000-4000-8000-000000000001';

interface Raw {
  status: number;
  headers: Headers;
  text: string;
}

describe.each(BACKENDS)('widget grants bound to an origin (%s)', (backend) => {
  let server: TestServer;
  let session: Awaited<ReturnType<typeof registerUser>>;

  beforeEach(async () => {
    server = await startServer(backend);
    session = await registerUser(server, { email: 'origins@example.com', nickname: 'Olga' });
  });
  afterEach(async () => server.close());

  const issue = async (origin: string, name = 'My blog') => {
    const answer = await server.call('POST', '/api/user/widget-token', { name, origin }, { token: session.accessToken });
    expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
    return answer.body.data as { id: string; origin: string; embedToken: string; token: string; key: string };
  };
  /** A browser's call: its Origin, maybe a token, maybe a preflight's headers. */
  const raw = async (method: string, path: string, headers: Record<string, string>): Promise<Raw> => {
    await server.app.sessionCache.sync();
    const response = await fetch(`${server.base}${path}`, { method, headers });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
  const read = (origin: string | undefined, token: string, path = '/api/wallet/balances', method = 'GET') =>
    raw(method, path, { ...(origin ? { Origin: origin } : {}), Authorization: `Bearer ${token}`, 'Accept-Language': 'en-US' });
  const preflight = (origin: string, path: string, method = 'GET') =>
    raw('OPTIONS', path, { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'authorization,accept-language' });
  const body = (answer: Raw) => JSON.parse(answer.text) as { code: number; data: unknown };

  it('binds a grant to the origin typed, checked as scheme, host and port only; bad origins create nothing', async () => {
    const grant = await issue('  http://127.0.0.2:4173/ ');
    expect(grant.origin).toBe(BLOG);
    expect(grant.embedToken).toMatch(/^qtw_[A-Za-z0-9_-]{40,}$/);
    expect((await issue('HTTPS://Other.Example:443', 'other')).origin).toBe(OTHER_SITE);

    for (const origin of ['https://blog.example/path', 'https://blog.example/?x=1', 'https://blog.example#top', 'ftp://blog.example', 'blog.example', 'https://me@blog.example', 'javascript:alert(1)', 'https://']) {
      const answer = await server.call('POST', '/api/user/widget-token', { name: 'bad', origin }, { token: session.accessToken });
      expect({ origin, code: answer.body.code, field: answer.body.data?.field }).toEqual({ origin, code: 10003, field: 'origin' });
    }
    expect((await server.call('POST', '/api/user/widget-token', { name: 'none' }, { token: session.accessToken })).body.code).toBe(10000);
    const listed = (await server.call('GET', '/api/user/widget-tokens', undefined, { token: session.accessToken })).body.data as { name: string; origin: string }[];
    expect(listed.map((g) => [g.name, g.origin])).toEqual([
      ['other', OTHER_SITE],
      ['My blog', BLOG],
    ]);
    // The embed token is never written to the log.
    expect(server.logs.join('')).not.toContain(grant.embedToken);
  });

  it("answers CORS per origin: the grant's origin gets the widget reads with its token, preflight included; other origins get nothing", async () => {
    const grant = await issue(BLOG);
    const mine = await read(undefined, grant.embedToken);

    // Preflight of a widget read from the grant's origin.
    const allowed = await preflight(BLOG, '/api/trade/list?page=1&pageSize=5&running=true');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(BLOG);
    expect(allowed.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();

    // The call itself, with the embed token and with a short-lived token of the same grant.
    for (const token of [grant.embedToken, grant.token]) {
      const answer = await read(BLOG, token);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-allow-origin')).toBe(BLOG);
      expect(body(answer)).toEqual(body(mine));
    }

    // An origin no grant names: no preflight, no CORS header on the call, and its token is refused there.
    const refusedPreflight = await preflight(STRANGER, '/api/wallet/balances');
    expect(refusedPreflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(refusedPreflight.status).not.toBe(204);
    const refused = await read(STRANGER, grant.embedToken);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(body(refused)).toMatchObject({ code: 11005, data: { reason: 'origin' } });
  });

  it("refuses a grant's token from another grant's origin, and the user's own access token from a grant's origin", async () => {
    const blog = await issue(BLOG);
    await issue(OTHER_SITE, 'other');
    for (const token of [blog.embedToken, blog.token]) {
      const answer = await read(OTHER_SITE, token);
      // The other origin may read the refusal (a grant names it), never the data.
      expect(answer.headers.get('access-control-allow-origin')).toBe(OTHER_SITE);
      expect(body(answer)).toEqual({ code: 11005, message: expect.any(String), data: { reason: 'origin' } });
    }
    const own = await read(BLOG, session.accessToken);
    expect(body(own)).toMatchObject({ code: 11005, data: { reason: 'origin' } });
    // Without an Origin (a server, or the dashboard's own origin) the token reads as before.
    expect(body(await read(undefined, blog.embedToken)).code).toBe(0);
  });

  it('revoking ends a long-lived embed grant at once, and its widgets can read why', async () => {
    const grant = await issue(BLOG);
    expect(body(await read(BLOG, grant.embedToken)).code).toBe(0);
    expect((await server.call('POST', '/api/user/widget-tokens/revoke', { id: grant.id }, { token: session.accessToken })).body.code).toBe(0);
    for (const token of [grant.embedToken, grant.token]) {
      const answer = await read(BLOG, token);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('access-control-allow-origin')).toBe(BLOG);
      expect(body(answer)).toMatchObject({ code: 11005, data: { reason: 'revoked' } });
    }
    expect((await server.call('PUT', '/api/user/widget-token', { key: grant.key })).body.code).toBe(11005);
  });

  it('answers HEAD as GET for a widget token, from the grant origin too', async () => {
    const grant = await issue(BLOG);
    for (const path of ['/api/wallet/balances', '/api/trade/profit-summary?timeZone=UTC']) {
      const get = await read(BLOG, grant.embedToken, path);
      expect(body(get).code).toBe(0);
      const head = await read(BLOG, grant.embedToken, path, 'HEAD');
      expect({ path, status: head.status, text: head.text, length: head.headers.get('content-length'), origin: head.headers.get('access-control-allow-origin') }).toEqual({
        path,
        status: 200,
        text: '',
        length: get.headers.get('content-length'),
        origin: BLOG,
      });
    }
  });

  it('never opens any other call to the grant origin, preflight or not', async () => {
    const grant = await issue(BLOG);
    const document = (await server.call('GET', '/api/openapi.json')).body as unknown as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, A_UUID) })),
    );
    expect(routes.length).toBeGreaterThan(60);
    const opened: string[] = [];
    for (const { method, path } of routes) {
      const asked = await preflight(BLOG, path, method);
      if (asked.headers.get('access-control-allow-origin') !== null) opened.push(`OPTIONS ${method} ${path}`);
      const headers: Record<string, string> = { Origin: BLOG, Authorization: `Bearer ${grant.embedToken}` };
      const answer = await raw(method, path, headers);
      if (answer.headers.get('access-control-allow-origin') !== null) opened.push(`${method} ${path}`);
    }
    const widgetReads = WIDGET_READ_CALLS.map((call) => call.split(' ')[1]);
    expect(opened.sort()).toEqual([...widgetReads.map((path) => `GET ${path}`), ...widgetReads.map((path) => `OPTIONS GET ${path}`)].sort());
  });

  it('CORS_ORIGINS still get every call; a grant made before origins reads from them and from no grant origin', async () => {
    await server.close();
    const PARTNER = 'https://partner.example';
    server = await startServer(backend, { corsOrigins: [PARTNER] });
    session = await registerUser(server, { email: 'partner-origins@example.com' });
    const asked = await preflight(PARTNER, '/api/trade/add', 'POST');
    expect(asked.status).toBe(204);
    expect(asked.headers.get('access-control-allow-origin')).toBe(PARTNER);
    expect(asked.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, DELETE');
    const me = await read(PARTNER, session.accessToken, '/api/user/me');
    expect(me.headers.get('access-control-allow-origin')).toBe(PARTNER);
    expect(me.headers.get('access-control-expose-headers')).toBe('Content-Range, X-Answer-Code');
    expect(body(me).code).toBe(0);

    // A grant of before: no origin of its own.
    const old = await issue(BLOG);
    await server.db.updateTable('widget_grants').set({ origin: null }).where('id', '=', old.id).execute();
    expect(body(await read(PARTNER, old.token)).code).toBe(0);
    expect(body(await read(undefined, old.token)).code).toBe(0);
    const elsewhere = await read(BLOG, old.token);
    expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
    expect(body(elsewhere)).toMatchObject({ code: 11005, data: { reason: 'origin' } });
    const listed = (await server.call('GET', '/api/user/widget-tokens', undefined, { token: session.accessToken })).body.data as { origin: string | null }[];
    expect(listed.map((g) => g.origin)).toEqual([null]);
  });
});
