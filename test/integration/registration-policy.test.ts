/**
 * SPEC §5.4 registration paths and SPEC §2.5 rules 1–3, as DESIGN D1 (registration table) and D2
 * (scope ceilings), one case per row, over real HTTP against the real server.
 * Vendor platforms: the example entries of config/integrations.yaml (Claude, ChatGPT).
 */
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { completeAuthorization } from '../helpers/user-agent.js';
import { pkcePair, randomString } from '../helpers/pkce.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const CLAUDE_CB = 'https://claude.ai/api/mcp/auth_callback';
const CHATGPT_CB = 'https://chatgpt.com/connector_platform_oauth_redirect';

async function register(body: unknown, contentType = 'application/json', path = '/api/oauth/register') {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, body: json, text };
}

function storedRow(clientId: string): { expires_at: number | null } | undefined {
  return server.store
    .sqlite!.prepare('SELECT expires_at FROM oidc_models WHERE model = ? AND id = ?')
    .get('Client', clientId) as { expires_at: number | null } | undefined;
}

interface Case {
  name: string;
  body: unknown;
  contentType?: string;
  status: number;
  error?: string;
  clientId?: string;
}

describe('DESIGN D1 registration table (SPEC §5.4), row by row', () => {
  const rejections: Case[] = [
    { name: 'row 1: body is not JSON', body: '{not json', status: 400, error: 'invalid_client_metadata' },
    {
      name: 'row 1: body is a JSON array',
      body: [{ redirect_uris: ['http://127.0.0.1/cb'] }],
      status: 400,
      error: 'invalid_client_metadata',
    },
    {
      name: 'row 1: body is not sent as application/json',
      body: 'redirect_uris=http://127.0.0.1/cb',
      contentType: 'application/x-www-form-urlencoded',
      status: 400,
      error: 'invalid_client_metadata',
    },
    { name: 'row 1: redirect_uris missing', body: { client_name: 'x' }, status: 400, error: 'invalid_redirect_uri' },
    { name: 'row 1: redirect_uris empty', body: { redirect_uris: [] }, status: 400, error: 'invalid_redirect_uri' },
    {
      name: 'row 1: redirect_uris not strings',
      body: { redirect_uris: [42] },
      status: 400,
      error: 'invalid_redirect_uri',
    },
    {
      name: 'row 4: vendor host, unknown client_name',
      body: { client_name: 'Totally Claude', redirect_uris: [CLAUDE_CB] },
      status: 400,
      error: 'invalid_client_metadata',
    },
    {
      name: 'row 4: vendor host, another vendor’s name',
      body: { client_name: 'ChatGPT', redirect_uris: [CLAUDE_CB] },
      status: 400,
      error: 'invalid_client_metadata',
    },
    {
      name: 'row 4: vendor host, no client_name',
      body: { redirect_uris: [CHATGPT_CB] },
      status: 400,
      error: 'invalid_client_metadata',
    },
    {
      name: 'row 5: https on an unknown host',
      body: { client_name: 'Web app', redirect_uris: ['https://app.example.com/cb'] },
      status: 400,
      error: 'invalid_redirect_uri',
    },
    {
      name: 'row 5: http off loopback',
      body: { redirect_uris: ['http://192.168.1.10:8080/cb'] },
      status: 400,
      error: 'invalid_redirect_uri',
    },
    {
      name: 'row 5: custom scheme',
      body: { redirect_uris: ['com.example.app:/oauth/cb'] },
      status: 400,
      error: 'invalid_redirect_uri',
    },
    {
      name: 'row 5: vendor name, a callback the vendor does not allow',
      body: { client_name: 'Claude', redirect_uris: [CLAUDE_CB, 'https://claude.ai/elsewhere'] },
      status: 400,
      error: 'invalid_redirect_uri',
    },
    {
      name: 'row 5: loopback mixed with https',
      body: { redirect_uris: ['http://127.0.0.1:9/cb', 'https://app.example.com/cb'] },
      status: 400,
      error: 'invalid_redirect_uri',
    },
    {
      name: 'row 2 (inside the provider): loopback with an unsupported auth method',
      body: { redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'private_key_jwt' },
      status: 400,
      error: 'invalid_client_metadata',
    },
  ];

  test.each(rejections)('$name → $status $error', async (c) => {
    const res = await register(c.body, c.contentType);
    expect(res.status).toBe(c.status);
    expect(res.body.error).toBe(c.error);
    expect(typeof res.body.error_description).toBe('string');
    expect(res.body.error_description.length).toBeGreaterThan(10);
    expect(res.text).not.toMatch(/\n\s+at /); // no stack trace
  });

  test('the policy also runs for the spellings the provider router accepts (case, trailing slash)', async () => {
    const vendor = await register(
      { client_name: 'Claude', redirect_uris: [CLAUDE_CB] },
      'application/json',
      '/API/OAuth/Register/',
    );
    expect(vendor.status).toBe(201);
    expect(vendor.body.client_id).toBe('vendor-claude');
    const web = await register(
      { redirect_uris: ['https://app.example.com/cb'] },
      'application/json',
      '/api/oauth/register/',
    );
    expect(web.status).toBe(400);
    expect(web.body.error).toBe('invalid_redirect_uri');
  });

  test('body over 64 KiB → 413 (DESIGN D7)', async () => {
    const res = await register({ redirect_uris: ['http://127.0.0.1/cb'], client_name: 'x'.repeat(70 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('invalid_request');
    expect(res.body.error_description).toMatch(/64 KiB/);
  });

  test('row 2: loopback → a new public native client, kind loopback, no account:* (SPEC §2.5 rule 1)', async () => {
    const res = await register({
      client_name: 'my-cli',
      redirect_uris: ['http://127.0.0.1:8976/callback'],
      token_endpoint_auth_method: 'none',
    });
    expect(res.status).toBe(201);
    expect(res.body.client_id).toEqual(expect.any(String));
    expect(res.body.client_secret).toBeUndefined();
    expect(res.body.registration_access_token).toBeUndefined();
    expect(res.body.application_type).toBe('native');
    expect(res.body.x_client_kind).toBe('loopback');
    expect(res.body.scope.split(' ')).toEqual(expect.arrayContaining(['openid', 'courses:read', 'courses:write']));
    expect(res.body.scope).not.toMatch(/account:/);
    // Open registration cannot fill the store: stored with a 24 h TTL until it obtains a token.
    const row = storedRow(res.body.client_id)!;
    expect(row.expires_at! - Math.floor(Date.now() / 1000)).toBeGreaterThan(24 * 3600 - 60);
    expect(row.expires_at! - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(24 * 3600);
  });

  test('row 2: an unused loopback client is gone once its 24 h expire (simulated by moving expires_at)', async () => {
    const res = await register({ redirect_uris: ['http://127.0.0.1/callback'] });
    server.store
      .sqlite!.prepare('UPDATE oidc_models SET expires_at = ? WHERE model = ? AND id = ?')
      .run(Math.floor(Date.now() / 1000) - 1, 'Client', res.body.client_id);
    const { challenge } = pkcePair();
    const page = await fetch(
      `${server.baseUrl}/oauth/authorize?response_type=code&client_id=${res.body.client_id}&redirect_uri=${encodeURIComponent('http://127.0.0.1:5000/callback')}&scope=openid&code_challenge=${challenge}&code_challenge_method=S256&state=s`,
      { redirect: 'manual' },
    );
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    expect(await page.text()).toContain('invalid_client');
  });

  test('row 2: [::1] and localhost, confidential (client_secret_post) → secret returned once', async () => {
    const res = await register({
      redirect_uris: ['http://[::1]:1234/cb', 'http://localhost/cb'],
      token_endpoint_auth_method: 'client_secret_post',
    });
    expect(res.status).toBe(201);
    expect(res.body.token_endpoint_auth_method).toBe('client_secret_post');
    expect(res.body.client_secret).toEqual(expect.any(String));
  });

  test('row 2: requested scopes are kept within the loopback ceiling; account:* and unknown scopes dropped', async () => {
    const res = await register({
      redirect_uris: ['http://127.0.0.1/cb'],
      scope: 'openid courses:read account:read mcp:tools',
      x_client_kind: 'vendor',
    });
    expect(res.status).toBe(201);
    expect(res.body.scope).toBe('openid courses:read');
    expect(res.body.x_client_kind).toBe('loopback');
  });

  test('row 2: a request for account:read only gets the identity scopes, not every operator scope', async () => {
    const res = await register({ redirect_uris: ['http://127.0.0.1/cb'], scope: 'account:read' });
    expect(res.status).toBe(201);
    expect(res.body.scope).toBe('openid profile email');
  });

  test('row 2 wins over row 3: a loopback request named like a vendor gets a fresh client', async () => {
    const res = await register({ client_name: 'Claude', redirect_uris: ['http://127.0.0.1:5555/callback'] });
    expect(res.status).toBe(201);
    expect(res.body.client_id).not.toBe('vendor-claude');
    expect(res.body.x_client_kind).toBe('loopback');
  });

  test('row 3: vendor callback + exact client_name → the same existing client_id every time, no secret, record unchanged', async () => {
    const before = (await server.provider.Client.find('vendor-claude'))!.metadata();
    const ids: string[] = [];
    for (const extra of [
      {},
      { scope: 'account:read', token_endpoint_auth_method: 'client_secret_post', redirect_uris: [CLAUDE_CB] },
    ]) {
      const res = await register({ client_name: 'Claude', redirect_uris: [CLAUDE_CB], ...extra });
      expect(res.status).toBe(201);
      expect(res.body.client_secret).toBeUndefined();
      expect(res.body.x_client_kind).toBe('vendor');
      // The entry's callbacks (config/integrations.yaml: claude.ai and claude.com), the one sent among them.
      expect(res.body.redirect_uris).toEqual(expect.arrayContaining([CLAUDE_CB]));
      expect(res.body.scope).not.toMatch(/account:/);
      ids.push(res.body.client_id);
    }
    expect(ids).toEqual(['vendor-claude', 'vendor-claude']);
    const after = (await server.provider.Client.find('vendor-claude'))!.metadata();
    expect(after).toEqual(before);
    expect(storedRow('vendor-claude')).toBeUndefined(); // static client: never written to the store
    const other = await register({ client_name: 'ChatGPT', redirect_uris: [CHATGPT_CB] });
    expect(other.status).toBe(201);
    expect(other.body.client_id).toBe('vendor-chatgpt');
  });
});

/** Sends the browser to /oauth/authorize and returns the redirect (no interaction expected). */
async function authorizeRedirect(params: Record<string, string>): Promise<URL> {
  const { challenge } = pkcePair();
  const url = new URL(`${server.baseUrl}/oauth/authorize`);
  const all = {
    response_type: 'code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: randomString(8),
    ...params,
  };
  for (const [k, v] of Object.entries(all)) url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBeGreaterThanOrEqual(300);
  expect(res.status).toBeLessThan(400);
  return new URL(res.headers.get('location')!, url);
}

describe('DESIGN D2 scope ceilings at the authorization endpoint (SPEC §2.5 rules 1–3)', () => {
  let loopbackId: string;
  beforeAll(async () => {
    loopbackId = (await register({ client_name: 'ceiling-cli', redirect_uris: ['http://127.0.0.1/callback'] })).body
      .client_id;
  });

  const cases = [
    {
      name: 'vendor asks for account:read (rule 1)',
      client: () => 'vendor-claude',
      redirect: CLAUDE_CB,
      scope: 'openid account:read',
    },
    {
      name: 'vendor asks for an operator scope it does not list',
      client: () => 'vendor-claude',
      redirect: CLAUDE_CB,
      scope: 'openid courses:write',
    },
    {
      name: 'loopback asks for account:read (rule 1)',
      client: () => loopbackId,
      redirect: 'http://127.0.0.1:49152/callback',
      scope: 'openid account:read',
    },
    {
      name: 'loopback asks for account:write',
      client: () => loopbackId,
      redirect: 'http://127.0.0.1:49152/callback',
      scope: 'courses:read account:write',
    },
  ];

  test.each(cases)('$name → invalid_scope redirected with iss', async (c) => {
    const location = await authorizeRedirect({ client_id: c.client(), redirect_uri: c.redirect, scope: c.scope });
    expect(`${location.origin}${location.pathname}`).toBe(c.redirect.replace(/:49152/, ':49152'));
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    expect(location.searchParams.get('error_description')).toBeTruthy();
    expect(location.searchParams.get('iss')).toBe(server.baseUrl);
  });

  test('the refusal of member data to a generic client says what to do and links the docs (no SPEC section numbers)', async () => {
    const location = await authorizeRedirect({
      client_id: loopbackId,
      redirect_uri: 'http://127.0.0.1:49152/callback',
      scope: 'openid account:read',
    });
    const description = location.searchParams.get('error_description')!;
    expect(description).toContain("only the site's member client may request");
    expect(description).toContain('ask the site operator for its client_id');
    expect(description).toContain(`${server.config.docsUrl}/mcp.md#`);
    expect(description).not.toMatch(/SPEC|§/);
  });

  test('a vendor client is refused at a callback it did not register (no redirect to an unregistered URI)', async () => {
    const { challenge } = pkcePair();
    const url = `${server.baseUrl}/oauth/authorize?response_type=code&client_id=vendor-claude&redirect_uri=${encodeURIComponent('https://evil.example/cb')}&scope=openid&code_challenge=${challenge}&code_challenge_method=S256&state=s`;
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('redirect_uri');
  });

  test('loopback: any port at authorization (RFC 8252 §7.3); the path must match', async () => {
    const ok = await authorizeRedirect({
      client_id: loopbackId,
      redirect_uri: 'http://127.0.0.1:61234/callback',
      scope: 'openid courses:read',
    });
    expect(ok.pathname).toMatch(/^\/interaction\//);
    const { challenge } = pkcePair();
    const res = await fetch(
      `${server.baseUrl}/oauth/authorize?response_type=code&client_id=${loopbackId}&redirect_uri=${encodeURIComponent('http://127.0.0.1:61234/other')}&scope=openid&code_challenge=${challenge}&code_challenge_method=S256&state=s`,
      { redirect: 'manual' },
    );
    expect(res.status).toBe(400);
  });

  test('consent names the kind of client: vendor → "Verified platform", loopback → "Application on your computer"', async () => {
    for (const [clientId, redirect, label, host] of [
      ['vendor-claude', CLAUDE_CB, 'Verified platform', 'claude.ai'],
      [loopbackId, 'http://127.0.0.1:7000/callback', 'Application on your computer', '127.0.0.1'],
    ] as const) {
      const { challenge } = pkcePair();
      const url = new URL(`${server.baseUrl}/oauth/authorize`);
      for (const [k, v] of Object.entries({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirect,
        scope: 'openid courses:read',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 's',
        prompt: 'consent',
      })) {
        url.searchParams.set(k, v);
      }
      const { callback, visits } = await completeAuthorization(url, {
        email: 'owner@demo.test',
        password: DEMO_PASSWORD,
        site: 'demo',
        isRedirectUri: (u) =>
          u.hostname === host && !u.pathname.startsWith('/interaction') && !u.pathname.startsWith('/oauth'),
      });
      expect(callback.searchParams.get('code')).toBeTruthy();
      expect(callback.searchParams.get('iss')).toBe(server.baseUrl);
      expect(visits.some((v) => v.body.includes('name="decision"') && v.body.includes(label))).toBe(true);
    }
  });
});

describe('DESIGN D2: a registered scope is a default, not a cage (issue #12)', () => {
  test('a loopback client registered with courses:read may later request any scope within the loopback ceiling', async () => {
    const reg = await register({
      client_name: 'mcp client',
      redirect_uris: ['http://127.0.0.1:3334/callback'],
      scope: 'courses:read',
    });
    expect(reg.status).toBe(201);
    expect(reg.body.scope).toBe('courses:read'); // the registered default, as asked
    expect(reg.body.x_scope_ceiling.split(' ')).toEqual(
      expect.arrayContaining([
        'openid',
        'profile',
        'email',
        'courses:read',
        'orders:read',
        'analytics:read',
        'courses:write',
      ]),
    );
    expect(reg.body.x_scope_ceiling).not.toMatch(/account:/);
    expect(reg.body.x_default_scope).toBeUndefined();
    // The reproduction of issue #12 item 1: this used to be error=invalid_scope.
    const stepUp = await authorizeRedirect({
      client_id: reg.body.client_id,
      redirect_uri: 'http://127.0.0.1:3334/callback',
      scope: 'courses:read orders:read',
    });
    expect(stepUp.searchParams.get('error')).toBeNull();
    expect(stepUp.pathname).toMatch(/^\/interaction\//);
    // The ceiling still holds.
    const beyond = await authorizeRedirect({
      client_id: reg.body.client_id,
      redirect_uri: 'http://127.0.0.1:3334/callback',
      scope: 'courses:read account:read',
    });
    expect(beyond.searchParams.get('error')).toBe('invalid_scope');
  });
});

describe('RFC 7591 errors are written for integrators', () => {
  test('a fixed HTTPS callback: what to do instead, a link to the registration guide, no SPEC section numbers', async () => {
    const res = await register({ client_name: 'web app', redirect_uris: ['https://app.example/cb'] });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_redirect_uri');
    expect(res.body.error_description).toContain('loopback');
    expect(res.body.error_description).toContain(`${server.config.docsUrl}/client-registration.md`);
    expect(res.body.error_description).not.toMatch(/SPEC|§/);
  });
});
