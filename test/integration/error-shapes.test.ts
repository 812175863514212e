/**
 * Issue #9 / DESIGN D8 / SPEC §7, §5.7: one row per surface and status. Each row asserts the body
 * shape, the content type, and that every 401/403 carries a `WWW-Authenticate` challenge.
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizeMember, redeemCode } from '../helpers/flows.js';

type Shape = 'oauth' | 'graphql' | 'jsonrpc' | 'problem-or-oauth' | 'html';

interface Row {
  surface: string;
  status: number;
  shape: Shape;
  request: (origin: string, tokens: { openidOnly: string; member: string }) => Promise<Response>;
}

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  body: JSON.stringify(body),
});
const form = (body: Record<string, string>, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(body).toString(),
});
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const ROWS: Row[] = [
  { surface: 'oauth (token endpoint)', status: 400, shape: 'oauth', request: (o) => fetch(`${o}/api/oauth/token`, form({ grant_type: 'authorization_code', client_id: 'demo-member-cli' })) },
  { surface: 'oauth (UserInfo)', status: 401, shape: 'oauth', request: (o) => fetch(`${o}/api/oauth/userinfo`) },
  { surface: 'oauth (UserInfo)', status: 401, shape: 'oauth', request: (o) => fetch(`${o}/api/oauth/userinfo`, { headers: bearer('not-a-token') }) },
  { surface: 'oauth (body limit)', status: 413, shape: 'oauth', request: (o) => fetch(`${o}/api/oauth/token`, form({ pad: 'x'.repeat(70 * 1024) })) },
  { surface: 'oauth (no route)', status: 404, shape: 'oauth', request: (o) => fetch(`${o}/no/such/route`) },
  // The shared bearer step refuses with RFC 6750 errors (SPEC §7: invalid_token / insufficient_scope
  // in the RFC 6749 §5.2 body) on every resource surface; the surface's own shape is for its own errors.
  { surface: 'graphql (/account/graphql, bearer step)', status: 401, shape: 'oauth', request: (o) => fetch(`${o}/account/graphql`, json({ query: '{ viewer { id } }' })) },
  { surface: 'graphql (/account/graphql, bearer step)', status: 403, shape: 'oauth', request: (o, t) => fetch(`${o}/account/graphql`, json({ query: '{ viewer { id } }' }, bearer(t.openidOnly))) },
  // GraphQL-over-HTTP with `Accept: application/json`: a syntax error is a 200 with `errors`.
  { surface: 'graphql (/account/graphql, syntax error)', status: 200, shape: 'graphql', request: (o, t) => fetch(`${o}/account/graphql`, json({ query: '{ viewer { ' }, bearer(t.member))) },
  { surface: 'graphql (/account/graphql, GET with malformed variables)', status: 400, shape: 'graphql', request: (o, t) => fetch(`${o}/account/graphql?query=%7B__typename%7D&variables=not-json`, { headers: bearer(t.member) }) },
  { surface: 'jsonrpc (/mcp)', status: 400, shape: 'jsonrpc', request: (o) => fetch(`${o}/mcp`, { ...json({}), body: '{not json' }) },
  { surface: 'jsonrpc (/mcp, bearer step)', status: 401, shape: 'oauth', request: (o) => fetch(`${o}/mcp`, json({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, bearer('not-a-token'))) },
  { surface: 'problem (/api/v1)', status: 401, shape: 'problem-or-oauth', request: (o) => fetch(`${o}/api/v1/site`) },
  { surface: 'problem (/api/v1)', status: 403, shape: 'problem-or-oauth', request: (o, t) => fetch(`${o}/api/v1/site`, { headers: bearer(t.openidOnly) }) },
  { surface: 'html (interaction page)', status: 400, shape: 'html', request: (o) => fetch(`${o}/interaction/no-such-interaction`) },
];

function assertShape(shape: Shape, type: string, text: string): void {
  if (shape === 'html') {
    expect(type).toMatch(/^text\/html/);
    expect(text).toMatch(/<html/i);
    expect(text).not.toMatch(/\bat .+\.(ts|js):\d+/); // no stack trace
    return;
  }
  expect(type).toMatch(/json/);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(JSON.stringify(body)).not.toMatch(/\bat .+\.(ts|js):\d+/);
  switch (shape) {
    case 'oauth':
      expect(typeof body.error).toBe('string');
      expect(typeof body.error_description).toBe('string');
      break;
    case 'graphql':
      expect(Array.isArray(body.errors)).toBe(true);
      expect(typeof (body.errors as Array<{ message?: unknown }>)[0]?.message).toBe('string');
      break;
    case 'jsonrpc':
      expect(body.jsonrpc).toBe('2.0');
      expect(typeof (body.error as { code?: unknown }).code).toBe('number');
      expect(typeof (body.error as { message?: unknown }).message).toBe('string');
      break;
    case 'problem-or-oauth':
      // RFC 9457 problem+json (DESIGN D9) or, before the admin API adopts it, the RFC 6749 shape.
      expect(typeof (body.title ?? body.error)).toBe('string');
      break;
  }
}

describe('DESIGN D8 / SPEC 7: error shapes, one row per surface and status', () => {
  let server: TestServer;
  const tokens = { openidOnly: '', member: '' };
  beforeAll(async () => {
    server = await startTestServer();
    const issued = await authorizeMember(server.baseUrl, server.baseUrl, 'openid');
    tokens.openidOnly = (await redeemCode(server.baseUrl, server.baseUrl, issued)).body.access_token as string;
    const member = await authorizeMember(server.baseUrl, server.baseUrl, 'openid account:read');
    tokens.member = (await redeemCode(server.baseUrl, server.baseUrl, member)).body.access_token as string;
    expect(tokens.openidOnly).toBeTruthy();
    expect(tokens.member).toBeTruthy();
  });
  afterAll(() => server.close());

  test.each(ROWS.map((r) => [r.surface, r.status, r] as const))('%s → %i', async (_surface, status, row) => {
    const res = await row.request(server.baseUrl, tokens);
    const text = await res.text();
    expect(res.status).toBe(status);
    assertShape(row.shape, res.headers.get('content-type') ?? '', text);
    if (status === 401 || status === 403) {
      // SPEC §5.7: every 401/403 of a protected resource names the scheme and the resource metadata.
      const challenge = res.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer\b/);
      expect(challenge).toMatch(/resource_metadata="https?:\/\/[^"]+"/);
    }
  });
});
