import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';

/**
 * The trading engine's slot in the process. It starts after the API and
 * stops before the database closes; the DCA runner plugs in here.
 */
export interface Engine {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export const createEngine = (_deps: { db: Db; log: FastifyBaseLogger }): Engine => {
  let running = false;
  return {
    async start() {
      running = true;
    },
    async stop() {
      if (!running) return;
      running = false;
    },
  };
};
