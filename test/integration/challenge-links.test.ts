/**
 * Every 401 of a bearer surface links the developer docs (RFC 6750 §3 `error_uri`,
 * docs/client-developer-guide.md "7. Errors": "every `error_description` says what to do and
 * links these docs"): UserInfo, the Account API and the admin API, each to its own page, which
 * this server publishes.
 */
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(() => server?.close());

test.each([
  ['GET', '/api/oauth/userinfo', 'client-developer-guide.md#7-errors'],
  ['POST', '/account/graphql', 'account-api.md#scopes-and-http-errors'],
  ['GET', '/api/v1/site', 'admin-api.md#authentication'],
])('%s %s without a token: 401 whose challenge links %s', async (method, path, page) => {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: method === 'POST' ? '{"query":"{ viewer { email } }"}' : undefined,
  });
  expect(res.status).toBe(401);
  const link = /error_uri="([^"]+)"/.exec(res.headers.get('www-authenticate') ?? '')?.[1];
  expect(link).toBe(`${server.baseUrl}/docs/${page}`);
  const doc = await fetch(link!);
  expect(doc.status).toBe(200);
});
