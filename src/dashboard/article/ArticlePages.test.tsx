import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Article, ArticleSummary } from '../../api/article';
import { createI18nProvider } from '../../i18n/i18nProvider';
import { fail, ok, type Handler } from '../../testing/fakeServer';
import { findHeading, identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';

const zhArticle: ArticleSummary = {
  id: 'a1',
  locale: 'zh-CN',
  title: '补仓策略入门',
  summary: '十分钟了解补仓。',
  publishedAt: '2026-11-20T08:00:00.000Z',
};
const enArticle: ArticleSummary = {
  id: 'a2',
  locale: 'en-US',
  title: 'Getting started',
  summary: 'Your first task.',
  publishedAt: '2026-11-18T08:00:00.000Z',
};

/** The server answers by Accept-Language: a2 has an English text, a1 falls back to zh-CN. */
const listRoute =
  (articles: (lang: string) => ArticleSummary[], total?: number): Handler =>
  (req) => {
    const lang = req.headers['Accept-Language'] ?? req.headers['accept-language'] ?? 'zh-CN';
    const list = articles(lang);
    return ok({ list, total: total ?? list.length });
  };

const detail = (over: Partial<Article> = {}): Article => ({
  ...zhArticle,
  body: '<p>正文第一段</p><p><a href="https://example.com/guide">指南</a></p>',
  ...over,
});

const sent = (app: Awaited<ReturnType<typeof renderApp>>, path: string) => app.server.requests.filter((r) => r.path === path);

beforeEach(startSignedInZhCN);
afterEach(async () => {
  vi.unstubAllGlobals();
  const provider = await createI18nProvider();
  if (provider.getLocale() !== 'zh-CN') await provider.changeLocale('zh-CN');
});

describe('article list', () => {
  it('lists title, summary and date, each linking to its page, and asks for the first page', async () => {
    const app = await renderApp('/article', { ...identityRoute, 'GET /api/article/list': listRoute(() => [zhArticle]) });
    await findHeading('公告');
    const card = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-article="a1"]');
      expect(el).not.toBeNull();
      return el!;
    });
    expect(within(card).getByRole('heading', { name: '补仓策略入门' })).toBeInTheDocument();
    expect(within(card).getByText('十分钟了解补仓。')).toBeInTheDocument();
    expect(within(card).getByText('2026/11/20')).toBeInTheDocument();
    expect(within(card).getByRole('link')).toHaveAttribute('href', '/article/a1');
    // Same language as the page: no fallback note.
    expect(card.querySelector('[data-fallback]')).toBeNull();
    const query = new URL(sent(app, '/api/article/list')[0]!.url, 'http://x').searchParams;
    expect(query.get('page')).toBe('1');
    expect(query.get('pageSize')).toBe('10');
  });

  it('notes when an article is shown in the zh-CN fallback, and asks again when the language changes', async () => {
    const app = await renderApp('/article', {
      ...identityRoute,
      'GET /api/article/list': listRoute((lang) => (lang === 'en-US' ? [{ ...zhArticle }, enArticle] : [zhArticle])),
    });
    await screen.findByText('补仓策略入门');
    await userEvent.click(screen.getByRole('button', { name: '切换语言' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: /English/ }));
    // Re-rendered in English after a new call in English.
    expect(await screen.findByText('Getting started', {}, { timeout: 5000 })).toBeInTheDocument();
    const calls = sent(app, '/api/article/list');
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls.at(-1)!.headers['Accept-Language']).toBe('en-US');
    const fallback = document.querySelector<HTMLElement>('[data-article="a1"] [data-fallback="zh-CN"]');
    expect(fallback).toHaveTextContent('Shown in 简体中文: no translation yet');
    expect(document.querySelector('[data-article="a2"] [data-fallback]')).toBeNull();
  });

  it('shows an empty state when there is nothing published', async () => {
    await renderApp('/article', { ...identityRoute, 'GET /api/article/list': listRoute(() => []) });
    expect(await screen.findByText('暂无文章')).toBeInTheDocument();
  });

  it('pages through the list', async () => {
    const app = await renderApp('/article', {
      ...identityRoute,
      'GET /api/article/list': (req) => {
        const page = new URL(req.url, 'http://x').searchParams.get('page');
        return ok({ list: [page === '2' ? enArticle : zhArticle], total: 15 });
      },
    });
    await screen.findByText('补仓策略入门');
    await userEvent.click(screen.getByRole('button', { name: /page 2|第 2 页|2/ }));
    await screen.findByText('Getting started');
    expect(app.pathname()).toBe('/article');
    expect(new URL(sent(app, '/api/article/list').at(-1)!.url, 'http://x').searchParams.get('page')).toBe('2');
  });

  it('shows the error and retries', async () => {
    let calls = 0;
    await renderApp('/article', {
      ...identityRoute,
      'GET /api/article/list': () => (++calls === 1 ? fail(99999, 'boom') : ok({ list: [zhArticle], total: 1 })),
    });
    const retry = await screen.findByRole('button', { name: '重试' }, { timeout: 10000 });
    await userEvent.click(retry);
    expect(await screen.findByText('补仓策略入门')).toBeInTheDocument();
  });
});

describe('article detail', () => {
  it('renders the sanitized body; links open in a new tab with rel noopener', async () => {
    const app = await renderApp('/article/a1', {
      ...identityRoute,
      'GET /api/article/detail/a1': () =>
        ok(detail({ body: '<p>正文第一段</p><p><a href="https://example.com/guide">指南</a><img src="x" onerror="alert(1)"></p><script>alert(2)</script>' })),
    });
    await findHeading('文章详情');
    expect(await screen.findByRole('heading', { level: 2, name: '补仓策略入门' })).toBeInTheDocument();
    expect(screen.getByText('正文第一段')).toBeInTheDocument();
    const link = screen.getByRole('link', { name: '指南' });
    expect(link).toHaveAttribute('href', 'https://example.com/guide');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    const body = document.querySelector('[data-article-body]')!;
    expect(body.querySelector('script')).toBeNull();
    expect(body.querySelector('img')?.getAttribute('onerror')).toBeNull();
    expect(sent(app, '/api/article/detail/a1')[0]!.headers['Accept-Language']).toBe('zh-CN');
    expect(document.querySelector('[data-fallback]')).toBeNull();
  });

  it('says when the text is the zh-CN fallback of the page language', async () => {
    const provider = await createI18nProvider();
    await provider.changeLocale('zh-TW');
    await renderApp('/article/a1', { ...identityRoute, 'GET /api/article/detail/a1': () => ok(detail()) });
    expect(await screen.findByText('尚無譯文，顯示简体中文版本')).toBeInTheDocument();
  });

  it('says the article does not exist (10006), with a way back to the list', async () => {
    await renderApp('/article/nope', {
      ...identityRoute,
      'GET /api/article/detail/nope': () => fail(10006, 'article does not exist', { field: 'id' }),
    });
    expect(await screen.findByText('文章不存在')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '全部文章' })).toHaveAttribute('href', '/article');
  });
});
