/**
 * RFC 9728 protected-resource discovery with oauth4webapi (panva) as the strict client (issue #12,
 * DESIGN D4 "metadata found at a path-suffixed URL names that path's resource").
 *
 * coursegate has one protected resource, BASE_URL, for `/mcp` and `/account/graphql` alike, and
 * serves its metadata at the root well-known URL only. Discovery for `<base>` succeeds; discovery
 * for `<base>/mcp` finds no document (404), never one naming another resource (which §3.3 forbids
 * and oauth4webapi rejects), and ends on the documented fallback: the `resource_metadata` URL of
 * the 401 challenge (RFC 9728 §5.1), i.e. the root document, whose resource is a prefix of `/mcp`.
 * Also: the developer docs that error descriptions link to are published under DOCS_URL.
 */
import * as oauth from 'oauth4webapi';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
const insecure = { [oauth.allowInsecureRequests]: true };

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('RFC 9728 resource discovery (oauth4webapi 3)', () => {
  test('discovery for BASE_URL succeeds and names BASE_URL, with this server as its authorization server', async () => {
    const resource = new URL(server.baseUrl);
    const md = await oauth.processResourceDiscoveryResponse(
      resource,
      await oauth.resourceDiscoveryRequest(resource, insecure),
    );
    expect(md.resource).toBe(server.baseUrl);
    expect(md.authorization_servers).toEqual([server.baseUrl]);
  });

  test('discovery for <base>/mcp finds no path-suffixed document (never one naming another resource)', async () => {
    const resource = new URL(`${server.baseUrl}/mcp`);
    const response = await oauth.resourceDiscoveryRequest(resource, insecure);
    expect(new URL(response.url).pathname).toBe('/.well-known/oauth-protected-resource/mcp');
    expect(response.status).toBe(404);
    await expect(oauth.processResourceDiscoveryResponse(resource, response)).rejects.toMatchObject({
      code: oauth.RESPONSE_IS_NOT_CONFORM,
    });
  });

  test('the documented fallback: the resource_metadata URL of the /mcp challenge leads to the root document, whose resource covers /mcp', async () => {
    const res = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer not-a-token',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    const pointer = /resource_metadata="([^"]+)"/.exec(res.headers.get('www-authenticate') ?? '')?.[1];
    expect(pointer).toBe(`${server.baseUrl}/.well-known/oauth-protected-resource`);
    // The document at that URL is the one for BASE_URL: oauth4webapi validates it as such.
    const resource = new URL(server.baseUrl);
    const viaPointer = await fetch(pointer!);
    const md = await oauth.processResourceDiscoveryResponse(resource, viaPointer);
    expect(md.resource).toBe(server.baseUrl);
    // MCP authorization: the resource must be the server URL or a prefix of it, on the same origin.
    expect(`${server.baseUrl}/mcp`.startsWith(md.resource)).toBe(true);
  });
});

describe('DOCS_URL: the developer docs error descriptions link to', () => {
  test('default <BASE_URL>/docs; the pages are served as HTML to browsers, as Markdown to tools', async () => {
    expect(server.config.docsUrl).toBe(`${server.baseUrl}/docs`);
    for (const page of ['mcp.md', 'client-registration.md', 'client-developer-guide.md', 'account-api.md']) {
      const res = await fetch(`${server.config.docsUrl}/${page}`, { headers: { accept: 'text/html' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await res.text()).toMatch(/<article class="docs"><h1 id="/);
      const source = await fetch(`${server.config.docsUrl}/${page}`, { headers: { accept: 'text/markdown' } });
      expect(source.headers.get('content-type')).toMatch(/^text\/markdown/);
      expect((await source.text()).startsWith('# ')).toBe(true);
    }
    expect((await fetch(`${server.config.docsUrl}/..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${server.config.docsUrl}/SPEC.md`)).status).toBe(404);
  });
});
