import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isWidgetReadCall } from '../../../src/api/widget';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The calling page's origin when only a widget grant opened this call to
     * it (not CORS_ORIGINS): only a widget token bound to that origin is then
     * good (server/src/widget), never the dashboard's own access token.
     */
    grantOrigin: string | null;
  }
}

export interface CorsRules {
  /** CORS_ORIGINS: every call is opened to them, as the dashboard's own. */
  configuredOrigins: readonly string[];
  /** Whether a widget grant names this origin (the widgets' read calls are opened to it, and nothing else). */
  isGrantOrigin: (origin: string) => Promise<boolean>;
}

const CONFIGURED: FastifyCorsOptions = {
  methods: ['GET', 'POST', 'PUT', 'DELETE'],
  allowedHeaders: ['Authorization', 'Content-Type', 'Accept-Language'],
  // The operator console's lists carry their total there (ra-data-simple-rest).
  exposedHeaders: ['Content-Range', 'X-Answer-Code'],
  maxAge: 600,
};

/** What the widgets send: a bearer token and their language, on GET (HEAD answered as GET). */
const WIDGET: FastifyCorsOptions = {
  methods: ['GET', 'HEAD'],
  allowedHeaders: ['Authorization', 'Accept-Language'],
  exposedHeaders: ['X-Answer-Code'],
  maxAge: 600,
};

const CLOSED: FastifyCorsOptions = { origin: false };

/** The method a call is made with, a preflight's being the one it asks for. */
const methodOf = (request: FastifyRequest) => {
  if (request.method !== 'OPTIONS') return request.method;
  const asked = request.headers['access-control-request-method'];
  return typeof asked === 'string' ? asked : undefined;
};

/**
 * CORS per call: same-origin calls need none; the origins in CORS_ORIGINS get
 * every call, as before; an origin a widget grant names gets the widgets'
 * read calls only (preflight included), and only a widget token of a grant
 * bound to it is good there (checked with the token). Any other origin, and
 * any other call, gets no CORS header: the browser keeps the answer from the page.
 */
export const registerCors = async (app: FastifyInstance, rules: CorsRules) => {
  app.decorateRequest('grantOrigin', null);
  await app.register(cors, {
    delegator: async (request: FastifyRequest): Promise<FastifyCorsOptions> => {
      const origin = request.headers.origin;
      if (!origin) return CLOSED;
      if (rules.configuredOrigins.includes(origin)) return { ...CONFIGURED, origin };
      const path = request.url.split('?')[0] ?? '';
      if (!isWidgetReadCall(methodOf(request), path)) return CLOSED;
      if (!(await rules.isGrantOrigin(origin))) return CLOSED;
      request.grantOrigin = origin;
      return { ...WIDGET, origin };
    },
  });
};
