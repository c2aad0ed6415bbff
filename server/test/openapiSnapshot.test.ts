import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { SNAPSHOT_FILE, publishedDocument } from './openapiDocument';

it('the committed OpenAPI snapshot is what the server publishes now (else run `npm run contract:snapshot`)', async () => {
  const committed: unknown = JSON.parse(readFileSync(SNAPSHOT_FILE, 'utf8'));
  expect(committed, 'src/testing/openapi.json is stale: run `npm run contract:snapshot` and commit it').toEqual(await publishedDocument());
});
