/**
 * DESIGN D15 policy and server nonces (RFC 9449 §8, §9) with `DPOP_NONCES=true` and
 * `DPOP_REQUIRED=loopback`: the first proof without a nonce is answered `use_dpop_nonce` with a
 * `DPoP-Nonce` header at the token endpoint and at the resources, and the libraries' retry
 * succeeds; a loopback client that sends no proof gets `invalid_dpop_proof` saying what to send;
 * a client of a kind the policy does not name still works with Bearer tokens.
 */
import { createHash, randomUUID } from 'node:crypto';
import * as jose from 'jose';
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { registerLoopbackClient } from '../helpers/member-token.js';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { completeAuthorization } from '../helpers/user-agent.js';

const REDIRECT_URI = 'http://127.0.0.1:53682/callback';

let server: TestServer;
let base: string;

beforeAll(async () => {
  server = await startTestServer({ DPOP_NONCES: 'true', DPOP_REQUIRED: 'loopback' });
  base = server.baseUrl;
});
afterAll(() => server?.close());

async function handProof(keys: CryptoKeyPair, claims: Record<string, unknown>): Promise<string> {
  return new jose.SignJWT({ jti: randomUUID(), iat: Math.floor(Date.now() / 1000), ...claims })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: await jose.exportJWK(keys.publicKey) })
    .sign(keys.privateKey);
}

/** An authorization code for `clientId` (student@demo.test, or `email` at `site`). */
async function authorize(clientId: string, scope: string, email = 'student@demo.test', site?: string) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL('/oauth/authorize', base);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope,
    resource: base,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  }).toString();
  const { callback } = await completeAuthorization(url, { email, password: DEMO_PASSWORD, site });
  return { callback, verifier, state };
}

describe('RFC 9449 §8, §9 server nonces (DPOP_NONCES=true)', () => {
  test('a first proof without nonce: use_dpop_nonce + DPoP-Nonce; openid-client retries and gets a bound token', async () => {
    const keys = await client.randomDPoPKeyPair('ES256');
    // The raw first answer of the token endpoint (oidc-provider's nonce check).
    const first = await fetch(`${base}/api/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        dpop: await handProof(keys, { htm: 'POST', htu: `${base}/api/oauth/token` }),
      },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x', client_id: 'demo-member-cli' }),
    });
    expect(first.status).toBe(400);
    expect(((await first.json()) as { error: string }).error).toBe('use_dpop_nonce');
    const tokenNonce = first.headers.get('dpop-nonce');
    expect(tokenNonce).toBeTruthy();

    const config = await client.discovery(new URL(base), 'demo-member-cli', undefined, client.None(), {
      execute: [client.allowInsecureRequests],
    });
    const DPoP = client.getDPoPHandle(config, keys);
    const { callback, verifier, state } = await authorize('demo-member-cli', 'openid account:read');
    const tokens = await client.authorizationCodeGrant(
      config,
      callback,
      { pkceCodeVerifier: verifier, expectedState: state },
      { resource: base },
      { DPoP },
    );
    expect(tokens.token_type.toLowerCase()).toBe('dpop');

    // The resource's own first answer to a proof without nonce.
    const ath = createHash('sha256').update(tokens.access_token).digest('base64url');
    const htu = `${base}/api/oauth/userinfo`;
    const noNonce = await fetch(htu, {
      headers: { authorization: `DPoP ${tokens.access_token}`, dpop: await handProof(keys, { htm: 'GET', htu, ath }) },
    });
    expect(noNonce.status).toBe(401);
    expect(noNonce.headers.get('www-authenticate')).toMatch(/^DPoP algs="[^"]+", error="use_dpop_nonce"/);
    const nonce = noNonce.headers.get('dpop-nonce');
    expect(nonce).toBeTruthy();
    // One origin, one nonce: the token endpoint's nonce is good at the resource too.
    for (const n of [nonce, tokenNonce]) {
      const ok = await fetch(htu, {
        headers: {
          authorization: `DPoP ${tokens.access_token}`,
          dpop: await handProof(keys, { htm: 'GET', htu, ath, nonce: n }),
        },
      });
      expect(ok.status).toBe(200);
    }

    // A fresh handle (no nonce known): openid-client's retry after use_dpop_nonce succeeds.
    const fresh = client.getDPoPHandle(config, keys);
    const gql = await client.fetchProtectedResource(
      config,
      tokens.access_token,
      new URL('/account/graphql', base),
      'POST',
      JSON.stringify({ query: '{ viewer { email } }' }),
      new Headers({ 'content-type': 'application/json' }),
      { DPoP: fresh },
    );
    expect(gql.status).toBe(200);
    const refreshed = await client.refreshTokenGrant(
      config,
      tokens.refresh_token!,
      { resource: base },
      { DPoP: client.getDPoPHandle(config, keys) },
    );
    expect(refreshed.token_type.toLowerCase()).toBe('dpop');
  });
});

/** Exchanges a code of `clientId` without a proof. */
async function exchangeWithoutProof(clientId: string) {
  const { callback, verifier } = await authorize(clientId, 'openid school:read', 'owner@demo.test', 'demo');
  return fetch(`${base}/api/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: verifier,
      resource: base,
    }),
  });
}

describe('DESIGN D15 DPOP_REQUIRED=loopback', () => {
  let withoutDpop: string;

  test('a loopback client sending no proof gets invalid_dpop_proof that says what to send', async () => {
    const clientId = await registerLoopbackClient(base, 'cli without dpop', { application_type: 'native' });
    withoutDpop = clientId;
    const { callback, verifier } = await authorize(clientId, 'openid school:read', 'owner@demo.test', 'demo');
    const res = await fetch(`${base}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: REDIRECT_URI,
        client_id: clientId,
        code_verifier: verifier,
        resource: base,
      }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_dpop_proof');
    expect(body.error_description).toMatch(/send a DPoP header with a proof JWT/);
  });

  test('the same loopback client with oauth4webapi proofs (nonce retry included) reaches /api/v1', async () => {
    const clientId = await registerLoopbackClient(base, 'cli with dpop', { application_type: 'native' });
    const as = await oauth.processDiscoveryResponse(
      new URL(base),
      await oauth.discoveryRequest(new URL(base), { [oauth.allowInsecureRequests]: true }),
    );
    const c: oauth.Client = { client_id: clientId };
    const DPoP = oauth.DPoP(c, await oauth.generateKeyPair('ES256'));
    const { callback, verifier, state } = await authorize(clientId, 'openid school:read', 'owner@demo.test', 'demo');
    const params = oauth.validateAuthResponse(as, c, callback, state);
    const opts = { DPoP, [oauth.allowInsecureRequests]: true, additionalParameters: { resource: base } };
    const request = () =>
      oauth.authorizationCodeGrantRequest(as, c, oauth.None(), params, REDIRECT_URI, verifier, opts);
    let tokens: oauth.TokenEndpointResponse;
    try {
      tokens = await oauth.processAuthorizationCodeResponse(as, c, await request());
      throw new Error('expected use_dpop_nonce first');
    } catch (err) {
      // oauth4webapi: the handle kept the DPoP-Nonce; the caller retries (its documented pattern).
      if (!oauth.isDPoPNonceError(err)) throw err;
      tokens = await oauth.processAuthorizationCodeResponse(as, c, await request());
    }
    expect(tokens.token_type).toBe('dpop');
    const site = await oauth.protectedResourceRequest(
      tokens.access_token,
      'GET',
      new URL('/api/v1/site', base),
      undefined,
      undefined,
      { DPoP, [oauth.allowInsecureRequests]: true },
    );
    expect(site.status).toBe(200);
  });

  test('a member client (a kind the policy does not name) still works with Bearer tokens', async () => {
    const { callback, verifier } = await authorize('demo-member-cli', 'openid account:read');
    const res = await fetch(`${base}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: REDIRECT_URI,
        client_id: 'demo-member-cli',
        code_verifier: verifier,
        resource: base,
      }),
    });
    const body = (await res.json()) as { token_type: string; access_token: string };
    expect(res.status).toBe(200);
    expect(body.token_type).toBe('Bearer');
    const info = await fetch(`${base}/api/oauth/userinfo`, {
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(info.status).toBe(200);
  });

  test('the setting applies to clients already registered: without it the same client gets Bearer tokens', async () => {
    const dataDir = server.dataDir;
    await server.close({ keepData: true });
    server = await startTestServer({}, dataDir);
    base = server.baseUrl;
    const res = await exchangeWithoutProof(withoutDpop);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { token_type: string }).token_type).toBe('Bearer');
  });
});
