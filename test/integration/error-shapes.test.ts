/**
 * Issue #9 / DESIGN D8 / SPEC §7, §5.7: one row per surface and status. Each row asserts the body
 * shape, the content type, and that every 401/403 carries a `WWW-Authenticate` challenge.
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizeMember, redeemCode } from '../helpers/flows.js';
import { memberToken } from '../helpers/member-token.js';

/** `graphql-transport`: an error met before GraphQL execution (RFC 6749 members and `errors[]`). */
type Shape = 'oauth' | 'graphql' | 'graphql-transport' | 'jsonrpc' | 'problem' | 'html';

interface Tokens {
  openidOnly: string;
  member: string;
  /** owner@demo.test at site demo with `courses:read school:read`. */
  operator: string;
}

interface Row {
  surface: string;
  status: number;
  shape: Shape;
  /** The error code the body names (`error`, or the error page's code), when the row pins it. */
  code?: string;
  /** Response headers the row expects (name → pattern). */
  headers?: Record<string, RegExp>;
  /**
   * A 403 that is no authorization failure (RFC 9110 §15.5.4 asks no challenge of a 403): it must
   * carry no Bearer challenge, or an MCP client would start a useless step-up.
   */
  notAuthorization?: true;
  request: (origin: string, tokens: Tokens) => Promise<Response>;
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
const NO_STORE = { 'cache-control': /^no-store$/ };

const ROWS: Row[] = [
  {
    surface: 'oauth (token endpoint)',
    status: 400,
    shape: 'oauth',
    request: (o) =>
      fetch(`${o}/api/oauth/token`, form({ grant_type: 'authorization_code', client_id: 'demo-member-cli' })),
  },
  { surface: 'oauth (UserInfo)', status: 401, shape: 'oauth', request: (o) => fetch(`${o}/api/oauth/userinfo`) },
  {
    surface: 'oauth (UserInfo)',
    status: 401,
    shape: 'oauth',
    request: (o) => fetch(`${o}/api/oauth/userinfo`, { headers: bearer('not-a-token') }),
  },
  {
    surface: 'oauth (body limit)',
    status: 413,
    shape: 'oauth',
    request: (o) => fetch(`${o}/api/oauth/token`, form({ pad: 'x'.repeat(70 * 1024) })),
  },
  { surface: 'oauth (no route)', status: 404, shape: 'oauth', request: (o) => fetch(`${o}/no/such/route`) },
  // The shared bearer step refuses with RFC 6750 errors (SPEC §7: invalid_token / insufficient_scope
  // in the RFC 6749 §5.2 body) on every resource surface; the surface's own shape is for its own errors.
  {
    surface: 'graphql (/account/graphql, bearer step)',
    status: 401,
    shape: 'oauth',
    request: (o) => fetch(`${o}/account/graphql`, json({ query: '{ viewer { id } }' })),
  },
  {
    surface: 'graphql (/account/graphql, bearer step)',
    status: 403,
    shape: 'oauth',
    request: (o, t) => fetch(`${o}/account/graphql`, json({ query: '{ viewer { id } }' }, bearer(t.openidOnly))),
  },
  // GraphQL-over-HTTP with `Accept: application/json`: a syntax error is a 200 with `errors`.
  {
    surface: 'graphql (/account/graphql, syntax error)',
    status: 200,
    shape: 'graphql',
    request: (o, t) => fetch(`${o}/account/graphql`, json({ query: '{ viewer { ' }, bearer(t.member))),
  },
  {
    surface: 'graphql (/account/graphql, GET with malformed variables)',
    status: 400,
    shape: 'graphql',
    request: (o, t) =>
      fetch(`${o}/account/graphql?query=%7B__typename%7D&variables=not-json`, { headers: bearer(t.member) }),
  },
  {
    surface: 'jsonrpc (/mcp)',
    status: 400,
    shape: 'jsonrpc',
    request: (o) => fetch(`${o}/mcp`, { ...json({}), body: '{not json' }),
  },
  {
    surface: 'jsonrpc (/mcp, bearer step)',
    status: 401,
    shape: 'oauth',
    request: (o) => fetch(`${o}/mcp`, json({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, bearer('not-a-token'))),
  },
  {
    surface: 'jsonrpc (/mcp, GET)',
    status: 405,
    shape: 'jsonrpc',
    headers: { allow: /^POST$/ },
    request: (o) => fetch(`${o}/mcp`, { headers: { accept: 'application/json, text/event-stream' } }),
  },
  {
    surface: 'jsonrpc (/mcp, foreign Origin: DNS rebinding)',
    status: 403,
    shape: 'jsonrpc',
    notAuthorization: true,
    request: (o) =>
      fetch(`${o}/mcp`, json({ jsonrpc: '2.0', id: 1, method: 'ping' }, { origin: 'http://evil.example.com' })),
  },
  {
    surface: 'jsonrpc (/mcp, not JSON)',
    status: 415,
    shape: 'jsonrpc',
    request: (o) => fetch(`${o}/mcp`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }),
  },
  {
    surface: 'problem (/api/v1)',
    status: 401,
    shape: 'problem',
    code: 'invalid_token',
    request: (o) => fetch(`${o}/api/v1/site`),
  },
  {
    surface: 'problem (/api/v1)',
    status: 403,
    shape: 'problem',
    code: 'insufficient_scope',
    request: (o, t) => fetch(`${o}/api/v1/site`, { headers: bearer(t.openidOnly) }),
  },
  // One code for every 400 of the admin API, schema (limit 1–200) or domain rule (a cursor of no list).
  {
    surface: 'problem (/api/v1, schema)',
    status: 400,
    shape: 'problem',
    code: 'invalid_request',
    request: (o, t) => fetch(`${o}/api/v1/courses?limit=0`, { headers: bearer(t.operator) }),
  },
  {
    surface: 'problem (/api/v1, domain rule)',
    status: 400,
    shape: 'problem',
    code: 'invalid_request',
    request: (o, t) => fetch(`${o}/api/v1/courses?cursor=not-a-cursor`, { headers: bearer(t.operator) }),
  },
  {
    surface: 'problem (/api/v1, no operation)',
    status: 404,
    shape: 'problem',
    code: 'not_found',
    request: (o, t) => fetch(`${o}/api/v1/no-such-thing`, { headers: bearer(t.operator) }),
  },
  {
    surface: 'problem (/api/v1, method)',
    status: 405,
    shape: 'problem',
    code: 'method_not_allowed',
    headers: { allow: /GET/ },
    request: (o, t) => fetch(`${o}/api/v1/courses`, { method: 'DELETE', headers: bearer(t.operator) }),
  },
  {
    surface: 'problem (/api/v1, body limit)',
    status: 413,
    shape: 'problem',
    code: 'invalid_request',
    request: (o, t) => fetch(`${o}/api/v1/courses`, json({ pad: 'x'.repeat(70 * 1024) }, bearer(t.operator))),
  },
  {
    surface: 'graphql (/account/graphql, body limit)',
    status: 413,
    shape: 'graphql-transport',
    code: 'invalid_request',
    request: (o, t) =>
      fetch(`${o}/account/graphql`, json({ query: '{ viewer { id } }', pad: 'x'.repeat(70 * 1024) }, bearer(t.member))),
  },
  {
    surface: 'html (interaction page)',
    status: 400,
    shape: 'html',
    request: (o) => fetch(`${o}/interaction/no-such-interaction`),
  },
  {
    surface: 'html (invitation page)',
    status: 404,
    shape: 'html',
    code: 'invalid_request',
    request: (o) => fetch(`${o}/invitations/not-a-token`),
  },
  // Error pages are thrown catalogue errors rendered by the html surface mapper: no-store, the code shown.
  {
    surface: 'html (interaction form, no interaction)',
    status: 400,
    shape: 'html',
    code: 'invalid_request',
    headers: NO_STORE,
    request: (o) => fetch(`${o}/interaction/no-such-interaction/login`, form({ email: 'a@b.test', password: 'x' })),
  },
  {
    surface: 'html (invitation page, unknown link)',
    status: 404,
    shape: 'html',
    code: 'not_found',
    headers: NO_STORE,
    request: (o) => fetch(`${o}/invitations/${'A'.repeat(43)}`),
  },
  {
    surface: 'html (set-password page, no link)',
    status: 400,
    shape: 'html',
    code: 'invalid_request',
    headers: NO_STORE,
    request: (o) => fetch(`${o}/set-password`),
  },
  {
    surface: 'html (set-password form, CSRF)',
    status: 403,
    shape: 'html',
    code: 'invalid_request',
    headers: NO_STORE,
    request: (o) => fetch(`${o}/set-password`, form({ token: 'x', csrf: 'forged', password: 'p', confirm: 'p' })),
  },
  {
    surface: 'html (operator area, body limit)',
    status: 413,
    shape: 'html',
    code: 'invalid_request',
    request: (o) => fetch(`${o}/admin/demo/courses`, form({ pad: 'x'.repeat(70 * 1024) })),
  },
  // A browser navigation to a public OAuth route gets the page, not JSON.
  {
    surface: 'oauth (browser GET of a public route)',
    status: 404,
    shape: 'html',
    code: 'not_found',
    request: (o) => fetch(`${o}/files/no-such-file`, { headers: { accept: 'text/html,application/xhtml+xml' } }),
  },
];

function assertShape(shape: Shape, type: string, text: string, code?: string): void {
  if (shape === 'html') {
    expect(type).toMatch(/^text\/html/);
    expect(text).toMatch(/<html/i);
    expect(text).not.toMatch(/\bat .+\.(ts|js):\d+/); // no stack trace
    if (code) expect(text).toContain(`<code>${code}</code>`);
    return;
  }
  expect(type).toMatch(shape === 'problem' ? /^application\/problem\+json/ : /^application\/json/);
  const body = JSON.parse(text) as Record<string, unknown>;
  if (code) expect(body.error).toBe(code);
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
    case 'graphql-transport':
      expect(typeof body.error).toBe('string');
      expect(typeof body.error_description).toBe('string');
      expect(body.errors).toEqual([
        { message: body.error_description, extensions: { code: String(body.error).toUpperCase() } },
      ]);
      break;
    case 'problem':
      // RFC 9457 (DESIGN D9) with the RFC 6749 vocabulary.
      expect(body).toMatchObject({
        type: expect.stringMatching(/\/admin-api\.md#/),
        title: expect.any(String),
        status: expect.any(Number),
        detail: expect.any(String),
        error: expect.any(String),
      });
      expect(body.error_description).toBe(body.detail);
      break;
  }
}

describe('DESIGN D8 / SPEC 7: error shapes, one row per surface and status', () => {
  let server: TestServer;
  const tokens: Tokens = { openidOnly: '', member: '', operator: '' };
  beforeAll(async () => {
    server = await startTestServer();
    const issued = await authorizeMember(server.baseUrl, server.baseUrl, 'openid');
    tokens.openidOnly = (await redeemCode(server.baseUrl, server.baseUrl, issued)).body.access_token as string;
    const member = await authorizeMember(server.baseUrl, server.baseUrl, 'openid account:read');
    tokens.member = (await redeemCode(server.baseUrl, server.baseUrl, member)).body.access_token as string;
    const reg = await fetch(
      `${server.baseUrl}/api/oauth/register`,
      json({
        client_name: 'error shapes',
        redirect_uris: ['http://127.0.0.1/callback'],
        token_endpoint_auth_method: 'none',
      }),
    );
    const clientId = ((await reg.json()) as { client_id: string }).client_id;
    tokens.operator = await memberToken({
      baseUrl: server.baseUrl,
      email: 'owner@demo.test',
      clientId,
      scope: 'openid courses:read school:read',
      site: 'demo',
    });
    expect(tokens.openidOnly).toBeTruthy();
    expect(tokens.member).toBeTruthy();
  });
  afterAll(() => server.close());

  test.each(ROWS.map((r) => [r.surface, r.status, r] as const))('%s → %i', async (_surface, status, row) => {
    const res = await row.request(server.baseUrl, tokens);
    const text = await res.text();
    expect(res.status).toBe(status);
    assertShape(row.shape, res.headers.get('content-type') ?? '', text, row.code);
    for (const [name, pattern] of Object.entries(row.headers ?? {}))
      expect(res.headers.get(name) ?? '').toMatch(pattern);
    if (row.shape === 'problem') {
      // RFC 9457 §3.1.1: `type` dereferences to documentation; here the page this server publishes.
      const type = new URL((JSON.parse(text) as { type: string }).type);
      // A browser gets the page as HTML with the problem's heading anchored; tools get the Markdown.
      const page = await fetch(type.href.replace(type.hash, ''), { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`<h3 id="${type.hash.slice(1)}">`);
      const source = await fetch(type.href.replace(type.hash, ''), { headers: { accept: 'text/markdown' } });
      expect(await source.text()).toMatch(new RegExp(`^### ${type.hash.slice(1)}$`, 'm'));
    }
    if (row.shape === 'html' || row.notAuthorization) {
      // A page for people is no bearer-protected resource (its 403s: a forged form), and the /mcp Origin
      // check is no authorization: no Bearer challenge. (Their 401s are ruled by RFC 9110 §15.5.2; see
      // docs/ARCHITECTURE.md "Errors".)
      expect(res.headers.get('www-authenticate') ?? '').not.toMatch(/^Bearer\b/);
    } else if (status === 401 || status === 403) {
      // SPEC §5.7: every 401/403 of a protected resource names the scheme and the resource metadata.
      const challenge = res.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer\b/);
      expect(challenge).toMatch(/resource_metadata="https?:\/\/[^"]+"/);
    }
  });
});
