import { beforeEach, describe, it, expect } from 'vitest';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY, createSessionStore } from './session';

const keysOf = (storage: Storage) => Array.from({ length: storage.length }, (_, i) => storage.key(i)).sort();

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('session store', () => {
  it('uses the keys accessToken and refreshToken', () => {
    expect(ACCESS_TOKEN_KEY).toBe('accessToken');
    expect(REFRESH_TOKEN_KEY).toBe('refreshToken');
  });

  it('remember me ON: localStorage holds both tokens, sessionStorage holds nothing', () => {
    const store = createSessionStore();
    store.save({ accessToken: 'at-1', refreshToken: 'rt-1.0123456789abcdefgh', rememberMe: true });
    expect(localStorage.getItem('accessToken')).toBe('at-1');
    expect(localStorage.getItem('refreshToken')).toBe('rt-1.0123456789abcdefgh');
    expect(keysOf(sessionStorage)).toEqual([]);
    expect(store.getAccessToken()).toBe('at-1');
    expect(store.getRefreshToken()).toBe('rt-1.0123456789abcdefgh');
    expect(store.isRemembered()).toBe(true);
    // A new page (new store) still finds the long-term session.
    const reloaded = createSessionStore();
    expect(reloaded.getAccessToken()).toBe('at-1');
    expect(reloaded.getRefreshToken()).toBe('rt-1.0123456789abcdefgh');
  });

  it('remember me OFF: sessionStorage holds only the access token, localStorage no token, refresh token in memory', () => {
    const store = createSessionStore();
    store.save({ accessToken: 'at-1', refreshToken: 'rt-1.0123456789abcdefgh', rememberMe: false });
    expect(keysOf(sessionStorage)).toEqual(['accessToken']);
    expect(sessionStorage.getItem('accessToken')).toBe('at-1');
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    expect(store.getAccessToken()).toBe('at-1');
    expect(store.getRefreshToken()).toBe('rt-1.0123456789abcdefgh');
    expect(store.isRemembered()).toBe(false);
    // The refresh token lives in this page only: another page has the access token but no refresh token.
    const otherPage = createSessionStore();
    expect(otherPage.getAccessToken()).toBe('at-1');
    expect(otherPage.getRefreshToken()).toBeNull();
  });

  it('saving a new session replaces the old one wherever it lived', () => {
    const store = createSessionStore();
    store.save({ accessToken: 'at-1', refreshToken: 'rt-1.0123456789abcdefgh', rememberMe: true });
    store.save({ accessToken: 'at-2', refreshToken: 'rt-2.0123456789abcdefgh', rememberMe: false });
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    expect(store.getAccessToken()).toBe('at-2');
    expect(store.getRefreshToken()).toBe('rt-2.0123456789abcdefgh');
    store.save({ accessToken: 'at-3', refreshToken: 'rt-3.0123456789abcdefgh', rememberMe: true });
    expect(keysOf(sessionStorage)).toEqual([]);
    expect(store.getAccessToken()).toBe('at-3');
  });

  it('updateTokens keeps a remembered session in localStorage', () => {
    const store = createSessionStore();
    store.save({ accessToken: 'at-1', refreshToken: 'rt-1.0123456789abcdefgh', rememberMe: true });
    store.updateTokens({ accessToken: 'at-2', refreshToken: 'rt-2.0123456789abcdefgh' });
    expect(localStorage.getItem('accessToken')).toBe('at-2');
    expect(localStorage.getItem('refreshToken')).toBe('rt-2.0123456789abcdefgh');
    expect(keysOf(sessionStorage)).toEqual([]);
    expect(store.isRemembered()).toBe(true);
  });

  it('updateTokens keeps a not-remembered session in sessionStorage and memory', () => {
    const store = createSessionStore();
    store.save({ accessToken: 'at-1', refreshToken: 'rt-1.0123456789abcdefgh', rememberMe: false });
    store.updateTokens({ accessToken: 'at-2', refreshToken: 'rt-2.0123456789abcdefgh' });
    expect(keysOf(sessionStorage)).toEqual(['accessToken']);
    expect(sessionStorage.getItem('accessToken')).toBe('at-2');
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    expect(store.getRefreshToken()).toBe('rt-2.0123456789abcdefgh');
  });

  it('clear empties both storages and the memory', () => {
    const remembered = createSessionStore();
    remembered.save({ accessToken: 'at-1', refreshToken: 'rt-1.0123456789abcdefgh', rememberMe: true });
    sessionStorage.setItem('accessToken', 'stale');
    remembered.clear();
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    expect(sessionStorage.getItem('accessToken')).toBeNull();
    expect(remembered.getAccessToken()).toBeNull();
    expect(remembered.getRefreshToken()).toBeNull();

    const transient = createSessionStore();
    transient.save({ accessToken: 'at-2', refreshToken: 'rt-2.0123456789abcdefgh', rememberMe: false });
    transient.clear();
    expect(keysOf(sessionStorage)).toEqual([]);
    expect(transient.getAccessToken()).toBeNull();
    expect(transient.getRefreshToken()).toBeNull();
  });

  it('clear leaves other keys (such as the locale) alone', () => {
    localStorage.setItem('locale', 'en-US');
    const store = createSessionStore();
    store.save({ accessToken: 'at-1', refreshToken: 'rt-1.0123456789abcdefgh', rememberMe: true });
    store.clear();
    expect(localStorage.getItem('locale')).toBe('en-US');
  });
});
