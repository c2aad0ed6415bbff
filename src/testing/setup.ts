import '@testing-library/jest-dom/vitest';
import { __unsafe_useEmotionCache as useEmotionCache, type EmotionCache } from '@emotion/react';
import { cleanup, render } from '@testing-library/react';
import { createElement } from 'react';
import { afterAll, afterEach, vi } from 'vitest';
import { takeContractViolations } from './fakeServer';

afterEach(() => {
  cleanup();
  globalThis.localStorage?.clear();
  globalThis.sessionStorage?.clear();
  // A request the server would refuse fails the test that made it, even if the page swallowed the error.
  const violations = takeContractViolations();
  if (violations.length > 0) throw new Error(`${violations.length} request(s) broke the server's API contract:\n${violations.join('\n')}`);
});

/**
 * A worker runs its files one after another in one jsdom and one module graph
 * (vite.config.ts: `isolate: false`): the libraries (React, MUI, react-admin)
 * load once a worker. What a file leaves behind goes with it, so the next file
 * starts as in a fresh page: the app's own modules evaluate anew (their state:
 * the remembered identity of an access token, the i18n instance and its
 * language, caches, listeners), the globals a file stubbed and its fake timers
 * are restored, and the document is emptied.
 */
afterAll(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  globalThis.localStorage?.clear();
  globalThis.sessionStorage?.clear();
  document.body.innerHTML = '';
  forgetStyles();
  document.documentElement.removeAttribute('lang');
  document.documentElement.removeAttribute('dir');
  vi.resetModules();
});

/**
 * Empties MUI's style cache (emotion's, shared by every file of a worker) and removes its style elements: jsdom
 * computes a style (role queries, visibility) over every rule of the document, and a worker's files would
 * otherwise add theirs to the last file's, each file slower than the one before.
 */
const forgetStyles = () => {
  let cache: EmotionCache | null = null;
  const Probe = () => {
    cache = useEmotionCache();
    return null;
  };
  render(createElement(Probe)).unmount();
  if (!cache) return;
  const { sheet, inserted } = cache as EmotionCache;
  sheet.flush();
  for (const name of Object.keys(inserted)) delete inserted[name];
};

// jsdom has no layout: react-admin's lists scroll to the top on a page change.
window.scrollTo = () => undefined;
