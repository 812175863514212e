/**
 * SPEC §5.4 "Loopback client" end to end with openid-client as the real client: dynamic
 * registration (RFC 7591, DESIGN D1 row 2), an operator authorization (DESIGN D2: operator scopes
 * need an owner/admin role), DESIGN D3 (no `scope` → the client's default read scopes) and the
 * 24 h expiry of loopback clients that never obtained a token.
 */
import * as client from 'openid-client';
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { completeAuthorization } from '../helpers/user-agent.js';

let server: TestServer;
let config: client.Configuration;
const redirectUri = 'http://127.0.0.1:53999/callback';

beforeAll(async () => {
  server = await startTestServer();
  config = await client.dynamicClientRegistration(
    new URL(server.baseUrl),
    {
      client_name: 'coursegate-cli',
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    },
    client.None(),
    { execute: [client.allowInsecureRequests] },
  );
});
afterAll(() => server.close());

const expiresAt = (clientId: string) =>
  (
    server.store
      .sqlite!.prepare('SELECT expires_at FROM oidc_models WHERE model = ? AND id = ?')
      .get('Client', clientId) as { expires_at: number | null }
  ).expires_at;

async function authorize(email: string, scope: string | undefined, site?: string) {
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const params: Record<string, string> = {
    redirect_uri: redirectUri,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
  };
  if (scope !== undefined) params.scope = scope;
  const url = client.buildAuthorizationUrl(config, params);
  const { callback, visits } = await completeAuthorization(url, { email, password: DEMO_PASSWORD, site });
  return { callback, codeVerifier, state, visits };
}

describe('SPEC §5.4 loopback client with openid-client dynamicClientRegistration', () => {
  test('the registered client is public, native, kind loopback, without account:* (DESIGN D1 row 2)', () => {
    const md = config.clientMetadata();
    expect(md.client_id).toEqual(expect.any(String));
    expect(md.token_endpoint_auth_method).toBe('none');
    expect(md.application_type).toBe('native');
    expect(md.x_client_kind).toBe('loopback');
    expect(String(md.scope)).not.toMatch(/account:/);
    expect(expiresAt(md.client_id)).not.toBeNull();
  });

  test('owner@demo.test authorizes courses:read at site demo; the client is then kept (no expiry)', async () => {
    const { callback, codeVerifier, state, visits } = await authorize('owner@demo.test', 'openid courses:read', 'demo');
    expect(callback.searchParams.get('iss')).toBe(server.baseUrl);
    expect(visits.some((v) => v.body.includes('Application on your computer'))).toBe(true);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: codeVerifier,
      expectedState: state,
    });
    // The token response names every granted scope, identity scopes included (issue #12).
    expect(tokens.scope).toBe('openid courses:read');
    expect(tokens.id_token).toBeTruthy();
    const introspection = await client.tokenIntrospection(config, tokens.access_token);
    expect(introspection).toMatchObject({ active: true, aud: server.baseUrl, scope: 'courses:read', org_id: 'demo' });
    // First token: the client is stored without expiry from now on.
    await new Promise((r) => setTimeout(r, 50));
    expect(expiresAt(config.clientMetadata().client_id)).toBeNull();

    // SPEC §2.5 rule 1 at the token endpoint: asking for account:read on refresh is invalid_scope.
    await expect(
      client.refreshTokenGrant(config, tokens.refresh_token!, { scope: 'account:read' }),
    ).rejects.toMatchObject({ error: 'invalid_scope' });
  });

  test('a student asking for operator scopes gets access_denied (DESIGN D2)', async () => {
    const { callback } = await authorize('student@demo.test', 'openid courses:read');
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('iss')).toBe(server.baseUrl);
    expect(callback.searchParams.get('code')).toBeNull();
  });

  test('DESIGN D3: no scope → the client default set (identity + read scopes only)', async () => {
    const { callback, codeVerifier, state } = await authorize('owner@demo.test', undefined, 'demo');
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: codeVerifier,
      expectedState: state,
    });
    const granted = String(tokens.scope).split(' ');
    expect(tokens.id_token).toBeTruthy(); // openid was in the default set
    expect(tokens.claims()!.email).toBe('owner@demo.test'); // and email
    expect(granted).toEqual(expect.arrayContaining(['courses:read', 'orders:read', 'students:read']));
    expect(granted.filter((s) => s.endsWith(':write'))).toEqual([]);
    expect(granted.filter((s) => s.startsWith('account:'))).toEqual([]);
  });
});
