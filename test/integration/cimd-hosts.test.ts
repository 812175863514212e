/**
 * DESIGN D13: Client ID Metadata Documents are the default way in. With `config/default.yaml` and
 * `config/integrations.yaml` as shipped, and only the two test switches (`CIMD_TEST_CA_FILE`,
 * `CIMD_TEST_RESOLVE`), replicas of the MCP hosts' documents, served at their published URLs
 * (../shared/research/hosts-2026.md; built from the public reports, not fetched from the hosts),
 * sign in end to end: authorization, tokens, a tool call on `/mcp`. A document from a host nobody
 * reviewed signs in as unreviewed (read scopes). Refusals of a fetched document go back to its own
 * redirect URI with `iss` (RFC 9207); unknown scopes (`offline_access`) are dropped.
 */
import { generateKeyPair, exportJWK, SignJWT } from 'jose';
import { randomUUID } from 'node:crypto';
import { startTestServer, DEMO_PASSWORD, freePort, type TestServer } from '../helpers/server.js';
import { startDocumentServer, type DocumentServer } from '../helpers/https-documents.js';
import { completeAuthorization, type Visit } from '../helpers/user-agent.js';
import { pkcePair, randomString } from '../helpers/pkce.js';
import { postForm } from '../helpers/flows.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { HeadlessOAuthProvider } from '../helpers/mcp-oauth-provider.js';

const HOSTS = ['vscode.dev', 'claude.ai', 'chatgpt.com', 'tools.example'];

const VSCODE = 'https://vscode.dev/oauth/client-metadata.json';
const CLAUDE_CODE = 'https://claude.ai/oauth/claude-code-client-metadata';
const CLAUDE = 'https://claude.ai/oauth/mcp-oauth-client-metadata';
const CHATGPT = 'https://chatgpt.com/oauth/client.json';
const CODEX = 'https://chatgpt.com/oauth/codex/client.json';
/** A host nobody reviewed. */
const UNKNOWN = 'https://tools.example/mcp-client.json';
/** A document with a callback on another host: refused. */
const MIXED = 'https://tools.example/mixed-client.json';

let docs: DocumentServer;
let server: TestServer;
let base: string;
let chatgptKey: CryptoKey;

beforeAll(async () => {
  docs = await startDocumentServer(HOSTS);
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  chatgptKey = privateKey;
  const path = (url: string) => new URL(url).pathname;
  // VS Code: its web callbacks and its desktop loopback callback in one list; lists device_code.
  docs.route(path(VSCODE), {
    client_id: VSCODE,
    client_name: 'Visual Studio Code',
    redirect_uris: ['https://vscode.dev/redirect', 'https://insiders.vscode.dev/redirect', 'http://127.0.0.1:33418/'],
    grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  });
  // Claude Code and Codex: loopback callbacks without a port and without application_type.
  docs.route(path(CLAUDE_CODE), {
    client_id: CLAUDE_CODE,
    client_name: 'Claude Code',
    redirect_uris: ['http://localhost/callback', 'http://127.0.0.1/callback'],
    grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:jwt-bearer'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  });
  docs.route(path(CODEX), {
    client_id: CODEX,
    client_name: 'Codex',
    redirect_uris: ['http://localhost/callback', 'http://127.0.0.1/callback'],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  });
  docs.route(path(CLAUDE), {
    client_id: CLAUDE,
    client_name: 'Claude',
    redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  });
  // ChatGPT: private_key_jwt preferred, none also offered (OpenID RP Metadata Choices).
  docs.route(path(CHATGPT), {
    client_id: CHATGPT,
    client_name: 'ChatGPT',
    redirect_uris: ['https://chatgpt.com/connector_platform_oauth_redirect'],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_methods_supported: ['private_key_jwt', 'none'],
    jwks_uri: 'https://chatgpt.com/oauth/jwks.json',
  });
  docs.route('/oauth/jwks.json', { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] });
  docs.route(path(UNKNOWN), {
    client_id: UNKNOWN,
    client_name: 'Example Agent',
    redirect_uris: ['http://127.0.0.1/callback'],
    token_endpoint_auth_method: 'none',
  });
  docs.route(path(MIXED), {
    client_id: MIXED,
    client_name: 'Mixed Agent',
    redirect_uris: ['http://127.0.0.1/callback', 'https://elsewhere.example/cb'],
    token_endpoint_auth_method: 'none',
  });
  const port = new URL(docs.origin).port;
  server = await startTestServer({
    CIMD_TEST_CA_FILE: docs.caFile,
    CIMD_TEST_RESOLVE: HOSTS.map((h) => `${h}=127.0.0.1:${port}`).join(','),
  });
  base = server.baseUrl;
});
afterAll(async () => {
  await server?.close();
  await docs?.close();
});

/** The authorization request of a host (PKCE S256, resource, state). */
function authorizeUrl(clientId: string, redirectUri: string, scope: string) {
  const { verifier, challenge } = pkcePair();
  const state = randomString(8);
  const url = new URL(`${base}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope,
    resource: base,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  return { url, verifier, state };
}

/** Signs in as the demo owner through login, site picker and consent; returns the callback. */
async function signIn(
  clientId: string,
  redirectUri: string,
  scope: string,
): Promise<{ callback: URL; visits: Visit[]; verifier: string; state: string }> {
  const { url, verifier, state } = authorizeUrl(clientId, redirectUri, scope);
  const { callback, visits } = await completeAuthorization(url, {
    email: 'owner@demo.test',
    password: DEMO_PASSWORD,
    site: 'demo',
    isRedirectUri: (u) => u.href.startsWith(redirectUri),
  });
  return { callback, visits, verifier, state };
}

/** A private_key_jwt client assertion (RFC 7523 §3) for ChatGPT's replica. */
const clientAssertion = (clientId: string) =>
  new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience(base)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime('2m')
    .sign(chatgptKey);

/** Exchanges the code of a sign-in; `assertion` authenticates with private_key_jwt. */
async function tokens(clientId: string, redirectUri: string, code: string, verifier: string, assertion?: string) {
  return postForm(base, '/api/oauth/token', {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: redirectUri,
    client_id: clientId,
    resource: base,
    ...(assertion
      ? {
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: assertion,
        }
      : {}),
  });
}

/** One JSON-RPC `tools/call` on `/mcp` with a bearer token. */
async function callTool(token: string, name: string, args: Record<string, unknown>) {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const text = await res.text();
  return { status: res.status, challenge: res.headers.get('www-authenticate'), text };
}

const consentOf = (visits: Visit[]) => visits.find((v) => v.body.includes('name="decision"'))?.body ?? '';

describe('DESIGN D13: the well-known hosts sign in with their documents on a default install', () => {
  const loopback = async () => `http://127.0.0.1:${await freePort()}/callback`;
  const cases: Array<{ host: string; clientId: string; redirect: () => Promise<string> | string; key?: boolean }> = [
    { host: 'VS Code', clientId: VSCODE, redirect: () => 'https://vscode.dev/redirect' },
    { host: 'Claude Code (ephemeral loopback port)', clientId: CLAUDE_CODE, redirect: loopback },
    { host: 'Codex (ephemeral loopback port)', clientId: CODEX, redirect: loopback },
    { host: 'claude.ai', clientId: CLAUDE, redirect: () => 'https://claude.ai/api/mcp/auth_callback' },
    {
      host: 'ChatGPT (private_key_jwt)',
      clientId: CHATGPT,
      redirect: () => 'https://chatgpt.com/connector_platform_oauth_redirect',
      key: true,
    },
  ];
  test.each(cases)('$host: reviewed, write scope granted, tokens, a tool call', async (c) => {
    const redirectUri = await c.redirect();
    const { callback, visits, verifier, state } = await signIn(
      c.clientId,
      redirectUri,
      'openid profile curriculum:read courses:write',
    );
    expect(callback.searchParams.get('error')).toBeNull();
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('iss')).toBe(base);
    const consent = consentOf(visits);
    expect(consent).toContain('Application described by its website (reviewed)');
    expect(consent).toContain(`redirect-host">${new URL(redirectUri).hostname}<`);
    const token = await tokens(
      c.clientId,
      redirectUri,
      callback.searchParams.get('code')!,
      verifier,
      c.key ? await clientAssertion(c.clientId) : undefined,
    );
    expect(token.status).toBe(200);
    expect(String(token.body.scope).split(' ')).toEqual(expect.arrayContaining(['curriculum:read', 'courses:write']));
    const read = await callTool(String(token.body.access_token), 'get_curriculum', { slug: 'sql-basics' });
    expect(read.status).toBe(200);
    expect(read.text).toContain('sql-basics');
    expect(read.text).not.toContain('"isError":true');
  });

  test('Claude Code through the MCP SDK client: its document URL as client_id, no registration, a tool call', async () => {
    const provider = new HeadlessOAuthProvider({
      user: { email: 'owner@demo.test', password: DEMO_PASSWORD, site: 'demo' },
      issuer: base,
      clientMetadataUrl: CLAUDE_CODE,
      redirectUrl: `http://127.0.0.1:${await freePort()}/callback`,
    });
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      authProvider: provider,
      fetch: provider.fetch,
    });
    const client = new Client({ name: 'claude-code-replica', version: '1.0.0' });
    await client.connect(transport);
    try {
      const call = () => client.callTool({ name: 'get_curriculum', arguments: { slug: 'sql-basics' } });
      const result = await call().catch(async (err: unknown) => {
        if (!(err instanceof UnauthorizedError)) throw err;
        await transport.finishAuth(provider.code);
        return call();
      });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.structuredContent)).toContain('sql-basics');
      expect(provider.clientInformation()?.client_id).toBe(CLAUDE_CODE);
      expect(provider.authorizationUrls[0]?.searchParams.get('client_id')).toBe(CLAUDE_CODE);
    } finally {
      await client.close();
    }
  });

  test('ChatGPT without a client assertion is refused: its document chose private_key_jwt', async () => {
    const redirectUri = 'https://chatgpt.com/connector_platform_oauth_redirect';
    const { callback, verifier } = await signIn(CHATGPT, redirectUri, 'openid curriculum:read');
    const token = await tokens(CHATGPT, redirectUri, callback.searchParams.get('code')!, verifier);
    expect(token.status).toBe(401);
    expect(token.body.error).toBe('invalid_client');
  });

  test('claude.ai adds offline_access: dropped, not refused, and never echoed', async () => {
    const redirectUri = 'https://claude.ai/api/mcp/auth_callback';
    const { callback, verifier } = await signIn(CLAUDE, redirectUri, 'openid offline_access curriculum:read');
    expect(callback.searchParams.get('error')).toBeNull();
    const token = await tokens(CLAUDE, redirectUri, callback.searchParams.get('code')!, verifier);
    expect(token.status).toBe(200);
    expect(token.body.scope).not.toMatch(/offline_access/);
    expect(token.body.refresh_token).toEqual(expect.any(String));
    const prm = (await (await fetch(`${base}/.well-known/oauth-protected-resource`)).json()) as {
      scopes_supported: string[];
    };
    expect(prm.scopes_supported).not.toContain('offline_access');
    const anonymous = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_curriculum', arguments: { slug: 'sql-basics' } },
      }),
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).not.toMatch(/offline_access/);
  });
});

describe('DESIGN D13: a document nobody reviewed signs in as unreviewed', () => {
  test('read tool works, write tool 403 naming its scope; consent names the redirect host and warns', async () => {
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    const { callback, visits, verifier } = await signIn(UNKNOWN, redirectUri, 'openid curriculum:read');
    expect(callback.searchParams.get('iss')).toBe(base);
    const consent = consentOf(visits);
    expect(consent).toContain('Application described by its website (not reviewed)');
    expect(consent).toContain('described at tools.example');
    expect(consent).toContain('redirect-host">127.0.0.1<');
    expect(consent).toContain('class="warning"');
    expect(consent).toContain('this computer');
    const token = await tokens(UNKNOWN, redirectUri, callback.searchParams.get('code')!, verifier);
    expect(token.status).toBe(200);
    const access = String(token.body.access_token);
    const read = await callTool(access, 'get_curriculum', { slug: 'sql-basics' });
    expect(read.status).toBe(200);
    expect(read.text).toContain('sql-basics');
    const write = await callTool(access, 'update_course', { slug: 'sql-basics', title: 'Renamed' });
    expect(write.status).toBe(403);
    expect(write.challenge).toMatch(/error="insufficient_scope"/);
    expect(write.challenge).toMatch(/scope="[^"]*courses:write/);
  });

  test('a reviewed host with a https callback shows no local-only warning', async () => {
    const { visits } = await signIn(CLAUDE, 'https://claude.ai/api/mcp/auth_callback', 'openid curriculum:read');
    const consent = consentOf(visits);
    expect(consent).toContain('redirect-host">claude.ai<');
    expect(consent).not.toContain('class="warning"');
  });
});

describe('DESIGN D13: refusals the client can act on', () => {
  test('an unreviewed document asking for a write scope → invalid_scope at its redirect URI with iss', async () => {
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    const { url, state } = authorizeUrl(UNKNOWN, redirectUri, 'openid courses:write');
    const res = await fetch(url, { redirect: 'manual' });
    const location = new URL(res.headers.get('location')!);
    expect(location.href.startsWith(redirectUri)).toBe(true);
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    expect(location.searchParams.get('error_description')).toMatch(/read scopes/);
    expect(location.searchParams.get('state')).toBe(state);
    expect(location.searchParams.get('iss')).toBe(base);
  });

  test("a document with a foreign callback → invalid_client at the document's own loopback redirect URI with iss", async () => {
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    const { url, state } = authorizeUrl(MIXED, redirectUri, 'openid curriculum:read');
    const res = await fetch(url, { redirect: 'manual' });
    expect([302, 303]).toContain(res.status);
    const location = new URL(res.headers.get('location')!);
    expect(location.href.startsWith(redirectUri)).toBe(true);
    expect(location.searchParams.get('error')).toBe('invalid_client');
    expect(location.searchParams.get('error_description')).toContain('https://elsewhere.example/cb');
    expect(location.searchParams.get('state')).toBe(state);
    expect(location.searchParams.get('iss')).toBe(base);
  });

  test('the same document asked to send the answer to its foreign callback → an error page, no redirect', async () => {
    const { url } = authorizeUrl(MIXED, 'https://elsewhere.example/cb', 'openid curriculum:read');
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('invalid_client');
  });

  test('a redirect URI the document does not list → an error page, no redirect', async () => {
    const { url } = authorizeUrl(UNKNOWN, 'http://127.0.0.1:5555/elsewhere', 'openid curriculum:read');
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });
});
