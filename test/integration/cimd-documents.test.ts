/**
 * Client ID Metadata Documents (SPEC §5.4, SPEC §2.5 rule 3, DESIGN D2): allowlist, review status,
 * SSRF protection and bad documents. Each bad case is refused with an error page naming
 * `invalid_client` / `invalid_client_metadata` (never a redirect, never a 500), and the server
 * keeps answering meanwhile.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { startDocumentServer, type DocumentServer } from '../helpers/https-documents.js';
import { completeAuthorization } from '../helpers/user-agent.js';
import { pkcePair } from '../helpers/pkce.js';

const REDIRECT = 'http://127.0.0.1:7777/callback';

let docs: DocumentServer;
/** Loopback documents allowed (test switch), open registration off, host allowlist = the document server. */
let server: TestServer;
/** Production-like: open registration, no loopback switch. */
let open: TestServer;
/** The integrations file of `server`: one document switched off, one reviewed (DESIGN D13). */
let catalogue: string;

const doc = (path: string, extra: Record<string, unknown> = {}) => ({
  client_id: `${docs.origin}${path}`,
  client_name: `doc ${path}`,
  redirect_uris: [REDIRECT],
  token_endpoint_auth_method: 'none',
  application_type: 'native',
  ...extra,
});

beforeAll(async () => {
  docs = await startDocumentServer();
  docs.route('/unreviewed.json', doc('/unreviewed.json'));
  docs.route('/reviewed.json', doc('/reviewed.json'));
  docs.route('/claims-reviewed.json', doc('/claims-reviewed.json', { x_client_kind: 'cimd_reviewed' }));
  docs.route(
    '/same-host.json',
    doc('/same-host.json', { redirect_uris: [`${docs.origin}/cb`], application_type: 'web' }),
  );
  docs.route('/redirect.json', (_req, res, origin) =>
    res.writeHead(302, { location: `${origin}/unreviewed.json` }).end(),
  );
  docs.route('/big.json', (_req, res) => {
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(doc('/big.json', { client_name: 'x'.repeat(8 * 1024) })));
  });
  docs.route('/slow.json', (_req, res) => {
    const t = setTimeout(
      () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc('/slow.json'))),
      8000,
    );
    res.on('close', () => clearTimeout(t));
  });
  docs.route('/not-json.json', (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>'),
  );
  docs.route('/array.json', '[1,2,3]');
  docs.route('/mismatch.json', doc('/mismatch.json', { client_id: 'https://other.example/client.json' }));
  docs.route(
    '/foreign.json',
    doc('/foreign.json', { redirect_uris: ['https://evil.example/cb'], application_type: 'web' }),
  );
  docs.route('/secret-method.json', doc('/secret-method.json', { token_endpoint_auth_method: 'client_secret_post' }));
  docs.route(
    '/secret-value.json',
    doc('/secret-value.json', { client_secret: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' }),
  );
  docs.route('/bad-scope.json', doc('/bad-scope.json', { scope: 'openid not-a-scope' }));
  docs.route('/switched-off.json', doc('/switched-off.json'));
  docs.route('/catalogued.json', doc('/catalogued.json'));
  catalogue = path.join(mkdtempSync(path.join(os.tmpdir(), 'coursegate-catalogue-')), 'integrations.yaml');
  writeFileSync(
    catalogue,
    `documents:\n  - { name: Off, client_id: "${docs.origin}/switched-off.json", enabled: false }\n` +
      `  - { name: Catalogued, client_id: "${docs.origin}/catalogued.json" }\n`,
  );
  server = await startTestServer({
    INTEGRATIONS_FILE: catalogue,
    CIMD_OPEN: '0',
    CIMD_ALLOWED_HOSTS: docs.host,
    CIMD_REVIEWED: `${docs.origin}/reviewed.json`,
    CIMD_ALLOW_LOOPBACK: '1',
    CIMD_TEST_CA_FILE: docs.caFile,
  });
  open = await startTestServer({ CIMD_OPEN: '1' });
});
afterAll(async () => {
  await server?.close();
  await open?.close();
  await docs?.close();
  if (catalogue) rmSync(path.dirname(catalogue), { recursive: true, force: true });
});

function authorizeUrl(base: string, clientId: string, scope = 'openid courses:read', redirectUri = REDIRECT): string {
  const { challenge } = pkcePair();
  const url = new URL(`${base}/oauth/authorize`);
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st',
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.href;
}

async function visit(url: string) {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), body: await res.text() };
}

describe('SPEC §5.4 / §2.5 rule 3: which documents resolve, and with which ceiling', () => {
  test('unreviewed document: read scopes accepted (login page reached)', async () => {
    const res = await visit(authorizeUrl(server.baseUrl, `${docs.origin}/unreviewed.json`));
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/\/interaction\//);
  });

  test('unreviewed document asking for a write scope → invalid_scope redirect with iss (rule 3)', async () => {
    const res = await visit(authorizeUrl(server.baseUrl, `${docs.origin}/unreviewed.json`, 'openid courses:write'));
    const location = new URL(res.location!);
    expect(location.href.startsWith(REDIRECT)).toBe(true);
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    expect(location.searchParams.get('iss')).toBe(server.baseUrl);
  });

  test('a document cannot promote itself: x_client_kind in the document is ignored', async () => {
    const res = await visit(
      authorizeUrl(server.baseUrl, `${docs.origin}/claims-reviewed.json`, 'openid courses:write'),
    );
    expect(new URL(res.location!).searchParams.get('error')).toBe('invalid_scope');
  });

  test('reviewed document (cimd.reviewed) may ask for write scopes; consent says "reviewed"', async () => {
    const { callback, visits } = await completeAuthorization(
      authorizeUrl(server.baseUrl, `${docs.origin}/reviewed.json`, 'openid courses:write'),
      {
        email: 'owner@demo.test',
        password: DEMO_PASSWORD,
        site: 'demo',
      },
    );
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(callback.searchParams.get('iss')).toBe(server.baseUrl);
    expect(
      visits.some(
        (v) => v.body.includes('Application described by its website (reviewed)') && v.body.includes(docs.host),
      ),
    ).toBe(true);
  });

  test('a document switched off in the catalogue (enabled: false) → error page, never fetched', async () => {
    const res = await visit(authorizeUrl(server.baseUrl, `${docs.origin}/switched-off.json`));
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(res.body).toContain('invalid_client');
    expect(res.body).toContain('switched off');
  });

  test('a document reviewed in the catalogue (documents:) may ask for write scopes', async () => {
    const res = await visit(authorizeUrl(server.baseUrl, `${docs.origin}/catalogued.json`, 'openid courses:write'));
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/\/interaction\//);
  });

  test('redirect URI on the document host is accepted', async () => {
    const res = await visit(
      authorizeUrl(server.baseUrl, `${docs.origin}/same-host.json`, 'openid', `${docs.origin}/cb`),
    );
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/\/interaction\//);
  });

  test('a scope the server does not know in the document is dropped, not refused (RFC 6749 §3.3)', async () => {
    const res = await visit(authorizeUrl(server.baseUrl, `${docs.origin}/bad-scope.json`));
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/\/interaction\//);
  });

  test('DESIGN D3 for a CIMD client: no scope → identity + read scopes (not an error)', async () => {
    const url = new URL(authorizeUrl(server.baseUrl, `${docs.origin}/unreviewed.json`));
    url.searchParams.delete('scope');
    const res = await visit(url.href);
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/\/interaction\//);
  });

  test('open registration off (CIMD_OPEN=0): host not on the allowlist → invalid_client, nothing fetched', async () => {
    const res = await visit(authorizeUrl(server.baseUrl, 'https://unlisted.example/client.json'));
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(res.body).toContain('invalid_client');
    expect(res.body).toContain('are not accepted here');
  });
});

describe('bad documents are refused with a clear error, never a 500 or a hang', () => {
  const cases = [
    { path: '/redirect.json', error: 'invalid_client', text: 'fetch failed' },
    { path: '/big.json', error: 'invalid_client', text: 'fetch failed' },
    { path: '/not-json.json', error: 'invalid_client', text: 'fetch failed' },
    { path: '/array.json', error: 'invalid_client_metadata', text: 'not a JSON object' },
    { path: '/mismatch.json', error: 'invalid_client_metadata', text: 'client_id does not match' },
    { path: '/foreign.json', error: 'invalid_client', text: 'must be https on its own host' },
    { path: '/secret-method.json', error: 'invalid_client_metadata', text: 'shared-secret' },
    { path: '/secret-value.json', error: 'invalid_client_metadata', text: 'client_secret' },
    { path: '/missing.json', error: 'invalid_client', text: 'fetch failed' },
  ];
  test.each(cases)('$path → $error', async (c) => {
    const redirectUri = c.path === '/foreign.json' ? 'https://evil.example/cb' : REDIRECT;
    const res = await visit(authorizeUrl(server.baseUrl, `${docs.origin}${c.path}`, 'openid', redirectUri));
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(res.body).toContain(c.error);
    expect(res.body).toContain(c.text.replace(/'/g, '&#39;'));
  });

  test('slow document: refused after the fetch timeout while the server keeps serving', async () => {
    const started = Date.now();
    const pending = visit(authorizeUrl(server.baseUrl, `${docs.origin}/slow.json`));
    const health = await fetch(`${server.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    const res = await pending;
    expect(res.status).toBe(400);
    expect(res.body).toContain('invalid_client');
    expect(Date.now() - started).toBeLessThan(8000);
  }, 20000);
});

describe('SSRF: private and special-use targets are never fetched (open registration, no test switch)', () => {
  const targets = [
    'https://10.0.0.1/client.json',
    'https://169.254.169.254/latest/meta-data/client.json',
    'https://192.168.1.1/client.json',
    'https://127.0.0.1/client.json',
    'https://[::1]/client.json',
    'https://[fd00::1]/client.json',
    'https://localhost/client.json',
  ];
  test.each(targets)('%s → invalid_client', async (clientId) => {
    const res = await visit(authorizeUrl(open.baseUrl, clientId));
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(res.body).toContain('invalid_client');
    expect(res.body).toMatch(/special-use|does not resolve/);
  });

  test('the test document server on loopback is unreachable without the test switch', async () => {
    const res = await visit(authorizeUrl(open.baseUrl, `${docs.origin}/unreviewed.json`));
    expect(res.status).toBe(400);
    expect(res.body).toContain('special-use');
  });
});
