/**
 * Issue #13 (docs/security.md): each numbered finding, reproduced as an attacker would over real
 * HTTP against the real server, and now refused. Finding 5 (token-endpoint limit keying) belongs
 * to the route-table issue; 6 and 7 are in files-and-passwords.test.ts, 9 in
 * test/e2e/browser-csp.test.ts.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { startDocumentServer, type DocumentServer } from '../helpers/https-documents.js';
import { completeAuthorization } from '../helpers/user-agent.js';
import { pkcePair } from '../helpers/pkce.js';
import { loadConfig, ConfigError } from '../../src/config.js';

/** A TCP listener on 127.0.0.1 that counts the connections it sees (SSRF canary). */
async function canary(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let count = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    count += 1;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let server: TestServer;
let proxied: TestServer;
let docs: DocumentServer;
let docHits = 0;

beforeAll(async () => {
  docs = await startDocumentServer();
  docs.route('/gone.json', (_req, res) => {
    docHits += 1;
    res.writeHead(404).end();
  });
  docs.route('/evil-logout.json', (_req, res, origin) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        client_id: `${origin}/evil-logout.json`,
        client_name: 'evil logout',
        redirect_uris: ['http://127.0.0.1:7777/callback'],
        post_logout_redirect_uris: ['https://evil.example/landing'],
        token_endpoint_auth_method: 'none',
        application_type: 'native',
      }),
    );
  });
  // CIMD open (any public host), no loopback switch: the production-like SSRF posture.
  server = await startTestServer({ CIMD_OPEN: '1' });
  proxied = await startTestServer({
    TRUST_PROXY: '1',
    RATE_LIMIT_REGISTRATION: '2/600',
    CIMD_ALLOWED_HOSTS: docs.host,
    CIMD_ALLOW_LOOPBACK: '1',
    CIMD_TEST_CA_FILE: docs.caFile,
  });
});
afterAll(async () => {
  await server?.close();
  await proxied?.close();
  await docs?.close();
});

async function register(base: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/api/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

function authorizeUrl(base: string, clientId: string, extra: Record<string, string | undefined> = {}): string {
  const url = new URL(`${base}/oauth/authorize`);
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: 'http://127.0.0.1:7777/callback',
    scope: 'openid',
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
    state: 'st',
    ...extra,
  };
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.href;
}

describe('finding 1: no outbound request on demand (SSRF)', () => {
  test.each(['sector_identifier_uri', 'jwks_uri', 'request_uris'])(
    'registration naming %s → invalid_client_metadata, the target sees no connection',
    async (field) => {
      const target = await canary();
      const url = `https://127.0.0.1:${target.port}/x.json`;
      const res = await register(server.baseUrl, {
        redirect_uris: ['http://127.0.0.1:7777/callback'],
        token_endpoint_auth_method: 'none',
        [field]: field === 'request_uris' ? [url] : url,
      });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_client_metadata');
      expect(res.json.error_description).toContain(field);
      await new Promise((r) => setTimeout(r, 100));
      expect(target.connections()).toBe(0);
      await target.close();
    },
  );

  test.each([
    (p: number) => `https://localhost:${p}/client.json`,
    (p: number) => `https://[::127.0.0.1]:${p}/client.json`,
    (p: number) => `https://[::ffff:127.0.0.1]:${p}/client.json`,
    (p: number) => `https://[::ffff:7f00:1]:${p}/client.json`,
  ])('a document URL resolving to an internal address is refused before any connection (%#)', async (make) => {
    const target = await canary();
    const res = await fetch(authorizeUrl(server.baseUrl, make(target.port)), { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    const body = await res.text();
    expect(body).toContain('invalid_client');
    expect(target.connections()).toBe(0);
    await target.close();
  });
});

describe('finding 2: post_logout_redirect_uris under the redirect_uris rules', () => {
  test('open registration with an https post-logout URI → invalid_client_metadata', async () => {
    const res = await register(server.baseUrl, {
      redirect_uris: ['http://127.0.0.1:7777/callback'],
      post_logout_redirect_uris: ['https://evil.example/landing'],
      token_endpoint_auth_method: 'none',
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_client_metadata');
    expect(res.json.error_description).toContain('post_logout_redirect_uris');
  });

  test('a loopback post-logout URI is accepted; logout never redirects to an unregistered one', async () => {
    const res = await register(server.baseUrl, {
      redirect_uris: ['http://127.0.0.1:7777/callback'],
      post_logout_redirect_uris: ['http://127.0.0.1:7777/bye'],
      token_endpoint_auth_method: 'none',
    });
    expect(res.status).toBe(201);
    const logout = await fetch(
      `${server.baseUrl}/api/oauth/logout?client_id=${res.json.client_id}&post_logout_redirect_uri=${encodeURIComponent('https://evil.example/landing')}`,
      { redirect: 'manual' },
    );
    expect(logout.status).toBe(400);
    expect(logout.headers.get('location')).toBeNull();
    expect(await logout.text()).toContain('post_logout_redirect_uri');
  });

  test('a Client ID Metadata Document with a foreign post-logout URI is refused on use (at its own loopback callback, DESIGN D13)', async () => {
    const res = await fetch(authorizeUrl(proxied.baseUrl, `${docs.origin}/evil-logout.json`), { redirect: 'manual' });
    const location = new URL(res.headers.get('location')!);
    expect(location.href.startsWith('http://127.0.0.1:7777/callback?')).toBe(true);
    expect(location.searchParams.get('error')).toBe('invalid_client');
    expect(location.searchParams.get('error_description')).toContain('post_logout_redirect_uris');
    expect(location.searchParams.get('iss')).toBe(proxied.baseUrl);
    // Never to the foreign post-logout URI itself.
    const foreign = await fetch(
      authorizeUrl(proxied.baseUrl, `${docs.origin}/evil-logout.json`, {
        redirect_uri: 'https://evil.example/landing',
      }),
      { redirect: 'manual' },
    );
    expect(foreign.status).toBe(400);
    expect(foreign.headers.get('location')).toBeNull();
  });
});

describe('finding 3: discovery and every absolute URL from BASE_URL only', () => {
  test('X-Forwarded-Host behind TRUST_PROXY=1 does not rewrite discovery', async () => {
    const res = await fetch(`${proxied.baseUrl}/.well-known/openid-configuration`, {
      headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    const text = await res.text();
    expect(text).not.toContain('evil.example');
    const doc = JSON.parse(text) as Record<string, string>;
    expect(doc.token_endpoint).toBe(`${proxied.baseUrl}/api/oauth/token`);
    expect(doc.issuer).toBe(proxied.baseUrl);
  });

  test('a Host header or an absolute-form request target does not either', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(proxied.port, '127.0.0.1', () => {
        socket.end(
          'GET http://evil.example/.well-known/oauth-authorization-server HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n',
        );
      });
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 200/);
    expect(raw).not.toContain('evil.example');
    expect(raw).toContain(`"authorization_endpoint":"${proxied.baseUrl}/oauth/authorize"`);
  });
});

describe('finding 4: the client address is the one the nearest trusted proxy saw', () => {
  test('rotating the leftmost X-Forwarded-For entry does not escape the per-address registration limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await register(
        proxied.baseUrl,
        { redirect_uris: ['http://127.0.0.1:7777/callback'], token_endpoint_auth_method: 'none' },
        { 'x-forwarded-for': `203.0.113.${i}, 198.51.100.7` },
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 201, 429]);
    // Another address as seen by the proxy has its own budget.
    const other = await register(
      proxied.baseUrl,
      { redirect_uris: ['http://127.0.0.1:7777/callback'] },
      { 'x-forwarded-for': '198.51.100.8' },
    );
    expect(other.status).toBe(201);
  });

  test('TRUST_PROXY takes a hop count; other values refuse to start', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({}).trustProxy).toBe(0);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(ConfigError);
  });
});

describe('finding 8: loose where SPEC is strict', () => {
  test('SPEC §4.2: an authorization request without state → invalid_request naming it, at the registered redirect_uri', async () => {
    const res = await fetch(
      authorizeUrl(server.baseUrl, 'demo-member-cli', {
        state: undefined,
        redirect_uri: 'http://127.0.0.1/callback',
        resource: server.baseUrl,
      }),
      { redirect: 'manual' },
    );
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('http://127.0.0.1/callback');
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toContain('state');
  });

  test('a client registered without token_endpoint_auth_method is public: no client_secret', async () => {
    const res = await register(server.baseUrl, {
      redirect_uris: ['http://127.0.0.1:7777/callback'],
      client_name: 'no method',
    });
    expect(res.status).toBe(201);
    expect(res.json.token_endpoint_auth_method).toBe('none');
    expect(res.json.client_secret).toBeUndefined();
  });

  test.each([
    ['client_name of 60,000 characters', { client_name: 'x'.repeat(60_000) }, 'client_name'],
    [
      '50 redirect URIs',
      { redirect_uris: Array.from({ length: 50 }, (_, i) => `http://127.0.0.1:${7000 + i}/cb`) },
      'redirect_uris',
    ],
    [
      'a 5,000-character redirect URI',
      { redirect_uris: [`http://127.0.0.1:7777/${'a'.repeat(5000)}`] },
      'redirect_uris',
    ],
  ])('%s → invalid_client_metadata naming the field', async (_name, extra, field) => {
    const res = await register(server.baseUrl, {
      redirect_uris: ['http://127.0.0.1:7777/callback'],
      token_endpoint_auth_method: 'none',
      ...extra,
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_client_metadata');
    expect(res.json.error_description).toContain(field);
  });
});

describe('finding 10: NODE_ENV and /metrics', () => {
  test('an unknown NODE_ENV refuses to start, naming the accepted values', () => {
    expect(() => loadConfig({ NODE_ENV: 'staging' })).toThrow(/NODE_ENV.*development, test, production/);
    expect(loadConfig({}).mode).toBe('development');
    expect(loadConfig({ NODE_ENV: 'test' }).mode).toBe('test');
  });

  test('METRICS_TOKEN: /metrics answers 401 without the bearer token, 200 with it', async () => {
    const token = 'm'.repeat(40);
    const s = await startTestServer({ METRICS_TOKEN: token });
    try {
      expect((await fetch(`${s.baseUrl}/metrics`)).status).toBe(401);
      expect((await fetch(`${s.baseUrl}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      const ok = await fetch(`${s.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('# HELP');
    } finally {
      await s.close();
    }
  });

  test('METRICS_PORT: /metrics on its own listener only', async () => {
    const s = await startTestServer({ METRICS_PORT: '0' });
    try {
      expect((await fetch(`${s.baseUrl}/metrics`)).status).toBe(404);
      const port = (s.metricsServer!.address() as AddressInfo).port;
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('# HELP');
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(404);
    } finally {
      await s.close();
    }
  });

  test('production with neither setting: /metrics is not served on the main port', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      BASE_URL: 'https://auth.example.com',
      COOKIE_SECRETS: 'c'.repeat(40),
      SIGNING_KEY: JSON.stringify({ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', d: 'd' }),
    });
    expect(config.metrics).toEqual({ port: undefined, token: undefined, openOnMainPort: false });
  });
});

describe('finding 11: a failed Client ID Metadata Document is not fetched on every request, and says why', () => {
  test('second request within the negative-cache window: no fetch, the cause (HTTP status) named', async () => {
    const first = await fetch(authorizeUrl(proxied.baseUrl, `${docs.origin}/gone.json`), { redirect: 'manual' });
    expect(first.status).toBe(400);
    expect(await first.text()).toContain('HTTP status 404');
    const second = await fetch(authorizeUrl(proxied.baseUrl, `${docs.origin}/gone.json`), { redirect: 'manual' });
    expect(second.status).toBe(400);
    const body = await second.text();
    expect(body).toContain('HTTP status 404');
    expect(body).toMatch(/not fetched again for \d+ s/);
    expect(docHits).toBe(1);
  });
});

describe('a full sign-in still works with every hardening in place', () => {
  test('demo-member-cli, student, code flow with state', async () => {
    const { callback } = await completeAuthorization(
      authorizeUrl(server.baseUrl, 'demo-member-cli', {
        redirect_uri: 'http://127.0.0.1/callback',
        resource: server.baseUrl,
        scope: 'openid account:read',
      }),
      { email: 'student@demo.test', password: DEMO_PASSWORD },
    );
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(callback.searchParams.get('state')).toBe('st');
  });
});
