import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ErrorCode } from '../../../src/api/errors';
import { BusinessError, validationCode } from './errors';

export const ok = <T>(data: T) => ({ code: 0, message: 'ok', data });

/** Error answers bypass the routes' response schemas, which describe success data only. */
export const sendEnvelope = (reply: FastifyReply, status: number, code: number, message: string, data: unknown = null) =>
  reply.status(status).type('application/json; charset=utf-8').serializer(JSON.stringify).send({ code, message, data });

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
