import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCatalogueCode } from '../../src/api/errors';
import { DEV_SIGN_SECRET, isSignedCall, newRequestId, signBody, unixSeconds } from '../../src/api/signing';
import { quickStrategy, registerUser, startServer, taskPayload, type TestServer } from './harness';
import { recordedExchange } from './recordedExchange';

/**
 * The API under hostile input, walking the server's own OpenAPI document: for
 * every operation, each parameter and body field in turn gets values a
 * careless or malicious client sends (overflowing numbers, NUL characters,
 * lone surrogates, bidi controls, 36 dashes for a uuid, overlong path
 * parameters, wrong types, malformed PEM keys, ...) while the other fields
 * keep plausible values, so the request gets as far into the handler as it
 * can. Every answer must be the JSON envelope with a catalogue code, never a
 * 500. The extra random values come from a fixed seed: a failure repeats.
 */

const SEED = 20261124;

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
};
type Operation = {
  parameters?: { in: 'query' | 'path' | 'header'; name: string; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  security?: unknown[];
};

/** Values no field should ever cause a 500 with (JSON values: bodies get them as they are, query and path parameters as text). */
const HOSTILE: readonly unknown[] = [
  // numbers that overflow an offset, a bigint or a numeric column
  1e30, -1e30, '1e30', '-1e30', 1e308, '1e309', 2 ** 53, -(2 ** 63), '9223372036854775808', -1, 0, '-0', 0.5, '0.5', 'NaN', 'Infinity', '-Infinity', '0x10',
  '1'.repeat(400), '0.' + '0'.repeat(300) + '1',
  // characters PostgreSQL or the signature refuses, and ones a person cannot see
  '\u0000', 'a\u0000b', '%00', '\ud800', 'x\udc00y', '\udbff\udfff\ud800', '\u202e\u2066abc\u2069', '\u200b', '\ufeff', '\u00ad', 'line\nbreak', '\t',
  // uuids that are not
  '-'.repeat(36), '00000000-0000-0000-0000-00000000000g', `${'-'.repeat(36)},${'-'.repeat(36)}`, '{}', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
  // lengths
  '', ' ', 'x'.repeat(101), 'é'.repeat(5000), 'x'.repeat(70_000),
  // wrong types
  true, false, null, [], [null], ['\u0000'], {}, { a: 1 }, { $gt: '' },
  // keys and text that have crashed parsers
  '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----',
  '-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----',
  '-----BEGIN RSA PRIVATE KEY-----\n' + 'A'.repeat(64) + '\n-----END RSA PRIVATE KEY-----',
  "' OR 1=1 --", '../../etc/passwd', '%', '%E0%A4%A', '2026-02-30', '9999-99-99T99:99:99Z', '-271821-04-20', 'Europe/Nowhere', '../UTC', 'constructor', '__proto__',
];

/** A few more values per field from fast-check, always the same ones (fixed seed). */
const randomValues = (count: number, seed: number): unknown[] =>
  fc.sample(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ unit: fc.constantFrom('\u0000', '\ud800', '\u202e', '-', '9', 'e', '.', '%', '/'), maxLength: 60 }),
      fc.double(),
      fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
      fc.jsonValue({ maxDepth: 2 }),
    ),
    { seed, numRuns: count },
  );

const typesOf = (schema: Schema): string[] => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);

/** Plausible values by field name: enough for a request to pass validation and reach the code behind it. */
const NAMED: Record<string, unknown> = {
  email: 'fuzz-target@example.com',
  exchange: 'binance',
  name: 'Fuzz',
  nickname: 'Fuzz',
  apiKey: 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A',
  secret: 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j',
  password: 'Sturdy-Passw0rd!',
  oldPassword: 'Sturdy-Passw0rd!',
  newPassword: 'Sturdy-Passw0rd!2',
  secondPassword: 'Sturdy-Passw0rd!2',
  timeZone: 'Asia/Shanghai',
  date: '2026-01-01',
  symbol: 'BTC/USDT',
  coinIdList: ['BTC/USDT'],
  coins: ['BTC'],
  amount: '1',
  firstOrderAmount: '10',
  levels: quickStrategy.levels,
  takeProfitPercent: '1',
  idempotencyKey: 'fuzz-key-1',
  address: 'TXYZ1234567890abcdefghijkLMNOPQRSTU',
  range: '[0,9]',
  filter: '{}',
};

/** A value the schema accepts, or close to one. */
const plausible = (schema: Schema, name: string, ids: Record<string, string>): unknown => {
  if (name in ids) return ids[name];
  if (name in NAMED) return NAMED[name];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.[0]) return plausible(variants[0], name, ids);
  const types = typesOf(schema).filter((type) => type !== 'null');
  switch (types[0]) {
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, () => plausible(schema.items ?? {}, '', ids));
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const key of schema.required ?? []) result[key] = plausible(schema.properties?.[key] ?? {}, key, ids);
      return result;
    }
    default:
      break;
  }
  if (schema.format === 'uuid') return randomUUID();
  if (schema.format === 'date') return '2026-01-01';
  if (schema.format === 'date-time') return new Date().toISOString();
  if (schema.format === 'email') return 'fuzz@example.com';
  const candidates = ['10', 'abc', 'BTC/USDT', 'a1', '2026-01-01', 'x'.repeat(Math.max(1, schema.minLength ?? 1))];
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern, 'u');
    return candidates.find((candidate) => pattern.test(candidate)) ?? candidates[0];
  }
  return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
};

/** Query and path text: percent-encoded UTF-8, lone surrogates included (as their WTF-8 bytes, which a browser's encoder refuses). */
const encodeText = (value: unknown): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    let codePoint = unit;
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      codePoint = 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00);
      i++;
    }
    const char = String.fromCodePoint(codePoint);
    if (/^[A-Za-z0-9\-_.~]$/.test(char)) {
      out += char;
      continue;
    }
    const bytes: number[] =
      codePoint < 0x80
        ? [codePoint]
        : codePoint < 0x800
          ? [0xc0 | (codePoint >> 6), 0x80 | (codePoint & 63)]
          : codePoint < 0x10000
            ? [0xe0 | (codePoint >> 12), 0x80 | ((codePoint >> 6) & 63), 0x80 | (codePoint & 63)]
            : [0xf0 | (codePoint >> 18), 0x80 | ((codePoint >> 12) & 63), 0x80 | ((codePoint >> 6) & 63), 0x80 | (codePoint & 63)];
    out += bytes.map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
};

interface Case {
  method: string;
  template: string;
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body?: unknown;
  /** Raw body text instead of `body`. */
  raw?: string;
  label: string;
}

/** Signs a signed call's body; one a client cannot sign (a lone surrogate in a key field) gets a well-formed but wrong sign. */
const signed = (method: string, template: string, body: unknown): unknown => {
  if (!isSignedCall(method, template) || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  try {
    return signBody(method, template, body, DEV_SIGN_SECRET);
  } catch {
    return { ...body, uuid: newRequestId(), timestamp: unixSeconds(), sign: '0'.repeat(64) };
  }
};

/** One operation's cases: each parameter and top-level body field mutated alone, then whole-body oddities. */
const casesOf = (method: string, template: string, operation: Operation, ids: Record<string, string>, extra: number, seed: number): Case[] => {
  const parameters = operation.parameters ?? [];
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  const baseline = () => {
    const path: Record<string, unknown> = {};
    const query: Record<string, unknown> = {};
    for (const parameter of parameters) {
      const idName = parameter.in === 'path' && parameter.name === 'id' ? idFor(template) : parameter.name;
      if (parameter.in === 'path') path[parameter.name] = plausible(parameter.schema, idName, ids);
      else if (parameter.in === 'query' && parameter.required) query[parameter.name] = plausible(parameter.schema, idName, ids);
    }
    const body = bodySchema ? (plausible(bodySchema, '', ids) as Record<string, unknown>) : undefined;
    return { path, query, body };
  };
  const cases: Case[] = [];
  const values = (index: number) => [...HOSTILE, ...randomValues(extra, seed + index)];
  parameters.forEach((parameter, index) => {
    if (parameter.in !== 'path' && parameter.in !== 'query') return;
    for (const value of values(index)) {
      const { path, query, body } = baseline();
      (parameter.in === 'path' ? path : query)[parameter.name] = value;
      cases.push({ method, template, path, query, body, label: `${parameter.in}.${parameter.name}=${JSON.stringify(value)?.slice(0, 60)}` });
    }
  });
  if (bodySchema) {
    Object.keys(bodySchema.properties ?? {}).forEach((field, index) => {
      if (['uuid', 'timestamp', 'sign'].includes(field) && isSignedCall(method, template)) return;
      for (const value of values(100 + index)) {
        const { path, query, body } = baseline();
        cases.push({ method, template, path, query, body: { ...body, [field]: value }, label: `body.${field}=${JSON.stringify(value)?.slice(0, 60)}` });
      }
    });
    for (const raw of ['', 'null', '[]', '"x"', '1e30', '{', '{"a":', '\u0000', '{"__proto__":{"x":1}}', JSON.stringify({ ...(baseline().body ?? {}), unknownField: 1 })]) {
      const { path, query } = baseline();
      cases.push({ method, template, path, query, raw, label: `raw body ${JSON.stringify(raw).slice(0, 40)}` });
    }
  }
  return cases;
};

/** Which fixture a route's {id} names. */
const idFor = (template: string): string =>
  template.startsWith('/api/trade/') ? 'taskId' : template.startsWith('/api/strategy/') ? 'strategyId' : template.startsWith('/api/exchange/') ? 'exchangeId' : 'id';

export const describeHostileInput = (backend: 'pglite' | 'postgres') =>
  describe(`the API under hostile input (${backend})`, () => {
  let server: TestServer;
  let userToken: string;
  let operatorToken: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    // Key checks reach no exchange: ccxt signs each request (where a malformed key fails), then the network is down.
    const replay = recordedExchange();
    replay.failNetwork();
    server = await startServer(backend, {}, { exchangeFactory: replay.factory });
    const user = await registerUser(server, { email: 'fuzz-user@example.com', activated: true });
    userToken = user.accessToken;
    const operator = await registerUser(server, { email: 'fuzz-operator@example.com' });
    await server.db.updateTable('users').set({ role: 'operator' }).where('id', '=', operator.user.id).execute();
    operatorToken = operator.accessToken;
    const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token: userToken });
    const exchangeId: string = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper' })).body.data.id;
    const strategyId: string = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id;
    Object.assign(ids, { exchangeId, strategyId });
    const task = await call('POST', '/api/trade/add', taskPayload(exchangeId, strategyId));
    ids.taskId = task.body.data?.ids?.[0] ?? task.body.data?.id ?? task.body.data?.list?.[0]?.id ?? randomUUID();
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('answers the cases the first fuzzing run found with their catalogue codes', async () => {
    const get = async (path: string) => {
      const response = await fetch(`${server.base}${path}`, { headers: { Authorization: `Bearer ${userToken}` } });
      return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as { code: number; data: any } };
    };
    // An offset beyond any integer column: a range error, not an overflow in the database.
    expect((await get('/api/strategy/list?page=1e30')).body.code).toBe(10002);
    expect((await get('/api/wallet/deposits?page=100001')).body.code).toBe(10002);
    // NUL never reaches PostgreSQL (its 22021).
    expect((await get('/api/strategy/list?q=a%00b')).body).toMatchObject({ code: 10003, data: { field: 'q' } });
    expect((await get('/api/trade/list?symbol=%00')).body.code).toBe(10003);
    // 36 dashes match [0-9a-f-]{36} but are no uuid.
    expect((await get(`/api/exchange/list?ids=${'-'.repeat(36)}`)).body.code).toBe(10003);
    // A time zone the runtime does not know.
    expect((await get('/api/profit/summary?timeZone=Europe%2FNowhere')).body).toMatchObject({ code: 10003, data: { field: 'timeZone' } });
    // Path parameters beyond the router's 100 characters, or not UTF-8: the envelope, not a bare 414 or 400.
    const long = await get(`/api/trade/detail/${'x'.repeat(101)}`);
    expect(long).toMatchObject({ status: 200, body: { code: 10004 } });
    expect(long.type).toMatch(/^application\/json/);
    expect((await get('/api/trade/detail/%ED%A0%80')).body.code).toBe(10003);
    // A URL beyond Node's 16 KiB header limit.
    const huge = await get(`/api/trade/list?symbol=${'x'.repeat(70_000)}`);
    expect(huge).toMatchObject({ status: 431, body: { code: 10005 } });
    // A lone surrogate in a signed field: the sign cannot be computed over it, and nothing crashes.
    const signedCall = await server.call('POST', '/api/user/login', {}, {
      raw: JSON.stringify({ email: 'fuzz-user@example.com', password: 'x\ud800y-long-enough', uuid: newRequestId(), timestamp: unixSeconds(), sign: '0'.repeat(64) }),
    });
    expect(signedCall.body).toMatchObject({ code: 10003 });
    // A malformed PEM secret: a format error on the secret, not an unclassified ccxt error.
    const pem = await server.call(
      'POST',
      '/api/exchange/add',
      { exchange: 'binance', name: 'Pem', apiKey: 'k'.repeat(64), secret: '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----' },
      { token: userToken },
    );
    expect(pem.body).toMatchObject({ code: 10003, data: { field: 'secret' } });
  });

  it(
    'answers every hostile request with the envelope and a catalogue code, never a 500',
    async () => {
      const answer = await server.app.inject({ method: 'GET', url: '/api/openapi.json' });
      const document = answer.json() as { paths: Record<string, Record<string, Operation>> };
      // PostgreSQL over a socket is slower: fewer random extras there.
      const extra = backend === 'pglite' ? 4 : 2;
      const cases: Case[] = [];
      for (const [template, operations] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          // Logging out would end the session the other cases use.
          if (template === '/api/user/logout') continue;
          cases.push(...casesOf(method.toUpperCase(), template, operation, ids, extra, SEED));
        }
      }
      const failures: string[] = [];
      const codes = new Map<unknown, number>();
      let sent = 0;
      const started = Date.now();
      for (const testCase of cases) {
        const path = testCase.template.replace(/\{(\w+)\}/g, (_, name: string) => encodeText(testCase.path[name]));
        const query = Object.entries(testCase.query)
          .map(([key, value]) => `${key}=${encodeText(value)}`)
          .join('&');
        const url: string = `${server.base}${path}${query ? `?${query}` : ''}`;
        const headers: Record<string, string> = {
          'Accept-Language': 'zh-CN',
          Authorization: `Bearer ${testCase.template.startsWith('/api/admin/') ? operatorToken : userToken}`,
        };
        let payload: string | undefined = testCase.raw;
        if (payload === undefined && testCase.body !== undefined) payload = JSON.stringify(signed(testCase.method, testCase.template, testCase.body));
        if (payload !== undefined) headers['Content-Type'] = 'application/json';
        const response = await fetch(url, { method: testCase.method, headers, body: payload });
        sent++;
        const text = await response.text();
        const where = `${testCase.method} ${testCase.template} ${testCase.label} -> ${response.status} ${text.slice(0, 160)}`;
        let envelope: { code?: unknown; message?: unknown } | undefined;
        try {
          envelope = JSON.parse(text) as typeof envelope;
        } catch {
          envelope = undefined;
        }
        codes.set(envelope?.code, (codes.get(envelope?.code) ?? 0) + 1);
        if (
          response.status >= 500 ||
          !response.headers.get('content-type')?.startsWith('application/json') ||
          !envelope ||
          typeof envelope.message !== 'string' ||
          !('data' in envelope) ||
          !(envelope.code === 0 || isCatalogueCode(envelope.code))
        ) {
          failures.push(where);
        }
      }
      const seconds = (Date.now() - started) / 1000;
      const tally = [...codes].sort((a, b) => b[1] - a[1]).map(([code, count]) => `${String(code)}: ${count}`);
      console.info(`fuzz (${backend}): ${sent} requests in ${seconds.toFixed(1)} s, ${failures.length} failures; codes ${tally.join(', ')}`);
      // Some requests got past validation into the handlers (successes and business refusals), not only 1000x.
      expect([...codes.keys()].filter((code) => typeof code === 'number' && (code === 0 || code >= 11000)).length).toBeGreaterThan(5);
      expect(sent).toBeGreaterThan(5000);
      expect(failures.slice(0, 40), `${failures.length} failures`).toEqual([]);
      // The server logged no unexpected error either (a caught 500 would still be logged).
      expect(server.logs.filter((line) => line.includes('unexpected error')).slice(0, 5)).toEqual([]);
    },
    300_000,
  );
});
