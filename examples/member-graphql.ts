/**
 * A member's Account API query (docs/account-api.md) through the typed client generated from the
 * introspected schema (`npm run codegen`: examples/graphql/viewer.graphql →
 * examples/generated/account-api.ts): the viewer with their enrolled courses.
 *
 *   ACCESS_TOKEN=$(npx tsx examples/cli-login.ts) npx tsx examples/member-graphql.ts
 *
 * After editing examples/graphql/*.graphql (or when the schema changes), regenerate the client:
 *
 *   npm run codegen
 *
 * Settings: COURSEGATE_URL (http://localhost:3000), ACCESS_TOKEN (a member token with account:read).
 */
import { print } from 'graphql';
import { ViewerDocument, type ViewerQuery } from './generated/account-api.js';

const base = process.env.COURSEGATE_URL ?? 'http://localhost:3000';
const token = process.env.ACCESS_TOKEN;
if (!token) throw new Error('set ACCESS_TOKEN (npx tsx examples/cli-login.ts prints one)');

const res = await fetch(`${base}/account/graphql`, {
  method: 'POST',
  headers: {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept: 'application/graphql-response+json',
  },
  body: JSON.stringify({ query: print(ViewerDocument), operationName: 'Viewer' }),
});
if (res.status === 401 || res.status === 403) {
  // RFC 6750 §3: the challenge says why (invalid_token → sign in again; insufficient_scope → ask for more).
  throw new Error(`${res.status}: ${res.headers.get('www-authenticate')}`);
}
const body = (await res.json()) as {
  data?: ViewerQuery;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
};
if (body.errors || !body.data)
  throw new Error((body.errors ?? []).map((e) => `${e.extensions?.code}: ${e.message}`).join('\n'));
// Typed: `viewer.enrolledCourses.nodes[i].slug` is a string, `expireDate` a string or null.
const { viewer } = body.data;
process.stdout.write(`${JSON.stringify({ viewer }, null, 2)}\n`);
