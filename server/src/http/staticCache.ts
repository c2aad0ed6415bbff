import { basename } from 'node:path';
import type { FastifyReply } from 'fastify';

/** Files whose name carries a hash of their content: they never change, so caches keep them a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Pages: the browser asks again every time (a 304 when unchanged), so a new build is seen at once. */
export const REVALIDATE = 'no-cache';
/** Files with stable names (the widgets script partners embed): five minutes, then revalidated by ETag. */
export const SHORT = 'public, max-age=300';

/**
 * Content-hashed names: the dashboard build's `name-<hash>.js` (Vite's 8 characters
 * of base64url) and the widgets' pinned copies `qt-widgets.<hash>.iife.js` (10 hex digits).
 */
const HASHED = [/-[A-Za-z0-9_-]{8}\.(?:js|css|mjs|map|woff2?|png|svg|jpe?g|webp|ico)$/, /\.[0-9a-f]{10}\.(?:iife\.)?js$/];

/** The Cache-Control of a file served from a build (a `.br` or `.gz` copy counts as its original). */
export const cacheControlFor = (path: string): string => {
  const name = basename(path).replace(/\.(?:br|gz)$/, '');
  if (name.endsWith('.html')) return REVALIDATE;
  if (HASHED.some((pattern) => pattern.test(name))) return IMMUTABLE;
  return SHORT;
};

/** @fastify/static's setHeaders hook. */
export const setCacheHeaders = (reply: FastifyReply, path: string) => {
  reply.header('cache-control', cacheControlFor(path));
};
