import { afterEach, describe, expect, it } from 'vitest';
import { createFakeServer, ok, takeContractViolations } from './fakeServer';

/** The test network refuses what the server would refuse, and answers only what the server could answer. */
const ACCOUNT = '0b5e3c6e-1f0a-4a8e-9d4c-6f2b7a1c9e01';

const server = createFakeServer({
  'GET /api/exchange/list': () => ok({ list: [], total: 0 }),
  [`GET /api/exchange/detail/${ACCOUNT}`]: () => ok({ id: ACCOUNT, exchange: 'paper', name: 'Paper', apiKeyHint: null, paperBalances: null, prices: null, createdAt: 'x', updatedAt: 'x' }),
  'POST /api/exchange/delete': () => ok(null),
  'GET /api/user/me': () => ok({ id: 42 }),
  'GET /api/admin/users': () => ok([]),
});
const json = (method: string, body: unknown) => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

/** The violation a call caused: it is thrown from fetch and kept for the test's end. */
const refusal = async (call: Promise<Response>) => {
  const error = await call.then(
    () => undefined,
    (thrown: Error) => thrown,
  );
  expect(error, 'the request was not refused').toBeInstanceOf(Error);
  expect(takeContractViolations()).toEqual([error!.message]);
  return error!.message;
};

afterEach(() => {
  expect(takeContractViolations()).toEqual([]);
});

describe('requests the server would refuse fail the test', () => {
  it('a sort value the route does not offer, naming the route and the allowed values', async () => {
    const message = await refusal(server.fetch('/api/exchange/list?sort=id'));
    expect(message).toContain('route GET /api/exchange/list');
    expect(message).toContain('querystring/sort must be equal to one of the allowed values (name, exchange, createdAt, updatedAt)');
  });

  it('a query parameter the route does not declare', async () => {
    expect(await refusal(server.fetch('/api/exchange/list?limit=5'))).toContain("unknown parameter 'limit'");
  });

  it('a route the server does not have, and a method a path does not take', async () => {
    expect(await refusal(server.fetch('/api/exchange/bindings'))).toContain("no route GET /api/exchange/bindings in the server's API");
    expect(await refusal(server.fetch('/api/exchange/list', json('POST', {})))).toContain('POST is not allowed on /api/exchange/list (only GET)');
  });

  it('a body with a property the route does not take, or a missing one', async () => {
    const message = await refusal(server.fetch('/api/exchange/delete', json('POST', { id: ACCOUNT, force: true })));
    expect(message).toContain('route POST /api/exchange/delete');
    expect(message).toContain("body must NOT have additional properties 'force'");
    expect(await refusal(server.fetch('/api/exchange/delete', json('POST', {})))).toContain("body must have required property 'id'");
  });

  it('a body field of the wrong type is not coerced (bodies are strict), a path parameter is checked', async () => {
    expect(await refusal(server.fetch('/api/exchange/delete', json('POST', { id: 7 })))).toContain('body/id must be string');
    expect(await refusal(server.fetch('/api/exchange/detail/not-an-id'))).toContain('route GET /api/exchange/detail/{id}');
  });

  it("the operator console's JSON parameters (ra-data-simple-rest) are parsed and checked", async () => {
    const sort = encodeURIComponent('["password","ASC"]');
    expect(await refusal(server.fetch(`/api/admin/users?sort=${sort}`))).toContain('querystring/sort/0 must be equal to one of the allowed values');
    expect(await refusal(server.fetch('/api/admin/users?range=0-24'))).toContain('querystring/range must be JSON');
  });

  it('is recorded even when the code under test swallows the error', async () => {
    await server.fetch('/api/exchange/list?sort=id').catch(() => undefined);
    expect(takeContractViolations()).toHaveLength(1);
  });
});

describe('valid requests pass', () => {
  it('query strings are coerced from text like the server does, path parameters match their template', async () => {
    expect((await server.fetch('/api/exchange/list?page=2&pageSize=10&sort=name&order=DESC')).status).toBe(200);
    expect((await server.fetch(`/api/exchange/detail/${ACCOUNT}`)).status).toBe(200);
    expect((await server.fetch('/api/exchange/delete', json('POST', { id: ACCOUNT }))).status).toBe(200);
    const sort = encodeURIComponent('["email","DESC"]');
    const range = encodeURIComponent('[0,24]');
    expect((await server.fetch(`/api/admin/users?sort=${sort}&range=${range}&filter=${encodeURIComponent('{"q":"a"}')}`)).status).toBe(200);
  });
});

it('an answer the server could not give (against the route’s response schema) fails the test', async () => {
  const message = await refusal(server.fetch('/api/user/me'));
  expect(message).toContain('route GET /api/user/me');
  expect(message).toContain('answer/data/id must be string');
});

it('an answer with a field the route’s response schema does not list fails the test (the server would not send it)', async () => {
  const extra = createFakeServer({ 'GET /api/user/me': () => ok({ id: 'u1', email: 'a@example.com', balance: '12' }) });
  expect(await refusal(extra.fetch('/api/user/me'))).toContain("answer/data must NOT have additional properties 'balance'");
});
