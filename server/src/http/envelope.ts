import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, type ErrorCodeValue } from '../../../src/api/errors';
import { BusinessError, validationCode } from './errors';

export const ok = <T>(data: T) => ({ code: 0, message: 'ok', data });

/** The content type of every answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The header that names a refusal's code. A refusal is answered with HTTP 200 and its code in the body; a
 * HEAD request gets no body, so without it a refused HEAD (a widget token on a call it does not open) would
 * read as a success. GET and HEAD carry it alike (issue 26).
 */
export const ANSWER_CODE_HEADER = 'x-answer-code';

/** Error answers bypass the routes' response schemas, which describe success data only. */
export const sendEnvelope = (reply: FastifyReply, status: number, code: number, message: string, data: unknown = null) => {
  if (code !== 0) reply.header(ANSWER_CODE_HEADER, String(code));
  return reply.status(status).type(JSON_TYPE).serializer(JSON.stringify).send({ code, message, data });
};

/**
 * PostgreSQL's data exceptions that only a value sent by the client causes
 * (a string the column's encoding cannot hold, a number beyond the column's
 * range, a time zone the database does not know): answered as the validation
 * code of their kind, in case a route's schema lets such a value through.
 */
const DATA_EXCEPTIONS: Record<string, Exclude<ErrorCodeValue, 0>> = {
  '22001': ErrorCode.PARAM_LENGTH, // string_data_right_truncation
  '22003': ErrorCode.PARAM_RANGE, // numeric_value_out_of_range
  '22007': ErrorCode.PARAM_FORMAT, // invalid_datetime_format
  '22008': ErrorCode.PARAM_RANGE, // datetime_field_overflow
  '22021': ErrorCode.PARAM_FORMAT, // character_not_in_repertoire (NUL)
  '22023': ErrorCode.PARAM_FORMAT, // invalid_parameter_value (an unknown time zone)
  '22P02': ErrorCode.PARAM_FORMAT, // invalid_text_representation (not a uuid, not a number)
  '22P05': ErrorCode.PARAM_FORMAT, // untranslatable_character
};

/** A PostgreSQL error's SQL state (node-postgres and PGlite both carry it as `code`). */
const sqlState = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  const severity = (error as { severity?: unknown } | null)?.severity;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string' ? code : undefined;
};

/**
 * Requests the router refuses before any route sees them: a path parameter
 * longer than the router keeps (100 characters) or a path that is not valid
 * percent-encoded UTF-8 (a lone surrogate). Fastify's `frameworkErrors` option.
 */
export const frameworkErrors = (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendEnvelope(reply, 200, ErrorCode.PARAM_LENGTH, 'a path parameter is too long', { field: null, rule: 'maxLength' });
  if (error.code === 'FST_ERR_BAD_URL') return sendEnvelope(reply, 200, ErrorCode.PARAM_FORMAT, 'the path is not valid UTF-8', { field: null, rule: 'format' });
  return sendEnvelope(reply, error.statusCode && error.statusCode < 500 ? error.statusCode : 400, ErrorCode.INVALID, 'the request could not be read');
};

/**
 * Requests Node's HTTP parser refuses (a URL or headers beyond its 16 KiB, a
 * malformed request line): still answered as the envelope. Fastify's
 * `clientErrorHandler` option; the socket is closed after the answer.
 */
export const clientErrorHandler = (error: Error & { code?: string }, socket: Socket) => {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', ErrorCode.PARAM_SIZE, 'the URL or headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', ErrorCode.INVALID, 'the request took too long to arrive']
        : [400, 'Bad Request', ErrorCode.INVALID, 'the request could not be read'];
  const body = JSON.stringify({ code, message, data: null });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: ${JSON_TYPE}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
};

/**
 * Every answer is `{code, message, data}`, errors included: business errors
 * and validation failures with HTTP 200, an unknown route with 404, an
 * oversized body with 413, a missing/invalid/expired access token with 401,
 * and anything unexpected with 500 and code 99999 plus an error id that is
 * also logged. No stack trace ever reaches the client.
 */
export const registerEnvelope = (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | BusinessError, request, reply) => {
    if (error instanceof BusinessError) {
      return sendEnvelope(reply, error.httpStatus, error.code, error.message, error.data);
    }
    if (error.validation && error.validation.length > 0) {
      const first = error.validation[0]!;
      const field =
        first.keyword === 'required'
          ? String((first.params as { missingProperty?: string }).missingProperty ?? '')
          : first.keyword === 'additionalProperties'
            ? String((first.params as { additionalProperty?: string }).additionalProperty ?? '')
            : first.instancePath.replace(/^\//, '').replace(/\//g, '.');
      return sendEnvelope(
        reply,
        200,
        validationCode(first.keyword),
        `${error.validationContext ?? 'body'}${field ? `.${field}` : ''}: ${first.message ?? 'invalid'}`,
        { field: field || null, rule: first.keyword },
      );
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendEnvelope(reply, 400, ErrorCode.PARAM_FORMAT, 'the body is not valid JSON');
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendEnvelope(reply, 413, ErrorCode.PARAM_SIZE, 'the body is too large');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendEnvelope(reply, 415, ErrorCode.PARAM_FORMAT, 'send the body as application/json');
      default:
        break;
    }
    const state = sqlState(error);
    const dataCode = state ? DATA_EXCEPTIONS[state] : undefined;
    if (dataCode) {
      // The log keeps the SQL state and message; the values are cut by the err serializer (http/logging.ts).
      request.log.warn({ err: error, sqlState: state }, 'a value the database refused');
      return sendEnvelope(reply, 200, dataCode, 'a value is not acceptable', { field: null, rule: state });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendEnvelope(reply, error.statusCode, ErrorCode.INVALID, error.message);
    }
    const errorId = randomUUID();
    request.log.error({ err: error, errorId }, 'unexpected error');
    return sendEnvelope(reply, 500, ErrorCode.UNDEFINED_ERROR, `unexpected error (id ${errorId})`, { errorId });
  });

  app.setNotFoundHandler((request, reply) =>
    sendEnvelope(reply, 404, ErrorCode.PARAM_NOT_EXIST, `no route ${request.method} ${request.url.split('?')[0]}`),
  );
};
