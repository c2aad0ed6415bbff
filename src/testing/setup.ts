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
 * With TEST_JSDOM_SHARED=1 (vite.config.ts) a worker runs its files one after
 * another in one jsdom and one module graph: the libraries (React, MUI,
 * react-admin) load once a worker. What a file leaves behind goes with it (an
 * isolated file's process ends anyway), so the next file
 * starts as in a fresh page: the app's own modules evaluate anew (their state:
 * the remembered identity of an access token, the i18n instance and its
 * language, caches, listeners), the globals a file stubbed and its fake timers
 * are restored, and the document, MUI's style cache and the DOM's patches are
 * emptied.
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
  forgetPatches();
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

/** The DOM's own properties as jsdom made them, noted by the worker's first file (the setup runs again for each). */
const pristine = ((globalThis as { pristineElementProperties?: Set<string> }).pristineElementProperties ??= new Set(
  Object.getOwnPropertyNames(Element.prototype),
));

/**
 * Removes what a file put on the DOM itself, which jsdom lacks (a test's `Element.prototype.scrollIntoView`), and a
 * clipboard a test put on `navigator` as a value (user-event's own is a getter and stays).
 */
const forgetPatches = () => {
  for (const name of Object.getOwnPropertyNames(Element.prototype)) {
    if (!pristine.has(name)) delete (Element.prototype as unknown as Record<string, unknown>)[name];
  }
  if (Object.getOwnPropertyDescriptor(navigator, 'clipboard')?.value) delete (navigator as unknown as Record<string, unknown>).clipboard;
};

// jsdom has no layout: react-admin's lists scroll to the top on a page change.
window.scrollTo = () => undefined;
