/**
 * Well-known MCP hosts register unmodified (issue #26; DESIGN D1 rows 2–3, docs/operator-integrations.md
 * "Well-known MCP hosts"), and registration answers CORS preflights like discovery and the token
 * endpoint do.
 *
 * VS Code's dynamic registration (microsoft/vscode `fetchDynamicRegistration`) sends its web
 * callbacks and its desktop loopback callbacks in one list, named "Visual Studio Code", with the
 * protected resource's `scopes_supported` as `scope`: it matches the catalogue entry of
 * config/integrations.yaml (row 3) and gets that entry's fixed client_id; a mixed list from a host
 * that is not in the catalogue stays refused (row 5).
 */
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { completeAuthorization } from '../helpers/user-agent.js';
import { pkcePair, randomString } from '../helpers/pkce.js';
import { postForm } from '../helpers/flows.js';

let server: TestServer;
let base: string;

beforeAll(async () => {
  server = await startTestServer();
  base = server.baseUrl;
});
afterAll(() => server?.close());

const VSCODE = {
  client_name: 'Visual Studio Code',
  redirect_uris: [
    'https://insiders.vscode.dev/redirect',
    'https://vscode.dev/redirect',
    'http://127.0.0.1/',
    'http://127.0.0.1:33418/',
  ],
  grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
  scope: 'openid profile email',
};

const register = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe("VS Code's registration, unmodified", () => {
  test("→ 201 with the catalogue entry's fixed client_id, no secret, the same on every call", async () => {
    const first = await register(VSCODE);
    expect(first.status).toBe(201);
    const body = (await first.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      client_id: 'mcp-host-vscode',
      client_name: 'Visual Studio Code',
      token_endpoint_auth_method: 'none',
    });
    expect(body.client_secret).toBeUndefined();
    expect(((await (await register(VSCODE)).json()) as { client_id: string }).client_id).toBe('mcp-host-vscode');
  });

  test.each(['http://127.0.0.1:33418/', 'http://127.0.0.1:49152/'])(
    'an authorization for scopes_supported through the loopback callback %s succeeds',
    async (redirectUri) => {
      const { verifier, challenge } = pkcePair();
      const url = new URL(`${base}/oauth/authorize`);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: 'mcp-host-vscode',
        redirect_uri: redirectUri,
        scope: 'openid profile email',
        resource: base,
        state: randomString(8),
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }).toString();
      const { callback } = await completeAuthorization(url, {
        email: 'owner@demo.test',
        password: DEMO_PASSWORD,
        site: 'demo',
        isRedirectUri: (u) => u.href.startsWith(redirectUri),
      });
      const code = callback.searchParams.get('code');
      expect(code).toBeTruthy();
      const token = await postForm(base, '/api/oauth/token', {
        grant_type: 'authorization_code',
        code: code!,
        code_verifier: verifier,
        redirect_uri: redirectUri,
        client_id: 'mcp-host-vscode',
        resource: base,
      });
      expect(token.status).toBe(200);
    },
  );

  test('a mixed list from a host outside the catalogue stays refused (invalid_redirect_uri)', async () => {
    const res = await register({
      ...VSCODE,
      client_name: 'Some Editor',
      redirect_uris: ['https://editor.example/redirect', 'http://127.0.0.1:33418/'],
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_redirect_uri');
  });
});

/** Registers `body`, signs in through `redirectUri` as the demo owner, exchanges the code; returns the consent page. */
async function registerAndSignIn(body: Record<string, unknown>, redirectUri: string): Promise<string> {
  const registered = await register(body);
  expect(registered.status).toBe(201);
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  expect(clientId).toBe('mcp-host-vscode');
  const { verifier, challenge } = pkcePair();
  const url = new URL(`${base}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'openid profile email',
    resource: base,
    state: randomString(8),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    prompt: 'consent',
  }).toString();
  const { callback, visits } = await completeAuthorization(url, {
    email: 'owner@demo.test',
    password: DEMO_PASSWORD,
    site: 'demo',
    isRedirectUri: (u) => u.href.startsWith(redirectUri),
  });
  expect(callback.searchParams.get('iss')).toBe(base);
  const token = await postForm(base, '/api/oauth/token', {
    grant_type: 'authorization_code',
    code: callback.searchParams.get('code')!,
    code_verifier: verifier,
    redirect_uri: redirectUri,
    client_id: clientId,
    resource: base,
  });
  expect(token.status).toBe(200);
  return visits.find((v) => v.body.includes('name="decision"'))?.body ?? '';
}

describe('DESIGN D1 row 3: the VS Code entry matches its product variants, both loopback spellings and any subset', () => {
  const variants = ['Visual Studio Code', 'Visual Studio Code - Insiders', 'VSCodium'].flatMap((name) =>
    ['127.0.0.1', 'localhost'].map((host) => ({ name, host })),
  );
  test.each(variants)('$name with loopback callbacks on $host registers and signs in', async ({ name, host }) => {
    await registerAndSignIn(
      {
        ...VSCODE,
        client_name: name,
        redirect_uris: [
          'https://insiders.vscode.dev/redirect',
          'https://vscode.dev/redirect',
          `http://${host}/`,
          `http://${host}:33418/`,
        ],
      },
      `http://${host}:${40000 + Math.floor(Math.random() * 20000)}/`,
    );
  });

  test('the documented pair [http://127.0.0.1:33418, https://vscode.dev/redirect] registers and signs in', async () => {
    await registerAndSignIn(
      { ...VSCODE, redirect_uris: ['http://127.0.0.1:33418', 'https://vscode.dev/redirect'] },
      'http://127.0.0.1:33418/',
    );
  });

  test('a name that is no variant of the entry stays refused (row 4)', async () => {
    const res = await register({ ...VSCODE, client_name: 'Totally Not VS Code' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_client_metadata');
  });

  test('a loopback callback on another path than the entry lists stays refused', async () => {
    const res = await register({
      ...VSCODE,
      redirect_uris: ['https://vscode.dev/redirect', 'http://127.0.0.1:9/steal'],
    });
    expect(res.status).toBe(400);
  });
});

describe('a catalogue client shows "Verified platform" only for its https callback', () => {
  test('through https://vscode.dev/redirect: "Verified platform", the redirect host shown', async () => {
    const consent = await registerAndSignIn(VSCODE, 'https://vscode.dev/redirect');
    expect(consent).toContain('Verified platform');
    expect(consent).toContain('redirect-host">vscode.dev<');
    expect(consent).not.toContain('class="unverified"');
  });

  test('through a loopback callback: shown as an application on this computer, unverified', async () => {
    const consent = await registerAndSignIn(VSCODE, 'http://127.0.0.1:33418/');
    expect(consent).not.toContain('Verified platform');
    expect(consent).toContain('Application on your computer');
    expect(consent).toContain('class="unverified"');
    expect(consent).toContain('redirect-host">127.0.0.1<');
  });
});

describe('CORS on the registration endpoint, as on discovery and token', () => {
  test("OPTIONS preflight → 204 allowing POST from the caller's origin; the POST answer names the origin too", async () => {
    const origin = 'https://vscode.dev';
    const preflight = await fetch(`${base}/api/oauth/register`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
    // The same as the token endpoint's preflight (oidc-provider's own).
    const token = await fetch(`${base}/api/oauth/token`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST' },
    });
    expect(token.status).toBe(204);
    const posted = await register(VSCODE, { origin });
    expect(posted.status).toBe(201);
    expect(posted.headers.get('access-control-allow-origin')).toBe(origin);
    const refused = await register({ redirect_uris: [] }, { origin });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('access-control-allow-origin')).toBe(origin);
  });
});

describe("Claude's registration, on either of its published callbacks (Anthropic help center: claude.ai now, claude.com announced)", () => {
  test.each(['https://claude.ai/api/mcp/auth_callback', 'https://claude.com/api/mcp/auth_callback'])(
    '%s → 201 with the fixed client_id vendor-claude',
    async (callback) => {
      const res = await register({
        client_name: 'Claude',
        redirect_uris: [callback],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ client_id: 'vendor-claude', x_client_kind: 'vendor' });
    },
  );
});
