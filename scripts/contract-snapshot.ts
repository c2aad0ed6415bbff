import { writeFileSync } from 'node:fs';
import { SNAPSHOT_FILE, publishedDocument, snapshotText } from '../server/test/openapiDocument';

// Writes the server's OpenAPI document to the committed snapshot the dashboard's tests validate against.
writeFileSync(SNAPSHOT_FILE, snapshotText(await publishedDocument()));
console.log(`wrote ${SNAPSHOT_FILE}`);
