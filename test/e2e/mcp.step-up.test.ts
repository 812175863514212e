/**
 * MCP clients that step up and come back (issue #12; DESIGN D2 "a default, not a cage", D4 "every
 * 401 and 403 carries scope"), with the MCP TypeScript SDK 1.32 client as the real client:
 *
 * - one dynamically registered loopback client (owner@demo.test) registers with the scope of its
 *   first challenge (`courses:read`), then steps up to `orders:read` and `analytics:read` with the
 *   same registration;
 * - after its grant is revoked, the next call is a 401 that names a scope, and signing in again
 *   (same registration) makes the call succeed.
 *
 * The SDK 1.32 transport answers a 403 by refreshing when it holds a refresh token (same scopes,
 * so it gives up); the provider here steps up by re-authorizing instead, as mcp-remote 0.15 and
 * the MCP spec do (`stepUpByReauthorization`, docs/mcp.md "Known limitations").
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { HeadlessOAuthProvider } from '../helpers/mcp-oauth-provider.js';

let server: TestServer;
let mcpUrl: URL;
let provider: HeadlessOAuthProvider;
let session: Client;
let sessionTransport: StreamableHTTPClientTransport;

beforeAll(async () => {
  server = await startTestServer();
  mcpUrl = new URL(`${server.baseUrl}/mcp`);
  provider = new HeadlessOAuthProvider({
    user: { email: 'owner@demo.test', password: DEMO_PASSWORD, site: 'demo' },
    issuer: server.baseUrl,
    clientName: 'step-up agent',
    stepUpByReauthorization: true,
  });
  // One session for the whole file, as an MCP host keeps one: it starts anonymous.
  session = new Client({ name: 'step-up-test', version: '1.0.0' });
  sessionTransport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider, fetch: provider.fetch });
  await session.connect(sessionTransport);
});
afterAll(async () => {
  await session?.close();
  await server?.close();
});

/** Calls a tool the way an MCP host does: when the SDK stops for OAuth, finish it and call again. */
async function call(name: string, args: Record<string, unknown> = {}) {
  try {
    return await session.callTool({ name, arguments: args });
  } catch (err) {
    if (!(err instanceof UnauthorizedError)) throw err;
    await sessionTransport.finishAuth(provider.code);
    return await session.callTool({ name, arguments: args });
  }
}

const scopesOf = (url: URL | undefined) => url?.searchParams.get('scope')?.split(' ').sort();
const param = (header: string | undefined, name: string) => new RegExp(`${name}="([^"]*)"`).exec(header ?? '')?.[1];

describe('DESIGN D2: the registered scope is a default, not a cage (MCP SDK client, DCR, owner@demo.test)', () => {
  test('courses:read tool: the first 401 names courses:read; the SDK registers with it and signs in', async () => {
    const result = await call('list_courses');
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { courses: Array<{ slug: string }> }).courses.map((c) => c.slug)).toContain(
      'sql-basics',
    );
    expect(param(provider.challenges[0], 'scope')).toBe('courses:read');
    expect(scopesOf(provider.authorizationUrls[0])).toEqual(['courses:read']);
    // The registered default, as the client asked (the ceiling, `x_scope_ceiling`, is dropped by
    // the SDK's schema; test/integration/registration-policy.test.ts reads it raw).
    expect((provider.clientInformation() as { scope?: string }).scope).toBe('courses:read');
  });

  test('orders:read tool: 403 insufficient_scope → step-up with the same registration → the call succeeds', async () => {
    const clientId = provider.clientInformation()!.client_id;
    const result = await call('list_orders', { status: 'paid' });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { orders: unknown[] }).orders).toHaveLength(2);
    const challenge = provider.challenges.at(-1);
    expect(challenge).toContain('error="insufficient_scope"');
    expect(param(challenge, 'scope')?.split(' ').sort()).toEqual(['courses:read', 'orders:read']);
    const stepUp = provider.authorizationUrls[1]!;
    expect(stepUp.searchParams.get('client_id')).toBe(clientId);
    expect(scopesOf(stepUp)).toEqual(['courses:read', 'orders:read']);
    expect(provider.registrations).toBe(1);
  });

  test('analytics:read tool: a second step-up, still the same registration; the token response names every scope', async () => {
    const clientId = provider.clientInformation()!.client_id;
    const result = await call('site_analytics');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ courses: { total: 3 } });
    expect(provider.authorizationUrls).toHaveLength(3);
    expect(provider.authorizationUrls[2]!.searchParams.get('client_id')).toBe(clientId);
    expect(provider.tokens()!.scope!.split(' ').sort()).toEqual(['analytics:read', 'courses:read', 'orders:read']);
    expect(provider.registrations).toBe(1);
    // The earlier tools still work with the stepped-up token.
    expect((await call('list_courses')).isError).toBeFalsy();
  });
});

describe('DESIGN D4: after its tokens are revoked, the client is told what to ask for and comes back', () => {
  test('revocation (RFC 7009) of the refresh token ends the grant: the next call is 401 invalid_token with a scope', async () => {
    const { access_token: at, refresh_token: rt } = provider.tokens()!;
    const revoked = await fetch(`${server.baseUrl}/api/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: rt!, client_id: provider.clientInformation()!.client_id }),
    });
    expect(revoked.status).toBe(200);
    const rpc = (body: unknown) =>
      fetch(mcpUrl, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${at}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(body),
      });
    // tools/call: the called tool's scope.
    const toolCall = await rpc({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'site_analytics', arguments: {} },
    });
    expect(toolCall.status).toBe(401);
    const header = toolCall.headers.get('www-authenticate')!;
    expect(header).toContain('error="invalid_token"');
    expect(param(header, 'scope')).toBe('analytics:read');
    expect(param(header, 'resource_metadata')).toBe(`${server.baseUrl}/.well-known/oauth-protected-resource`);
    expect(param(header, 'error_uri')).toMatch(new RegExp(`^${server.baseUrl}/docs/mcp\\.md#`));
    // Any other method: the default scope of the revoked token's client, read from its tombstone
    // (issue #26; its registered default, courses:read), never none and not just openid.
    const list = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(list.status).toBe(401);
    expect(param(list.headers.get('www-authenticate')!, 'scope')).toBe('courses:read');
  });

  test('the SDK client signs in again with the same registration (refresh → invalid_grant → authorization) and the call succeeds', async () => {
    const clientId = provider.clientInformation()!.client_id;
    const before = provider.authorizationUrls.length;
    const result = await call('site_analytics');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ courses: { total: 3 } });
    const reauth = provider.authorizationUrls[before]!;
    expect(reauth.searchParams.get('client_id')).toBe(clientId);
    expect(scopesOf(reauth)).toEqual(['analytics:read']);
    expect(provider.registrations).toBe(1);
  });
});
