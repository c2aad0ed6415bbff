import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One log line per answered request instead of Fastify's two ("incoming
 * request" and "request completed", each with the serialized request): at
 * info, method, path with query, status and milliseconds; a failed answer at
 * error with its error, as before. Bodies and headers are never logged.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}
