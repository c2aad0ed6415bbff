import { HTTP_TIMEOUT_MS } from '../api/defaults';
import { Endpoint } from '../api/endpoints';
import { isSignedCall, signBody } from '../api/signing';
import type { ApiEnvelope, LocaleCode, RefreshResponse } from '../api/types';
import { ApiError } from './ApiError';

/** Where the client keeps and finds the session's tokens (implemented by the authProvider's session store). */
export interface TokenStore {
  getAccessToken(): string | null;
  getRefreshToken(): string | null;
  /** Saves a rotated pair in the same place the session already lives. */
  updateTokens(tokens: RefreshResponse): void;
  clear(): void;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

export interface RequestOptions {
  body?: object | undefined;
  query?: Record<string, QueryValue> | undefined;
  /** A caller's abort signal; aborting rejects with the platform's AbortError. */
  signal?: AbortSignal | undefined;
  /** Send the bearer token and cure a 401 with one refresh (default true). */
  auth?: boolean;
  timeoutMs?: number;
  /** Extra request headers (the step-up's X-Second-Factor). */
  headers?: Record<string, string> | undefined;
}

export interface HttpClientConfig {
  /** Prefix of every path: '' for the same origin, or e.g. 'https://api.example.com'. */
  baseUrl: string;
  signSecret: string;
  tokens: TokenStore;
  getLocale: () => LocaleCode;
  /** Called once the session cannot be cured: tokens are already cleared. */
  onSessionExpired: () => void;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export const NO_REFRESH_TOKEN = 'No refresh token available';

/** A successful answer whole, in the shape react-admin's `fetchJson` gives (`json` is the envelope's data). */
export interface HttpAnswer<T> {
  status: number;
  headers: Headers;
  body: string;
  json: T;
}

const buildQuery = (query: Record<string, QueryValue> | undefined): string => {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) value.forEach((v) => params.append(key, String(v)));
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
};

const isEnvelope = (value: unknown): value is ApiEnvelope =>
  typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number';

const abortError = (signal: AbortSignal): unknown =>
  signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');

/**
 * The one HTTP client of the browser code (dashboard and widgets). Every call:
 * JSON body, `Authorization: Bearer`, `Accept-Language`, a 10 s timeout, the
 * `{code, message, data}` envelope unwrapped, signed calls signed, and a 401
 * cured by one shared refresh and one retry.
 */
export const createHttpClient = (config: HttpClientConfig) => {
  const doFetch = config.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  let refreshing: Promise<void> | null = null;

  const send = async (method: HttpMethod, path: string, options: RequestOptions, accessToken: string | null) => {
    const timeoutMs = options.timeoutMs ?? config.timeoutMs ?? HTTP_TIMEOUT_MS;
    const controller = new AbortController();
    const callerSignal = options.signal;
    if (callerSignal?.aborted) throw abortError(callerSignal);
    const onCallerAbort = () => controller.abort(callerSignal ? abortError(callerSignal) : undefined);
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);

    const headers: Record<string, string> = {
      ...options.headers,
      Accept: 'application/json',
      'Accept-Language': config.getLocale(),
    };
    if (accessToken) headers.Authorization = `Bearer ${accessToken}`;
    let body: string | undefined;
    if (options.body !== undefined || method !== 'GET') {
      const payload = options.body ?? {};
      // A new uuid and timestamp per attempt: the server refuses a replayed uuid.
      body = JSON.stringify(isSignedCall(method, path) ? signBody(method, path, payload, config.signSecret) : payload);
      headers['Content-Type'] = 'application/json';
    }

    try {
      const response = await doFetch(`${config.baseUrl}${path}${buildQuery(options.query)}`, {
        method,
        headers,
        body,
        signal: controller.signal,
      });
      const text = await response.text();
      return { response, text };
    } catch (error) {
      if (timedOut) throw new ApiError({ kind: 'timeout', messageKey: 'error.timeout', cause: error });
      if (callerSignal?.aborted) throw abortError(callerSignal);
      throw new ApiError({ kind: 'network', messageKey: 'error.network', cause: error });
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    }
  };

  const unwrap = <T>(response: Response, text: string): T => {
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (isEnvelope(parsed)) {
      if (parsed.code === 0) return parsed.data as T;
      throw new ApiError({
        kind: 'business',
        code: parsed.code,
        status: response.status,
        data: parsed.data,
        serverMessage: typeof parsed.message === 'string' ? parsed.message : undefined,
      });
    }
    throw new ApiError({ kind: 'http', status: response.status, messageKey: 'error.http' });
  };

  /** The 401's own envelope data (a widget token's refusal names its reason there), else undefined. */
  const dataOf = (text: string | undefined): unknown => {
    try {
      const parsed: unknown = text ? JSON.parse(text) : undefined;
      return isEnvelope(parsed) ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  };

  const expire = (cause?: unknown, text?: string): never => {
    config.tokens.clear();
    config.onSessionExpired();
    throw new ApiError({ kind: 'unauthorized', status: 401, messageKey: 'error.sessionExpired', cause, data: dataOf(text) });
  };

  /** Rotates the token pair; concurrent callers share one refresh call. */
  const refreshTokens = (): Promise<void> => {
    refreshing ??= (async () => {
      const refreshToken = config.tokens.getRefreshToken();
      if (!refreshToken) throw new Error(NO_REFRESH_TOKEN);
      const tokens = await request<RefreshResponse>('PUT', Endpoint.refresh, { body: { refreshToken }, auth: false });
      config.tokens.updateTokens(tokens);
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  };

  /** One call with the whole answer: status, headers, text, and the envelope's data (after one refresh and retry on a 401). */
  const exchange = async <T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<HttpAnswer<T>> => {
    const auth = options.auth ?? true;
    const usedToken = auth ? config.tokens.getAccessToken() : null;
    let answer = await send(method, path, options, usedToken);
    if (answer.response.status === 401 && auth) {
      // Another request may already have rotated the pair while this one was in flight.
      if (config.tokens.getAccessToken() === usedToken || usedToken === null) {
        try {
          await refreshTokens();
        } catch (error) {
          return expire(error, answer.text);
        }
      }
      answer = await send(method, path, options, config.tokens.getAccessToken());
      if (answer.response.status === 401) return expire(undefined, answer.text);
    }
    const { response, text } = answer;
    return { status: response.status, headers: response.headers, body: text, json: unwrap<T>(response, text) };
  };

  const request = async <T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> => (await exchange<T>(method, path, options)).json;

  /**
   * A long-lived GET whose body is read as it arrives (Server-Sent Events):
   * the bearer token in its header (EventSource cannot send one, and a token
   * in the address would be logged), a 401 cured by the shared refresh, the
   * timeout only until the answer starts. Resolves with the open body;
   * aborting `signal` closes it. Any answer but an event stream rejects.
   */
  const stream = async (path: string, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> => {
    const open = async (token: string | null) => {
      const headers: Record<string, string> = { Accept: 'text/event-stream', 'Accept-Language': config.getLocale() };
      if (token) headers.Authorization = `Bearer ${token}`;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), config.timeoutMs ?? HTTP_TIMEOUT_MS);
      const onAbort = () => controller.abort(abortError(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        return await doFetch(`${config.baseUrl}${path}`, { method: 'GET', headers, signal: controller.signal });
      } catch (error) {
        if (signal.aborted) throw abortError(signal);
        throw new ApiError({ kind: 'network', messageKey: 'error.network', cause: error });
      } finally {
        clearTimeout(timer);
      }
    };
    const usedToken = config.tokens.getAccessToken();
    let response = await open(usedToken);
    if (response.status === 401) {
      const text = await response.text();
      if (config.tokens.getAccessToken() === usedToken || usedToken === null) {
        try {
          await refreshTokens();
        } catch (error) {
          return expire(error, text);
        }
      }
      response = await open(config.tokens.getAccessToken());
      if (response.status === 401) return expire(undefined, await response.text());
    }
    // Refusals come as the JSON envelope, with HTTP 200 for business errors: only an event stream is the stream.
    if (response.status !== 200 || !response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
      unwrap<unknown>(response, await response.text());
      throw new ApiError({ kind: 'http', status: response.status, messageKey: 'error.http' });
    }
    return response.body;
  };

  return { request, exchange, refreshTokens, stream };
};

export type HttpClient = ReturnType<typeof createHttpClient>;
