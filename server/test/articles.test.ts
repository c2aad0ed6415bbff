import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUIDES } from '../src/db/migrations/006_guides';
import { sanitizeArticleHtml } from '../src/article/sanitize';
import { BACKENDS, registerUser, startServer, type TestServer } from './harness';

const text = (title: string, body = `<p>${title} body</p>`) => ({ title, summary: `${title} summary`, body });

describe('article HTML sanitizer', () => {
  it('removes scripts, event handlers, styles and unsafe URLs', () => {
    const dirty = [
      '<p onclick="steal()" style="color:red">Hello <script>alert(1)</script>world</p>',
      '<a href="javascript:alert(1)">js</a>',
      '<a href="jav&#x09;ascript:alert(2)">tab</a>',
      '<a href="&#106;avascript:alert(3)">entity</a>',
      '<a href="/relative">relative</a>',
      '<a href="data:text/html,<script>alert(4)</script>">data</a>',
      '<img src="x" onerror="alert(5)">',
      '<img src="http://plain.example/a.png">',
      '<img src="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=">',
      '<iframe src="https://evil.example"></iframe>',
      '<style>body{display:none}</style>',
      '<svg><script>alert(6)</script></svg>',
      '<form action="https://evil.example"><input name="pw"></form>',
    ].join('');
    const clean = sanitizeArticleHtml(dirty);
    expect(clean).toBe('<p>Hello world</p><a>js</a><a>tab</a><a>entity</a><a>relative</a><a>data</a>');
    expect(clean).not.toMatch(/script|onerror|onclick|style|javascript|iframe|svg|form/i);
  });

  it('keeps the allowed markup, and links get rel=noopener', () => {
    const html =
      '<h2>Title</h2><h3>Sub</h3><h4>Small</h4><p><strong>b</strong> <em>i</em> <u>u</u> <s>s</s> <code>x &lt; y</code></p>' +
      '<ul><li>one</li></ul><ol><li>two</li></ol><blockquote>quote</blockquote><pre><code>let a = 1;</code></pre>' +
      '<p><a href="https://example.com/a?b=1&amp;c=2">web</a> <a href="http://example.com">plain</a> <a href="mailto:help@example.com">mail</a></p>' +
      '<p>line<br />next</p><hr />' +
      '<img src="https://cdn.example.com/chart.png" alt="Chart" /><img src="data:image/png;base64,iVBORw0KGgo=" alt="" />';
    const expected = html
      .replace('href="https://example.com/a?b=1&amp;c=2"', 'href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer"')
      .replace('href="http://example.com"', 'href="http://example.com" rel="noopener noreferrer"')
      .replace('href="mailto:help@example.com"', 'href="mailto:help@example.com" rel="noopener noreferrer"');
    expect(sanitizeArticleHtml(html)).toBe(expected);
    // A rel given by the author is replaced; a target is dropped.
    expect(sanitizeArticleHtml('<a href="https://x.example" rel="opener" target="_blank">x</a>')).toBe(
      '<a href="https://x.example" rel="noopener noreferrer">x</a>',
    );
    // h1 becomes h2 (the page's own title is the h1).
    expect(sanitizeArticleHtml('<h1>Big</h1>')).toBe('<h2>Big</h2>');
  });

  it('the built-in guides are already clean (sanitizing them changes nothing)', () => {
    for (const guide of GUIDES) {
      for (const t of Object.values(guide.texts)) {
        expect(sanitizeArticleHtml(t.body)).toBe(t.body);
        expect(t.title.length).toBeLessThanOrEqual(120);
      }
    }
  });
});

describe.each(BACKENDS)('articles (%s)', (backend) => {
  let server: TestServer;
  let reader: string;
  let operator: string;

  const list = (query: string, locale: string, token = reader) =>
    server.call('GET', `/api/article/list${query}`, undefined, { token, headers: { 'Accept-Language': locale } });
  const detail = (id: string, locale: string) =>
    server.call('GET', `/api/article/detail/${id}`, undefined, { token: reader, headers: { 'Accept-Language': locale } });
  const add = async (translations: object[], published = true) => {
    const answer = await server.call('POST', '/api/admin/articles', { translations, published }, { token: operator });
    expect(answer.body.code).toBe(0);
    return answer.body.data.id as string;
  };

  beforeAll(async () => {
    server = await startServer(backend);
    reader = (await registerUser(server, { email: 'reader@example.com' })).accessToken;
    const op = await registerUser(server, { email: 'editor@example.com' });
    await server.db.updateTable('users').set({ role: 'operator' }).where('id', '=', op.user.id).execute();
    operator = op.accessToken;
  });
  afterAll(async () => server.close());

  it('starts with the three published guides, newest first, in each language', async () => {
    const zh = await list('', 'zh-CN');
    expect(zh.body.code).toBe(0);
    expect(zh.body.data.total).toBe(3);
    expect(zh.body.data.list.map((a: { id: string }) => a.id)).toEqual(GUIDES.map((g) => g.id));
    expect(zh.body.data.list[0]).toMatchObject({ locale: 'zh-CN', title: GUIDES[0]!.texts['zh-CN'].title, summary: GUIDES[0]!.texts['zh-CN'].summary });
    expect(zh.body.data.list[0]).not.toHaveProperty('body');
    expect(new Date(zh.body.data.list[0].publishedAt).getTime()).toBeGreaterThan(new Date(zh.body.data.list[2].publishedAt).getTime());

    const en = await list('', 'en-US,en;q=0.9');
    expect(en.body.data.list.map((a: { locale: string; title: string }) => [a.locale, a.title])).toEqual(GUIDES.map((g) => ['en-US', g.texts['en-US'].title]));
    const tw = await list('', 'zh-TW');
    expect(tw.body.data.list.map((a: { locale: string; title: string }) => [a.locale, a.title])).toEqual(GUIDES.map((g) => ['zh-TW', g.texts['zh-TW'].title]));
    expect(tw.body.data.list[2].title).toBe('風險提示');

    const risk = await detail(GUIDES[2]!.id, 'zh-TW');
    expect(risk.body.data).toMatchObject({ id: GUIDES[2]!.id, locale: 'zh-TW', title: '風險提示', body: GUIDES[2]!.texts['zh-TW'].body });
  });

  it('answers the zh-CN text where the asked language has none, and says so', async () => {
    const id = await add([{ locale: 'zh-CN', ...text('仅有中文的公告') }]);
    const en = await list('?page=1&pageSize=1', 'en-US');
    expect(en.body.data.list[0]).toMatchObject({ id, locale: 'zh-CN', title: '仅有中文的公告' });
    expect((await detail(id, 'en-US')).body.data).toMatchObject({ id, locale: 'zh-CN', title: '仅有中文的公告', body: '<p>仅有中文的公告 body</p>' });
    expect((await detail(id, 'zh-TW')).body.data.locale).toBe('zh-CN');

    const both = await add([
      { locale: 'zh-CN', ...text('双语公告') },
      { locale: 'en-US', ...text('Bilingual notice') },
    ]);
    expect((await detail(both, 'en-US')).body.data).toMatchObject({ locale: 'en-US', title: 'Bilingual notice' });
    expect((await detail(both, 'zh-TW')).body.data).toMatchObject({ locale: 'zh-CN', title: '双语公告' });
    expect((await detail(both, 'fr-FR')).body.data).toMatchObject({ locale: 'zh-CN', title: '双语公告' });
  });

  it('pages the list', async () => {
    const all = await list('?pageSize=100', 'zh-CN');
    const total = all.body.data.total as number;
    expect(total).toBeGreaterThanOrEqual(3);
    const ids = all.body.data.list.map((a: { id: string }) => a.id);
    const first = await list('?page=1&pageSize=2', 'zh-CN');
    const second = await list('?page=2&pageSize=2', 'zh-CN');
    expect(first.body.data.total).toBe(total);
    expect(first.body.data.list.map((a: { id: string }) => a.id)).toEqual(ids.slice(0, 2));
    expect(second.body.data.list.map((a: { id: string }) => a.id)).toEqual(ids.slice(2, 4));
    expect((await list('?page=999&pageSize=2', 'zh-CN')).body.data).toEqual({ list: [], total });
    expect((await list('?page=0', 'zh-CN')).body.code).toBe(10002);
    expect((await list('?pageSize=1000', 'zh-CN')).body.code).toBe(10002);
    expect((await list('?page=abc', 'zh-CN')).body.code).toBe(10001);
  });

  it('hides unpublished articles until they are published', async () => {
    const id = await add([{ locale: 'zh-CN', ...text('草稿') }], false);
    const ids = async () => (await list('?pageSize=100', 'zh-CN')).body.data.list.map((a: { id: string }) => a.id);
    expect(await ids()).not.toContain(id);
    expect((await detail(id, 'zh-CN')).body.code).toBe(10006);

    expect((await server.call('PUT', `/api/admin/articles/${id}`, { published: true }, { token: operator })).body.code).toBe(0);
    expect((await ids())[0]).toBe(id);
    expect((await detail(id, 'zh-CN')).body.data.title).toBe('草稿');

    expect((await server.call('PUT', `/api/admin/articles/${id}`, { published: false }, { token: operator })).body.code).toBe(0);
    expect(await ids()).not.toContain(id);
    expect((await detail(id, 'zh-CN')).body.code).toBe(10006);
  });

  it('answers 10006 for unknown and malformed ids, never a 500', async () => {
    for (const id of ['00000000-0000-4000-8000-0000000000ff', 'abc', '123', "1'%20or%20'1'='1", 'x'.repeat(100), '%E4%B8%AD', '00000000-0000-4000-8000-00000000a001x']) {
      const answer = await detail(id, 'zh-CN');
      expect(answer.status, id).toBe(200);
      expect(answer.body.code, id).toBe(10006);
    }
    // Beyond the router's parameter length (100): a length error in the envelope, like any other validation failure.
    const huge = await detail('x'.repeat(300), 'zh-CN');
    expect(huge.status).toBe(200);
    expect(huge.body.code).toBe(10004);
  });

  it('is for logged-in users only', async () => {
    expect((await server.call('GET', '/api/article/list')).status).toBe(401);
    expect((await server.call('GET', `/api/article/detail/${GUIDES[0]!.id}`)).status).toBe(401);
  });

  it('sanitizes bodies when saving: scripts, handlers and javascript: links go, allowed markup stays', async () => {
    const id = await add([
      {
        locale: 'zh-CN',
        title: '安全测试',
        summary: '摘要',
        body:
          '<h2 style="color:red">标题</h2><p onmouseover="x()">正文<script>alert(1)</script></p>' +
          '<img src="https://cdn.example.com/a.png" onerror="alert(2)" alt="图"><a href="javascript:alert(3)">坏链接</a>' +
          '<a href="https://example.com">好链接</a><ul><li><strong>要点</strong></li></ul>',
      },
    ]);
    const stored = (await detail(id, 'zh-CN')).body.data.body;
    expect(stored).toBe(
      '<h2>标题</h2><p>正文</p><img src="https://cdn.example.com/a.png" alt="图" /><a>坏链接</a>' +
        '<a href="https://example.com" rel="noopener noreferrer">好链接</a><ul><li><strong>要点</strong></li></ul>',
    );
    const row = await server.db.selectFrom('article_translations').select('body').where('article_id', '=', id).executeTakeFirstOrThrow();
    expect(row.body).toBe(stored);
  });

  it('refuses a body with nothing left after sanitizing, and takes three full-length languages', async () => {
    const before = await server.db.selectFrom('articles').select(server.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const empty = await server.call('POST', '/api/admin/articles', { translations: [{ locale: 'zh-CN', ...text('空', '<script>alert(1)</script>') }] }, { token: operator });
    expect(empty.body).toMatchObject({ code: 10000, data: { field: 'translations.0.body' } });
    const tooLong = await server.call('POST', '/api/admin/articles', { translations: [{ locale: 'zh-CN', ...text('长', `<p>${'长'.repeat(50_000)}</p>`) }] }, { token: operator });
    expect(tooLong.body.code).toBe(10004);
    const after = await server.db.selectFrom('articles').select(server.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));

    // 3 x 50 000 characters of Chinese (about 450 KB of JSON) fit.
    const long = `<p>${'长'.repeat(50_000 - 7)}</p>`;
    const id = await add([
      { locale: 'zh-CN', ...text('长文', long) },
      { locale: 'en-US', ...text('Long', long) },
      { locale: 'zh-TW', ...text('長文', long) },
    ]);
    expect((await detail(id, 'zh-TW')).body.data.body).toBe(long);
  });
});
