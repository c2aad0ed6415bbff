import { describe, it, expect, vi } from 'vitest';
import type { AdminArticle, AdminUser } from '../api/admin';
import type { Article } from '../api/article';
import type { RefreshResponse } from '../api/types';
import { computeSign } from '../api/signing';
import { ApiError } from './ApiError';
import { createFakeServer, fail, ok, okRange, unauthorized, type Handler, type RecordedRequest } from '../testing/fakeServer';
import { createDataProvider } from './dataProvider';
import { createHttpClient } from './httpClient';
import { btcTask, tradeOrder } from '../testing/tasks';

const SECRET = 'data-provider-test-secret';

/** Ids as the server makes them (uuids): the test network refuses others where the server does. */
const ID = {
  account1: 'e0000000-0000-4000-8000-000000000001',
  account2: 'e0000000-0000-4000-8000-000000000002',
  task1: 'a0000000-0000-4000-8000-000000000001',
  strategy: 'b0000000-0000-4000-8000-000000000001',
};
/** An article as the server answers it. */
const publishedArticle = (id: string): Article => ({ id, locale: 'zh-CN', title: 'hello', summary: '', body: '<p>hello</p>', publishedAt: '2026-01-01T00:00:00.000Z' });
/** A token pair as the server answers it. */
const TOKENS = { accessToken: 'at-9', refreshToken: 'rt-9.0123456789abcdefgh' };
/** A whole task change, as the server takes it. */
const updatePayload = {
  id: ID.task1,
  cycleCount: 5,
  firstOrderAmount: '12.5',
  firstOrderMultiple: true,
  running: false,
  status: 'replenish_closed' as const,
  strategyId: ID.strategy,
};
/** A whole strategy template, as the server takes it. */
const TEMPLATE = {
  name: 'ladder',
  levels: [{ dropPercent: '1', multiple: '1' }],
  takeProfitPercent: '1',
  takeProfitCallbackPercent: '0',
  replenishCallbackPercent: '0',
  stopLossPercent: null,
  cooldownSeconds: 5,
};
/** Answers as the server gives them. */
const SAVED = { ...TEMPLATE, id: ID.strategy, system: false };
const PAIR = { id: 'BTC/USDT', symbol: 'BTC/USDT', base: 'BTC', quote: 'USDT', price: '100', change24h: '1.5', quoteVolume24h: '1000000', minCost: '5', tickSize: '0.01', amountStep: '0.00001' };
const { name: _name, ...SETTINGS } = TEMPLATE;
const DETAIL = { ...btcTask, strategy: SETTINGS, firstFillPrice: '101', takeProfitArmed: false, events: [] };
const ORDER = tradeOrder({ taskId: ID.task1 });

const setup = (routes: Record<string, Handler> = {}) => {
  const server = createFakeServer(routes);
  const state = { accessToken: 'at-1' as string | null, refreshToken: 'rt-1.0123456789abcdefgh' as string | null };
  const http = createHttpClient({
    baseUrl: '',
    signSecret: SECRET,
    tokens: {
      getAccessToken: () => state.accessToken,
      getRefreshToken: () => state.refreshToken,
      updateTokens: (t: RefreshResponse) => Object.assign(state, t),
      clear: () => Object.assign(state, { accessToken: null, refreshToken: null }),
    },
    getLocale: () => 'zh-CN',
    onSessionExpired: vi.fn(),
    fetch: server.fetch,
  });
  const only = (): RecordedRequest => {
    expect(server.requests).toHaveLength(1);
    return server.requests[0]!;
  };
  return { dataProvider: createDataProvider(http), server, only };
};

const query = (request: RecordedRequest) => Object.fromEntries(new URL(request.url, 'http://localhost').searchParams);

const verifies = (request: RecordedRequest) => {
  const { uuid, timestamp, sign, ...fields } = request.body ?? {};
  return computeSign(request.method, request.path, fields, uuid as string, timestamp as number, SECRET) === sign;
};

describe('dataProvider: react-admin CRUD verbs', () => {
  it('getList -> GET /api/<res>/list with page, pageSize, sort, order and filters; answers {data: list, total}', async () => {
    const { dataProvider, only } = setup({
      'GET /api/strategy/list': () => ok({ list: [{ ...SAVED, id: 's1' }, { ...SAVED, id: 's2' }], total: 42 }),
    });
    const result = await dataProvider.getList('strategy', {
      pagination: { page: 3, perPage: 25 },
      sort: { field: 'createdAt', order: 'DESC' },
      filter: { q: 'dca', empty: '' },
    });
    expect(result).toEqual({ data: [{ ...SAVED, id: 's1' }, { ...SAVED, id: 's2' }], total: 42 });
    const request = only();
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/api/strategy/list');
    expect(query(request)).toEqual({
      page: '3',
      pageSize: '25',
      sort: 'createdAt',
      order: 'DESC',
      q: 'dca',
    });
    expect(request.headers.Authorization).toBe('Bearer at-1');
  });

  it('getOne -> GET /api/<res>/detail/<id>', async () => {
    const { dataProvider, only } = setup({ 'GET /api/article/detail/17': () => ok(publishedArticle('17')) });
    await expect(dataProvider.getOne('article', { id: 17 })).resolves.toEqual({ data: publishedArticle('17') });
    expect(only().method).toBe('GET');
  });

  it('getOne encodes the id into the path', async () => {
    const { dataProvider, only } = setup({ 'GET /api/article/detail/a%2Fb': () => ok(publishedArticle('a/b')) });
    await expect(dataProvider.getOne('article', { id: 'a/b' })).resolves.toEqual({ data: publishedArticle('a/b') });
    expect(only().path).toBe('/api/article/detail/a%2Fb');
  });

  it('getMany -> GET /api/<res>/list?ids=...', async () => {
    const [first, second] = [ID.account1, ID.account2];
    const { dataProvider, only } = setup({ 'GET /api/exchange/list': () => ok({ list: [{ id: first }, { id: second }], total: 2 }) });
    await expect(dataProvider.getMany('exchange', { ids: [first, second] })).resolves.toEqual({ data: [{ id: first }, { id: second }] });
    expect(query(only())).toEqual({ ids: `${first},${second}` });
  });

  it('getManyReference -> GET /api/<res>/list with the target as a filter', async () => {
    const { dataProvider, only } = setup({ 'GET /api/trade/order-history': () => ok({ list: [], total: 0 }) });
    const result = await dataProvider.getManyReference('orders', {
      target: 'taskId',
      id: ID.task1,
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'createdAt', order: 'ASC' },
      filter: {},
    });
    expect(result).toEqual({ data: [], total: 0 });
    expect(query(only())).toEqual({ page: '1', pageSize: '10', sort: 'createdAt', order: 'ASC', taskId: ID.task1 });
  });

  it('create -> POST /api/<res>/add with the record as body', async () => {
    const { dataProvider, only } = setup({ 'POST /api/strategy/add': (req) => ok({ id: ID.strategy, ...req.body, system: false }) });
    const result = await dataProvider.create('strategy', { data: TEMPLATE });
    expect(result).toEqual({ data: SAVED });
    const request = only();
    expect(request.body).toEqual(TEMPLATE);
    expect(request.headers['Content-Type']).toBe('application/json');
  });

  it('update -> POST /api/<res>/edit with the id in the body', async () => {
    const { dataProvider, only } = setup({ 'POST /api/strategy/edit': (req) => ok({ ...req.body, system: false }) });
    const result = await dataProvider.update('strategy', { id: ID.strategy, data: TEMPLATE, previousData: { id: ID.strategy } });
    expect(result).toEqual({ data: SAVED });
    expect(only().body).toEqual({ ...TEMPLATE, id: ID.strategy });
  });

  it('update of a trade -> POST /api/trade/update', async () => {
    const { dataProvider, only } = setup({ 'POST /api/trade/update': (req) => ok({ id: req.body!.id }) });
    const { id, ...change } = updatePayload;
    await dataProvider.update('trade', { id, data: change, previousData: { id } });
    const request = only();
    expect(`${request.method} ${request.path}`).toBe('POST /api/trade/update');
    expect(request.body).toEqual(updatePayload);
  });

  it('updateMany posts one edit per id', async () => {
    const { dataProvider, server } = setup({ 'POST /api/exchange/edit': (req) => ok(req.body) });
    const ids = [ID.account1, ID.account2];
    await expect(dataProvider.updateMany('exchange', { ids, data: { name: 'Main' } })).resolves.toEqual({ data: ids });
    expect(server.requests.map((r) => [r.path, r.body])).toEqual([
      ['/api/exchange/edit', { name: 'Main', id: ID.account1 }],
      ['/api/exchange/edit', { name: 'Main', id: ID.account2 }],
    ]);
  });

  it('delete -> POST /api/<res>/delete {id}; answers the previous record', async () => {
    const { dataProvider, only } = setup({ 'POST /api/exchange/delete': () => ok(null) });
    const result = await dataProvider.delete('exchange', { id: ID.account1, previousData: { id: ID.account1, name: 'binance' } });
    expect(result).toEqual({ data: { id: ID.account1, name: 'binance' } });
    const request = only();
    expect(`${request.method} ${request.path}`).toBe('POST /api/exchange/delete');
    expect(request.body).toEqual({ id: ID.account1 });
  });

  it('deleteMany posts one delete per id', async () => {
    const { dataProvider, server } = setup({ 'POST /api/exchange/delete': () => ok(null) });
    const ids = [ID.account1, ID.account2];
    await expect(dataProvider.deleteMany('exchange', { ids })).resolves.toEqual({ data: ids });
    expect(server.requests.map((r) => r.body)).toEqual([{ id: ID.account1 }, { id: ID.account2 }]);
  });
});

describe('dataProvider: the operator console on ra-data-simple-rest', () => {
  /** Whole records, as the server answers them (its answer schemas list every field). */
  const user = (id: string, email: string): AdminUser => ({
    id,
    email,
    nickname: email.split('@')[0]!,
    role: 'user',
    level: 0,
    activated: true,
    disabled: false,
    inviterEmail: null,
    usdt: '0',
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  const users = [user('u1', 'a@example.com'), user('u2', 'b@example.com'), user('u3', 'c@example.com')];
  const article: AdminArticle = { id: 'a1', published: false, publishedAt: null, translations: [], createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };
  const json = (request: RecordedRequest) => Object.fromEntries(Object.entries(query(request)).map(([key, value]) => [key, JSON.parse(value)]));

  it('getList -> GET /api/admin/<res> with sort, range and filter as JSON; the total from Content-Range', async () => {
    const { dataProvider, only } = setup({ 'GET /api/admin/users': okRange('users', users) });
    const result = await dataProvider.getList('admin/users', {
      pagination: { page: 2, perPage: 2 },
      sort: { field: 'email', order: 'DESC' },
      filter: { q: 'example', activated: true },
    });
    expect(result).toEqual({ data: [users[0]], total: 3 });
    const request = only();
    expect(json(request)).toEqual({ sort: ['email', 'DESC'], range: [2, 3], filter: { q: 'example', activated: true } });
    expect(request.headers).toMatchObject({ Authorization: 'Bearer at-1', 'Accept-Language': 'zh-CN' });
  });

  it('getOne, getMany, create, update and delete in the dialect; the envelope data is the record', async () => {
    const { dataProvider, server } = setup({
      'GET /api/admin/users/u%202': () => ok(users[1]),
      'GET /api/admin/users': okRange('users', users.slice(0, 2)),
      'POST /api/admin/articles': (req) => ok({ ...article, ...req.body }),
      'PUT /api/admin/users/u2': (req) => ok({ ...users[1], ...req.body }),
      'DELETE /api/admin/articles/a1': () => ok(article),
    });
    expect(await dataProvider.getOne('admin/users', { id: 'u 2' })).toEqual({ data: users[1] });
    expect(await dataProvider.getMany('admin/users', { ids: ['u1', 'u2'] })).toEqual({ data: users.slice(0, 2) });
    expect(await dataProvider.create('admin/articles', { data: { translations: [] } })).toEqual({ data: article });
    expect(await dataProvider.update('admin/users', { id: 'u2', data: { disabled: true }, previousData: users[1]! })).toEqual({ data: { ...users[1], disabled: true } });
    expect(await dataProvider.delete('admin/articles', { id: 'a1', previousData: { id: 'a1' } })).toEqual({ data: article });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/admin/users/u%202',
      'GET /api/admin/users',
      'POST /api/admin/articles',
      'PUT /api/admin/users/u2',
      'DELETE /api/admin/articles/a1',
    ]);
    expect(json(server.requests[1]!)).toEqual({ filter: { id: ['u1', 'u2'] } });
    expect(server.requests[3]!.body).toEqual({ disabled: true });
    expect(server.requests[3]!.headers['Content-Type']).toBe('application/json');
  });

  it('turns a refusal into our ApiError with the catalogue text, and shares the 401 refresh', async () => {
    let first = true;
    const { dataProvider, server } = setup({
      'PUT /api/admin/deposits/d1': () => fail(10008, 'the deposit is already confirmed', { status: 'confirmed' }),
      'GET /api/admin/audit': (req) => {
        if (first) {
          first = false;
          return unauthorized();
        }
        return { ...okRange('audit', [])(req) };
      },
      'PUT /api/user/refresh': () => ok({ accessToken: 'at-2', refreshToken: 'rt-2.0123456789abcdefgh' }),
    });
    const refusal = await dataProvider.update('admin/deposits', { id: 'd1', data: { status: 'confirmed' }, previousData: { id: 'd1' } }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ kind: 'business', code: 10008, data: { status: 'confirmed' }, serverMessage: 'the deposit is already confirmed' });

    expect(await dataProvider.getList('admin/audit', { pagination: { page: 1, perPage: 10 }, sort: { field: 'createdAt', order: 'DESC' }, filter: {} })).toEqual({ data: [], total: 0 });
    const audit = server.requests.filter((r) => r.path === '/api/admin/audit');
    expect(audit.map((r) => r.headers.Authorization)).toEqual(['Bearer at-1', 'Bearer at-2']);
  });

  it('a list answer without Content-Range is an error, not a silent empty list', async () => {
    const { dataProvider } = setup({ 'GET /api/admin/users': () => ok(users) });
    await expect(dataProvider.getList('admin/users', { pagination: { page: 1, perPage: 10 }, sort: { field: 'id', order: 'ASC' }, filter: {} })).rejects.toThrow(/Content-Range/);
  });
});

describe('dataProvider: the typed calls of spec section 7', () => {
  type Dp = ReturnType<typeof createDataProvider>;
  const tradePayload = {
    exchangeId: ID.account1,
    coinIdList: ['BTC/USDT'],
    cycleCount: 9999,
    firstOrderAmount: '10',
    firstOrderMultiple: false,
    running: true,
    replenishStatus: 'replenish_open' as const,
    strategyId: ID.strategy,
  };

  const rows: Array<{ name: string; call: (dp: Dp) => Promise<unknown>; route: string; body?: unknown; signed?: boolean; answer?: unknown }> = [
    { name: 'login', call: (dp) => dp.login({ email: 'a@b.c', password: 'pw' }), route: 'POST /api/user/login', signed: true, answer: TOKENS },
    {
      name: 'register',
      call: (dp) =>
        dp.register({
          email: 'a@b.c',
          nickname: 'Trader',
          password: 'Sturdy-Passw0rd!',
          secondPassword: 'Sturdy-Passw0rd!',
          captcha: '123456',
          inviteCode: 'I1',
          rememberMe: false,
        }),
      route: 'POST /api/user/register',
      signed: true,
      answer: TOKENS,
    },
    {
      name: 'sendVerifyCode',
      call: (dp) => dp.sendVerifyCode({ email: 'a@b.c', type: 'register' }),
      route: 'POST /api/user/verify-code',
      signed: true,
      answer: { expiresIn: 600, resendAfter: 60 },
    },
    {
      name: 'resetPassword',
      call: (dp) => dp.resetPassword({ email: 'a@b.c', newPassword: 'Sturdy-Passw0rd!', captcha: '123456' }),
      route: 'POST /api/user/reset-password',
      signed: true,
      answer: null,
    },
    { name: 'logout', call: (dp) => dp.logout(), route: 'POST /api/user/logout', answer: null },
    { name: 'refresh', call: (dp) => dp.refresh('rt-1.0123456789abcdefgh'), route: 'PUT /api/user/refresh', signed: true, answer: TOKENS },
    { name: 'tradeList', call: (dp) => dp.tradeList({ page: 1 }), route: 'GET /api/trade/list', answer: { list: [btcTask], total: 1 } },
    { name: 'tradeAdd', call: (dp) => dp.tradeAdd(tradePayload), route: 'POST /api/trade/add', body: tradePayload, answer: [{ id: ID.task1 }] },
    {
      name: 'tradeAction',
      call: (dp) => dp.tradeAction({ id: ID.task1, action: 'stop' }),
      route: 'POST /api/trade/action',
      body: { id: ID.task1, action: 'stop' },
      answer: null,
    },
    { name: 'tradeDetail', call: (dp) => dp.tradeDetail(ID.task1), route: `GET /api/trade/detail/${ID.task1}`, answer: DETAIL },
    { name: 'tradePairs', call: (dp) => dp.tradePairs({ exchangeId: ID.account1 }), route: 'GET /api/trade/pairs', answer: { list: [PAIR], total: 1 } },
    { name: 'tradeHotPairs', call: (dp) => dp.tradeHotPairs(), route: 'GET /api/trade/hot-pairs', answer: [PAIR] },
    { name: 'tradeConfigTemplates', call: (dp) => dp.tradeConfigTemplates(), route: 'GET /api/trade/config-templates', answer: [SAVED] },
    { name: 'tradeOrderHistory', call: (dp) => dp.tradeOrderHistory({ taskId: ID.task1 }), route: 'GET /api/trade/order-history', answer: { list: [ORDER], total: 1 } },
    {
      name: 'tradeCoinPrice',
      call: (dp) => dp.tradeCoinPrice({ coins: ['BTC'] }),
      route: 'POST /api/trade/coin-price',
      body: { coins: ['BTC'] },
      answer: { BTC: '100' },
    },
    { name: 'tradeUpdate', call: (dp) => dp.tradeUpdate(updatePayload), route: 'POST /api/trade/update', body: updatePayload, answer: { id: ID.task1 } },
    { name: 'tradeCloseOrder', call: (dp) => dp.tradeCloseOrder(ID.task1), route: `POST /api/trade/close-order/${ID.task1}`, answer: { symbol: 'BTC/USDT', sold: '0.2', remainder: '0' } },
  ];

  it('covers every call of the spec table', () => {
    expect(rows.map((r) => r.route)).toEqual([
      'POST /api/user/login',
      'POST /api/user/register',
      'POST /api/user/verify-code',
      'POST /api/user/reset-password',
      'POST /api/user/logout',
      'PUT /api/user/refresh',
      'GET /api/trade/list',
      'POST /api/trade/add',
      'POST /api/trade/action',
      `GET /api/trade/detail/${ID.task1}`,
      'GET /api/trade/pairs',
      'GET /api/trade/hot-pairs',
      'GET /api/trade/config-templates',
      'GET /api/trade/order-history',
      'POST /api/trade/coin-price',
      'POST /api/trade/update',
      `POST /api/trade/close-order/${ID.task1}`,
    ]);
  });

  it.each(rows)('$name -> $route', async ({ call, route, body, signed, answer = { answered: route } }) => {
    const { dataProvider, only } = setup({ [route]: () => ok(answer) });
    await expect(call(dataProvider)).resolves.toEqual(answer);
    const request = only();
    expect(`${request.method} ${request.path}`).toBe(route);
    if (body !== undefined) expect(request.body).toEqual(body);
    if (signed) {
      expect(request.body).toHaveProperty('sign');
      expect(verifies(request)).toBe(true);
      // The user calls are made before (or without) a session: no bearer token.
      expect(request.headers).not.toHaveProperty('Authorization');
    } else {
      expect(request.body ?? {}).not.toHaveProperty('sign');
      expect(request.headers.Authorization).toBe('Bearer at-1');
    }
  });

  it('refresh sends the refresh token signed', async () => {
    const { dataProvider, only } = setup({ 'PUT /api/user/refresh': () => ok({ accessToken: 'a', refreshToken: 'r' }) });
    await dataProvider.refresh('rt-xyz.0123456789abcdefgh');
    const request = only();
    expect(request.body).toMatchObject({ refreshToken: 'rt-xyz.0123456789abcdefgh' });
    expect(Object.keys(request.body!).sort()).toEqual(['refreshToken', 'sign', 'timestamp', 'uuid']);
    expect(verifies(request)).toBe(true);
  });

  it('query calls pass their parameters in the query string', async () => {
    const { dataProvider, only } = setup({ 'GET /api/trade/order-history': () => ok({ list: [], total: 0 }) });
    await dataProvider.tradeOrderHistory({ taskId: ID.task1, page: 2, pageSize: 20, side: '' });
    expect(query(only())).toEqual({ taskId: ID.task1, page: '2', pageSize: '20' });
  });
});
