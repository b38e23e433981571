// The dashboard's typed client is generated from the app's OpenAPI document
// (dashboard/src/api/schema.d.ts). When the API changes, this fails until `npm run
// dashboard:schema` regenerates the file, and then `npm run typecheck` shows every dashboard call
// the change breaks.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generateSchema, SCHEMA_PATH } from '../../dashboard/scripts/openapi-schema.js';

describe('the dashboard schema', () => {
  it('is what the current API generates (run `npm run dashboard:schema` after an API change)', async () => {
    const committed = await readFile(SCHEMA_PATH, 'utf8');
    const fresh = await generateSchema();
    expect(committed === fresh, 'dashboard/src/api/schema.d.ts is out of date: run `npm run dashboard:schema`').toBe(true);
  });
});
