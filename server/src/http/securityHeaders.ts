import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';

/**
 * The browser hardening headers of every answer (README "Security headers"),
 * as @fastify/helmet makes them: one strict Content-Security-Policy for the
 * dashboard (its pages, its files, the API's JSON), no framing by anyone,
 * nosniff, no referrer, cross-origin isolation of our own windows, and HSTS
 * only where TLS sits in front of us (a trusted proxy says https).
 *
 * Why `style-src 'unsafe-inline'`: MUI's styling engine (emotion) writes its
 * rules into <style> elements at run time and the widgets render theirs into
 * their shadow roots. A nonce would have to be written into index.html on
 * every answer, but the page is a static, precompressed file that browsers
 * revalidate by ETag (http/staticCache.ts): a 304 keeps the old page, and so
 * its old nonce, under a new header, and the styles would be refused. Styles
 * cannot run code; scripts stay strict (`'self'` only, no inline, no eval).
 */

/** The dashboard's policy. Every script, style sheet and call is our own origin's. */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  baseUri: ["'none'"],
  connectSrc: ["'self'"],
  fontSrc: ["'self'", 'data:'],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  // Avatars are data: URLs, a picked avatar is previewed from a blob: URL, articles show https: images.
  imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
  objectSrc: ["'none'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  // Plain http on a laptop must keep working: no upgrade of our own requests (HSTS does it where TLS is).
  upgradeInsecureRequests: null,
};

/** HSTS as helmet would send it: a year, subdomains included. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** @fastify/helmet's options for our headers. */
const HELMET_OPTIONS = {
  contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
  xFrameOptions: { action: 'deny' as const },
  referrerPolicy: { policy: 'no-referrer' as const },
  // Decided per request below: only a trusted proxy can tell that the browser came over TLS.
  strictTransportSecurity: false as const,
};

/**
 * The headers helmet sends with our options, found once: @fastify/helmet
 * builds its middleware (and parses the policy) anew on every request, which
 * costs more than a cached API answer, while the headers never change (no
 * per-request nonce, see above). They are read off one answer of a throwaway
 * instance, so helmet stays the one source of their names and values.
 */
const helmetHeaders = async (): Promise<Record<string, string>> => {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, HELMET_OPTIONS);
  probe.get('/', async () => 'ok');
  const answer = await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  const own = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    if (!own.has(name) && typeof value === 'string') headers[name] = value;
  }
  if (!headers['content-security-policy']) throw new Error('helmet sent no Content-Security-Policy');
  return headers;
};

export const registerSecurityHeaders = async (app: FastifyInstance, { trustProxy }: { trustProxy: boolean }) => {
  const headers = await helmetHeaders();
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    // request.protocol reads X-Forwarded-Proto only when TRUST_PROXY is on.
    if (trustProxy && request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    done();
  });
};

/**
 * Headers that only mean something on a document (a page, or an SVG opened
 * as one): the policy, framing, window isolation and old browsers' switches.
 * A script, style sheet, font or image keeps nosniff and its resource policy
 * and drops these, which would otherwise ride along on each of the dozens of
 * files a page loads (about 0.6 KB each over HTTP/1.1).
 */
const DOCUMENT_ONLY = [
  'content-security-policy',
  'x-frame-options',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
  'referrer-policy',
] as const;

/** For a built file being served: a page or an SVG keeps every header, any other file only what applies to it. */
export const trimSubresourceHeaders = (reply: FastifyReply, path: string) => {
  const name = path.replace(/\.(?:br|gz)$/, '');
  if (name.endsWith('.html') || name.endsWith('.svg')) return;
  for (const header of DOCUMENT_ONLY) reply.removeHeader(header);
};

/**
 * Files partner sites load from their own pages (the widgets script, its
 * hashed copies): a classic <script src> is a no-cors request, which a
 * same-origin Cross-Origin-Resource-Policy would block in the partner's page.
 */
export const allowCrossOriginEmbedding = (reply: FastifyReply) => {
  reply.header('cross-origin-resource-policy', 'cross-origin');
};
