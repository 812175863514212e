/**
 * `npm run docs:sdl`: writes docs/account-api.graphql, the Account API schema as introspection
 * shows it (the same text as `GET /account/graphql/schema.graphql`). A test keeps them equal.
 */
import { writeFileSync } from 'node:fs';
import { ACCOUNT_SCHEMA_SDL } from '../src/resource/account-graphql/index.js';

writeFileSync(new URL('../docs/account-api.graphql', import.meta.url), ACCOUNT_SCHEMA_SDL);
