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
  });
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
      'GET /api/admin/users/list',
      'GET /api/admin/users/detail/:id',
      'POST /api/admin/users/edit',
      'GET /api/admin/articles/list',
      'GET /api/admin/articles/detail/:id',
      'POST /api/admin/articles/add',
      'POST /api/admin/articles/edit',
      'POST /api/admin/articles/publish',
      'POST /api/admin/articles/delete',
      'GET /api/admin/settings',
      'POST /api/admin/settings/edit',
      'GET /api/admin/audit/list',
    ]) {
      expect(paths).toContain(mine);
    }
    const settingsBefore = await readSettings(server.db);
    const auditBefore = (await auditRows()).length;
    const someId = '00000000-0000-4000-8000-00000000a001';
    for (const [method, path] of routes) {
      const url = path.replace(/:[a-zA-Z]+/g, someId);
      // Bodies that an operator's call would accept, so only the role stops them.
      const body = method === 'GET' ? undefined : { id: bob.id, disabled: true, withdrawFee: '99', published: false, ...(path.endsWith('/add') || path.includes('articles/edit') ? article('x') : {}) };
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

  it('lists, filters, reads and edits users; usdt is the available balance', async () => {
    await server.db.transaction().execute((trx) =>
      post(trx, { kind: 'adjustment', userId: null, moves: [{ from: system('adjustments', 'USDT'), to: ledgerUser(bob.id, 'USDT'), amount: '12.50' }], memo: {} }),
    );
    const all = await admin().get('/api/admin/users/list?sort=email&order=ASC');
    expect(all.body.code).toBe(0);
    expect(all.body.data.total).toBe(3);
    expect(all.body.data.list.map((u: { email: string }) => u.email)).toEqual(['bob@example.com', 'carol@example.com', 'op@example.com']);
    expect(all.body.data.list[0]).toMatchObject({ id: bob.id, nickname: 'Bobby', role: 'user', level: 0, activated: false, disabled: false, usdt: '12.5', inviterEmail: null });
    expect(all.body.data.list[1]).toMatchObject({ usdt: '0', inviterEmail: 'bob@example.com' });
    expect(all.body.data.list[2]).toMatchObject({ role: 'operator' });
    expect(all.body.data.list[0]).not.toHaveProperty('password_hash');
    expect(JSON.stringify(all.body)).not.toMatch(/scrypt|password/i);

    const emails = async (query: string) => (await admin().get(`/api/admin/users/list?${query}`)).body.data.list.map((u: { email: string }) => u.email);
    expect(await emails('q=BOBBY')).toEqual(['bob@example.com']);
    expect(await emails('q=carol%40')).toEqual(['carol@example.com']);
    expect(await emails('q=%25')).toEqual([]);
    expect(await emails('role=operator')).toEqual(['op@example.com']);
    expect(await emails('sort=usdt&order=DESC&pageSize=1')).toEqual(['bob@example.com']);
    expect(await emails(`ids=${carol.id},not-an-id`)).toEqual(['carol@example.com']);
    expect((await admin().get('/api/admin/users/list?page=2&pageSize=2')).body.data).toMatchObject({ total: 3, list: [{}] });

    expect((await admin().get(`/api/admin/users/detail/${bob.id}`)).body.data).toMatchObject({ email: 'bob@example.com', usdt: '12.5' });
    expect((await admin().get('/api/admin/users/detail/nope')).body.code).toBe(11000);

    const edited = await admin().post('/api/admin/users/edit', { id: carol.id, level: 2, activated: true });
    expect(edited.body).toMatchObject({ code: 0, data: { id: carol.id, level: 2, activated: true } });
    expect(await emails('activated=true')).toEqual(['carol@example.com']);
    expect(await emails('level=2')).toEqual(['carol@example.com']);
    const row = await server.db.selectFrom('users').select(['level', 'activated', 'activated_at']).where('id', '=', carol.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ level: 2, activated: true });
    expect(row.activated_at).not.toBeNull();

    // Bad edits change nothing.
    const auditBefore = (await auditRows()).length;
    expect((await admin().post('/api/admin/users/edit', { id: carol.id, level: DEFAULT_SETTINGS.levels.length })).body.code).toBe(10002);
    expect((await admin().post('/api/admin/users/edit', { id: carol.id, level: -1 })).body.code).toBe(10002);
    expect((await admin().post('/api/admin/users/edit', { id: carol.id, level: '3' })).body.code).toBe(10001);
    expect((await admin().post('/api/admin/users/edit', { id: carol.id, role: 'operator' })).body.code).toBe(10008);
    expect((await admin().post('/api/admin/users/edit', { id: '00000000-0000-4000-8000-0000000000ff', level: 1 })).body.code).toBe(11000);
    expect((await admin().post('/api/admin/users/edit', { id: op.id, disabled: true })).body.code).toBe(10008);
    expect((await auditRows()).length).toBe(auditBefore);
    expect((await admin().get(`/api/admin/users/detail/${carol.id}`)).body.data).toMatchObject({ level: 2, role: 'user' });
  });

  it('disabling a user ends their sessions; enabling lets them log in again', async () => {
    expect((await as(bob.token).get('/api/article/list')).status).toBe(200);
    const disabled = await admin().post('/api/admin/users/edit', { id: bob.id, disabled: true });
    expect(disabled.body.data).toMatchObject({ disabled: true });
    expect((await as(bob.token).get('/api/article/list')).status).toBe(401);
    const refresh = await server.call('PUT', '/api/user/refresh', { refreshToken: bob.refreshToken });
    expect(refresh.body.code).not.toBe(0);
    const live = await server.db.selectFrom('sessions').select('id').where('user_id', '=', bob.id).where('revoked_at', 'is', null).execute();
    expect(live).toEqual([]);
    expect((await server.call('POST', '/api/user/login', { email: 'bob@example.com', password: bob.password })).body.code).not.toBe(0);

    expect((await admin().post('/api/admin/users/edit', { id: bob.id, disabled: false })).body.data.disabled).toBe(false);
    const login = await server.call('POST', '/api/user/login', { email: 'bob@example.com', password: bob.password });
    expect(login.body.code).toBe(0);
    bob.token = login.body.data.accessToken;
  });

  it('writes, edits, publishes and deletes articles', async () => {
    const added = await admin().post('/api/admin/articles/add', article('运营公告'));
    expect(added.body.code).toBe(0);
    const id = added.body.data.id;
    expect(added.body.data).toMatchObject({ published: false, publishedAt: null, translations: [{ locale: 'zh-CN', title: '运营公告' }, { locale: 'en-US' }] });
    expect((await as(bob.token).get(`/api/article/detail/${id}`)).body.code).toBe(10006);

    const published = await admin().post('/api/admin/articles/publish', { id, published: true });
    expect(published.body.data).toMatchObject({ id, published: true });
    expect(published.body.data.publishedAt).not.toBeNull();
    expect((await as(bob.token).get(`/api/article/detail/${id}`)).body.data.title).toBe('运营公告');

    const edited = await admin().post('/api/admin/articles/edit', {
      id,
      translations: [
        { locale: 'zh-TW', title: '營運公告', summary: '摘要', body: '<p>內容</p>' },
        { locale: 'zh-CN', title: '运营公告（更新）', summary: '摘要', body: '<p>内容<script>x()</script></p>' },
      ],
    });
    expect(edited.body.data.translations).toEqual([
      { locale: 'zh-CN', title: '运营公告（更新）', summary: '摘要', body: '<p>内容</p>' },
      { locale: 'zh-TW', title: '營運公告', summary: '摘要', body: '<p>內容</p>' },
    ]);
    expect(new Date(edited.body.data.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(added.body.data.updatedAt).getTime());
    expect((await admin().get(`/api/admin/articles/detail/${id}`)).body.data.translations).toHaveLength(2);

    const drafts = await admin().get('/api/admin/articles/list?published=false');
    expect(drafts.body.data.list.map((a: { id: string }) => a.id)).not.toContain(id);
    const found = await admin().get(`/api/admin/articles/list?q=${encodeURIComponent('營運')}`);
    expect(found.body.data).toMatchObject({ total: 1, list: [{ id }] });
    const sorted = await admin().get('/api/admin/articles/list?sort=updatedAt&order=DESC&pageSize=1');
    expect(sorted.body.data.list[0].id).toBe(id);
    expect(sorted.body.data.total).toBe(4);

    const deleted = await admin().post('/api/admin/articles/delete', { id });
    expect(deleted.body).toMatchObject({ code: 0, data: { id } });
    expect((await admin().get(`/api/admin/articles/detail/${id}`)).body.code).toBe(10006);
    expect((await admin().post('/api/admin/articles/delete', { id })).body.code).toBe(10006);
    expect((await admin().post('/api/admin/articles/publish', { id, published: true })).body.code).toBe(10006);
    expect((await admin().post('/api/admin/articles/edit', { id, ...article('x') })).body.code).toBe(10006);
    expect((await server.db.selectFrom('article_translations').select('locale').where('article_id', '=', id).execute())).toEqual([]);
    expect((await admin().get('/api/admin/articles/detail/not-a-uuid')).body.code).toBe(10006);
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
      expect((await admin().post('/api/admin/articles/add', body)).body.code, JSON.stringify(body).slice(0, 80)).toBe(code);
    }
    expect(await count()).toBe(before);
    expect((await auditRows()).length).toBe(auditBefore);
    // A title of exactly 120 characters is fine.
    expect((await admin().post('/api/admin/articles/add', { translations: [t({ title: '题'.repeat(120) })] })).body.code).toBe(0);
  });

  it('reads and changes the settings, validated strictly', async () => {
    const current = await admin().get('/api/admin/settings');
    expect(current.body.data).toEqual(await readSettings(server.db));

    const auditBefore = (await auditRows()).length;
    const levels = DEFAULT_SETTINGS.levels;
    const bad: [object, number][] = [
      [{}, 10000],
      [{ withdrawFee: 2 }, 10001],
      [{ withdrawFee: '-1' }, 10003],
      [{ withdrawFee: '1e3' }, 10003],
      [{ withdrawFee: '0.123456789' }, 10003],
      [{ fuelRatePercent: '100.5' }, 10002],
      [{ withdrawMin: '0' }, 10002],
      [{ levels: levels.map((l) => ({ ...l, level: l.level + 1 })) }, 10002],
      [{ levels: [...levels].reverse() }, 10002],
      [{ levels: [levels[0], levels[1], { ...levels[2]!, minTeam: 1 }] }, 10002],
      [{ levels: [levels[0], levels[1], { ...levels[2]!, minTeamVolume: '9999.99' }] }, 10002],
      [{ levels: [{ ...levels[0]!, minDirect: 1 }] }, 10002],
      [{ levels: [{ ...levels[0]!, fuelDiscountPercent: '101' }] }, 10002],
      [{ levels: [] }, 10005],
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

    const newLevels = [levels[0]!, { ...levels[1]!, taskLimit: 25, fuelDiscountPercent: '12.50' }];
    const edited = await admin().post('/api/admin/settings/edit', { withdrawFee: '2.50', fuelRatePercent: '8', levels: newLevels, depositNetwork: 'erc20' });
    expect(edited.body.code).toBe(0);
    expect(edited.body.data).toMatchObject({ withdrawFee: '2.5', fuelRatePercent: '8', depositNetwork: 'ERC20', withdrawMin: DEFAULT_SETTINGS.withdrawMin });
    expect(edited.body.data.levels).toEqual([levels[0], { ...levels[1], taskLimit: 25, fuelDiscountPercent: '12.5' }]);
    const stored = await readSettings(server.db);
    expect(stored).toEqual(edited.body.data);
    expect((await admin().get('/api/admin/settings')).body.data).toEqual(stored);
    // Levels now stop at 1: a user cannot be put on level 2.
    expect((await admin().post('/api/admin/users/edit', { id: bob.id, level: 2 })).body.code).toBe(10002);

    const [entry] = (await auditRows()).slice(-1);
    expect(entry).toMatchObject({ action: 'settings.edit', target_type: 'settings', target_id: null, operator_id: op.id });
    expect((entry!.data as { before: Record<string, unknown> }).before).toMatchObject({ withdrawFee: DEFAULT_SETTINGS.withdrawFee, depositNetwork: 'TRC20' });
  });

  it('leaves exactly one audit row per change, listed newest first and filterable', async () => {
    const start = (await auditRows()).length;
    const id = (await admin().post('/api/admin/articles/add', article('审计'))).body.data.id;
    await admin().post('/api/admin/articles/edit', { id, ...article('审计二') });
    await admin().post('/api/admin/articles/publish', { id, published: true });
    await admin().post('/api/admin/articles/publish', { id, published: true }); // no change: no row
    await admin().post('/api/admin/articles/delete', { id });
    await admin().post('/api/admin/users/edit', { id: carol.id, level: 1 });
    await admin().post('/api/admin/users/edit', { id: carol.id, level: 1 }); // no change: no row
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
    expect(rows[4]!.data).toEqual({ changes: { level: 1 }, before: { level: 2 } });

    const page = await admin().get('/api/admin/audit/list?pageSize=3');
    expect(page.body.code).toBe(0);
    expect(page.body.data.total).toBe((await auditRows()).length);
    expect(page.body.data.list.map((e: { action: string }) => e.action)).toEqual(['settings.edit', 'user.edit', 'article.delete']);
    expect(page.body.data.list[0]).toMatchObject({ operatorId: op.id, operatorEmail: 'op@example.com', targetType: 'settings', targetId: null, data: { changes: { transferMin: '5' } } });
    const published = await admin().get(`/api/admin/audit/list?action=article.publish&targetId=${id}`);
    expect(published.body.data.list).toHaveLength(1);
    const allPublishes = await admin().get('/api/admin/audit/list?action=article.publish');
    expect(allPublishes.body.data.total).toBe(2);
    expect(allPublishes.body.data.list[0].targetId).toBe(id);
    expect(published.body.data.list[0]).toMatchObject({ targetId: id, data: { published: true } });
    expect((await admin().get(`/api/admin/audit/list?operatorId=${carol.id}`)).body.data).toEqual({ list: [], total: 0 });
    expect((await admin().get('/api/admin/audit/list?operatorId=garbage')).body.data).toEqual({ list: [], total: 0 });
  });

  it('the operator command grants and revokes the role', async () => {
    const out: string[] = [];
    const io = { log: (l: string) => out.push(l), error: (l: string) => out.push(`error: ${l}`) };
    expect((await as(carol.token).get('/api/admin/users/list')).body.code).toBe(11005);

    expect(await runOperatorCommand(server.db, ['carol@example.com'], io)).toBe(0);
    expect(out.pop()).toContain('carol@example.com is now an operator');
    // The role is read on every request: the same session now has the console.
    expect((await as(carol.token).get('/api/admin/users/list')).body.code).toBe(0);
    expect(await runOperatorCommand(server.db, ['carol@example.com'], io)).toBe(0);
    expect(out.pop()).toContain('already an operator');

    expect(await runOperatorCommand(server.db, ['--revoke', 'carol@example.com'], io)).toBe(0);
    expect(out.pop()).toContain('no longer an operator');
    expect((await as(carol.token).get('/api/admin/users/list')).body.code).toBe(11005);
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
