/**
 * SPEC §5.4 / DESIGN §3: while a site's "MCP connections" beta is off, its member clients are
 * suspended: authorization refused with a page, codes and refresh tokens refused at the token
 * endpoint, access tokens refused on every surface (/account/graphql, /mcp, UserInfo) and reported
 * inactive by introspection; the applications stay listed as suspended. On again: restored.
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { memberToken, registerLoopbackClient } from '../helpers/member-token.js';
import {
  MEMBER_CLIENT,
  REDIRECT_URI,
  authorizeMember,
  postForm,
  redeemCode,
  refresh,
  viewerStatus,
} from '../helpers/flows.js';
import { pkcePair, randomString } from '../helpers/pkce.js';

let server: TestServer;
let base: string;
let operator: string;

beforeAll(async () => {
  server = await startTestServer();
  base = server.baseUrl;
  const client_id = await registerLoopbackClient(base, 'operator cli', { application_type: 'native' });
  operator = await memberToken({
    baseUrl: base,
    email: 'owner@demo.test',
    clientId: client_id,
    scope: 'openid school:read school:write',
    site: 'demo',
  });
});
afterAll(() => server.close());

const setBeta = async (enabled: boolean) => {
  const res = await fetch(`${base}/api/v1/site`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${operator}`, 'content-type': 'application/json' },
    body: JSON.stringify({ mcpConnectionsEnabled: enabled }),
  });
  expect(res.status).toBe(200);
};

const mcpStatus = async (token: string) => {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
  await res.arrayBuffer();
  return { status: res.status, challenge: res.headers.get('www-authenticate') };
};
const userinfoStatus = async (token: string) =>
  (await fetch(`${base}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } })).status;
const introspect = async (token: string) =>
  (await postForm(base, '/api/oauth/introspect', { token, client_id: MEMBER_CLIENT })).body;

function authorizeUrl(): string {
  const url = new URL('/oauth/authorize', base);
  url.search = new URLSearchParams({
    client_id: MEMBER_CLIENT,
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    scope: 'openid account:read',
    resource: base,
    state: randomString(8),
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
  }).toString();
  return url.href;
}

describe('SPEC §5.4 the "MCP connections" switch suspends and restores member clients', () => {
  test('off: refused everywhere, still listed as suspended; on: the same tokens work again', async () => {
    const issued = await redeemCode(base, base, await authorizeMember(base, base));
    expect(issued.status).toBe(200);
    const access = String(issued.body.access_token);
    const refreshToken = String(issued.body.refresh_token);
    const pendingCode = await authorizeMember(base, base); // obtained before the switch, redeemed after
    expect(await viewerStatus(base, access)).toBe(200);
    expect(await introspect(access)).toMatchObject({ active: true });

    await setBeta(false);
    expect(await viewerStatus(base, access)).toBe(401);
    const mcp = await mcpStatus(access);
    expect(mcp.status).toBe(401);
    expect(mcp.challenge).toContain('invalid_token');
    expect(await userinfoStatus(access)).toBe(401);
    expect(await introspect(access)).toEqual({ active: false });
    expect(await introspect(refreshToken)).toEqual({ active: false });

    const refused = await refresh(base, refreshToken);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
    expect(String(refused.body.error_description)).toContain('MCP connections');
    const lateCode = await redeemCode(base, base, pendingCode);
    expect(lateCode.status).toBe(400);
    expect(lateCode.body.error).toBe('invalid_grant');

    const page = await fetch(authorizeUrl(), { redirect: 'manual' });
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('suspended');
    expect(html).toContain('Demo Academy');

    const list = (await (
      await fetch(`${base}/api/v1/oauth-applications`, { headers: { authorization: `Bearer ${operator}` } })
    ).json()) as {
      applications: Array<{ clientId: string; suspended: boolean }>;
    };
    expect(list.applications).toContainEqual(expect.objectContaining({ clientId: MEMBER_CLIENT, suspended: true }));

    await setBeta(true);
    expect(await viewerStatus(base, access)).toBe(200);
    expect((await mcpStatus(access)).status).toBe(200);
    const restored = await refresh(base, refreshToken);
    expect(restored.status).toBe(200);
    expect((await fetch(authorizeUrl(), { redirect: 'manual' })).status).toBe(303);
  }, 60_000);
});
