import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  globalThis.localStorage?.clear();
  globalThis.sessionStorage?.clear();
});

// jsdom has no layout: react-admin's lists scroll to the top on a page change.
window.scrollTo = () => undefined;
