import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok, okRange } from '../../testing/fakeServer';
import { renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { asRole } from './consoleFixtures';

// The operator console's articles (the other console tests: Console.test.tsx, Console.sort.test.tsx).

type App = Awaited<ReturnType<typeof renderApp>>;
const bodies = (app: App, path: string, method = 'POST') => app.server.requests.filter((r) => r.path === path && r.method === method).map((r) => r.body);

// The console is a separate chunk loaded on first use: give the first page time.
configure({ asyncUtilTimeout: 10000 });
// Forms of many inputs re-render on every key: slow in jsdom on a busy machine.
vi.setConfig({ testTimeout: 60000 });

let session = 0;
beforeEach(async () => {
  await startSignedInZhCN();
  // The page's authProvider remembers the identity per access token: a new token per test, a new role.
  localStorage.setItem('accessToken', `console-access-${++session}`);
});
afterEach(() => vi.unstubAllGlobals());

describe('articles', () => {
  // The rich text editor (ProseMirror) measures the page; jsdom does no layout, so it gets empty answers.
  const shims: [object, string, unknown][] = [
    [Range.prototype, 'getClientRects', () => Object.assign([], { item: () => null })],
    [Range.prototype, 'getBoundingClientRect', () => new DOMRect()],
    [document, 'elementFromPoint', () => null],
  ];
  beforeAll(() => {
    for (const [target, name, value] of shims) Object.defineProperty(target, name, { value, configurable: true, writable: true });
  });
  afterAll(() => {
    for (const [target, name] of shims) delete (target as Record<string, unknown>)[name];
  });

  it('creates an article with its translations (empty languages left out)', async () => {
    const app = await renderApp('/admin/articles/create', {
      ...asRole('operator'),
      'POST /api/admin/articles': (req) =>
        ok({ id: 'art1', published: false, publishedAt: null, translations: req.body?.translations, createdAt: '2026-11-22T00:00:00.000Z', updatedAt: '2026-11-22T00:00:00.000Z' }),
      'GET /api/admin/articles': okRange('articles', []),
    });
    const title = await screen.findByRole('textbox', { name: /标题/ });
    await userEvent.click(title);
    await userEvent.paste('新功能上线');
    await userEvent.click(screen.getByRole('textbox', { name: /摘要/ }));
    await userEvent.paste('一句话摘要');
    const editorOf = (locale: string) =>
      waitFor(() => {
        const el = document.querySelector<HTMLElement>(`[data-locale="${locale}"] .ProseMirror`);
        expect(el).not.toBeNull();
        return el!;
      });
    const editor = await editorOf('zh-CN');
    await userEvent.click(editor);
    await userEvent.paste('正文内容');
    await userEvent.click(screen.getByRole('tab', { name: 'English' }));
    const enPanel = document.querySelector<HTMLElement>('[id^="tabpanel-"][data-locale="en-US"]')!;
    await userEvent.click(await within(enPanel).findByRole('textbox', { name: /标题/ }));
    await userEvent.paste('New feature');
    const enEditor = await editorOf('en-US');
    await userEvent.click(enEditor);
    await userEvent.paste('Body text');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(bodies(app, '/api/admin/articles')).toHaveLength(1), { timeout: 5000 });
    expect(bodies(app, '/api/admin/articles')[0]).toEqual({
      published: false,
      translations: [
        { locale: 'zh-CN', title: '新功能上线', summary: '一句话摘要', body: '<p>正文内容</p>' },
        { locale: 'en-US', title: 'New feature', summary: '', body: '<p>Body text</p>' },
      ],
    });
    expect(bodies(app, '/api/admin/articles', 'PUT')).toHaveLength(0);
    await waitFor(() => expect(app.pathname()).toBe('/admin/articles'));
  });

  it('edits an article: every language in its own tab, the zh-CN title changed', async () => {
    const article = {
      id: 'art2',
      published: true,
      publishedAt: '2026-11-21T00:00:00.000Z',
      translations: [
        { locale: 'en-US', title: 'Old news', summary: 's', body: '<p>en</p>' },
        { locale: 'zh-CN', title: '旧标题', summary: '摘要', body: '<p>中文</p>' },
      ],
      createdAt: '2026-11-20T00:00:00.000Z',
      updatedAt: '2026-11-21T00:00:00.000Z',
    };
    const app = await renderApp('/admin/articles/art2', {
      ...asRole('operator'),
      'GET /api/admin/articles/art2': () => ok(article),
      'PUT /api/admin/articles/art2': (req) => ok({ ...article, translations: req.body?.translations }),
      'GET /api/admin/articles': okRange('articles', [article]),
    });
    const title = await screen.findByDisplayValue('旧标题');
    await userEvent.clear(title);
    await userEvent.click(title);
    await userEvent.paste('新标题');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(bodies(app, '/api/admin/articles/art2', 'PUT')).toHaveLength(1));
    expect(bodies(app, '/api/admin/articles/art2', 'PUT')[0]).toEqual({
      translations: [
        { locale: 'zh-CN', title: '新标题', summary: '摘要', body: '<p>中文</p>' },
        { locale: 'en-US', title: 'Old news', summary: 's', body: '<p>en</p>' },
      ],
    });
  });

  it('switches an article between published and draft from the list', async () => {
    const article = {
      id: 'art1',
      published: false,
      publishedAt: null,
      translations: [{ locale: 'zh-CN', title: '公告一', summary: '', body: '<p>x</p>' }],
      createdAt: '2026-11-22T00:00:00.000Z',
      updatedAt: '2026-11-22T00:00:00.000Z',
    };
    const app = await renderApp('/admin/articles', {
      ...asRole('operator'),
      'GET /api/admin/articles': okRange('articles', [article]),
      'PUT /api/admin/articles/art1': (req) => ok({ ...article, ...req.body }),
    });
    await screen.findByText('公告一');
    await userEvent.click(screen.getByRole('switch', { name: '草稿' }));
    await waitFor(() => expect(bodies(app, '/api/admin/articles/art1', 'PUT')).toEqual([{ published: true }]));
  });
});
