import ccxt, { type Exchange } from 'ccxt';
import { expect } from 'vitest';
import type { ExchangeFactory } from '../src/engine/venues/exchangeAccess';
import { ExchangeClientError, type ExchangeFailure } from '../src/engine/venues/exchangeClient';

/**
 * ccxt's real exchange classes (signing, error mapping, parsers) with their
 * HTTP layer replaced by recorded answers, through ccxt's own
 * `fetchImplementation` hook. Answers are matched by method and path (the
 * signed query string changes on every call) and, where an answer names
 * them, by query parameters; a request nobody recorded is
 * remembered and answered 404, so a test sees it.
 */

export interface RecordedAnswer {
  method: string;
  path: string;
  /** Query parameters the request must carry (a page of history by its start); others are not compared. */
  query?: Record<string, string>;
  status: number;
  body: unknown;
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
}

export interface Replay {
  /** Passed to startServer as `exchangeFactory`. */
  factory: ExchangeFactory;
  /** Every request the exchange classes sent, in order. */
  requests: SeenRequest[];
  /** Requests that matched no recorded answer. */
  unexpected: SeenRequest[];
  /** The answers to give from now on (a scenario per test step). */
  answer(...answers: RecordedAnswer[]): void;
  /** From now on every request fails the way a dropped connection does. */
  failNetwork(): void;
}

type ExchangeClass = new (settings?: Record<string, unknown>) => Exchange;

export const recordedExchange = (): Replay => {
  let answers: RecordedAnswer[] = [];
  let networkDown = false;
  const requests: SeenRequest[] = [];
  const unexpected: SeenRequest[] = [];

  const fetchImplementation = async (url: string, init: { method?: string; headers?: Record<string, string> }) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const seen = { method, url, headers: { ...init.headers } };
    requests.push(seen);
    if (networkDown) throw new TypeError('fetch failed');
    const { pathname: path, searchParams } = new URL(url);
    const recorded = answers.find(
      (answer) => answer.method === method && answer.path === path && Object.entries(answer.query ?? {}).every(([key, value]) => searchParams.get(key) === value),
    );
    if (!recorded) {
      unexpected.push(seen);
      return new Response('{"error":"not recorded"}', { status: 404, headers: { 'Content-Type': 'application/json' } });
    }
    return new Response(JSON.stringify(recorded.body), { status: recorded.status, headers: { 'Content-Type': 'application/json' } });
  };

  return {
    requests,
    unexpected,
    factory: (exchangeId, settings) => {
      const Class = (ccxt as unknown as Record<string, ExchangeClass>)[exchangeId];
      if (!Class) throw new Error(`no ccxt class ${exchangeId}`);
      return new Class({ ...settings, fetchImplementation });
    },
    answer(...given) {
      networkDown = false;
      answers = given;
    },
    failNetwork() {
      networkDown = true;
    },
  };
};

/** The failure an exchange client's call was refused with (the test fails when it succeeds or throws anything else). */
export const failureOf = async (promise: Promise<unknown>): Promise<ExchangeFailure> => {
  const error = await promise.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(ExchangeClientError);
  return (error as ExchangeClientError).failure;
};
