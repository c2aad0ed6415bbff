import * as ccxtErrors from 'ccxt';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/api/errors';
import { createSecretBox, sealContext } from '../src/engine/venues/exchangeAccess';
import { classifyExchangeError } from '../src/exchange/verify';
import binance from './fixtures/binance.json';
import okx from './fixtures/okx.json';
import { registerUser, startServer, type Envelope, type TestServer } from './harness';
import { recordedExchange, type Replay } from './recordedExchange';

/**
 * Exchange accounts (the API keys a user binds): every call, each refusal,
 * ownership, and the keys' secrecy. Real keys are checked by ccxt's own
 * Binance and OKX classes, fed recorded exchange answers.
 */

const BINANCE_KEY = {
  apiKey: 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A',
  secret: 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j',
};
const OKX_KEY = {
  apiKey: '4a0b9d3e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
  secret: '9F3B1C2D4E5F60718293A4B5C6D7E8F9',
  password: 'Dca-Robot-Passphrase-7',
};

const expectOk = <T extends { body: Envelope }>(answer: T): T => {
  expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
  return answer;
};

const expectRefusal = (answer: { status: number; body: Envelope }, code: number, data?: Record<string, unknown>) => {
  expect(answer.status).toBe(200);
  expect(answer.body.code, JSON.stringify(answer.body)).toBe(code);
  if (data) expect(answer.body.data).toMatchObject(data);
};

export const describeCcxtErrors = () =>
  describe('ccxt errors as ours', () => {
  it.each([
    ['AuthenticationError', ErrorCode.EXCHANGE_PERMISSION_DENIED, 'invalid_key'],
    ['PermissionDenied', ErrorCode.EXCHANGE_PERMISSION_DENIED, 'permission_denied'],
    ['AccountNotEnabled', ErrorCode.EXCHANGE_PERMISSION_DENIED, 'permission_denied'],
    ['AccountSuspended', ErrorCode.EXCHANGE_PERMISSION_DENIED, 'account_suspended'],
    ['ExchangeError', ErrorCode.EXCHANGE_PERMISSION_DENIED, 'exchange_refused'],
    ['BadRequest', ErrorCode.EXCHANGE_PERMISSION_DENIED, 'exchange_refused'],
    ['RestrictedLocation', ErrorCode.NOT_ENABLED, 'restricted_location'],
    ['NetworkError', ErrorCode.NOT_ENABLED, 'exchange_unreachable'],
    ['RequestTimeout', ErrorCode.NOT_ENABLED, 'exchange_unreachable'],
    ['ExchangeNotAvailable', ErrorCode.NOT_ENABLED, 'exchange_unreachable'],
    ['OnMaintenance', ErrorCode.NOT_ENABLED, 'exchange_unreachable'],
    ['RateLimitExceeded', ErrorCode.NOT_ENABLED, 'exchange_busy'],
    ['DDoSProtection', ErrorCode.NOT_ENABLED, 'exchange_busy'],
    ['InvalidNonce', ErrorCode.NOT_ENABLED, 'clock_skew'],
    ['BadResponse', ErrorCode.NOT_ENABLED, 'bad_response'],
  ] as const)('%s -> %i %s', (name, code, reason) => {
    const ErrorClass = (ccxtErrors as unknown as Record<string, new (message: string) => Error>)[name]!;
    expect(classifyExchangeError(new ErrorClass('binance {"code":-1}'))).toEqual({ code, reason });
  });

  it('leaves anything else to the unexpected-error path', () => {
    expect(classifyExchangeError(new TypeError('x is undefined'))).toBeUndefined();
    expect(classifyExchangeError('text')).toBeUndefined();
  });
});

export const describeExchangeAccounts = (backend: 'pglite' | 'postgres') =>
  describe(`exchange accounts (${backend})`, () => {
  let server: TestServer;
  let replay: Replay;
  let token: string;
  let userId: string;
  afterEach(async () => server?.close());

  const start = async (overrides: Parameters<typeof startServer>[1] = {}) => {
    replay = recordedExchange();
    server = await startServer(backend, overrides, { exchangeFactory: replay.factory });
    const user = await registerUser(server, { email: 'keys@example.com' });
    token = user.accessToken;
    userId = user.user.id;
  };

  const call = (method: string, path: string, body?: unknown, as = token) => server.call(method, path, body, { token: as });
  const add = (body: Record<string, unknown>, as = token) => call('POST', '/api/exchange/add', body, as);
  const list = async (as = token, query = '') => expectOk(await call('GET', `/api/exchange/list${query}`, undefined, as)).body.data;

  const storedRow = (id: string) => server.db.selectFrom('exchange_accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  describe('catalog', () => {
    it('offers paper trading and the ccxt exchanges with the credentials each needs', async () => {
      await start({ paperStartUsdt: '2500.5' });
      const { data } = expectOk(await call('GET', '/api/exchange/catalog')).body;
      const byId = Object.fromEntries(data.list.map((entry: { id: string }) => [entry.id, entry]));
      expect(Object.keys(byId)).toEqual(['paper', 'binance', 'okx', 'gate', 'bybit', 'htx', 'bitget', 'binance-testnet', 'okx-testnet']);
      expect(data.total).toBe(9);
      // Paper accounts trade on a real exchange's live public prices (Binance first) or on the simulator.
      expect(byId.paper).toEqual({
        id: 'paper',
        name: 'Paper trading',
        kind: 'paper',
        credentials: [],
        checksPermissions: false,
        startBalances: { USDT: '2500.5' },
        priceSources: ['binance', 'okx', 'gate', 'bybit', 'htx', 'bitget', 'simulator'],
      });
      expect(byId.binance).toEqual({ id: 'binance', name: 'Binance', kind: 'real', credentials: ['apiKey', 'secret'], checksPermissions: true, startBalances: null, priceSources: null });
      expect(byId.okx).toMatchObject({ name: 'OKX', credentials: ['apiKey', 'secret', 'password'], checksPermissions: true });
      expect(byId.bitget).toMatchObject({ name: 'Bitget', credentials: ['apiKey', 'secret', 'password'], checksPermissions: false });
      for (const id of ['gate', 'bybit', 'htx']) expect(byId[id].credentials).toEqual(['apiKey', 'secret']);
    });

    it('answers only a signed-in user', async () => {
      await start();
      for (const [method, path] of [
        ['GET', '/api/exchange/catalog'],
        ['GET', '/api/exchange/list'],
        ['GET', '/api/exchange/detail/00000000-0000-4000-8000-000000000000'],
        ['GET', '/api/exchange/balance/00000000-0000-4000-8000-000000000000'],
        ['POST', '/api/exchange/add'],
        ['POST', '/api/exchange/edit'],
        ['POST', '/api/exchange/delete'],
      ] as const) {
        const answer = await server.call(method, path, method === 'POST' ? {} : undefined);
        expect(answer.status, path).toBe(401);
        expect(answer.body.code).toBe(ErrorCode.UNAUTHORIZED);
      }
    });
  });

  describe('paper accounts', () => {
    it('adds, lists, shows, renames and deletes a paper account with the configured virtual balance', async () => {
      await start({ paperStartUsdt: '25000' });
      const added = expectOk(await add({ exchange: 'paper', name: '  Practice  ' })).body.data;
      expect(added).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        exchange: 'paper',
        name: 'Practice',
        apiKeyHint: null,
        paperBalances: { USDT: '25000' },
        // Binance by default; unreachable from the tests, so on the simulator meanwhile, and it says so.
        prices: { source: 'binance', live: false, fallbackSince: expect.any(String) },
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(new Date(added.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
      expectRefusal(await add({ exchange: 'paper', name: 'Nowhere', priceSource: 'kraken' }), ErrorCode.INVALID, { field: 'priceSource' });

      expect(await list()).toEqual({ list: [added], total: 1 });
      expect(expectOk(await call('GET', `/api/exchange/detail/${added.id}`)).body.data).toEqual(added);

      const renamed = expectOk(await call('POST', '/api/exchange/edit', { id: added.id, name: 'Sandbox' })).body.data;
      expect(renamed).toMatchObject({ id: added.id, name: 'Sandbox', paperBalances: { USDT: '25000' }, createdAt: added.createdAt });
      expect(new Date(renamed.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(added.updatedAt).getTime());
      // Nothing to change: the account as it is.
      expect(expectOk(await call('POST', '/api/exchange/edit', { id: added.id, apiKey: '', secret: '' })).body.data).toEqual(renamed);

      expectRefusal(await call('POST', '/api/exchange/edit', { id: added.id, apiKey: 'some-key-1234' }), ErrorCode.INVALID, { field: 'apiKey' });

      expectOk(await call('POST', '/api/exchange/delete', { id: added.id }));
      expectRefusal(await call('GET', `/api/exchange/detail/${added.id}`), ErrorCode.PARAM_NOT_EXIST);
      expectRefusal(await call('POST', '/api/exchange/delete', { id: added.id }), ErrorCode.PARAM_NOT_EXIST);
      expect(await list()).toEqual({ list: [], total: 0 });
      expect(replay.requests).toEqual([]);
    });

    it('refuses to delete an account that something still refers to (10008 in_use)', async () => {
      await start();
      const account = expectOk(await add({ exchange: 'paper', name: 'Busy' })).body.data;
      // Stands in for the trading tables, whose rows keep the account they traded on.
      await sql`create table account_users (exchange_account_id uuid not null references exchange_accounts(id))`.execute(server.db);
      await sql`insert into account_users values (${account.id})`.execute(server.db);
      expectRefusal(await call('POST', '/api/exchange/delete', { id: account.id }), ErrorCode.INVALID, { field: 'id', reason: 'in_use' });
      expect((await list()).total).toBe(1);
    });

    it("answers a paper account's free USDT now: its start balance, then what its trading left free", async () => {
      await start({ paperStartUsdt: '2500.5' });
      const account = expectOk(await add({ exchange: 'paper', name: 'Practice' })).body.data;
      const balance = () => call('GET', `/api/exchange/balance/${account.id}`);
      expect(expectOk(await balance()).body.data).toEqual({ id: account.id, asset: 'USDT', free: '2500.5' });
      // The engine's journal of the account: a running cycle holds part of it.
      await server.db.updateTable('paper_balances').set({ free: '740.25', used: '0' }).where('exchange_account_id', '=', account.id).where('asset', '=', 'USDT').execute();
      expect(expectOk(await balance()).body.data).toEqual({ id: account.id, asset: 'USDT', free: '740.25' });
      // All of it spent: zero, not unknown.
      await server.db.updateTable('paper_balances').set({ free: '0' }).where('exchange_account_id', '=', account.id).execute();
      expect(expectOk(await balance()).body.data.free).toBe('0');
      // The account list still says what it started with.
      expect((await list()).list[0].paperBalances).toEqual({ USDT: '2500.5' });
      expectRefusal(await call('GET', '/api/exchange/balance/not-a-uuid'), ErrorCode.PARAM_FORMAT);
      expectRefusal(await call('GET', '/api/exchange/balance/00000000-0000-4000-8000-000000000000'), ErrorCode.PARAM_NOT_EXIST);
      expect(replay.requests).toEqual([]);
    });

    it('refuses keys on a paper account', async () => {
      await start();
      expectRefusal(await add({ exchange: 'paper', name: 'Practice', apiKey: 'abc-def-ghi-jkl' }), ErrorCode.INVALID, { field: 'apiKey' });
      expect((await list()).total).toBe(0);
    });

    it('pages, sorts and filters the list', async () => {
      await start();
      for (const name of ['Charlie', 'alpha', 'Bravo']) expectOk(await add({ exchange: 'paper', name }));
      const byName = await list(token, '?sort=name&order=ASC');
      expect(byName.list.map((a: { name: string }) => a.name)).toEqual(['alpha', 'Bravo', 'Charlie']);
      const page2 = await list(token, '?sort=createdAt&order=ASC&page=2&pageSize=2');
      expect(page2.total).toBe(3);
      expect(page2.list.map((a: { name: string }) => a.name)).toEqual(['Bravo']);
      const some = await list(token, `?ids=${byName.list[0].id},${byName.list[2].id}&sort=name&order=DESC`);
      expect(some.list.map((a: { name: string }) => a.name)).toEqual(['Charlie', 'alpha']);
      expect((await list(token, '?exchange=binance')).total).toBe(0);
      expectRefusal(await call('GET', '/api/exchange/list?pageSize=1000'), ErrorCode.PARAM_RANGE);
      expectRefusal(await call('GET', '/api/exchange/list?sort=api_key_ciphertext'), ErrorCode.INVALID);
    });
  });

  describe('refusals', () => {
    it('refuses bad input with the catalogue codes and changes nothing', async () => {
      await start();
      expectRefusal(await add({ exchange: 'paper' }), ErrorCode.PARAM_REQUIRED, { field: 'name' });
      expectRefusal(await add({ name: 'x' }), ErrorCode.PARAM_REQUIRED, { field: 'exchange' });
      expectRefusal(await add({ exchange: 'paper', name: 'x', extra: 1 }), ErrorCode.INVALID, { field: 'extra' });
      expectRefusal(await add({ exchange: 'paper', name: 'n'.repeat(33) }), ErrorCode.PARAM_LENGTH);
      expectRefusal(await add({ exchange: 'paper', name: '   ' }), ErrorCode.PARAM_LENGTH, { field: 'name' });
      expectRefusal(await add({ exchange: 'paper', name: '<b>' }), ErrorCode.PARAM_FORMAT);
      expectRefusal(await add({ exchange: 'paper', name: 7 }), ErrorCode.PARAM_TYPE);
      expectRefusal(await add({ exchange: 'binance', name: 'x', ...BINANCE_KEY, apiKey: 'k'.repeat(257) }), ErrorCode.PARAM_LENGTH);
      expectRefusal(await call('GET', '/api/exchange/detail/not-a-uuid'), ErrorCode.PARAM_FORMAT);
      expectRefusal(await call('POST', '/api/exchange/edit', { name: 'x' }), ErrorCode.PARAM_REQUIRED, { field: 'id' });
      expectRefusal(await call('POST', '/api/exchange/edit', { id: '00000000-0000-4000-8000-000000000000', name: 'x' }), ErrorCode.PARAM_NOT_EXIST);
      expect((await list()).total).toBe(0);
    });

    it('answers 30100 for an exchange ccxt does not know and 30101 for one it knows that we do not offer', async () => {
      await start();
      expectRefusal(await add({ exchange: 'no-such-exchange', name: 'x', ...BINANCE_KEY }), ErrorCode.EXCHANGE_NOT_EXIST, { exchange: 'no-such-exchange' });
      expectRefusal(await add({ exchange: 'kraken', name: 'x', ...BINANCE_KEY }), ErrorCode.EXCHANGE_NOT_SUPPORTED, { exchange: 'kraken' });
      expectRefusal(await add({ exchange: 'coinbase', name: 'x', ...BINANCE_KEY }), ErrorCode.EXCHANGE_NOT_SUPPORTED);
      expect(replay.requests).toEqual([]);
    });

    it('answers 10000 for a missing credential and 10008 for one the exchange does not use, before asking the exchange', async () => {
      await start();
      expectRefusal(await add({ exchange: 'binance', name: 'x', apiKey: BINANCE_KEY.apiKey }), ErrorCode.PARAM_REQUIRED, { field: 'secret' });
      expectRefusal(await add({ exchange: 'binance', name: 'x', secret: BINANCE_KEY.secret, apiKey: '   ' }), ErrorCode.PARAM_REQUIRED, { field: 'apiKey' });
      expectRefusal(await add({ exchange: 'okx', name: 'x', apiKey: OKX_KEY.apiKey, secret: OKX_KEY.secret }), ErrorCode.PARAM_REQUIRED, { field: 'password' });
      expectRefusal(await add({ exchange: 'binance', name: 'x', ...BINANCE_KEY, password: 'unused' }), ErrorCode.INVALID, { field: 'password' });
      expect(replay.requests).toEqual([]);
      expect((await list()).total).toBe(0);
    });

    it('answers 10007 for a name the user already has, whatever its letter case', async () => {
      await start();
      const first = expectOk(await add({ exchange: 'paper', name: 'Main' })).body.data;
      expectRefusal(await add({ exchange: 'paper', name: 'MAIN' }), ErrorCode.ALREADY_EXISTS, { field: 'name' });
      replay.answer(binance.account, binance.apiRestrictionsTradeOnly);
      expectRefusal(await add({ exchange: 'binance', name: 'main', ...BINANCE_KEY }), ErrorCode.ALREADY_EXISTS, { field: 'name' });
      expect(replay.requests).toEqual([]);
      const second = expectOk(await add({ exchange: 'paper', name: 'Second' })).body.data;
      expectRefusal(await call('POST', '/api/exchange/edit', { id: second.id, name: 'mAiN' }), ErrorCode.ALREADY_EXISTS, { field: 'name' });
      // Changing only the letter case of one's own name is no clash.
      expect(expectOk(await call('POST', '/api/exchange/edit', { id: first.id, name: 'MAIN' })).body.data.name).toBe('MAIN');
      // Another user may use the same name.
      const other = await registerUser(server, { email: 'other@example.com' });
      expectOk(await add({ exchange: 'paper', name: 'Main' }, other.accessToken));
    });
  });

  describe('ownership', () => {
    it('keeps every account invisible and untouchable to other users (10006, as for an unknown id)', async () => {
      await start();
      replay.answer(binance.account, binance.apiRestrictionsTradeOnly);
      const paper = expectOk(await add({ exchange: 'paper', name: 'Practice' })).body.data;
      const real = expectOk(await add({ exchange: 'binance', name: 'Real', ...BINANCE_KEY })).body.data;
      const before = await list();

      const intruder = (await registerUser(server, { email: 'intruder@example.com' })).accessToken;
      expect(await list(intruder)).toEqual({ list: [], total: 0 });
      expect(await list(intruder, `?ids=${paper.id},${real.id}`)).toEqual({ list: [], total: 0 });
      for (const account of [paper, real]) {
        const unknown = await call('GET', '/api/exchange/detail/00000000-0000-4000-8000-000000000000', undefined, intruder);
        const detail = await call('GET', `/api/exchange/detail/${account.id}`, undefined, intruder);
        expectRefusal(detail, ErrorCode.PARAM_NOT_EXIST);
        expect(detail.body).toEqual(unknown.body);
        expectRefusal(await call('POST', '/api/exchange/edit', { id: account.id, name: 'Mine now' }, intruder), ErrorCode.PARAM_NOT_EXIST);
        expectRefusal(await call('POST', '/api/exchange/edit', { id: account.id, ...BINANCE_KEY }, intruder), ErrorCode.PARAM_NOT_EXIST);
        expectRefusal(await call('POST', '/api/exchange/delete', { id: account.id }, intruder), ErrorCode.PARAM_NOT_EXIST);
        expectRefusal(await call('GET', `/api/exchange/balance/${account.id}`, undefined, intruder), ErrorCode.PARAM_NOT_EXIST);
      }
      expect(await list()).toEqual(before);
      // Only the add reached the exchange.
      expect(replay.requests).toHaveLength(2);
    });
  });

  describe('real keys, checked by ccxt on recorded exchange answers', () => {
    it.each(['info', 'trace'])(
      'stores a good Binance key encrypted and never answers or logs a secret (log level %s)',
      async (logLevel) => {
        await start({ logLevel });
        replay.answer(binance.account, binance.apiRestrictionsTradeOnly);
        const answers: unknown[] = [];
        const keep = <T extends { body: Envelope }>(answer: T) => (answers.push(answer.body), answer);

        const added = expectOk(keep(await add({ exchange: 'Binance', name: 'Binance main', ...BINANCE_KEY }))).body.data;
        expect(added).toMatchObject({ exchange: 'binance', name: 'Binance main', apiKeyHint: 'vmPU****Eh8A', paperBalances: null });
        expect(replay.unexpected).toEqual([]);
        // ccxt signed both calls with the key: the balance and the key's permissions.
        expect(replay.requests.map((r) => new URL(r.url).pathname).sort()).toEqual(['/api/v3/account', '/sapi/v1/account/apiRestrictions']);
        for (const request of replay.requests) {
          expect(request.headers['X-MBX-APIKEY']).toBe(BINANCE_KEY.apiKey);
          expect(request.url).toMatch(/[?&]signature=[0-9a-f]{64}/);
        }

        keep(await call('GET', '/api/exchange/list'));
        keep(await call('GET', `/api/exchange/detail/${added.id}`));
        keep(await call('POST', '/api/exchange/edit', { id: added.id, name: 'Binance spot' }));
        keep(await add({ exchange: 'binance', name: 'Binance spot', ...BINANCE_KEY }));
        replay.answer(binance.invalidKeyAccount, binance.invalidKeyApiRestrictions);
        keep(await add({ exchange: 'binance', name: 'Refused', ...BINANCE_KEY }));

        const row = await storedRow(added.id);
        expect(row.api_key_ciphertext).toMatch(/^v1:/);
        expect(row.secret_ciphertext).toMatch(/^v1:/);
        expect(row.password_ciphertext).toBeNull();
        expect(row.uid_ciphertext).toBeNull();
        expect(row.api_key_ciphertext).not.toContain(BINANCE_KEY.apiKey);
        const box = createSecretBox(server.config.exchangeMasterKey);
        expect(box.open(row.api_key_ciphertext!, sealContext(userId, 'apiKey'))).toBe(BINANCE_KEY.apiKey);
        expect(box.open(row.secret_ciphertext!, sealContext(userId, 'secret'))).toBe(BINANCE_KEY.secret);

        const { rows } = await sql<{ row: unknown }>`select row_to_json(t) as row from exchange_accounts t`.execute(server.db);
        const stored = JSON.stringify(rows);
        const answered = JSON.stringify(answers);
        const logged = server.logs.join('');
        expect(logged).toContain('exchange key refused');
        for (const secret of Object.values(BINANCE_KEY)) {
          expect(stored).not.toContain(secret);
          expect(answered).not.toContain(secret);
          expect(logged).not.toContain(secret);
        }
        expect(answered).not.toContain('v1:');
        expect(answered).not.toMatch(/ciphertext/i);
      },
    );

    it('answers 30102 invalid_key for a key Binance refuses (-2015, HTTP 401) and stores nothing', async () => {
      await start();
      replay.answer(binance.invalidKeyAccount, binance.invalidKeyApiRestrictions);
      expectRefusal(await add({ exchange: 'binance', name: 'x', ...BINANCE_KEY }), ErrorCode.EXCHANGE_PERMISSION_DENIED, {
        exchange: 'binance',
        reason: 'invalid_key',
      });
      expect((await list()).total).toBe(0);
    });

    it.each([
      ['apiRestrictionsWithdrawals', 'can_withdraw'],
      ['apiRestrictionsReadOnly', 'cannot_trade'],
    ] as const)('answers 30102 for a Binance key whose restrictions are %s (%s)', async (fixture, reason) => {
      await start();
      replay.answer(binance.account, binance[fixture]);
      expectRefusal(await add({ exchange: 'binance', name: 'x', ...BINANCE_KEY }), ErrorCode.EXCHANGE_PERMISSION_DENIED, { reason });
      expect((await list()).total).toBe(0);
    });

    it('stores a good OKX key with its passphrase, all encrypted', async () => {
      await start();
      replay.answer(okx.balance, okx.configTrade);
      const added = expectOk(await add({ exchange: 'okx', name: 'OKX', ...OKX_KEY })).body.data;
      expect(added.apiKeyHint).toBe('4a0b****4d5e');
      expect(replay.unexpected).toEqual([]);
      for (const request of replay.requests) {
        expect(request.headers['OK-ACCESS-KEY']).toBe(OKX_KEY.apiKey);
        expect(request.headers['OK-ACCESS-PASSPHRASE']).toBe(OKX_KEY.password);
      }
      const row = await storedRow(added.id);
      const box = createSecretBox(server.config.exchangeMasterKey);
      expect(row.password_ciphertext).not.toContain(OKX_KEY.password);
      expect(box.open(row.password_ciphertext!, sealContext(userId, 'password'))).toBe(OKX_KEY.password);
    });

    it.each([
      ['configReadOnly', 'cannot_trade'],
      ['configWithdraw', 'can_withdraw'],
    ] as const)('answers 30102 for an OKX key whose perm is %s (%s)', async (fixture, reason) => {
      await start();
      replay.answer(okx.balance, okx[fixture]);
      expectRefusal(await add({ exchange: 'okx', name: 'x', ...OKX_KEY }), ErrorCode.EXCHANGE_PERMISSION_DENIED, { exchange: 'okx', reason });
      expect((await list()).total).toBe(0);
    });

    it('answers 30102 invalid_key for a wrong OKX passphrase (50105)', async () => {
      await start();
      replay.answer(okx.invalidPassphraseBalance, okx.invalidPassphraseConfig);
      expectRefusal(await add({ exchange: 'okx', name: 'x', ...OKX_KEY }), ErrorCode.EXCHANGE_PERMISSION_DENIED, { reason: 'invalid_key' });
    });

    it('answers 20002 exchange_unreachable when the exchange cannot be reached', async () => {
      await start();
      replay.failNetwork();
      expectRefusal(await add({ exchange: 'binance', name: 'x', ...BINANCE_KEY }), ErrorCode.NOT_ENABLED, {
        exchange: 'binance',
        reason: 'exchange_unreachable',
      });
      expect(replay.requests.length).toBeGreaterThan(0);
      expect((await list()).total).toBe(0);
    });

    it('re-checks new keys on edit, keeps the stored ones for empty fields, and keeps everything on a refusal', async () => {
      await start();
      replay.answer(binance.account, binance.apiRestrictionsTradeOnly);
      const added = expectOk(await add({ exchange: 'binance', name: 'Main', ...BINANCE_KEY })).body.data;
      const box = createSecretBox(server.config.exchangeMasterKey);
      const original = await storedRow(added.id);

      // A rename asks nothing of the exchange.
      replay.requests.length = 0;
      expectOk(await call('POST', '/api/exchange/edit', { id: added.id, name: 'Renamed', apiKey: '', secret: '' }));
      expect(replay.requests).toEqual([]);

      // A new secret alone: checked together with the stored key.
      const newSecret = 'Q2nW8xRk4LpT6vYb0cZf3HjM5sDg7AeU9iOq1wEr2tYu4iOp6aSd8fGh0jKl3zXc';
      const edited = expectOk(await call('POST', '/api/exchange/edit', { id: added.id, apiKey: '', secret: newSecret })).body.data;
      expect(edited.apiKeyHint).toBe('vmPU****Eh8A');
      expect(replay.requests.length).toBe(2);
      for (const request of replay.requests) expect(request.headers['X-MBX-APIKEY']).toBe(BINANCE_KEY.apiKey);
      let row = await storedRow(added.id);
      expect(row.api_key_ciphertext).toBe(original.api_key_ciphertext);
      expect(box.open(row.secret_ciphertext!, sealContext(userId, 'secret'))).toBe(newSecret);

      // A new key that Binance refuses: nothing changes.
      const refusedKey = 'Zr1x3c5v7b9n2m4k6j8h0g1f3d5s7a9pq2w4e6r8t0y1u3i5o7p9l2k4j6h8g0fA';
      replay.answer(binance.invalidKeyAccount, binance.invalidKeyApiRestrictions);
      expectRefusal(await call('POST', '/api/exchange/edit', { id: added.id, apiKey: refusedKey, name: 'Other' }), ErrorCode.EXCHANGE_PERMISSION_DENIED, {
        reason: 'invalid_key',
      });
      row = await storedRow(added.id);
      expect(row.name).toBe('Renamed');
      expect(box.open(row.api_key_ciphertext!, sealContext(userId, 'apiKey'))).toBe(BINANCE_KEY.apiKey);

      // A new key Binance accepts: stored with its new hint.
      replay.answer(binance.account, binance.apiRestrictionsTradeOnly);
      const rekeyed = expectOk(await call('POST', '/api/exchange/edit', { id: added.id, apiKey: refusedKey })).body.data;
      expect(rekeyed.apiKeyHint).toBe('Zr1x****g0fA');
      row = await storedRow(added.id);
      expect(box.open(row.api_key_ciphertext!, sealContext(userId, 'apiKey'))).toBe(refusedKey);
      expect(box.open(row.secret_ciphertext!, sealContext(userId, 'secret'))).toBe(newSecret);
      expectRefusal(await call('POST', '/api/exchange/edit', { id: added.id, password: 'not-used' }), ErrorCode.INVALID, { field: 'password' });
    });

    it('answers 99999 for an unexpected failure and logs it with the credentials cut out', async () => {
      const failing = recordedExchange();
      server = await startServer(backend, {}, {
        exchangeFactory: (id, settings) => {
          const exchange = failing.factory(id, settings);
          exchange.fetchBalance = async () => {
            throw new TypeError(`cannot parse the answer for ${settings.apiKey} / ${settings.secret}`);
          };
          return exchange;
        },
      });
      const user = await registerUser(server, { email: 'unexpected@example.com' });
      const answer = await call('POST', '/api/exchange/add', { exchange: 'binance', name: 'x', ...BINANCE_KEY }, user.accessToken);
      expect(answer.status).toBe(500);
      expect(answer.body.code).toBe(ErrorCode.UNDEFINED_ERROR);
      const logged = server.logs.join('');
      expect(logged).toContain('exchange key check failed: cannot parse the answer for [redacted] / [redacted]');
      for (const secret of Object.values(BINANCE_KEY)) {
        expect(logged).not.toContain(secret);
        expect(JSON.stringify(answer.body)).not.toContain(secret);
      }
    });

    it('limits key checks per user (10009 with the seconds to wait)', async () => {
      await start();
      replay.failNetwork();
      for (let attempt = 0; attempt < 10; attempt += 1) {
        expectRefusal(await add({ exchange: 'binance', name: 'x', ...BINANCE_KEY }), ErrorCode.NOT_ENABLED);
      }
      const throttled = await add({ exchange: 'binance', name: 'x', ...BINANCE_KEY });
      expectRefusal(throttled, ErrorCode.TOO_MANY_REQUESTS);
      expect(throttled.body.data.retryAfter).toBeGreaterThan(0);
      // Paper accounts ask no exchange and are not limited.
      expectOk(await add({ exchange: 'paper', name: 'Practice' }));
    });
  });
});
