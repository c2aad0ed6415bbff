/**
 * The services every domain shares, as decorators of the app: the database,
 * the configuration, the mailer and the attempt throttle. Registered once at
 * the root (through fastify-plugin, so the decorators reach every domain
 * plugin registered after it); each domain plugin reads them from its
 * instance instead of having them handed over one by one.
 */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerConfig } from '../config';
import type { Db } from '../db/database';
import type { Mailer } from '../mail/mailer';
import { createThrottle, type Throttle } from './throttle';

declare module 'fastify' {
  interface FastifyInstance {
    /** The opened, migrated database. */
    db: Db;
    config: ServerConfig;
    mailer: Mailer;
    /** Attempt counters kept in the database (logins, codes, wallet passwords, backtests). */
    throttle: Throttle;
  }
}

export interface SharedServices {
  db: Db;
  config: ServerConfig;
  mailer: Mailer;
}

const sharedServicesPlugin: FastifyPluginAsync<SharedServices> = async (app, { db, config, mailer }) => {
  app.decorate('db', db);
  app.decorate('config', config);
  app.decorate('mailer', mailer);
  app.decorate('throttle', createThrottle(db));
};

export const sharedServices = fp(sharedServicesPlugin, { name: 'shared-services', fastify: '5.x' });
