/**
 * DESIGN D15 per member app: an operator requires DPoP of one application through the admin API
 * (`dpopRequired`) or the `/admin` form (the "Require DPoP" switch); its token requests without a
 * proof get `invalid_dpop_proof`. The connected-apps pages (the member's and the operator's) and
 * the admin API show that a grant is key-bound; introspection answers `cnf.jkt` and `token_type`.
 */
import * as client from 'openid-client';
import { AdminBrowser, callApi, operatorToken } from '../helpers/operator-surfaces.js';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { completeAuthorization } from '../helpers/user-agent.js';

const REDIRECT_URI = 'http://127.0.0.1:53682/callback';

let server: TestServer;
let base: string;
let operator: string;

beforeAll(async () => {
  server = await startTestServer();
  base = server.baseUrl;
  operator = (await operatorToken(base, 'owner@demo.test', 'demo', 'dpop admin cli', 'openid school:read school:write'))
    .token;
}, 60_000);
afterAll(() => server?.close());

/** Authorization code of student@demo.test for `clientId`, then its exchange with openid-client. */
async function signIn(clientId: string, DPoP?: client.DPoPHandle) {
  const config = await client.discovery(new URL(base), clientId, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid account:read',
    resource: base,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const { callback } = await completeAuthorization(url, { email: 'student@demo.test', password: DEMO_PASSWORD });
  const tokens = client.authorizationCodeGrant(
    config,
    callback,
    { pkceCodeVerifier: verifier, expectedState: state },
    { resource: base },
    DPoP ? { DPoP } : undefined,
  );
  return { config, tokens };
}

describe('DESIGN D15 "Require DPoP" of a member app', () => {
  let clientId: string;

  test('the admin API creates an application with dpopRequired and answers it', async () => {
    const created = await callApi(base, operator, '/api/v1/oauth-applications', 'POST', {
      clientName: 'Key-bound study helper',
      redirectUris: ['http://127.0.0.1/callback'],
      scopes: ['openid', 'account:read'],
      dpopRequired: true,
    });
    expect(created.status).toBe(201);
    expect(created.body.dpopRequired).toBe(true);
    clientId = String(created.body.clientId);
    const read = await callApi(base, operator, `/api/v1/oauth-applications/${clientId}`);
    expect(read.body.dpopRequired).toBe(true);
  });

  test('without a proof its token request is invalid_dpop_proof; with one it gets a bound token', async () => {
    await expect((await signIn(clientId)).tokens).rejects.toMatchObject({
      error: 'invalid_dpop_proof',
      error_description: expect.stringContaining('DPoP header'),
    });
    const keys = await client.randomDPoPKeyPair('ES256');
    const config = await client.discovery(new URL(base), clientId, undefined, client.None(), {
      execute: [client.allowInsecureRequests],
    });
    const tokens = await (await signIn(clientId, client.getDPoPHandle(config, keys))).tokens;
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
    // RFC 9449 §6.2: introspection names the binding.
    const introspection = await client.tokenIntrospection(config, tokens.access_token);
    expect(introspection.token_type).toBe('DPoP');
    expect((introspection.cnf as { jkt: string }).jkt).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test('the connected-apps pages and the admin API show the grant as key-bound', async () => {
    const grants = await callApi(base, operator, `/api/v1/connected-grants?clientId=${clientId}`);
    const bound = (grants.body.grants as Array<{ dpopJkt: string | null }>).filter((g) => g.dpopJkt);
    expect(bound.length).toBeGreaterThan(0);

    const admin = new AdminBrowser(base);
    await admin.signIn('owner@demo.test');
    const page = await admin.get('/admin/demo/connections');
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/Key-bound study helper<\/strong>[^<]*<span class="badge"[^>]*>key-bound<\/span>/);

    const member = new AdminBrowser(base);
    await member.signIn('student@demo.test');
    const mine = await member.get('/account/connections');
    expect(mine.status).toBe(200);
    expect(mine.html).toMatch(/Key-bound study helper<\/strong>.*key-bound<\/span>/);
  });

  test('the /admin form shows the switch; turning it off lets the app use Bearer tokens again', async () => {
    const admin = new AdminBrowser(base);
    await admin.signIn('owner@demo.test');
    const edit = await admin.get(`/admin/demo/apps/${clientId}`);
    expect(edit.html).toMatch(/name="dpop_required" value="on" checked/);
    const csrf = /name="csrf" value="([^"]+)"/.exec(edit.html)![1]!;
    const saved = await admin.post(`/admin/demo/apps/${clientId}`, {
      csrf,
      client_name: 'Key-bound study helper',
      redirect_uris: 'http://127.0.0.1/callback',
      scopes: ['openid', 'account:read'],
    });
    expect(saved.status).toBe(303);
    expect((await callApi(base, operator, `/api/v1/oauth-applications/${clientId}`)).body.dpopRequired).toBe(false);
    const tokens = await (await signIn(clientId)).tokens;
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
  });
});
