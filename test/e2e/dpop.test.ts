/**
 * DESIGN D15, RFC 9449: DPoP-bound tokens end to end with the two client libraries that implement
 * DPoP, openid-client (ES256 keys) and oauth4webapi (EdDSA keys), on each OIDC store: the code
 * flow and refresh with proofs, every resource surface (UserInfo, `/account/graphql`, `/mcp`,
 * `/api/v1`) called with proofs, and the refusals of §7.1 (proofs for another method, URL, token
 * or key, a replayed proof, a bound token sent as Bearer), with their `DPoP` challenges.
 */
import { createHash, randomUUID } from 'node:crypto';
import * as jose from 'jose';
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { registerLoopbackClient } from '../helpers/member-token.js';
import { DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { oidcStoreRuns, startOnStore } from '../helpers/services.js';
import { completeAuthorization } from '../helpers/user-agent.js';

const REDIRECT_URI = 'http://127.0.0.1:53682/callback';
const VIEWER = JSON.stringify({ query: '{ viewer { id email } }' });
const ENROLLMENTS = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'my_enrollments', arguments: {} },
});
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

type KeyPair = CryptoKeyPair;

/** A proof made by hand (jose), for the refusals a library would never produce. */
async function handProof(
  keys: KeyPair,
  claims: {
    htm: string;
    htu: string;
    ath?: string;
    jti?: string;
    iat?: number;
    nonce?: string;
    content_digest?: string;
  },
  alg = 'ES256',
): Promise<string> {
  const jwk = await jose.exportJWK(keys.publicKey);
  return new jose.SignJWT({
    jti: claims.jti ?? randomUUID(),
    ...claims,
    iat: claims.iat ?? Math.floor(Date.now() / 1000),
  })
    .setProtectedHeader({ alg, typ: 'dpop+jwt', jwk })
    .sign(keys.privateKey);
}

const ath = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Runs the code flow with openid-client and a DPoP handle; answers the tokens. */
async function codeFlow(
  config: client.Configuration,
  baseUrl: string,
  email: string,
  scope: string,
  DPoP?: client.DPoPHandle,
  site?: string,
) {
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope,
    resource: baseUrl,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
  });
  const { callback } = await completeAuthorization(url, { email, password: DEMO_PASSWORD, site });
  return client.authorizationCodeGrant(
    config,
    callback,
    { pkceCodeVerifier: codeVerifier, expectedState: state },
    { resource: baseUrl },
    DPoP ? { DPoP } : undefined,
  );
}

describe.each(oidcStoreRuns('DPoP end to end'))('RFC 9449 DPoP-bound tokens on $store', (run) => {
  let server: TestServer;
  let base: string;
  let config: client.Configuration;
  let keys: KeyPair;
  let DPoP: client.DPoPHandle;
  let tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;

  beforeAll(async () => {
    server = await startOnStore(run);
    base = server.baseUrl;
    config = await client.discovery(new URL(base), 'demo-member-cli', undefined, client.None(), {
      execute: [client.allowInsecureRequests],
    });
    keys = await client.randomDPoPKeyPair('ES256');
    DPoP = client.getDPoPHandle(config, keys);
    tokens = await codeFlow(config, base, 'student@demo.test', 'openid profile email account:read account:write', DPoP);
  }, 60_000);
  afterAll(() => server?.close());

  test('discovery names the proof algorithms (RFC 9449 §5.1): ES256 and EdDSA at least', () => {
    const algs = config.serverMetadata().dpop_signing_alg_values_supported;
    expect(algs).toEqual(expect.arrayContaining(['ES256', 'EdDSA']));
  });

  test('a token request with a proof gets token_type DPoP and a token bound to the key (cnf.jkt, §5, §6)', async () => {
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
    const introspection = await client.tokenIntrospection(config, tokens.access_token);
    expect(introspection.active).toBe(true);
    expect(introspection.token_type).toBe('DPoP');
    expect((introspection.cnf as { jkt?: string } | undefined)?.jkt).toBe(
      await jose.calculateJwkThumbprint(await jose.exportJWK(keys.publicKey)),
    );
  });

  test('UserInfo, /account/graphql and /mcp accept the bound token with openid-client proofs', async () => {
    const userinfo = await client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck, { DPoP });
    expect(userinfo.email).toBe('student@demo.test');

    const gql = await client.fetchProtectedResource(
      config,
      tokens.access_token,
      new URL('/account/graphql', base),
      'POST',
      VIEWER,
      new Headers({ 'content-type': 'application/json' }),
      { DPoP },
    );
    expect(gql.status).toBe(200);
    expect(((await gql.json()) as { data: { viewer: { email: string } } }).data.viewer.email).toBe('student@demo.test');

    const mcp = await client.fetchProtectedResource(
      config,
      tokens.access_token,
      new URL('/mcp', base),
      'POST',
      ENROLLMENTS,
      new Headers(MCP_HEADERS),
      { DPoP },
    );
    expect(mcp.status).toBe(200);
    expect(await mcp.text()).toContain('typescript-fundamentals');
  });

  test('refresh with a proof of the same key gives a new bound pair', async () => {
    const flow = await codeFlow(config, base, 'student@demo.test', 'openid account:read', DPoP);
    const refreshed = await client.refreshTokenGrant(config, flow.refresh_token!, { resource: base }, { DPoP });
    expect(refreshed.token_type.toLowerCase()).toBe('dpop');
    const userinfo = await client.fetchUserInfo(config, refreshed.access_token, client.skipSubjectCheck, { DPoP });
    expect(userinfo.sub).toBeTruthy();
  });

  test("a public client's refresh token is useless without its key (§5)", async () => {
    const flow = await codeFlow(config, base, 'student@demo.test', 'openid account:read', DPoP);
    await expect(client.refreshTokenGrant(config, flow.refresh_token!, { resource: base })).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const thief = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
    await expect(
      client.refreshTokenGrant(config, flow.refresh_token!, { resource: base }, { DPoP: thief }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    // The rightful holder still refreshes.
    const ok = await client.refreshTokenGrant(config, flow.refresh_token!, { resource: base }, { DPoP });
    expect(ok.access_token).toBeTruthy();
  });

  test('the bound token sent as Bearer is refused: 401 invalid_token with a DPoP challenge (§7.1)', async () => {
    for (const [path, init] of [
      ['/api/oauth/userinfo', {}],
      ['/account/graphql', { method: 'POST', body: VIEWER, headers: { 'content-type': 'application/json' } }],
      ['/mcp', { method: 'POST', body: ENROLLMENTS, headers: MCP_HEADERS }],
    ] as const) {
      const res = await fetch(`${base}${path}`, {
        ...init,
        headers: { ...('headers' in init ? init.headers : {}), authorization: `Bearer ${tokens.access_token}` },
      });
      expect([path, res.status]).toEqual([path, 401]);
      const challenge = res.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^DPoP algs="ES256 EdDSA[^"]*", error="invalid_token"/);
      expect(challenge).toContain('resource_metadata=');
    }
  });

  describe('proofs the resource refuses (§4.3, §7.1)', () => {
    const userinfo = () => `${base}/api/oauth/userinfo`;
    const send = (proof: string, token = tokens.access_token, url = userinfo(), method = 'GET') =>
      fetch(url, { method, headers: { authorization: `DPoP ${token}`, dpop: proof } });
    const refusal = async (res: Response) => ({
      status: res.status,
      error: /error="([^"]+)"/.exec(res.headers.get('www-authenticate') ?? '')?.[1],
      scheme: (res.headers.get('www-authenticate') ?? '').split(' ')[0],
    });

    test('a hand-made proof of the right key is accepted once; its replay is refused', async () => {
      const proof = await handProof(keys, { htm: 'GET', htu: userinfo(), ath: ath(tokens.access_token) });
      expect((await send(proof)).status).toBe(200);
      expect(await refusal(await send(proof))).toEqual({ status: 401, error: 'invalid_dpop_proof', scheme: 'DPoP' });
    });

    test('htu is compared after normalisation, without query (§4.3)', async () => {
      const htu = `${base.replace('http://', 'HTTP://')}/api/oauth/userinfo?x=1#f`;
      const proof = await handProof(keys, { htm: 'GET', htu, ath: ath(tokens.access_token) });
      expect((await send(proof)).status).toBe(200);
    });

    test('another method, URL, token or key, a stale iat, no proof: each refused', async () => {
      const a = ath(tokens.access_token);
      const cases: Array<[string, Promise<Response>, string]> = [
        ['method', send(await handProof(keys, { htm: 'POST', htu: userinfo(), ath: a })), 'invalid_dpop_proof'],
        [
          'url',
          send(await handProof(keys, { htm: 'GET', htu: `${base}/account/graphql`, ath: a })),
          'invalid_dpop_proof',
        ],
        [
          'token',
          send(await handProof(keys, { htm: 'GET', htu: userinfo(), ath: ath('another') })),
          'invalid_dpop_proof',
        ],
        [
          'iat',
          send(
            await handProof(keys, { htm: 'GET', htu: userinfo(), ath: a, iat: Math.floor(Date.now() / 1000) - 3600 }),
          ),
          'invalid_dpop_proof',
        ],
        [
          'key',
          send(await handProof(await client.randomDPoPKeyPair('ES256'), { htm: 'GET', htu: userinfo(), ath: a })),
          'invalid_token',
        ],
        [
          'no proof',
          fetch(userinfo(), { headers: { authorization: `DPoP ${tokens.access_token}` } }),
          'invalid_dpop_proof',
        ],
      ];
      for (const [name, pending, error] of cases) {
        expect([name, await refusal(await pending)]).toEqual([name, { status: 401, error, scheme: 'DPoP' }]);
      }
    });

    test('a DPoP request whose token lacks the scope: 403 insufficient_scope challenged in the DPoP scheme (§7.1)', async () => {
      const flow = await codeFlow(config, base, 'student@demo.test', 'openid account:read', DPoP);
      const mutation = JSON.stringify({ query: 'mutation { updateDisplayName(input: { name: "X" }) { __typename } }' });
      const url = `${base}/account/graphql`;
      const proof = await handProof(keys, { htm: 'POST', htu: url, ath: ath(flow.access_token) });
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `DPoP ${flow.access_token}`, dpop: proof, 'content-type': 'application/json' },
        body: mutation,
      });
      expect(await refusal(res)).toEqual({ status: 403, error: 'insufficient_scope', scheme: 'DPoP' });
      expect(res.headers.get('www-authenticate')).toMatch(/algs="[^"]*ES256[^"]*", .*scope="account:write"/);

      // The MCP step-up of a write tool, in the same scheme.
      const call = JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'record_progress', arguments: { courseSlug: 'typescript-fundamentals', lectureId: 'x' } },
      });
      const mcpUrl = `${base}/mcp`;
      const stepUp = await fetch(mcpUrl, {
        method: 'POST',
        headers: {
          ...MCP_HEADERS,
          authorization: `DPoP ${flow.access_token}`,
          dpop: await handProof(keys, { htm: 'POST', htu: mcpUrl, ath: ath(flow.access_token) }),
        },
        body: call,
      });
      expect(await refusal(stepUp)).toEqual({ status: 403, error: 'insufficient_scope', scheme: 'DPoP' });
    });

    test('/mcp checks a content_digest claim against the JSON-RPC body (MCP DPoP profile)', async () => {
      const digest = (body: string) => `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
      const post = async (contentDigest: string) =>
        fetch(`${base}/mcp`, {
          method: 'POST',
          body: ENROLLMENTS,
          headers: {
            ...MCP_HEADERS,
            authorization: `DPoP ${tokens.access_token}`,
            dpop: await handProof(keys, {
              htm: 'POST',
              htu: `${base}/mcp`,
              ath: ath(tokens.access_token),
              content_digest: contentDigest,
            }),
          },
        });
      expect((await post(digest(ENROLLMENTS))).status).toBe(200);
      expect(await refusal(await post(digest('{"another":"body"}')))).toEqual({
        status: 401,
        error: 'invalid_dpop_proof',
        scheme: 'DPoP',
      });
    });
  });

  test('oauth4webapi (EdDSA): code flow, refresh, UserInfo and /api/v1 with proofs', async () => {
    const clientId = await registerLoopbackClient(base, 'dpop cli', { application_type: 'native' });
    const as = await oauth.processDiscoveryResponse(
      new URL(base),
      await oauth.discoveryRequest(new URL(base), { [oauth.allowInsecureRequests]: true }),
    );
    const c: oauth.Client = { client_id: clientId };
    const dpop = oauth.DPoP(c, await oauth.generateKeyPair('EdDSA'));
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'openid school:read',
      resource: base,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    }).toString();
    const { callback } = await completeAuthorization(url, {
      email: 'owner@demo.test',
      password: DEMO_PASSWORD,
      site: 'demo',
    });
    const params = oauth.validateAuthResponse(as, c, callback, state);
    const opts = { DPoP: dpop, [oauth.allowInsecureRequests]: true, additionalParameters: { resource: base } };
    const exchanged = await oauth.processAuthorizationCodeResponse(
      as,
      c,
      await oauth.authorizationCodeGrantRequest(as, c, oauth.None(), params, REDIRECT_URI, verifier, opts),
    );
    expect(exchanged.token_type).toBe('dpop');

    const site = await oauth.protectedResourceRequest(
      exchanged.access_token,
      'GET',
      new URL('/api/v1/site', base),
      undefined,
      undefined,
      { DPoP: dpop, [oauth.allowInsecureRequests]: true },
    );
    expect(site.status).toBe(200);
    expect(((await site.json()) as { id?: string }).id).toBe('demo');

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      c,
      await oauth.refreshTokenGrantRequest(as, c, oauth.None(), exchanged.refresh_token!, opts),
    );
    expect(refreshed.token_type).toBe('dpop');
    const info = await oauth.userInfoRequest(as, c, refreshed.access_token, {
      DPoP: dpop,
      [oauth.allowInsecureRequests]: true,
    });
    expect(info.status).toBe(200);
    // The /api/v1 call with the refreshed token, under a Bearer header, is refused.
    const asBearer = await fetch(`${base}/api/v1/site`, {
      headers: { authorization: `Bearer ${refreshed.access_token}` },
    });
    expect(asBearer.status).toBe(401);
    expect(asBearer.headers.get('www-authenticate')).toMatch(/^DPoP /);
  }, 30_000);

  test('a host without DPoP still gets Bearer tokens that work (no policy requires DPoP)', async () => {
    const plain = await codeFlow(config, base, 'student@demo.test', 'openid account:read');
    expect(plain.token_type.toLowerCase()).toBe('bearer');
    const res = await fetch(`${base}/api/oauth/userinfo`, {
      headers: { authorization: `Bearer ${plain.access_token}` },
    });
    expect(res.status).toBe(200);
    const introspection = await client.tokenIntrospection(config, plain.access_token);
    expect(introspection.token_type).toBe('Bearer');
    expect(introspection.cnf).toBeUndefined();
  });
});
