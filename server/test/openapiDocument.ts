import { fileURLToPath } from 'node:url';
import { startServer } from './harness';

/** The committed copy of the server's OpenAPI document, which the dashboard's test network checks every request against. */
export const SNAPSHOT_FILE = fileURLToPath(new URL('../../src/testing/openapi.json', import.meta.url));

/** The document the server publishes at GET /api/openapi.json, built from the route schemas (embedded database, nothing listening for long). */
export const publishedDocument = async (): Promise<object> => {
  const server = await startServer('pglite');
  try {
    const answer = await server.app.inject({ method: 'GET', url: '/api/openapi.json' });
    if (answer.statusCode !== 200) throw new Error(`GET /api/openapi.json answered ${answer.statusCode}`);
    return answer.json() as object;
  } finally {
    await server.close();
  }
};

/** The snapshot file's text: stable, pretty-printed JSON. */
export const snapshotText = (document: object) => `${JSON.stringify(document, null, 2)}\n`;
