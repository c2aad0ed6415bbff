import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Counts requests whose handler has not produced its answer yet. A client
 * that hangs up does not stop its handler, so shutdown waits for this count,
 * not for the sockets, before the engine stops and the database closes: no
 * request is cut off between two of its writes.
 */
export const registerDrain = (app: FastifyInstance) => {
  const running = new WeakSet<FastifyRequest>();
  let inFlight = 0;
  let waiters: (() => void)[] = [];

  // Callback hooks, not async ones: every request passes here, and a promise each way is measurable.
  app.addHook('onRequest', (request, _reply, done) => {
    running.add(request);
    inFlight += 1;
    done();
  });
  // onSend runs once per request, after its handler (or error handler) is done.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (running.delete(request)) {
      inFlight -= 1;
      if (inFlight === 0) {
        waiters.forEach((resolve) => resolve());
        waiters = [];
      }
    }
    done(null, payload);
  });

  /** Resolves when no handler runs any more, or after `timeoutMs` at the latest. */
  return (timeoutMs: number): Promise<void> =>
    inFlight === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, timeoutMs);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
};
