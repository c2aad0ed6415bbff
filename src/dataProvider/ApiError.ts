import { isCatalogueCode } from '../api/errors';
import { translateError, type Translate } from './errorText';

/**
 * What went wrong with a call:
 * - `business`: the server answered with an envelope whose code is not 0;
 * - `http`: an HTTP error status without a usable envelope;
 * - `unauthorized`: 401 that one refresh and one retry could not cure;
 * - `timeout` / `network`: no answer at all;
 * - `local`: a rule checked in the browser before any call.
 */
export type ApiErrorKind = 'business' | 'http' | 'unauthorized' | 'timeout' | 'network' | 'local';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  code?: number | undefined;
  status?: number | undefined;
  data?: unknown;
  serverMessage?: string | undefined;
  messageKey?: string | undefined;
  cause?: unknown;
}

/**
 * The display text of spec section 8: the localized text of the code, else
 * the server's message, else `API Error: {code}`, else 'Operation failed'.
 * Errors without a code get the text of their own kind (timeout, network...).
 */
export const displayMessage = (init: ApiErrorInit, t: Translate = translateError): string => {
  const message = catalogueMessage(init, t);
  // An unexpected failure (500) carries the id the server logged it under: support finds it with that.
  const errorId = (init.data as { errorId?: unknown } | null | undefined)?.errorId;
  return typeof errorId === 'string' && errorId !== '' ? t('error.withErrorId', { message, errorId }) : message;
};

const catalogueMessage = (init: ApiErrorInit, t: Translate): string => {
  if (init.messageKey) return t(init.messageKey, { status: init.status });
  // The shared demo account's refusals say what it is and what to do instead.
  if (init.code === 11005 && (init.data as { reason?: unknown } | null | undefined)?.reason === 'demo_account') return t('error.demoAccount');
  if (init.code !== undefined && isCatalogueCode(init.code)) {
    return t(`error.${init.code}`, typeof init.data === 'object' && init.data !== null ? (init.data as Record<string, unknown>) : {});
  }
  if (init.serverMessage) return init.serverMessage;
  if (init.code !== undefined) return t('error.api', { code: init.code });
  return t('error.fallback');
};

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly code: number | undefined;
  /** HTTP status; react-admin's checkError reads it (401 logs out). */
  readonly status: number | undefined;
  readonly data: unknown;
  /** The server's own message, kept as it came. */
  readonly serverMessage: string | undefined;
  readonly messageKey: string | undefined;
  /**
   * A refusal naming a field (`data.field`) as react-admin reads a server-side
   * validation error (HttpError's `body.errors`): its forms show the text at
   * that field.
   */
  readonly body: { errors: Record<string, string> } | undefined;

  constructor(init: ApiErrorInit) {
    super(displayMessage(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.code = init.code;
    this.status = init.status;
    this.data = init.data;
    this.serverMessage = init.serverMessage;
    this.messageKey = init.messageKey;
    const field = (init.data as { field?: unknown } | null | undefined)?.field;
    this.body = typeof field === 'string' && field !== '' ? { errors: { [field]: this.message } } : undefined;
  }

  /** The display text in the current locale (it may have changed since the error was raised). */
  localizedMessage(t?: Translate): string {
    return displayMessage(this, t);
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;
