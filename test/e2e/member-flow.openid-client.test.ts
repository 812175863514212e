/**
 * The member flow end to end with openid-client (a certified relying-party library) as the real
 * client: SPEC §5.3 order of use: discover, authorize, exchange, call the APIs, refresh, revoke.
 */
import * as client from 'openid-client';
import * as jose from 'jose';
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { completeAuthorization } from '../helpers/user-agent.js';

const VIEWER_QUERY = `{ viewer { id email enrolledCourses(first: 10) { nodes { slug expireDate hasLifetimeAccess lastWatchedLecture { lectureId positionSeconds } } } } }`;

let server: TestServer;
let config: client.Configuration;

beforeAll(async () => {
  server = await startTestServer();
  config = await client.discovery(new URL(server.baseUrl), 'demo-member-cli', undefined, client.None(), {
    execute: [client.allowInsecureRequests, client.enableNonRepudiationChecks],
  });
});
afterAll(() => server.close());

async function graphql(accessToken: string, query = VIEWER_QUERY) {
  const res = await fetch(`${server.baseUrl}/account/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

async function authorize(scope = 'openid profile email account:read account:write') {
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const redirectUri = 'http://127.0.0.1:53682/callback';
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    resource: server.baseUrl,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const { callback } = await completeAuthorization(url, { email: 'student@demo.test', password: DEMO_PASSWORD });
  return { callback, codeVerifier, state, nonce, redirectUri };
}

describe('SPEC §5.3 member flow with openid-client (demo-member-cli, student@demo.test)', () => {
  test('discovery names the endpoints of SPEC §4.2 and ES256', () => {
    const md = config.serverMetadata();
    expect(md.issuer).toBe(server.baseUrl);
    expect(md.authorization_endpoint).toBe(`${server.baseUrl}/oauth/authorize`);
    expect(md.token_endpoint).toBe(`${server.baseUrl}/api/oauth/token`);
    expect(md.userinfo_endpoint).toBe(`${server.baseUrl}/api/oauth/userinfo`);
    expect(md.revocation_endpoint).toBe(`${server.baseUrl}/api/oauth/revoke`);
    expect(md.registration_endpoint).toBe(`${server.baseUrl}/api/oauth/register`);
    expect(md.id_token_signing_alg_values_supported).toEqual(['ES256']);
    expect(md.code_challenge_methods_supported).toEqual(['S256']);
  });

  test('authorize → exchange → UserInfo → GraphQL → refresh → revoke', async () => {
    const { callback, codeVerifier, state, nonce } = await authorize();
    // RFC 9207: iss in the redirect, exactly the issuer.
    expect(callback.searchParams.get('iss')).toBe(server.baseUrl);
    expect(callback.searchParams.get('state')).toBe(state);

    const tokens = await client.authorizationCodeGrant(
      config,
      callback,
      { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true },
      { resource: server.baseUrl },
    );
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.access_token.split('.').length).toBe(1); // opaque (DESIGN D3)
    // RFC 6749 §5.1: `scope` names every granted scope, identity scopes included (issue #12).
    expect(tokens.scope?.split(' ').sort()).toEqual(['account:read', 'account:write', 'email', 'openid', 'profile']);

    // SPEC §2.2 id_token: ES256, kid in the JWKS, iss, aud, 600 s, nonce, claims = UserInfo.
    const header = jose.decodeProtectedHeader(tokens.id_token!);
    expect(header.alg).toBe('ES256');
    const jwks = jose.createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
    const { payload } = await jose.jwtVerify(tokens.id_token!, jwks, {
      issuer: server.baseUrl,
      audience: 'demo-member-cli',
    });
    expect(payload.nonce).toBe(nonce);
    expect(payload.exp! - payload.iat!).toBe(600);
    const claims = tokens.claims()!;
    expect(claims.org_id).toBe('demo');
    expect(claims.roles).toEqual(['student']);
    expect(claims.email).toBe('student@demo.test');

    const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    for (const name of ['sub', 'email', 'name', 'org_id', 'roles'] as const) {
      expect(userinfo[name]).toEqual(claims[name]);
    }

    // Introspection shows the audience binding (RFC 7662, SPEC §2.2).
    const introspection = await client.tokenIntrospection(config, tokens.access_token);
    expect(introspection.active).toBe(true);
    expect(introspection.aud).toBe(server.baseUrl);
    expect(introspection.sub).toBe(claims.sub);
    expect(introspection.scope).toBe('account:read account:write');

    const gql = await graphql(tokens.access_token);
    expect(gql.status).toBe(200);
    expect(gql.body.data.viewer.email).toBe('student@demo.test');
    expect(gql.body.data.viewer.id).toBe(claims.sub);
    const nodes = gql.body.data.viewer.enrolledCourses.nodes;
    expect(nodes.map((n: any) => n.slug)).toEqual(['typescript-fundamentals', 'oauth-in-practice', 'sql-basics']);
    expect(nodes[0]).toEqual({
      slug: 'typescript-fundamentals',
      expireDate: '2027-12-31T23:59:59.000Z',
      hasLifetimeAccess: false,
      lastWatchedLecture: { lectureId: 'lec_ts_2', positionSeconds: 312 },
    });
    expect(nodes[1].hasLifetimeAccess).toBe(true);
    expect(nodes[1].expireDate).toBeNull();

    // Refresh: a new access token, a rotated refresh token, and no id_token (SPEC §2.2).
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, { resource: server.baseUrl });
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.id_token).toBeUndefined();
    expect(refreshed.scope?.split(' ').sort()).toEqual(['account:read', 'account:write', 'email', 'openid', 'profile']);
    expect((await graphql(refreshed.access_token)).status).toBe(200);

    // Revocation (RFC 7009, SPEC §5.8) with token + client_id; then both tokens are refused.
    await client.tokenRevocation(config, refreshed.refresh_token!);
    await expect(
      client.refreshTokenGrant(config, refreshed.refresh_token!, { resource: server.baseUrl }),
    ).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const after = await graphql(refreshed.access_token);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const gone = await client.tokenIntrospection(config, refreshed.access_token);
    expect(gone.active).toBe(false);
  });

  test('a replayed authorization code is invalid_grant and revokes what the code issued (DESIGN D3)', async () => {
    const { callback, codeVerifier, state, nonce } = await authorize();
    const tokens = await client.authorizationCodeGrant(
      config,
      callback,
      { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce },
      { resource: server.baseUrl },
    );
    expect((await graphql(tokens.access_token)).status).toBe(200);
    await expect(
      client.authorizationCodeGrant(
        config,
        callback,
        { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce },
        { resource: server.baseUrl },
      ),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await graphql(tokens.access_token)).status).toBe(401);
    await expect(
      client.refreshTokenGrant(config, tokens.refresh_token!, { resource: server.baseUrl }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  test('revoking the access token also ends the refresh token (one grant)', async () => {
    const { callback, codeVerifier, state, nonce } = await authorize();
    const tokens = await client.authorizationCodeGrant(
      config,
      callback,
      { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce },
      { resource: server.baseUrl },
    );
    await client.tokenRevocation(config, tokens.access_token);
    expect((await graphql(tokens.access_token)).status).toBe(401);
    const userinfo = await fetch(`${server.baseUrl}/api/oauth/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(userinfo.status).toBe(401);
    await expect(
      client.refreshTokenGrant(config, tokens.refresh_token!, { resource: server.baseUrl }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });
});
