import { beforeEach, describe, it, expect, vi } from 'vitest';
import { computeSign } from '../api/signing';
import type { User } from '../api/types';
import { ApiError, isApiError } from '../dataProvider/ApiError';
import { createHttpClient } from '../dataProvider/httpClient';
import { createI18nProvider } from '../i18n/i18nProvider';
import { createFakeServer, fail, ok, unauthorized, type Handler, type RecordedRequest } from '../testing/fakeServer';
import { LOGIN_ROUTE, createAuthProvider, guardDecision, type GuardDecision } from './authProvider';
import { createSessionStore } from './session';

const SECRET = 'auth-provider-test-secret';

const USER: User = {
  id: 'u1',
  email: 'alice@example.com',
  nickname: '小明',
  avatar: null,
  inviteCode: 'INV1',
  level: 1,
  activated: true,
  role: 'user',
};

const loginAnswer = () => ok({ accessToken: 'at-1', refreshToken: 'rt-1.0123456789abcdefgh', user: USER });

const setup = (routes: Record<string, Handler>) => {
  const server = createFakeServer(routes);
  const store = createSessionStore();
  const onSessionExpired = vi.fn();
  const http = createHttpClient({
    baseUrl: '',
    signSecret: SECRET,
    tokens: store,
    getLocale: () => 'zh-CN',
    onSessionExpired,
    fetch: server.fetch,
  });
  const provider = createAuthProvider(http, store);
  const of = (route: string) => server.requests.filter((r) => `${r.method} ${r.path}` === route);
  return { provider, http, store, server, of, onSessionExpired };
};

const verifies = (request: RecordedRequest) => {
  const { uuid, timestamp, sign, ...fields } = request.body ?? {};
  return computeSign(request.method, request.path, fields, uuid as string, timestamp as number, SECRET) === sign;
};

const rejection = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
};

beforeEach(async () => {
  localStorage.clear();
  sessionStorage.clear();
  const i18n = await createI18nProvider();
  await i18n.changeLocale('zh-CN');
});

describe('authProvider.login', () => {
  it('remember me on: logged in with both tokens in localStorage, redirect to /', async () => {
    const { provider, store, of } = setup({ 'POST /api/user/login': loginAnswer });
    await expect(provider.login({ email: 'alice@example.com', password: 'pw', rememberMe: true })).resolves.toEqual({
      redirectTo: '/',
    });
    expect(localStorage.getItem('accessToken')).toBe('at-1');
    expect(localStorage.getItem('refreshToken')).toBe('rt-1.0123456789abcdefgh');
    expect(sessionStorage.length).toBe(0);
    expect(store.getAccessToken()).toBe('at-1');
    const [request] = of('POST /api/user/login');
    expect(Object.keys(request!.body!).sort()).toEqual(['email', 'password', 'sign', 'timestamp', 'uuid']);
    expect(request!.body).toMatchObject({ email: 'alice@example.com', password: 'pw' });
    expect(verifies(request!)).toBe(true);
    expect(request!.headers).not.toHaveProperty('Authorization');
  });

  it('remember me off (the default): only the access token, in sessionStorage', async () => {
    const { provider, store } = setup({ 'POST /api/user/login': loginAnswer });
    await expect(provider.login({ email: 'alice@example.com', password: 'pw' })).resolves.toEqual({ redirectTo: '/' });
    expect(sessionStorage.getItem('accessToken')).toBe('at-1');
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    expect(store.getRefreshToken()).toBe('rt-1.0123456789abcdefgh');
    await expect(provider.checkAuth()).resolves.toBeUndefined();
  });

  it('a refused login stores nothing and rejects with the localized catalogue text', async () => {
    const { provider, store } = setup({ 'POST /api/user/login': () => fail(11002, 'wrong password') });
    const error = await rejection(provider.login({ email: 'alice@example.com', password: 'bad', rememberMe: true }));
    expect(isApiError(error)).toBe(true);
    expect((error as ApiError).code).toBe(11002);
    expect((error as ApiError).message).toBe('密码错误');
    expect(store.getAccessToken()).toBeNull();
    expect(store.getRefreshToken()).toBeNull();
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    expect(sessionStorage.getItem('accessToken')).toBeNull();
  });

  it('the identity comes from the login answer, without another call', async () => {
    const { provider, server } = setup({ 'POST /api/user/login': loginAnswer });
    await provider.login({ email: 'alice@example.com', password: 'pw' });
    const identity = await provider.getIdentity();
    expect(identity).toMatchObject({ id: 'u1', fullName: '小明' });
    expect(server.calls()).toBe(1);
    await expect(provider.getPermissions()).resolves.toBe('user');
  });

  it('answers a changed user (profile edit) from then on, still without a call', async () => {
    const { provider, server } = setup({ 'POST /api/user/login': loginAnswer });
    await provider.login({ email: 'alice@example.com', password: 'pw' });
    const before = await provider.getIdentity();
    provider.rememberIdentity({ ...(before as unknown as User), nickname: '新名字', activated: true });
    expect(await provider.getIdentity()).toMatchObject({ id: 'u1', fullName: '新名字', activated: true });
    expect(server.calls()).toBe(1);
  });
});

describe('authProvider.register', () => {
  const fields = {
    email: 'bob@example.com',
    nickname: '小红',
    password: 'Secret#1',
    secondPassword: 'Secret#1',
    captcha: '123456',
    inviteCode: 'INV42',
    rememberMe: true,
  };

  it('sends all register fields signed and ends logged in (remember me on)', async () => {
    const { provider, of } = setup({ 'POST /api/user/register': loginAnswer });
    const answer = await provider.register(fields);
    expect(answer).toMatchObject({ accessToken: 'at-1', refreshToken: 'rt-1.0123456789abcdefgh' });
    const [request] = of('POST /api/user/register');
    expect(Object.keys(request!.body!).sort()).toEqual(
      ['captcha', 'email', 'inviteCode', 'nickname', 'password', 'rememberMe', 'secondPassword', 'sign', 'timestamp', 'uuid'],
    );
    expect(request!.body).toMatchObject(fields);
    expect(verifies(request!)).toBe(true);
    expect(localStorage.getItem('accessToken')).toBe('at-1');
    expect(localStorage.getItem('refreshToken')).toBe('rt-1.0123456789abcdefgh');
    await expect(provider.checkAuth()).resolves.toBeUndefined();
  });

  it('without an invite code and remember me off: signed with an empty invite code, session only', async () => {
    const { provider, of, store } = setup({ 'POST /api/user/register': loginAnswer });
    const { inviteCode: _none, ...withoutInvite } = fields;
    await provider.register({ ...withoutInvite, rememberMe: false });
    const [request] = of('POST /api/user/register');
    expect(request!.body).not.toHaveProperty('inviteCode');
    expect(verifies(request!)).toBe(true);
    const { uuid, timestamp, sign } = request!.body as { uuid: string; timestamp: number; sign: string };
    expect(sign).toBe(
      computeSign('POST', '/api/user/register', { ...withoutInvite, inviteCode: '' }, uuid, timestamp, SECRET),
    );
    expect(sessionStorage.getItem('accessToken')).toBe('at-1');
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(store.getRefreshToken()).toBe('rt-1.0123456789abcdefgh');
  });
});

describe('authProvider.logout', () => {
  const loggedIn = async (routes: Record<string, Handler>) => {
    const ctx = setup({ 'POST /api/user/login': loginAnswer, ...routes });
    await ctx.provider.login({ email: 'alice@example.com', password: 'pw', rememberMe: true });
    expect(ctx.store.getAccessToken()).toBe('at-1');
    return ctx;
  };

  const expectLoggedOut = (ctx: ReturnType<typeof setup>) => {
    expect(ctx.store.getAccessToken()).toBeNull();
    expect(ctx.store.getRefreshToken()).toBeNull();
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    expect(sessionStorage.getItem('accessToken')).toBeNull();
  };

  it('calls POST /api/user/logout with the bearer token, clears the tokens and returns /auth/login', async () => {
    const ctx = await loggedIn({ 'POST /api/user/logout': () => ok(null) });
    await expect(ctx.provider.logout()).resolves.toBe('/auth/login');
    expect(LOGIN_ROUTE).toBe('/auth/login');
    const [request] = ctx.of('POST /api/user/logout');
    expect(request!.headers.Authorization).toBe('Bearer at-1');
    expectLoggedOut(ctx);
  });

  it.each<[string, Handler]>([
    ['HTTP 500', () => ({ status: 500, body: 'Internal Server Error' })],
    [
      'network error',
      () => {
        throw new TypeError('Failed to fetch');
      },
    ],
    ['business error 11007', () => fail(11007, 'logout failed')],
  ])('clears the tokens even when the server call fails (%s)', async (_name, handler) => {
    const ctx = await loggedIn({ 'POST /api/user/logout': handler });
    await expect(ctx.provider.logout()).resolves.toBe('/auth/login');
    expect(ctx.of('POST /api/user/logout')).toHaveLength(1);
    expectLoggedOut(ctx);
  });

  it('without a session it makes no server call and still answers /auth/login', async () => {
    const ctx = setup({ 'POST /api/user/logout': () => ok(null) });
    await expect(ctx.provider.logout()).resolves.toBe('/auth/login');
    expect(ctx.server.calls()).toBe(0);
  });

  it('forgets the identity and the permissions', async () => {
    const ctx = setup({
      'POST /api/user/login': () => ok({ accessToken: 'at-1', refreshToken: 'rt-1.0123456789abcdefgh', user: { ...USER, role: 'operator' } }),
      'POST /api/user/logout': () => ok(null),
      'GET /api/user/me': () => ok(USER),
    });
    await ctx.provider.login({ email: 'alice@example.com', password: 'pw', rememberMe: true });
    await expect(ctx.provider.getPermissions()).resolves.toBe('operator');
    await ctx.provider.logout();
    await expect(ctx.provider.getPermissions()).resolves.toBe('user');
    // A guest has no identity, and the server is not asked for one.
    await expect(ctx.provider.getIdentity()).rejects.toThrow();
    expect(ctx.of('GET /api/user/me')).toHaveLength(0);
  });
});

describe('authProvider.refresh', () => {
  it("without a refresh token rejects with exactly 'No refresh token available' and makes no call", async () => {
    const { provider, server } = setup({});
    const error = await rejection(provider.refresh());
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('No refresh token available');
    expect(server.calls()).toBe(0);
  });

  it('with a refresh token rotates the pair through one signed PUT /api/user/refresh', async () => {
    const { provider, store, of } = setup({
      'PUT /api/user/refresh': (req) =>
        req.body?.refreshToken === 'rt-1.0123456789abcdefgh' ? ok({ accessToken: 'at-2', refreshToken: 'rt-2.0123456789abcdefgh' }) : fail(10008),
    });
    store.save({ accessToken: 'at-1', refreshToken: 'rt-1.0123456789abcdefgh', rememberMe: true });
    await provider.refresh();
    const calls = of('PUT /api/user/refresh');
    expect(calls).toHaveLength(1);
    expect(verifies(calls[0]!)).toBe(true);
    expect(localStorage.getItem('accessToken')).toBe('at-2');
    expect(localStorage.getItem('refreshToken')).toBe('rt-2.0123456789abcdefgh');
  });
});

describe('authProvider.checkAuth (navigation guard, protected routes)', () => {
  const refreshRoute = (handler: Handler) => ({ 'PUT /api/user/refresh': handler });
  /** A remembered session whose access token is gone: only the refresh token is left. */
  const onlyRefreshToken = (store: ReturnType<typeof createSessionStore>) => {
    store.save({ accessToken: 'at-old', refreshToken: 'rt-1.0123456789abcdefgh', rememberMe: true });
    localStorage.removeItem('accessToken');
    expect(store.getAccessToken()).toBeNull();
    expect(store.getRefreshToken()).toBe('rt-1.0123456789abcdefgh');
  };

  it('with an access token: resolves without any call', async () => {
    const { provider, store, server } = setup({});
    store.save({ accessToken: 'at-1', refreshToken: 'rt-1.0123456789abcdefgh', rememberMe: false });
    await expect(provider.checkAuth()).resolves.toBeUndefined();
    expect(server.calls()).toBe(0);
  });

  it('with only a refresh token: refreshes once and resolves', async () => {
    const { provider, store, server, of } = setup(
      refreshRoute(() => ok({ accessToken: 'at-2', refreshToken: 'rt-2.0123456789abcdefgh' })),
    );
    onlyRefreshToken(store);
    await expect(provider.checkAuth()).resolves.toBeUndefined();
    expect(server.calls()).toBe(1);
    expect(of('PUT /api/user/refresh')[0]!.body).toMatchObject({ refreshToken: 'rt-1.0123456789abcdefgh' });
    expect(store.getAccessToken()).toBe('at-2');
    expect(localStorage.getItem('refreshToken')).toBe('rt-2.0123456789abcdefgh');
  });

  it.each<[string, Handler]>([
    ['business error', () => fail(10008, 'refresh token revoked')],
    ['HTTP 401', () => unauthorized()],
    ['network error', () => { throw new TypeError('Failed to fetch'); }],
  ])('with only a refresh token whose refresh fails (%s): tokens cleared, rejects to /auth/login', async (_n, handler) => {
    const { provider, store, of } = setup(refreshRoute(handler));
    onlyRefreshToken(store);
    const error = await rejection(provider.checkAuth());
    expect(error).toMatchObject({ redirectTo: '/auth/login' });
    expect(of('PUT /api/user/refresh')).toHaveLength(1);
    expect(store.getAccessToken()).toBeNull();
    expect(store.getRefreshToken()).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
  });

  it('with neither token: rejects to /auth/login without any call', async () => {
    const { provider, server } = setup({});
    const error = await rejection(provider.checkAuth());
    expect(error).toMatchObject({ redirectTo: '/auth/login' });
    expect(server.calls()).toBe(0);
  });
});

describe('guardDecision', () => {
  const rows: Array<['protected' | 'guest', string | null, string | null, GuardDecision]> = [
    ['protected', 'at', 'rt.0123456789abcdefgh', 'allow'],
    ['protected', 'at', null, 'allow'],
    ['protected', null, 'rt.0123456789abcdefgh', 'refresh'],
    ['protected', null, null, 'login'],
    ['guest', 'at', 'rt.0123456789abcdefgh', 'home'],
    ['guest', 'at', null, 'home'],
    ['guest', null, 'rt.0123456789abcdefgh', 'allow'],
    ['guest', null, null, 'allow'],
  ];
  it.each(rows)('%s route, access %s, refresh %s -> %s', (route, accessToken, refreshToken, expected) => {
    expect(guardDecision(route, { accessToken, refreshToken })).toBe(expected);
  });
});

describe('authProvider.checkError', () => {
  it('a business ApiError (HTTP 200) resolves and keeps the session', async () => {
    const { provider, http, store, onSessionExpired } = setup({ 'POST /api/trade/add': () => fail(14001) });
    store.save({ accessToken: 'at-1', refreshToken: 'rt-1.0123456789abcdefgh', rememberMe: true });
    const newTasks = {
      exchangeId: 'e0000000-0000-4000-8000-000000000001',
      coinIdList: ['BTC/USDT'],
      cycleCount: 9999,
      firstOrderAmount: '10',
      firstOrderMultiple: false,
      running: true,
      replenishStatus: 'replenish_open',
      strategyId: 'b0000000-0000-4000-8000-000000000001',
    };
    const error = await rejection(http.request('POST', '/api/trade/add', { body: newTasks }));
    expect((error as ApiError).kind).toBe('business');
    expect((error as ApiError).status).toBe(200);
    await expect(provider.checkError(error)).resolves.toBeUndefined();
    expect(store.getAccessToken()).toBe('at-1');
    expect(store.getRefreshToken()).toBe('rt-1.0123456789abcdefgh');
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('network and timeout errors keep the session', async () => {
    const { provider, store } = setup({});
    store.save({ accessToken: 'at-1', refreshToken: 'rt-1.0123456789abcdefgh', rememberMe: true });
    await expect(provider.checkError(new ApiError({ kind: 'network', messageKey: 'error.network' }))).resolves.toBeUndefined();
    await expect(provider.checkError(new ApiError({ kind: 'timeout', messageKey: 'error.timeout' }))).resolves.toBeUndefined();
    expect(store.getAccessToken()).toBe('at-1');
  });

  it.each([
    ['an unauthorized ApiError', new ApiError({ kind: 'unauthorized', status: 401, messageKey: 'error.sessionExpired' })],
    ['a plain { status: 401 }', { status: 401 }],
  ])('%s rejects to /auth/login and clears the tokens', async (_n, error) => {
    const { provider, store } = setup({});
    store.save({ accessToken: 'at-1', refreshToken: 'rt-1.0123456789abcdefgh', rememberMe: true });
    const outcome = await rejection(provider.checkError(error));
    expect(outcome).toMatchObject({ redirectTo: '/auth/login' });
    expect(store.getAccessToken()).toBeNull();
    expect(store.getRefreshToken()).toBeNull();
  });
});
