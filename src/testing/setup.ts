import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { takeContractViolations } from './fakeServer';

afterEach(() => {
  cleanup();
  globalThis.localStorage?.clear();
  globalThis.sessionStorage?.clear();
  // A request the server would refuse fails the test that made it, even if the page swallowed the error.
  const violations = takeContractViolations();
  if (violations.length > 0) throw new Error(`${violations.length} request(s) broke the server's API contract:\n${violations.join('\n')}`);
});

// jsdom has no layout: react-admin's lists scroll to the top on a page change.
window.scrollTo = () => undefined;
