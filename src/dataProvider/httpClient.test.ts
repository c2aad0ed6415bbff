import { beforeEach, describe, it, expect, vi } from 'vitest';
import { HTTP_TIMEOUT_MS } from '../api/defaults';
import { computeSign } from '../api/signing';
import type { TradeTaskDetail } from '../api/trade';
import type { LocaleCode, RefreshResponse } from '../api/types';
import { createSessionStore } from '../authProvider/session';
import { createI18nProvider } from '../i18n/i18nProvider';
import { createFakeServer, eventStream, fail, ok, unauthorized, type Handler, type RecordedRequest } from '../testing/fakeServer';
import { btcTask } from '../testing/tasks';
import { ApiError, displayMessage, isApiError } from './ApiError';
import { NO_REFRESH_TOKEN, createHttpClient, type HttpClientConfig, type TokenStore } from './httpClient';

const SECRET = 'http-client-test-secret';

/** Real calls with what the server takes (the test network refuses anything else). */
const TASK = 'a0000000-0000-4000-8000-000000000001';
const TASK_PATH = `/api/trade/detail/${TASK}`;
const NEW_TASKS = {
  exchangeId: 'e0000000-0000-4000-8000-000000000001',
  coinIdList: ['BTC/USDT', 'ETH/USDT'],
  cycleCount: 9999,
  firstOrderAmount: '10',
  firstOrderMultiple: false,
  running: true,
  replenishStatus: 'replenish_open',
  strategyId: 'b0000000-0000-4000-8000-000000000001',
};
/** Task answers as the server gives them; the id tells which request a page answered. */
const NO_TASKS = { list: [], total: 0 };
const taskPage = (id: string) => ({ list: [{ ...btcTask, id }], total: 1 });
const taskDetail = (running: boolean): TradeTaskDetail => ({
  ...btcTask,
  id: TASK,
  running,
  strategy: { levels: [{ dropPercent: '2', multiple: '1' }], takeProfitPercent: '1.5', takeProfitCallbackPercent: '0.3', replenishCallbackPercent: '0.3', stopLossPercent: null, cooldownSeconds: 0 },
  firstFillPrice: '101',
  takeProfitArmed: false,
  events: [],
});

/** An in-memory token store that records what the client does with it. */
const memoryTokens = (accessToken: string | null, refreshToken: string | null) => {
  const state = { accessToken, refreshToken };
  const store = {
    state,
    getAccessToken: () => state.accessToken,
    getRefreshToken: () => state.refreshToken,
    updateTokens: vi.fn((tokens: RefreshResponse) => {
      state.accessToken = tokens.accessToken;
      state.refreshToken = tokens.refreshToken;
    }),
    clear: vi.fn(() => {
      state.accessToken = null;
      state.refreshToken = null;
    }),
  };
  return store satisfies TokenStore;
};

const setup = (
  routes: Record<string, Handler>,
  { tokens = memoryTokens('at-1', 'rt-1.0123456789abcdefgh') as TokenStore, locale = 'zh-CN' as LocaleCode, ...rest }: Partial<HttpClientConfig> & {
    locale?: LocaleCode;
  } = {},
) => {
  const server = createFakeServer(routes);
  const onSessionExpired = vi.fn();
  const localeRef = { current: locale };
  const http = createHttpClient({
    baseUrl: '',
    signSecret: SECRET,
    tokens,
    getLocale: () => localeRef.current,
    onSessionExpired,
    fetch: server.fetch,
    ...rest,
  });
  const of = (method: string, path: string) => server.requests.filter((r) => r.method === method && r.path === path);
  return { http, server, tokens, onSessionExpired, localeRef, of };
};

/** What the server does with a signed body: strip the signature fields and recompute. */
const serverVerifies = (request: RecordedRequest, secret = SECRET): boolean => {
  const { uuid, timestamp, sign, ...fields } = request.body ?? {};
  if (typeof uuid !== 'string' || typeof timestamp !== 'number' || typeof sign !== 'string') return false;
  return computeSign(request.method, request.path, fields, uuid, timestamp, secret) === sign;
};

const refreshAnswer = (req: RecordedRequest) =>
  req.body?.refreshToken === 'rt-1.0123456789abcdefgh' && serverVerifies(req)
    ? ok({ accessToken: 'at-2', refreshToken: 'rt-2.0123456789abcdefgh' })
    : fail(10008, 'bad refresh');
const refreshOk: Handler = refreshAnswer;

const catchError = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
};

const catchApiError = async (promise: Promise<unknown>): Promise<ApiError> => {
  const error = await catchError(promise);
  expect(isApiError(error)).toBe(true);
  return error as ApiError;
};

let i18n: Awaited<ReturnType<typeof createI18nProvider>>;

beforeEach(async () => {
  // Display texts come from the page's i18n singleton; every test starts in the default locale.
  i18n = await createI18nProvider();
  await i18n.changeLocale('zh-CN');
});

describe('httpClient: headers and body', () => {
  it('sends the bearer token, the locale code as Accept-Language and no Content-Type on a bodiless GET', async () => {
    const { http, server, localeRef } = setup({ 'GET /api/trade/list': () => ok(NO_TASKS) });
    await http.request('GET', '/api/trade/list');
    localeRef.current = 'en-US';
    await http.request('GET', '/api/trade/list');

    const [first, second] = server.requests;
    expect(first!.headers.Authorization).toBe('Bearer at-1');
    expect(first!.headers['Accept-Language']).toBe('zh-CN');
    expect(first!.headers.Accept).toBe('application/json');
    expect(first!.headers['Content-Type']).toBeUndefined();
    expect(first!.body).toBeUndefined();
    expect(second!.headers['Accept-Language']).toBe('en-US');
  });

  it('sends a JSON body with Content-Type application/json', async () => {
    const { http, server } = setup({ 'POST /api/trade/add': () => ok([{ id: '9' }]) });
    const payload = NEW_TASKS;
    await expect(http.request('POST', '/api/trade/add', { body: payload })).resolves.toEqual([{ id: '9' }]);
    const [request] = server.requests;
    expect(request!.method).toBe('POST');
    expect(request!.headers['Content-Type']).toBe('application/json');
    expect(request!.headers.Authorization).toBe('Bearer at-1');
    // Unsigned calls are not touched.
    expect(request!.body).toEqual(payload);
  });

  it('sends no Authorization header when auth is false, even with a token present', async () => {
    const { http, server } = setup({ 'GET /api/article/list': () => ok({ list: [], total: 0 }) });
    await http.request('GET', '/api/article/list', { auth: false });
    expect(server.requests[0]!.headers).not.toHaveProperty('Authorization');
    expect(server.requests[0]!.headers['Accept-Language']).toBe('zh-CN');
  });

  it('sends no Authorization header when there is no access token', async () => {
    const { http, server } = setup({ 'GET /api/article/list': () => ok({ list: [], total: 0 }) }, { tokens: memoryTokens(null, null) });
    await http.request('GET', '/api/article/list');
    expect(server.requests[0]!.headers).not.toHaveProperty('Authorization');
  });

  it('prefixes the base URL and builds the query string, skipping undefined, null and empty values', async () => {
    const { http, server } = setup({ 'GET /api/trade/list': () => ok(NO_TASKS), 'GET /api/strategy/list': () => ok({ list: [], total: 0 }) }, { baseUrl: 'https://api.example.com' });
    await http.request('GET', '/api/trade/list', {
      query: { page: 2, pageSize: 20, symbol: '', sort: undefined, order: null, running: false, finished: true },
    });
    await http.request('GET', '/api/strategy/list', { query: { page: [2], q: 'btc usdt' } });
    await http.request('GET', '/api/trade/list', { query: { symbol: '', sort: undefined } });
    await http.request('GET', '/api/trade/list', { query: {} });
    expect(server.requests.map((r) => r.url)).toEqual([
      'https://api.example.com/api/trade/list?page=2&pageSize=20&running=false&finished=true',
      'https://api.example.com/api/strategy/list?page=2&q=btc+usdt',
      'https://api.example.com/api/trade/list',
      'https://api.example.com/api/trade/list',
    ]);
  });
});

describe('httpClient: signed calls', () => {
  it('adds uuid, timestamp (seconds) and a sign that the server-side recomputation accepts', async () => {
    const { http, server } = setup({ 'POST /api/user/login': (req) => (serverVerifies(req) ? ok({ accessToken: 'at-9' }) : fail(10008)) });
    const before = Math.floor(Date.now() / 1000);
    await expect(
      http.request('POST', '/api/user/login', { body: { email: 'a@b.c', password: 'pw' }, auth: false }),
    ).resolves.toEqual({ accessToken: 'at-9' });
    const after = Math.floor(Date.now() / 1000);
    const body = server.requests[0]!.body!;
    expect(Object.keys(body).sort()).toEqual(['email', 'password', 'sign', 'timestamp', 'uuid']);
    expect(body.uuid).toMatch(/^[0-9a-f]{32}$/);
    expect(body.timestamp).toBeGreaterThanOrEqual(before);
    expect(body.timestamp).toBeLessThanOrEqual(after);
    expect(body.sign).toBe(
      computeSign('POST', '/api/user/login', { email: 'a@b.c', password: 'pw' }, body.uuid as string, body.timestamp as number, SECRET),
    );
    // A server holding another secret would refuse it.
    expect(serverVerifies(server.requests[0]!, 'another-secret')).toBe(false);
  });

  it('signs the refresh call (PUT /api/user/refresh) and each call gets its own uuid', async () => {
    const { http, server } = setup({ 'PUT /api/user/refresh': refreshOk });
    await http.request('PUT', '/api/user/refresh', { body: { refreshToken: 'rt-1.0123456789abcdefgh' }, auth: false });
    await http.request('PUT', '/api/user/refresh', { body: { refreshToken: 'rt-1.0123456789abcdefgh' }, auth: false });
    const [a, b] = server.requests;
    expect(serverVerifies(a!)).toBe(true);
    expect(serverVerifies(b!)).toBe(true);
    expect(a!.body!.uuid).not.toBe(b!.body!.uuid);
  });

  it('does not sign a call outside the table', async () => {
    const { http, server } = setup({ 'POST /api/user/logout': () => ok(null) });
    await http.request('POST', '/api/user/logout');
    expect(server.requests[0]!.body).toEqual({});
  });
});

describe('httpClient: envelope and error texts', () => {
  it('code 0 answers data', async () => {
    const { http } = setup({ [`GET ${TASK_PATH}`]: () => ok(taskDetail(true)) });
    await expect(http.request('GET', TASK_PATH)).resolves.toEqual(taskDetail(true));
  });

  it('a catalogue code becomes an ApiError with code, data, server message and the localized text', async () => {
    const { http } = setup({ 'POST /api/wallet/withdraw': () => fail(11003, 'balance too low', { need: '5' }) });
    const error = await catchApiError(http.request('POST', '/api/wallet/withdraw', { body: { amount: '10', address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', password: 'pw', idempotencyKey: 'withdraw-0001' } }));
    expect(error).toBeInstanceOf(Error);
    expect(error.kind).toBe('business');
    expect(error.code).toBe(11003);
    expect(error.status).toBe(200);
    expect(error.data).toEqual({ need: '5' });
    expect(error.serverMessage).toBe('balance too low');
    // The localized text of the code wins over the server's message.
    expect(error.message).toBe('余额不足');
    expect(error.localizedMessage()).toBe('余额不足');
    await i18n.changeLocale('en-US');
    expect(error.localizedMessage()).toBe('Insufficient balance');
  });

  it('an unknown code with a server message shows the server message', async () => {
    const { http } = setup({ 'GET /api/article/list': () => fail(12345, '服务器自定义消息') });
    const error = await catchApiError(http.request('GET', '/api/article/list'));
    expect(error.code).toBe(12345);
    expect(error.message).toBe('服务器自定义消息');
  });

  it("an unknown code without a message shows 'API Error: {code}'", async () => {
    const { http } = setup({ 'GET /api/article/list': () => fail(12345, '') });
    const error = await catchApiError(http.request('GET', '/api/article/list'));
    expect(error.message).toBe('API Error: 12345');
    expect(error.serverMessage).toBe('');
  });

  it("with nothing to go on the text is 'Operation failed' in the current locale", async () => {
    expect(displayMessage({ kind: 'local' })).toBe('操作失败');
    await i18n.changeLocale('en-US');
    expect(displayMessage({ kind: 'local' })).toBe('Operation failed');
    expect(new ApiError({ kind: 'local' }).message).toBe('Operation failed');
  });

  it('an HTTP error without an envelope is kind http with its status', async () => {
    const { http } = setup({ 'GET /api/article/list': () => ({ status: 502, body: 'Bad Gateway' }) });
    const error = await catchApiError(http.request('GET', '/api/article/list'));
    expect(error.kind).toBe('http');
    expect(error.status).toBe(502);
    expect(error.code).toBeUndefined();
    expect(error.message).toBe('服务器返回错误（HTTP 502）。');
  });

  it('a business error neither clears the tokens nor expires the session', async () => {
    const { http, tokens, onSessionExpired } = setup({ 'POST /api/trade/add': () => fail(14001) });
    const error = await catchApiError(http.request('POST', '/api/trade/add', { body: NEW_TASKS }));
    expect(error.code).toBe(14001);
    expect(error.message).toBe('每个币种最多 3 个任务');
    expect(tokens.getAccessToken()).toBe('at-1');
    expect(tokens.getRefreshToken()).toBe('rt-1.0123456789abcdefgh');
    expect(onSessionExpired).not.toHaveBeenCalled();
  });
});

describe('httpClient: 401, refresh and retry', () => {
  const listNeedsNewToken: Handler = (req) =>
    req.headers.Authorization === 'Bearer at-2' ? ok(taskPage(req.url)) : unauthorized();

  it('a 401 triggers exactly one refresh and one retry with the new token', async () => {
    const tokens = memoryTokens('at-1', 'rt-1.0123456789abcdefgh');
    const { http, server, of, onSessionExpired } = setup(
      { 'GET /api/trade/list': listNeedsNewToken, 'PUT /api/user/refresh': refreshOk },
      { tokens },
    );
    await expect(http.request('GET', '/api/trade/list')).resolves.toEqual(taskPage('/api/trade/list'));
    expect(server.requests.map((r) => `${r.method} ${r.path} ${r.headers.Authorization ?? '-'}`)).toEqual([
      'GET /api/trade/list Bearer at-1',
      'PUT /api/user/refresh -',
      'GET /api/trade/list Bearer at-2',
    ]);
    expect(serverVerifies(of('PUT', '/api/user/refresh')[0]!)).toBe(true);
    expect(tokens.updateTokens).toHaveBeenCalledTimes(1);
    expect(tokens.state).toEqual({ accessToken: 'at-2', refreshToken: 'rt-2.0123456789abcdefgh' });
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('keeps the rotated pair in the same place with the real session store (remember me on)', async () => {
    const store = createSessionStore();
    store.save({ accessToken: 'at-1', refreshToken: 'rt-1.0123456789abcdefgh', rememberMe: true });
    const { http } = setup({ 'GET /api/trade/list': listNeedsNewToken, 'PUT /api/user/refresh': refreshOk }, { tokens: store });
    await http.request('GET', '/api/trade/list');
    expect(localStorage.getItem('accessToken')).toBe('at-2');
    expect(localStorage.getItem('refreshToken')).toBe('rt-2.0123456789abcdefgh');
    expect(sessionStorage.length).toBe(0);
  });

  it('5 concurrent requests that all get 401 share ONE refresh, each is retried once and all resolve', async () => {
    const { http, of, onSessionExpired } = setup({
      'GET /api/trade/list': listNeedsNewToken,
      'PUT /api/user/refresh': (req) => ({ ...refreshAnswer(req), delayMs: 20 }),
    });
    const results = await Promise.all(
      [0, 1, 2, 3, 4].map((i) => http.request<{ list: { id: string }[] }>('GET', '/api/trade/list', { query: { page: i + 1 } })),
    );
    expect(results.map((r) => r.list[0]!.id)).toEqual([0, 1, 2, 3, 4].map((i) => `/api/trade/list?page=${i + 1}`));
    expect(of('PUT', '/api/user/refresh')).toHaveLength(1);
    const lists = of('GET', '/api/trade/list');
    expect(lists).toHaveLength(10);
    for (const i of [0, 1, 2, 3, 4]) {
      const attempts = lists.filter((r) => r.url.endsWith(`?page=${i + 1}`)).map((r) => r.headers.Authorization);
      expect(attempts).toEqual(['Bearer at-1', 'Bearer at-2']);
    }
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('a 401 that arrives after another request already rotated the pair is retried without a second refresh', async () => {
    const { http, of } = setup({
      'GET /api/trade/list': listNeedsNewToken,
      [`GET ${TASK_PATH}`]: (req) =>
        req.headers.Authorization === 'Bearer at-2' ? ok(taskDetail(false)) : { ...unauthorized(), delayMs: 60 },
      'PUT /api/user/refresh': refreshOk,
    });
    const [list, detail] = await Promise.all([
      http.request('GET', '/api/trade/list'),
      http.request('GET', TASK_PATH),
    ]);
    expect(list).toEqual(taskPage('/api/trade/list'));
    expect(detail).toEqual(taskDetail(false));
    expect(of('PUT', '/api/user/refresh')).toHaveLength(1);
    expect(of('GET', TASK_PATH).map((r) => r.headers.Authorization)).toEqual(['Bearer at-1', 'Bearer at-2']);
  });

  it('refresh answered with an error: tokens cleared, session expired, ApiError unauthorized 401', async () => {
    const tokens = memoryTokens('at-1', 'rt-1.0123456789abcdefgh');
    const { http, of, onSessionExpired } = setup(
      { 'GET /api/trade/list': listNeedsNewToken, 'PUT /api/user/refresh': () => fail(10008, 'refresh token revoked') },
      { tokens },
    );
    onSessionExpired.mockImplementation(() => {
      // The callback runs once the tokens are already gone.
      expect(tokens.state).toEqual({ accessToken: null, refreshToken: null });
    });
    const error = await catchApiError(http.request('GET', '/api/trade/list'));
    expect(error.kind).toBe('unauthorized');
    expect(error.status).toBe(401);
    expect(error.message).toBe('登录已过期，请重新登录。');
    expect(tokens.clear).toHaveBeenCalled();
    expect(tokens.state).toEqual({ accessToken: null, refreshToken: null });
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
    expect(of('PUT', '/api/user/refresh')).toHaveLength(1);
    // No retry of the original request once the refresh failed.
    expect(of('GET', '/api/trade/list')).toHaveLength(1);
  });

  it('refresh answered with HTTP 401: the same expiry', async () => {
    const store = createSessionStore();
    store.save({ accessToken: 'at-1', refreshToken: 'rt-1.0123456789abcdefgh', rememberMe: true });
    const { http, onSessionExpired } = setup(
      { 'GET /api/trade/list': listNeedsNewToken, 'PUT /api/user/refresh': () => unauthorized() },
      { tokens: store },
    );
    const error = await catchApiError(http.request('GET', '/api/trade/list'));
    expect(error.kind).toBe('unauthorized');
    expect(error.status).toBe(401);
    expect(onSessionExpired).toHaveBeenCalled();
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    expect(store.getRefreshToken()).toBeNull();
  });

  it('5 concurrent requests with a failing refresh: one refresh call, all reject unauthorized, expiry signalled per request', async () => {
    const tokens = memoryTokens('at-1', 'rt-1.0123456789abcdefgh');
    const { http, of, onSessionExpired } = setup(
      {
        'GET /api/trade/list': listNeedsNewToken,
        'PUT /api/user/refresh': () => ({ ...fail(10008), delayMs: 20 }),
      },
      { tokens },
    );
    const settled = await Promise.allSettled([0, 1, 2, 3, 4].map((i) => http.request('GET', '/api/trade/list', { query: { page: i + 1 } })));
    expect(settled.map((s) => s.status)).toEqual(Array(5).fill('rejected'));
    for (const s of settled) {
      const reason = (s as PromiseRejectedResult).reason as ApiError;
      expect(reason.kind).toBe('unauthorized');
      expect(reason.status).toBe(401);
    }
    expect(of('PUT', '/api/user/refresh')).toHaveLength(1);
    expect(of('GET', '/api/trade/list')).toHaveLength(5);
    expect(onSessionExpired).toHaveBeenCalledTimes(5);
    expect(tokens.state).toEqual({ accessToken: null, refreshToken: null });
  });

  it('no refresh token: no refresh call, tokens cleared, expired with the local reason', async () => {
    const tokens = memoryTokens('at-1', null);
    const { http, of, onSessionExpired } = setup({ 'GET /api/trade/list': listNeedsNewToken }, { tokens });
    const error = await catchApiError(http.request('GET', '/api/trade/list'));
    expect(error.kind).toBe('unauthorized');
    expect(error.status).toBe(401);
    expect((error.cause as Error).message).toBe(NO_REFRESH_TOKEN);
    expect(NO_REFRESH_TOKEN).toBe('No refresh token available');
    expect(of('PUT', '/api/user/refresh')).toHaveLength(0);
    expect(tokens.clear).toHaveBeenCalled();
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
  });

  it('a retry that again answers 401 expires the session (no second refresh)', async () => {
    const tokens = memoryTokens('at-1', 'rt-1.0123456789abcdefgh');
    const { http, of, onSessionExpired } = setup(
      { 'GET /api/trade/list': () => unauthorized(), 'PUT /api/user/refresh': refreshOk },
      { tokens },
    );
    const error = await catchApiError(http.request('GET', '/api/trade/list'));
    expect(error.kind).toBe('unauthorized');
    expect(error.status).toBe(401);
    expect(of('PUT', '/api/user/refresh')).toHaveLength(1);
    expect(of('GET', '/api/trade/list').map((r) => r.headers.Authorization)).toEqual(['Bearer at-1', 'Bearer at-2']);
    expect(tokens.state).toEqual({ accessToken: null, refreshToken: null });
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
  });

  it('a 401 on an auth:false call is not cured by a refresh', async () => {
    const tokens = memoryTokens('at-1', 'rt-1.0123456789abcdefgh');
    const { http, of, onSessionExpired } = setup(
      { 'POST /api/user/login': () => unauthorized(), 'PUT /api/user/refresh': refreshOk },
      { tokens },
    );
    const error = await catchApiError(
      http.request('POST', '/api/user/login', { body: { email: 'a@b.c', password: 'x' }, auth: false }),
    );
    expect(error.status).toBe(401);
    expect(error.kind).not.toBe('unauthorized');
    expect(of('PUT', '/api/user/refresh')).toHaveLength(0);
    expect(onSessionExpired).not.toHaveBeenCalled();
    expect(tokens.state).toEqual({ accessToken: 'at-1', refreshToken: 'rt-1.0123456789abcdefgh' });
  });
});

describe('httpClient: a streamed answer (the notifications stream)', () => {
  const STREAM = '/api/notifications/stream';
  const read = async (body: ReadableStream<Uint8Array>) => {
    const reader = body.getReader();
    const { value } = await reader.read();
    await reader.cancel();
    return new TextDecoder().decode(value);
  };

  it('cures a 401 with the shared refresh and opens the stream with the new token in the header, never in the address', async () => {
    const stream = eventStream();
    stream.send('unread', { count: 3 });
    let calls = 0;
    const { http, of, tokens } = setup({ [`GET ${STREAM}`]: () => (++calls === 1 ? unauthorized() : stream.answer()), 'PUT /api/user/refresh': refreshOk });
    const body = await http.stream(STREAM, new AbortController().signal);
    expect(await read(body)).toBe('event: unread\ndata: {"count":3}\n\n');
    expect(of('GET', STREAM).map((r) => [r.headers.Authorization, r.headers.Accept, r.url])).toEqual([
      ['Bearer at-1', 'text/event-stream', STREAM],
      ['Bearer at-2', 'text/event-stream', STREAM],
    ]);
    expect(tokens.getAccessToken()).toBe('at-2');
  });

  it('rejects an error answer with its code, and a refused refresh ends the session', async () => {
    const refused = setup({ [`GET ${STREAM}`]: () => fail(11005, 'no') });
    expect((await catchApiError(refused.http.stream(STREAM, new AbortController().signal))).code).toBe(11005);
    const expired = setup({ [`GET ${STREAM}`]: () => unauthorized(), 'PUT /api/user/refresh': () => fail(10008, 'bad refresh') });
    expect((await catchApiError(expired.http.stream(STREAM, new AbortController().signal))).kind).toBe('unauthorized');
    expect(expired.onSessionExpired).toHaveBeenCalledTimes(1);
  });
});

describe('httpClient: timeout, network, abort', () => {
  it('the default timeout is 10000 ms', async () => {
    expect(HTTP_TIMEOUT_MS).toBe(10_000);
    vi.useFakeTimers();
    try {
      const { http } = setup({ 'GET /api/trade/list': () => ({ ...ok(NO_TASKS), delayMs: 60_000 }) });
      let outcome: unknown = 'pending';
      const pending = http.request('GET', '/api/trade/list').then(
        () => (outcome = 'resolved'),
        (error: unknown) => (outcome = error),
      );
      await vi.advanceTimersByTimeAsync(HTTP_TIMEOUT_MS - 1);
      expect(outcome).toBe('pending');
      await vi.advanceTimersByTimeAsync(1);
      await pending;
      expect(isApiError(outcome)).toBe(true);
      expect((outcome as ApiError).kind).toBe('timeout');
    } finally {
      vi.useRealTimers();
    }
  });

  it('a slow answer becomes ApiError kind timeout with its localized text', async () => {
    const { http } = setup({ 'GET /api/trade/list': () => ({ ...ok(NO_TASKS), delayMs: 2_000 }) }, { timeoutMs: 50 });
    const started = Date.now();
    const error = await catchApiError(http.request('GET', '/api/trade/list'));
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(error.kind).toBe('timeout');
    expect(error.code).toBeUndefined();
    expect(error.message).toBe('服务器响应超时，请重试。');
    await i18n.changeLocale('en-US');
    expect(error.localizedMessage()).toBe('The server took too long to answer. Please try again.');
  });

  it('a per-request timeoutMs overrides the client default', async () => {
    const { http } = setup({ 'GET /api/trade/list': () => ({ ...ok(taskPage('late')), delayMs: 100 }) }, { timeoutMs: 50 });
    await expect(http.request('GET', '/api/trade/list', { timeoutMs: 2_000 })).resolves.toEqual(taskPage('late'));
    const error = await catchApiError(http.request('GET', '/api/trade/list', { timeoutMs: 20 }));
    expect(error.kind).toBe('timeout');
  });

  it('a failing fetch (TypeError) becomes ApiError kind network with its own text', async () => {
    const failure = new TypeError('Failed to fetch');
    const fetch = vi.fn(async () => {
      throw failure;
    }) as unknown as typeof globalThis.fetch;
    const { http, onSessionExpired, tokens } = setup({}, { fetch });
    const error = await catchApiError(http.request('GET', '/api/trade/list'));
    expect(error.kind).toBe('network');
    expect(error.cause).toBe(failure);
    expect(error.message).toBe('无法连接服务器，请检查网络后重试。');
    expect(error.message).not.toBe('服务器响应超时，请重试。');
    expect(onSessionExpired).not.toHaveBeenCalled();
    expect(tokens.getAccessToken()).toBe('at-1');
  });

  it("the caller's abort rejects with an AbortError, not a timeout", async () => {
    const { http } = setup({ 'GET /api/trade/list': () => ({ ...ok(NO_TASKS), delayMs: 2_000 }) }, { timeoutMs: 1_000 });
    const controller = new AbortController();
    const promise = http.request('GET', '/api/trade/list', { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    const error = await catchError(promise);
    expect((error as Error).name).toBe('AbortError');
    expect(isApiError(error)).toBe(false);
  });

  it('an already aborted signal rejects with an AbortError without any request', async () => {
    const { http, server } = setup({ 'GET /api/trade/list': () => ok(NO_TASKS) });
    const controller = new AbortController();
    controller.abort();
    const error = await catchError(http.request('GET', '/api/trade/list', { signal: controller.signal }));
    expect((error as Error).name).toBe('AbortError');
    expect(server.calls()).toBe(0);
  });
});
