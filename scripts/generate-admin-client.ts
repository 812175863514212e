/**
 * Regenerates test/generated/admin-api.d.ts (openapi-typescript) from the admin API's OpenAPI
 * document, as the live server would serve it. Run: `npx tsx scripts/generate-admin-client.ts`.
 */
import { writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import { loadConfig } from '../src/config.js';
import { openApiDocument } from '../src/resource/openapi.js';

const doc = openApiDocument(loadConfig({ ...process.env, NODE_ENV: 'test' }));
writeFileSync(new URL('../test/generated/admin-api.d.ts', import.meta.url), astToString(await openapiTS(doc as never)));
