/**
 * A member's Account API query (docs/account-api.md): the viewer with their enrolled courses.
 *
 *   ACCESS_TOKEN=$(npx tsx examples/cli-login.ts) npx tsx examples/member-graphql.ts
 *
 * Settings: COURSEGATE_URL (http://localhost:3000), ACCESS_TOKEN (a member token with account:read).
 */
const base = process.env.COURSEGATE_URL ?? 'http://localhost:3000';
const token = process.env.ACCESS_TOKEN;
if (!token) throw new Error('set ACCESS_TOKEN (npx tsx examples/cli-login.ts prints one)');

const query = /* GraphQL */ `
  query Viewer {
    viewer {
      email
      name
      enrolledCourses(first: 10) { nodes { slug title expireDate progress } }
    }
  }
`;

const res = await fetch(`${base}/account/graphql`, {
  method: 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/graphql-response+json' },
  body: JSON.stringify({ query, operationName: 'Viewer' }),
});
if (res.status === 401 || res.status === 403) {
  // RFC 6750 §3: the challenge says why (invalid_token → sign in again; insufficient_scope → ask for more).
  throw new Error(`${res.status}: ${res.headers.get('www-authenticate')}`);
}
const body = (await res.json()) as { data?: unknown; errors?: Array<{ message: string; extensions?: { code?: string } }> };
if (body.errors) throw new Error(body.errors.map((e) => `${e.extensions?.code}: ${e.message}`).join('\n'));
process.stdout.write(`${JSON.stringify(body.data, null, 2)}\n`);
