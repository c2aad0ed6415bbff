/**
 * What the server's log may carry of an error. Database errors (node-postgres
 * and PGlite alike) bring the values bound into the failed statement
 * (`params`, `queryOptions`) and PostgreSQL's `detail`, `where` and
 * `internalQuery`, which quote rows and values: an email, an address, a hashed
 * password. The log keeps what explains the failure (SQL state code, message,
 * table, column, constraint, the statement's text with its placeholders) and
 * never the values.
 */

/** Keys of an error object that hold values a query was given or found. */
const VALUE_KEYS = new Set(['params', 'parameters', 'queryOptions', 'detail', 'where', 'internalQuery', 'values', 'bindings']);

/** Paths never written to the log, whatever their value. */
export const REDACTED_LOG_PATHS = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'];

interface SerializedError {
  type: string;
  message: string;
  stack: string;
  [key: string]: unknown;
}

/** The `err` serializer of the server's logger (pino's shape: type, message, stack, own fields, cause). */
export const serializeError = (error: unknown): SerializedError => {
  const out = serialize(error, new Set());
  return typeof out === 'object' && out !== null ? (out as SerializedError) : { type: typeof error, message: String(error), stack: '' };
};

const serialize = (error: unknown, seen: Set<unknown>): SerializedError | unknown => {
  if (!(error instanceof Error) && (typeof error !== 'object' || error === null)) return error;
  if (seen.has(error)) return { type: 'Error', message: '[circular]', stack: '' };
  seen.add(error);
  const source = error as Error & Record<string, unknown>;
  const out: SerializedError = {
    type: source.constructor?.name ?? 'Error',
    message: typeof source.message === 'string' ? source.message : String(source.message ?? ''),
    stack: typeof source.stack === 'string' ? source.stack : '',
  };
  for (const key of Object.keys(source)) {
    if (VALUE_KEYS.has(key) || key === 'message' || key === 'stack') continue;
    const value = source[key];
    if (key === 'cause' || value instanceof Error) out[key] = serialize(value, seen);
    else if (typeof value !== 'function') out[key] = value;
  }
  if (source.cause !== undefined && out.cause === undefined) out.cause = serialize(source.cause, seen);
  if (source instanceof AggregateError) out.errors = source.errors.map((inner) => serialize(inner, seen));
  return out;
};
