/**
 * DESIGN D4 scope hierarchy (MCP 2026-07-28 authorization: servers account for scope hierarchies):
 * a token carrying `X:write` satisfies every check for `X:read`, on each surface (`/api/v1`,
 * `/account/graphql`, `/mcp`) and in the scope map (`implies`), and every challenge names the
 * narrowest scopes that suffice. Real tokens through the authorization-code flow, real HTTP.
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { graphql, memberToken } from '../helpers/member-token.js';
import { callApi, operatorToken } from '../helpers/operator-surfaces.js';

let server: TestServer;
let base: string;

beforeAll(async () => {
  server = await startTestServer();
  base = server.baseUrl;
});
afterAll(() => server.close());

/** One stateless `tools/call` on `/mcp` (MCP 2025-11-25 Streamable HTTP, JSON answer). */
async function callTool(token: string, name: string, args: Record<string, unknown> = {}) {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } }),
  });
  const text = await res.text();
  return {
    status: res.status,
    challenge: res.headers.get('www-authenticate') ?? '',
    body: text ? JSON.parse(text) : {},
  };
}

describe('DESIGN D4: X:write satisfies X:read', () => {
  test('/api/v1: a courses:write token lists courses (GET needs courses:read); a 403 names courses:write alone', async () => {
    const writer = await operatorToken(base, 'owner@demo.test', 'demo', 'hierarchy rest', 'openid courses:write');
    const listed = await callApi(base, writer.token, '/api/v1/courses');
    expect(listed.status).toBe(200);
    expect(Array.isArray(listed.body.courses)).toBe(true);
    const reader = await operatorToken(base, 'owner@demo.test', 'demo', 'hierarchy rest 403', 'openid courses:read');
    const refused = await callApi(base, reader.token, '/api/v1/courses', 'POST', {
      title: 'Hierarchy',
      slug: 'hierarchy',
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('scope="courses:write"');
  });

  test('/account/graphql: an account:write token (without account:read) reads the viewer', async () => {
    const token = await memberToken({ baseUrl: base, email: 'student@demo.test', scope: 'openid account:write' });
    const res = await graphql(base, token, '{ viewer { email } }');
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.viewer.email).toBe('student@demo.test');
  });

  test('/mcp: an account:write token calls a member read tool (my_enrollments needs account:read)', async () => {
    const token = await memberToken({ baseUrl: base, email: 'student@demo.test', scope: 'openid account:write' });
    const res = await callTool(token, 'my_enrollments');
    expect(res.status).toBe(200);
    expect(res.body.result.isError).toBeFalsy();
    expect(res.body.result.structuredContent).toBeDefined();
  });

  test('/mcp: a courses:write token calls list_courses (courses:read)', async () => {
    const { token } = await operatorToken(base, 'owner@demo.test', 'demo', 'hierarchy mcp', 'openid courses:write');
    const res = await callTool(token, 'list_courses');
    expect(res.status).toBe(200);
    expect(res.body.result.isError).toBeFalsy();
  });

  test('scope map: each write scope says which read scope it implies', async () => {
    const map = (await (await fetch(`${base}/.well-known/coursegate-scope-map.json`)).json()) as {
      scopes: Record<string, { implies: string[] }>;
    };
    expect(map.scopes['courses:write']?.implies).toEqual(['courses:read']);
    expect(map.scopes['account:write']?.implies).toEqual(['account:read']);
    expect(map.scopes['courses:read']?.implies).toEqual([]);
    expect(map.scopes['storage:write']?.implies).toEqual([]);
    expect(map.scopes.openid?.implies).toEqual([]);
  });
});
