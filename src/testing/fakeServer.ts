import { vi } from 'vitest';
import { checkAnswer, checkRequest } from './contract';

/**
 * A fake `fetch` standing in for the network (not for our client): each
 * handler gets the parsed request and answers with a status and a JSON body.
 * Requests are recorded so tests can assert on headers, bodies and counts.
 *
 * Every request is checked against the server's published API (./contract)
 * and every success answer against the route's response schema: a violation
 * throws inside fetch and is also kept, so the test fails after it even when
 * the code under test swallowed the error (src/testing/setup.ts).
 */
export interface RecordedRequest {
  method: string;
  url: string;
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown> | undefined;
}

export interface Answer {
  status?: number;
  body: unknown;
  delayMs?: number;
  headers?: Record<string, string>;
  /** A body sent as it comes (Server-Sent Events) instead of `body`'s JSON. */
  stream?: ReadableStream<Uint8Array>;
}

export type Handler = (request: RecordedRequest) => Answer | Promise<Answer>;

export const ok = (data: unknown) => ({ body: { code: 0, message: 'ok', data } });

/**
 * A list of the operator console (ra-data-simple-rest's dialect): the records
 * in the envelope, in the order and range the request asked, the total in
 * Content-Range.
 */
export const okRange = (resource: string, records: readonly object[]) => (request: RecordedRequest): Answer => {
  const params = new URL(request.url, 'http://localhost').searchParams;
  const json = <T,>(name: string, fallback: T): T => (params.has(name) ? (JSON.parse(params.get(name)!) as T) : fallback);
  const [first, last] = json('range', [0, records.length - 1]);
  const [field, order] = json<[string, string] | null>('sort', null) ?? [];
  const value = (record: object) => (field ? (record as Record<string, unknown>)[field] : undefined) as string | number;
  const sorted = field ? [...records].sort((a, b) => (value(a) < value(b) ? -1 : value(a) > value(b) ? 1 : 0) * (order === 'DESC' ? -1 : 1)) : records;
  const page = sorted.slice(first, last + 1);
  const span = page.length > 0 ? `${first}-${first + page.length - 1}` : '*';
  return { ...ok(page), headers: { 'Content-Range': `${resource} ${span}/${records.length}` } };
};
/**
 * A Server-Sent Events answer the test writes to while the page reads it:
 * `answer()` for a handler, `send(event, data)` to stream an event, `end()`.
 */
export const eventStream = () => {
  const encoder = new TextEncoder();
  let sink: ReadableStreamDefaultController<Uint8Array> | undefined;
  const pending: string[] = [];
  let opened = 0;
  const write = (text: string) => (sink ? sink.enqueue(encoder.encode(text)) : pending.push(text));
  return {
    answer: (): Answer => {
      opened += 1;
      return {
        body: null,
        headers: { 'Content-Type': 'text/event-stream' },
        stream: new ReadableStream<Uint8Array>({
          start: (controller) => {
            sink = controller;
            pending.splice(0).forEach(write);
          },
          cancel: () => {
            sink = undefined;
          },
        }),
      };
    },
    send: (event: string, data: unknown) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
    end: () => {
      sink?.close();
      sink = undefined;
    },
    /** How many times the page opened the stream. */
    opened: () => opened,
  };
};

export const fail = (code: number, message = '', data: unknown = null) => ({ body: { code, message, data } });
export const unauthorized = () => ({ status: 401, body: { code: 11005, message: 'token expired', data: null } });

const violations: string[] = [];

/** The contract violations since the last call (the test setup fails a test that left any). */
export const takeContractViolations = () => violations.splice(0);

const violation = (message: string) => {
  violations.push(message);
  return new Error(message);
};

export const createFakeServer = (routes: Record<string, Handler>) => {
  const requests: RecordedRequest[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const method = (init.method ?? 'GET').toUpperCase();
    const path = new URL(url, 'http://localhost').pathname;
    const headers = { ...(init.headers as Record<string, string>) };
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    const request = { method, url, path, headers, body };
    requests.push(request);
    const checked = checkRequest(method, url, body);
    const route = checked.route?.name ?? `${method} ${path}`;
    if (checked.errors.length > 0) throw violation(`contract: ${method} ${url} (route ${route}) would be refused by the server: ${checked.errors.join('; ')}`);
    const handler = routes[`${method} ${path}`];
    if (!handler) return new Response(JSON.stringify({ code: 10006, message: 'no route', data: null }), { status: 404 });
    const answer = await handler(request);
    const wrongAnswer = checked.route && checkAnswer(checked.route, answer.status ?? 200, answer.body);
    if (wrongAnswer) throw violation(`contract: the test's answer to ${method} ${url} (route ${route}) is not one the server gives: ${wrongAnswer}`);
    if (answer.delayMs) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, answer.delayMs);
        init.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(init.signal?.reason ?? new DOMException('aborted', 'AbortError'));
        });
      });
    }
    if (answer.stream) return new Response(answer.stream, { status: answer.status ?? 200, headers: answer.headers ?? {} });
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, requests, calls: () => requests.length };
};
