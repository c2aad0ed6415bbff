import type { FastifyInstance } from 'fastify';

/**
 * One log line per answered request, at info: method, path with query,
 * status and milliseconds (Fastify's own request logging writes two lines,
 * each with the serialized request, and is turned off in app.ts). Bodies and
 * headers are never logged.
 */
export const registerRequestLog = (app: FastifyInstance) => {
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 }, 'request');
  });
};
