import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';
import { TestMemoryRouter } from 'react-admin';
import type { NavigateFunction } from 'react-router-dom';
import { vi } from 'vitest';
import { App } from '../dashboard/App';
import { createI18nProvider } from '../i18n/i18nProvider';
import { createFakeServer, ok, type Handler } from './fakeServer';

/**
 * Renders the whole dashboard (<Admin> with the real providers) at a path,
 * with the network replaced by a fake server.
 */
export const renderApp = async (path: string, routes: Record<string, Handler> = {}) => {
  const server = createFakeServer(routes);
  vi.stubGlobal('fetch', server.fetch);
  const i18nProvider = await createI18nProvider();
  let pathname = '';
  let location = { pathname: '', search: '' };
  let navigate: NavigateFunction | undefined;
  const view = render(
    <TestMemoryRouter initialEntries={[path]} locationCallback={(next) => {
        pathname = next.pathname;
        location = { pathname: next.pathname, search: next.search };
      }}
      navigateCallback={(next) => (navigate = next)}>
      <App i18nProvider={i18nProvider} />
    </TestMemoryRouter>,
  );
  /** Moves to a path inside the app, as a link does: the app stays mounted. */
  const goTo = (to: string) => act(async () => {
    await navigate!(to);
  });
  return { ...view, server, pathname: () => pathname, location: () => location, goTo };
};

/**
 * The page heading (h1) once it shows the expected text: the role query (its accessible name, level, not hidden)
 * is asked once an h1's text matches. Asked of the whole page on every change while a page renders, the role
 * query computes the styles of every heading and its ancestors each time, slow on MUI pages in jsdom.
 */
export const findHeading = (name: string | RegExp) =>
  waitFor(
    () => {
      const texts = [...document.querySelectorAll('h1')].map((h1) => (h1.textContent ?? '').replace(/\s+/g, ' ').trim());
      if (!texts.some((text) => (typeof name === 'string' ? text === name : name.test(text)))) {
        throw new Error(`No h1 reads ${String(name)}; the page's h1s: ${JSON.stringify(texts)}`);
      }
      return screen.getByRole('heading', { level: 1, name });
    },
    { timeout: 5000 },
  );

/** An element of the page by its selector, once it is there (a plain selector: no role query over a large page). */
export const findElement = (selector: string) =>
  waitFor(
    () => {
      const element = document.querySelector<HTMLElement>(selector);
      if (!element) throw new Error(`nothing matches ${selector}`);
      return element;
    },
    { timeout: 10_000 },
  );

export const signIn = (remember = true) => {
  if (remember) {
    localStorage.setItem('accessToken', 'access-1');
    localStorage.setItem('refreshToken', 'refresh-1.0123456789abcdefgh');
  } else {
    sessionStorage.setItem('accessToken', 'access-1');
  }
};

/** The signed-in user the fake server answers GET /api/user/me with. */
export const TEST_USER = { id: 'u1', email: 'trader@example.com', nickname: 'Demo', avatar: null, inviteCode: 'ABC123', level: 0, activated: true, role: 'user' };
export const identityRoute: Record<string, Handler> = { 'GET /api/user/me': () => ok(TEST_USER) };

/** Page tests start signed in, in zh-CN (the i18n module is one instance per test file). */
export const startSignedInZhCN = async () => {
  const provider = await createI18nProvider();
  if (provider.getLocale() !== 'zh-CN') await provider.changeLocale('zh-CN');
  signIn();
};

/**
 * Replaces a text field's value as a user does who pastes it: focused, emptied and filled in one input event.
 * For tests where what matters is the value the form gets, not each keystroke: `userEvent.type` clicks first
 * (user-event's pointer-events check walks every ancestor's computed style, slow on MUI pages in jsdom) and
 * renders the form once a character.
 */
export const enterText = async (input: HTMLElement, text: string) => {
  await userEvent.clear(input);
  await userEvent.paste(text);
};

/**
 * Clicks and keys as user-event's, without its pointer-events check: it computes the style of every ancestor of
 * each target (slow on MUI pages in jsdom), and these tests check what the pages send and show, not that a pointer
 * can reach a button (the journeys click them in Chromium).
 */
export const pageUser = userEvent.setup({ pointerEventsCheck: PointerEventsCheckLevel.Never });
