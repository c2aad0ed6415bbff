import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperatorCommand } from '../src/cli/operator';
import { DEFAULT_SETTINGS, readSettings } from '../src/settings';
import { post, system, user as ledgerUser } from '../src/wallet/ledger';
import { BACKENDS, registerUser, startServer, type TestServer } from './harness';

/** Every route of the app as [method, path], from Fastify's own route tree. */
const routesOf = (server: TestServer): [string, string][] => {
  const tree = server.app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const routes: [string, string][] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack[depth] = match[2]!;
    stack.length = depth + 1;
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim()).filter((m) => m && m !== 'HEAD' && m !== 'OPTIONS')) {
      routes.push([method, stack.join('')]);
    }
  }
  return routes;
};

const article = (title: string, extra: object = {}) => ({
  translations: [
    { locale: 'zh-CN', title, summary: `${title}摘要`, body: `<p>${title}</p>` },
    { locale: 'en-US', title: `${title} (en)`, summary: 'Summary', body: '<p>English</p>' },
  ],
  ...extra,
});

describe.each(BACKENDS)('operator console (%s)', (backend) => {
  let server: TestServer;
  let op: { id: string; token: string };
  let bob: { id: string; token: string; refreshToken: string; password: string };
  let carol: { id: string; token: string };

  const as = (token: string | undefined) => ({
    get: (path: string) => server.call('GET', path, undefined, token ? { token } : {}),
    post: (path: string, body: unknown) => server.call('POST', path, body, token ? { token } : {}),
    put: (path: string, body: unknown) => server.call('PUT', path, body, token ? { token } : {}),
    del: (path: string) => server.call('DELETE', path, undefined, token ? { token } : {}),
  });
  /** A list in ra-data-simple-rest's dialect: sort, range and filter as JSON. */
  const list = (resource: string, params: { sort?: [string, string]; range?: [number, number]; filter?: object } = {}) =>
    admin().get(
      `/api/admin/${resource}?${new URLSearchParams(Object.entries(params).map(([key, value]) => [key, JSON.stringify(value)])).toString()}`,
    );
  const admin = () => as(op.token);
  const auditRows = async () => server.db.selectFrom('audit_log').selectAll().orderBy('id').execute();

  beforeAll(async () => {
    server = await startServer(backend);
    const o = await registerUser(server, { email: 'op@example.com', nickname: 'Olivia' });
    const b = await registerUser(server, { email: 'bob@example.com', nickname: 'Bobby' });
    const c = await registerUser(server, { email: 'carol@example.com', nickname: 'Carol', inviteCode: b.user.inviteCode });
    op = { id: o.user.id, token: o.accessToken };
    bob = { id: b.user.id, token: b.accessToken, refreshToken: b.refreshToken, password: b.password };
    carol = { id: c.user.id, token: c.accessToken };
    const lines: string[] = [];
    expect(await runOperatorCommand(server.db, ['OP@example.com'], { log: (l) => lines.push(l), error: (l) => lines.push(l) })).toBe(0);
    expect(lines.join('\n')).toContain('op@example.com is now an operator');
  });
  afterAll(async () => server.close());

  it('refuses every /api/admin/* route to non-operators (11005) and to anonymous callers (401), changing nothing', async () => {
    const routes = routesOf(server).filter(([, path]) => path.startsWith('/api/admin/'));
    const paths = routes.map(([method, path]) => `${method} ${path}`);
    for (const mine of [
      'GET /api/admin/users',
      'GET /api/admin/users/:id',
      'PUT /api/admin/users/:id',
      'GET /api/admin/deposits',
      'PUT /api/admin/deposits/:id',
      'GET /api/admin/withdrawals/:id',
      'PUT /api/admin/withdrawals/:id',
      'GET /api/admin/articles',
      'GET /api/admin/articles/:id',
      'POST /api/admin/articles',
      'PUT /api/admin/articles/:id',
      'DELETE /api/admin/articles/:id',
      'GET /api/admin/levels',
      'POST /api/admin/levels',
      'PUT /api/admin/levels/:id',
      'DELETE /api/admin/levels/:id',
      'GET /api/admin/settings',
      'POST /api/admin/settings/edit',
      'GET /api/admin/audit',
    ]) {
      expect(paths).toContain(mine);
    }
    const settingsBefore = await readSettings(server.db);
    const auditBefore = (await auditRows()).length;
    const someId = '00000000-0000-4000-8000-00000000a001';
    for (const [method, path] of routes) {
      const url = path.replace(/:[a-zA-Z]+/g, someId);
      // Bodies that an operator's call would accept, so only the role stops them.
      const body = method === 'GET' || method === 'DELETE' ? undefined : { disabled: true, withdrawFee: '99', published: false, ...(path.startsWith('/api/admin/articles') ? article('x') : {}) };
      const user = await server.call(method, url, body, { token: carol.token });
      expect(user.status, `${method} ${path}`).toBe(200);
      expect(user.body.code, `${method} ${path}`).toBe(11005);
      const anonymous = await server.call(method, url, body);
      expect(anonymous.status, `${method} ${path}`).toBe(401);
    }
    expect(await readSettings(server.db)).toEqual(settingsBefore);
    expect((await auditRows()).length).toBe(auditBefore);
    expect((await server.db.selectFrom('users').select('disabled').where('id', '=', bob.id).executeTakeFirstOrThrow()).disabled).toBe(false);
    expect((await as(bob.token).get('/api/article/list')).status).toBe(200);
  });

  it('speaks ra-data-simple-rest: sort, range and filter as JSON, the total in Content-Range, malformed ones refused', async () => {
    const all = await list('users', { sort: ['email', 'ASC'], range: [0, 1] });
    expect(all.body).toMatchObject({ code: 0, message: 'ok' });
    expect(all.body.data.map((u: { email: string }) => u.email)).toEqual(['bob@example.com', 'carol@example.com']);
    expect(all.headers['content-range']).toBe('users 0-1/3');
    expect((await list('users', { sort: ['email', 'ASC'], range: [2, 3] })).headers['content-range']).toBe('users 2-2/3');
    expect((await list('users', { range: [10, 19] })).headers['content-range']).toBe('users */3');
    // Without parameters: the first 25, newest first.
    const plain = await admin().get('/api/admin/users');
    expect(plain.body.data.map((u: { email: string }) => u.email)).toEqual(['carol@example.com', 'bob@example.com', 'op@example.com']);
    // react-admin's getMany: {"id": [...]}; a malformed id matches nothing.
    expect((await list('users', { filter: { id: [carol.id, 'not-an-id'] } })).body.data.map((u: { id: string }) => u.id)).toEqual([carol.id]);
    expect((await list('users', { filter: { id: ['not-an-id'] } })).body.data).toEqual([]);

    const refused: [string, number][] = [
      ['sort=email', 10003],
      ['filter=%7Bq', 10003],
      ['range=[0,24]&range=[0,24]', 10003],
      ['sort=["password_hash","ASC"]', 10008],
      ['sort=["email","UP"]', 10008],
      ['sort=["email"]', 10005],
      ['range=[0,100]', 10002],
      ['range=[5,4]', 10002],
      ['range=[-1,4]', 10002],
      ['range=["a",4]', 10001],
      ['filter={"password":"x"}', 10008],
      ['filter={"level":"high"}', 10001],
      ['filter={"role":"root"}', 10008],
      ['page=2', 10008],
    ];
    for (const [query, code] of refused) {
      const answer = await admin().get(`/api/admin/users?${query}`);
      expect({ query, status: answer.status, code: answer.body.code }).toEqual({ query, status: 200, code });
    }
    expect((await list('users', { range: [0, 99] })).body.code).toBe(0);
  });

  it('lists, filters, reads and edits users; usdt is the available balance', async () => {
    await server.db.transaction().execute((trx) =>
      post(trx, { kind: 'adjustment', userId: null, moves: [{ from: system('adjustments', 'USDT'), to: ledgerUser(bob.id, 'USDT'), amount: '12.50' }], memo: {} }),
    );
    const all = await list('users', { sort: ['email', 'ASC'] });
    expect(all.body.code).toBe(0);
    expect(all.body.data.map((u: { email: string }) => u.email)).toEqual(['bob@example.com', 'carol@example.com', 'op@example.com']);
    expect(all.body.data[0]).toMatchObject({ id: bob.id, nickname: 'Bobby', role: 'user', level: 0, activated: false, disabled: false, usdt: '12.5', inviterEmail: null });
    expect(all.body.data[1]).toMatchObject({ usdt: '0', inviterEmail: 'bob@example.com' });
    expect(all.body.data[2]).toMatchObject({ role: 'operator' });
    expect(all.body.data[0]).not.toHaveProperty('password_hash');
    expect(JSON.stringify(all.body)).not.toMatch(/scrypt|password/i);

    const emails = async (params: Parameters<typeof list>[1]) => (await list('users', params)).body.data.map((u: { email: string }) => u.email);
    expect(await emails({ filter: { q: 'BOBBY' } })).toEqual(['bob@example.com']);
    expect(await emails({ filter: { q: 'carol@' } })).toEqual(['carol@example.com']);
    expect(await emails({ filter: { q: '%' } })).toEqual([]);
    expect(await emails({ filter: { role: 'operator' } })).toEqual(['op@example.com']);
    expect(await emails({ sort: ['usdt', 'DESC'], range: [0, 0] })).toEqual(['bob@example.com']);

    expect((await admin().get(`/api/admin/users/${bob.id}`)).body.data).toMatchObject({ email: 'bob@example.com', usdt: '12.5' });
    expect((await admin().get('/api/admin/users/nope')).body.code).toBe(11000);

    const edited = await admin().put(`/api/admin/users/${carol.id}`, { level: 2, activated: true });
    expect(edited.body).toMatchObject({ code: 0, data: { id: carol.id, level: 2, activated: true } });
    expect(await emails({ filter: { activated: true } })).toEqual(['carol@example.com']);
    expect(await emails({ filter: { level: 2 } })).toEqual(['carol@example.com']);
    const row = await server.db.selectFrom('users').select(['level', 'activated', 'activated_at']).where('id', '=', carol.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ level: 2, activated: true });
    expect(row.activated_at).not.toBeNull();

    // Bad edits change nothing.
    const auditBefore = (await auditRows()).length;
    const carols = `/api/admin/users/${carol.id}`;
    expect((await admin().put(carols, { level: DEFAULT_SETTINGS.levels.length })).body.code).toBe(10002);
    expect((await admin().put(carols, { level: -1 })).body.code).toBe(10002);
    expect((await admin().put(carols, { level: '3' })).body.code).toBe(10001);
    expect((await admin().put(carols, { role: 'operator' })).body.code).toBe(10008);
    expect((await admin().put(carols, { id: bob.id, level: 1 })).body.code).toBe(10008);
    expect((await admin().put('/api/admin/users/00000000-0000-4000-8000-0000000000ff', { level: 1 })).body.code).toBe(11000);
    expect((await admin().put(`/api/admin/users/${op.id}`, { disabled: true })).body.code).toBe(10008);
    // Nothing to change: the record as it is, no audit line.
    expect((await admin().put(carols, {})).body.data).toMatchObject({ level: 2 });
    expect((await auditRows()).length).toBe(auditBefore);
    expect((await admin().get(carols)).body.data).toMatchObject({ level: 2, role: 'user' });
    // Users are not created or deleted from the console.
    expect((await admin().post('/api/admin/users', { email: 'x@example.com' })).status).toBe(404);
    expect((await admin().del(carols)).status).toBe(404);
  });

  it('disabling a user ends their sessions; enabling lets them log in again', async () => {
    expect((await as(bob.token).get('/api/article/list')).status).toBe(200);
    const disabled = await admin().put(`/api/admin/users/${bob.id}`, { disabled: true });
    expect(disabled.body.data).toMatchObject({ disabled: true });
    expect((await as(bob.token).get('/api/article/list')).status).toBe(401);
    const refresh = await server.call('PUT', '/api/user/refresh', { refreshToken: bob.refreshToken });
    expect(refresh.body.code).not.toBe(0);
    const live = await server.db.selectFrom('sessions').select('id').where('user_id', '=', bob.id).where('revoked_at', 'is', null).execute();
    expect(live).toEqual([]);
    expect((await server.call('POST', '/api/user/login', { email: 'bob@example.com', password: bob.password })).body.code).not.toBe(0);

    expect((await admin().put(`/api/admin/users/${bob.id}`, { disabled: false })).body.data.disabled).toBe(false);
    const login = await server.call('POST', '/api/user/login', { email: 'bob@example.com', password: bob.password });
    expect(login.body.code).toBe(0);
    bob.token = login.body.data.accessToken;
  });

  it('writes, edits, publishes and deletes articles', async () => {
    const added = await admin().post('/api/admin/articles', article('运营公告'));
    expect(added.body.code).toBe(0);
    const id = added.body.data.id;
    const one = `/api/admin/articles/${id}`;
    expect(added.body.data).toMatchObject({ published: false, publishedAt: null, translations: [{ locale: 'zh-CN', title: '运营公告' }, { locale: 'en-US' }] });
    expect((await as(bob.token).get(`/api/article/detail/${id}`)).body.code).toBe(10006);

    const published = await admin().put(one, { published: true });
    expect(published.body.data).toMatchObject({ id, published: true, translations: added.body.data.translations });
    expect(published.body.data.publishedAt).not.toBeNull();
    expect((await as(bob.token).get(`/api/article/detail/${id}`)).body.data.title).toBe('运营公告');

    const edited = await admin().put(one, {
      translations: [
        { locale: 'zh-TW', title: '營運公告', summary: '摘要', body: '<p>內容</p>' },
        { locale: 'zh-CN', title: '运营公告（更新）', summary: '摘要', body: '<p>内容<script>x()</script></p>' },
      ],
    });
    expect(edited.body.data.translations).toEqual([
      { locale: 'zh-CN', title: '运营公告（更新）', summary: '摘要', body: '<p>内容</p>' },
      { locale: 'zh-TW', title: '營運公告', summary: '摘要', body: '<p>內容</p>' },
    ]);
    expect(edited.body.data.published).toBe(true);
    expect(new Date(edited.body.data.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(added.body.data.updatedAt).getTime());
    expect((await admin().get(one)).body.data.translations).toHaveLength(2);
    expect((await admin().put(one, {})).body.code).toBe(10005);

    const drafts = await list('articles', { filter: { published: false } });
    expect(drafts.body.data.map((a: { id: string }) => a.id)).not.toContain(id);
    const found = await list('articles', { filter: { q: '營運' } });
    expect(found.body.data).toMatchObject([{ id }]);
    expect(found.headers['content-range']).toBe('articles 0-0/1');
    const sorted = await list('articles', { sort: ['updatedAt', 'DESC'], range: [0, 0] });
    expect(sorted.body.data[0].id).toBe(id);
    expect(sorted.headers['content-range']).toBe('articles 0-0/4');

    const deleted = await admin().del(one);
    expect(deleted.body).toMatchObject({ code: 0, data: { id, translations: edited.body.data.translations } });
    expect((await admin().get(one)).body.code).toBe(10006);
    expect((await admin().del(one)).body.code).toBe(10006);
    expect((await admin().put(one, { published: true })).body.code).toBe(10006);
    expect((await admin().put(one, article('x'))).body.code).toBe(10006);
    expect(await server.db.selectFrom('article_translations').select('locale').where('article_id', '=', id).execute()).toEqual([]);
    expect((await admin().get('/api/admin/articles/not-a-uuid')).body.code).toBe(10006);
  });

  it('refuses bad articles without writing anything', async () => {
    const count = async () => Number((await server.db.selectFrom('articles').select(server.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const auditBefore = (await auditRows()).length;
    const t = (fields: object) => ({ locale: 'zh-CN', title: '标题', summary: '', body: '<p>x</p>', ...fields });
    const cases: [object, number][] = [
      [{ translations: [] }, 10000],
      [{ translations: [t({ locale: 'en-US' })] }, 10000],
      [{ translations: [t({}), t({})] }, 10008],
      [{ translations: [t({ locale: 'fr-FR' })] }, 10008],
      [{ translations: [t({ title: '' })] }, 10004],
      [{ translations: [t({ title: '   ' })] }, 10000],
      [{ translations: [t({ title: '题'.repeat(121) })] }, 10004],
      [{ translations: [t({ body: 'x'.repeat(50_001) })] }, 10004],
      [{ translations: [t({ extra: 1 })] }, 10008],
      [{ translations: [t({})], author: 'me' }, 10008],
      [{ translations: [t({ title: 5 })] }, 10001],
      [{}, 10000],
    ];
    for (const [body, code] of cases) {
      expect((await admin().post('/api/admin/articles', body)).body.code, JSON.stringify(body).slice(0, 80)).toBe(code);
    }
    expect(await count()).toBe(before);
    expect((await auditRows()).length).toBe(auditBefore);
    // A title of exactly 120 characters is fine.
    expect((await admin().post('/api/admin/articles', { translations: [t({ title: '题'.repeat(120) })] })).body.code).toBe(0);
  });

  it('manages the membership levels as a resource: add on top, edit checked against its neighbours, remove the top one', async () => {
    const levels = DEFAULT_SETTINGS.levels;
    const all = await list('levels');
    expect(all.body.data).toEqual(levels.map((l) => ({ id: l.level, ...l })));
    expect(all.headers['content-range']).toBe(`levels 0-${levels.length - 1}/${levels.length}`);
    expect((await list('levels', { sort: ['level', 'DESC'], range: [0, 1] })).body.data.map((l: { id: number }) => l.id)).toEqual([levels.length - 1, levels.length - 2]);
    expect((await admin().get('/api/admin/levels/2')).body.data).toEqual({ id: 2, ...levels[2] });
    expect((await admin().get('/api/admin/levels/99')).body.code).toBe(10006);

    const auditBefore = (await auditRows()).length;
    const top = levels.at(-1)!;
    const next = { minDirect: top.minDirect + 10, minTeam: top.minTeam + 100, minTeamVolume: '9000000.00', fuelDiscountPercent: '55', taskLimit: 200 };
    const added = await admin().post('/api/admin/levels', next);
    expect(added.body.data).toEqual({ id: levels.length, level: levels.length, ...next, minTeamVolume: '9000000' });
    expect((await readSettings(server.db)).levels).toHaveLength(levels.length + 1);

    const bad: [string, string, object, number][] = [
      ['POST', '/api/admin/levels', { ...next, minTeam: 1 }, 10002],
      ['POST', '/api/admin/levels', { ...next, fuelDiscountPercent: '101' }, 10002],
      ['POST', '/api/admin/levels', { ...next, level: 3 }, 10008],
      ['POST', '/api/admin/levels', { minDirect: 1 }, 10000],
      ['PUT', '/api/admin/levels/0', { minDirect: 1 }, 10002],
      ['PUT', '/api/admin/levels/2', { minTeam: 0 }, 10002],
      ['PUT', '/api/admin/levels/2', { minTeamVolume: '1e5' }, 10003],
      ['PUT', '/api/admin/levels/2', { taskLimit: 0 }, 10002],
      ['PUT', '/api/admin/levels/42', { taskLimit: 5 }, 10006],
      ['DELETE', '/api/admin/levels/0', {}, 10008],
      ['DELETE', '/api/admin/levels/2', {}, 10008],
    ];
    const settingsBefore = await readSettings(server.db);
    for (const [method, path, body, code] of bad) {
      const answer = await server.call(method, path, method === 'DELETE' ? undefined : body, { token: op.token });
      expect(answer.body.code, `${method} ${path} ${JSON.stringify(body)}`).toBe(code);
    }
    expect(await readSettings(server.db)).toEqual(settingsBefore);

    const edited = await admin().put('/api/admin/levels/2', { taskLimit: 33, fuelDiscountPercent: '20.50' });
    expect(edited.body.data).toEqual({ id: 2, ...levels[2], taskLimit: 33, fuelDiscountPercent: '20.5' });
    expect((await admin().put('/api/admin/levels/2', { taskLimit: 33 })).body.code).toBe(0);

    // The top level cannot go while a user holds it.
    await admin().put(`/api/admin/users/${carol.id}`, { level: levels.length });
    expect((await admin().del(`/api/admin/levels/${levels.length}`)).body).toMatchObject({ code: 10008, data: { users: 1 } });
    await admin().put(`/api/admin/users/${carol.id}`, { level: 1 });
    const removed = await admin().del(`/api/admin/levels/${levels.length}`);
    expect(removed.body.data).toEqual(added.body.data);
    expect((await readSettings(server.db)).levels).toEqual([...levels.slice(0, 2), { ...levels[2]!, taskLimit: 33, fuelDiscountPercent: '20.5' }, ...levels.slice(3)]);

    const rows = (await auditRows()).slice(auditBefore).filter((r) => r.target_type === 'level');
    expect(rows.map((r) => [r.action, r.target_id])).toEqual([
      ['level.add', String(levels.length)],
      ['level.edit', '2'],
      ['level.delete', String(levels.length)],
    ]);
    expect(rows[1]!.data).toEqual({ changes: { taskLimit: 33, fuelDiscountPercent: '20.50' }, before: { taskLimit: levels[2]!.taskLimit, fuelDiscountPercent: levels[2]!.fuelDiscountPercent } });
  });

  it('reads and changes the settings, validated strictly', async () => {
    const current = await admin().get('/api/admin/settings');
    expect(current.body.data).toEqual(await readSettings(server.db));

    const auditBefore = (await auditRows()).length;
    const bad: [object, number][] = [
      [{}, 10000],
      [{ withdrawFee: 2 }, 10001],
      [{ withdrawFee: '-1' }, 10003],
      [{ withdrawFee: '1e3' }, 10003],
      [{ withdrawFee: '0.123456789' }, 10003],
      [{ fuelRatePercent: '100.5' }, 10002],
      [{ withdrawMin: '0' }, 10002],
      // The levels are their own resource.
      [{ levels: DEFAULT_SETTINGS.levels }, 10008],
      [{ swapRates: [{ from: 'USDT', to: 'FUEL', rate: '0' }] }, 10002],
      [{ swapRates: [{ from: 'USDT', to: 'USDT', rate: '1' }] }, 10002],
      [{ swapRates: [{ from: 'USDT', to: 'FUEL', rate: '1' }, { from: 'USDT', to: 'FUEL', rate: '2' }] }, 10008],
      [{ swapRates: [{ from: 'USDT', to: 'GOLD', rate: '1' }] }, 10008],
      [{ depositNetwork: 'TRC 20' }, 10003],
      [{ withdrawFee: '1', unknown: true }, 10008],
    ];
    for (const [body, code] of bad) {
      expect((await admin().post('/api/admin/settings/edit', body)).body.code, JSON.stringify(body).slice(0, 100)).toBe(code);
    }
    expect(await readSettings(server.db)).toEqual(current.body.data);
    expect((await auditRows()).length).toBe(auditBefore);

    const edited = await admin().post('/api/admin/settings/edit', { withdrawFee: '2.50', fuelRatePercent: '8', depositNetwork: 'erc20' });
    expect(edited.body.code).toBe(0);
    expect(edited.body.data).toMatchObject({ withdrawFee: '2.5', fuelRatePercent: '8', depositNetwork: 'ERC20', withdrawMin: DEFAULT_SETTINGS.withdrawMin });
    const stored = await readSettings(server.db);
    expect(stored).toEqual(edited.body.data);
    expect((await admin().get('/api/admin/settings')).body.data).toEqual(stored);

    const [entry] = (await auditRows()).slice(-1);
    expect(entry).toMatchObject({ action: 'settings.edit', target_type: 'settings', target_id: null, operator_id: op.id });
    expect((entry!.data as { before: Record<string, unknown> }).before).toMatchObject({ withdrawFee: DEFAULT_SETTINGS.withdrawFee, depositNetwork: 'TRC20' });
  });

  it('leaves exactly one audit row per change, listed newest first and filterable', async () => {
    const start = (await auditRows()).length;
    const id = (await admin().post('/api/admin/articles', article('审计'))).body.data.id;
    await admin().put(`/api/admin/articles/${id}`, article('审计二'));
    await admin().put(`/api/admin/articles/${id}`, { published: true });
    await admin().put(`/api/admin/articles/${id}`, { published: true }); // no change: no row
    await admin().del(`/api/admin/articles/${id}`);
    await admin().put(`/api/admin/users/${carol.id}`, { level: 2 });
    await admin().put(`/api/admin/users/${carol.id}`, { level: 2 }); // no change: no row
    await admin().post('/api/admin/settings/edit', { transferMin: '5' });
    const rows = (await auditRows()).slice(start);
    expect(rows.map((r) => [r.action, r.target_id])).toEqual([
      ['article.add', id],
      ['article.edit', id],
      ['article.publish', id],
      ['article.delete', id],
      ['user.edit', carol.id],
      ['settings.edit', null],
    ]);
    expect(rows.every((r) => r.operator_id === op.id)).toBe(true);
    expect(rows[4]!.data).toEqual({ changes: { level: 2 }, before: { level: 1 } });

    const page = await list('audit', { range: [0, 2] });
    expect(page.body.code).toBe(0);
    expect(page.headers['content-range']).toBe(`audit 0-2/${(await auditRows()).length}`);
    expect(page.body.data.map((e: { action: string }) => e.action)).toEqual(['settings.edit', 'user.edit', 'article.delete']);
    expect(page.body.data[0]).toMatchObject({ operatorId: op.id, operatorEmail: 'op@example.com', targetType: 'settings', targetId: null, data: { changes: { transferMin: '5' } } });
    const published = await list('audit', { filter: { action: 'article.publish', targetId: id } });
    expect(published.body.data).toHaveLength(1);
    expect(published.body.data[0]).toMatchObject({ targetId: id, data: { published: true } });
    const allPublishes = await list('audit', { filter: { action: 'article.publish' } });
    expect(allPublishes.headers['content-range']).toMatch(/\/2$/);
    expect(allPublishes.body.data[0].targetId).toBe(id);
    expect((await list('audit', { filter: { operatorId: carol.id } })).body.data).toEqual([]);
    expect((await list('audit', { filter: { operatorId: 'garbage' } })).body.data).toEqual([]);
    expect((await list('audit', { sort: ['createdAt', 'ASC'], range: [0, 0] })).body.data[0].action).not.toBe('settings.edit');
  });

  it('the operator command grants and revokes the role', async () => {
    const out: string[] = [];
    const io = { log: (l: string) => out.push(l), error: (l: string) => out.push(`error: ${l}`) };
    expect((await as(carol.token).get('/api/admin/users')).body.code).toBe(11005);

    expect(await runOperatorCommand(server.db, ['carol@example.com'], io)).toBe(0);
    expect(out.pop()).toContain('carol@example.com is now an operator');
    // The role is read on every request: the same session now has the console.
    expect((await as(carol.token).get('/api/admin/users')).body.code).toBe(0);
    expect(await runOperatorCommand(server.db, ['carol@example.com'], io)).toBe(0);
    expect(out.pop()).toContain('already an operator');

    expect(await runOperatorCommand(server.db, ['--revoke', 'carol@example.com'], io)).toBe(0);
    expect(out.pop()).toContain('no longer an operator');
    expect((await as(carol.token).get('/api/admin/users')).body.code).toBe(11005);
    expect((await server.db.selectFrom('users').select('role').where('id', '=', carol.id).executeTakeFirstOrThrow()).role).toBe('user');

    const grants = await server.db.selectFrom('audit_log').select('action').where('target_id', '=', carol.id).where('action', 'like', 'operator.%').orderBy('id').execute();
    expect(grants.map((g) => g.action)).toEqual(['operator.grant', 'operator.revoke']);

    expect(await runOperatorCommand(server.db, ['nobody@example.com'], io)).toBe(1);
    expect(out.pop()).toMatch(/^error: No account with the email nobody@example.com/);
    expect(await runOperatorCommand(server.db, [], io)).toBe(2);
    expect(await runOperatorCommand(server.db, ['--make-admin', 'carol@example.com'], io)).toBe(2);
    expect((await server.db.selectFrom('users').select('role').where('id', '=', carol.id).executeTakeFirstOrThrow()).role).toBe('user');
  });
});
