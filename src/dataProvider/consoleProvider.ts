import type { DataProvider, fetchUtils } from 'ra-core';
import simpleRestProvider from 'ra-data-simple-rest';
import type { HttpClient, HttpMethod } from './httpClient';

/** The operator console's resources are named `admin/<resource>`: their calls go to /api/admin/<resource>. */
export const CONSOLE_PREFIX = 'admin/';
export const isConsoleResource = (resource: string) => resource.startsWith(CONSOLE_PREFIX);

/**
 * ra-data-simple-rest's `httpClient`, as a thin adapter over our own client:
 * it signs, sends the bearer token and the language, shares the 401 refresh,
 * and turns a non-zero envelope code into our ApiError (the catalogue's
 * text). It answers like react-admin's `fetchJson`, with `json` set to the
 * envelope's data. The provider's own headers (Range, a text/plain DELETE)
 * are not needed: our client sets its own.
 */
export const restHttpClient =
  (http: HttpClient) =>
  async (url: string, options: fetchUtils.Options = {}) => {
    const { pathname, searchParams } = new URL(url, 'http://api.invalid');
    const method = (options.method ?? 'GET').toUpperCase() as HttpMethod;
    const body = typeof options.body === 'string' && options.body !== '' ? (JSON.parse(options.body) as object) : undefined;
    // Records of any resource: react-admin types them per call site.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return http.exchange<any>(method, pathname, { query: Object.fromEntries(searchParams), body, signal: options.signal ?? undefined });
  };

/** The console's dataProvider: `simpleRestProvider(apiUrl, httpClient)` on our client (apiUrl '/api': the client adds its base). */
export const createConsoleProvider = (http: HttpClient): DataProvider => simpleRestProvider('/api', restHttpClient(http));
