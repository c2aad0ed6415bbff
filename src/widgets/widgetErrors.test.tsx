import { within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import './index';
import { widgetCss } from './styles';

/**
 * A widget that shows no data says why, in an error style (not a price
 * colour): this site is not allowed (no grant for its origin, or a token of
 * another site's grant), the grant was revoked, or the API is offline.
 */

const API = 'https://api.example';
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A network: the API's calls answer `api(url)`; the widgets' files load (or not) as `files` says. */
const network = (api: (url: string) => Promise<Response>, files: 'up' | 'down') => {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      calls.push({ url, init });
      if (url.includes('/widgets/')) {
        if (files === 'down') throw new TypeError('Failed to fetch');
        return new Response(null, { status: 200 });
      }
      return api(url);
    }),
  );
  return calls;
};

const refusedByBrowser = async (): Promise<Response> => {
  throw new TypeError('Failed to fetch');
};

const mount = (attributes: Record<string, string>) => {
  const element = document.createElement('qt-wallet-balance');
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  document.body.append(element);
  return within(element.shadowRoot as unknown as HTMLElement);
};

beforeEach(() => {
  document.documentElement.lang = '';
});
afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

describe('widget failures name their cause', () => {
  it('a call the browser withheld while the API is reachable: this site is not allowed, no retry', async () => {
    const calls = network(refusedByBrowser, 'up');
    const shadow = mount({ 'api-base': API, token: 'qtw_token' });
    const alert = await shadow.findByRole('alert');
    expect(alert).toHaveAttribute('data-cause', 'origin');
    expect(alert).toHaveClass('state', 'error');
    expect(alert).toHaveTextContent(`本网站（${window.location.origin}）未获授权显示这些数据。`);
    expect(within(alert).queryByRole('button')).toBeNull();
    // The check was a no-cors load of the widgets' own files, without credentials.
    const probe = calls.find((c) => c.url === `${API}/widgets/qt-widgets.manifest.json`);
    expect(probe?.init).toMatchObject({ mode: 'no-cors', credentials: 'omit' });
  });

  it('nothing reachable: offline, with a retry', async () => {
    network(refusedByBrowser, 'down');
    const shadow = mount({ 'api-base': API, token: 'qtw_token', locale: 'en-US' });
    const alert = await shadow.findByRole('alert');
    expect(alert).toHaveAttribute('data-cause', 'offline');
    expect(alert).toHaveTextContent('Cannot reach the server. Check your connection and try again.');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it("a token of another site's grant: this site is not allowed (zh-TW)", async () => {
    network(async () => json(200, { code: 11005, message: 'this widget grant is for https://a.example', data: { reason: 'origin' } }), 'up');
    const shadow = mount({ 'api-base': API, token: 'qtw_token', locale: 'zh-TW' });
    const alert = await shadow.findByRole('alert');
    expect(alert).toHaveAttribute('data-cause', 'origin');
    expect(alert).toHaveTextContent(`本網站（${window.location.origin}）未獲授權顯示這些資料。`);
  });

  it('a revoked grant: said as such, not as a login to make', async () => {
    const calls = network(async () => json(401, { code: 11005, message: 'this embed code was revoked', data: { reason: 'revoked' } }), 'up');
    const expired = vi.fn();
    document.addEventListener('qt-session-expired', expired);
    const shadow = mount({ 'api-base': API, token: 'qtw_token', locale: 'en-US' });
    const alert = await shadow.findByRole('alert');
    expect(alert).toHaveAttribute('data-cause', 'revoked');
    expect(alert).toHaveTextContent('The owner has revoked this site’s access: the data is no longer shown here.');
    expect(shadow.queryByRole('link')).toBeNull();
    expect(within(alert).queryByRole('button')).toBeNull();
    expect(expired).not.toHaveBeenCalled();
    document.removeEventListener('qt-session-expired', expired);
    expect(calls.filter((c) => c.url.includes('/api/'))).toHaveLength(1);
  });

  it('the error style is its own colour, not the price colours', () => {
    const rule = widgetCss.match(/\.qt \.state\.error \{[^}]*\}/)?.[0] ?? '';
    expect(rule).toContain('color: var(--qt-error)');
    expect(widgetCss).not.toMatch(/\[role="alert"\][^{]*\{[^}]*--qt-(down|up|red|green)/);
  });
});
