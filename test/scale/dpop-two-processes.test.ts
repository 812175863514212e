/**
 * RFC 9449 §11.1 across processes (DESIGN D15): two coursegate servers behind one origin share
 * Redis (OIDC state, hence the seen proofs) and PostgreSQL. A proof accepted by one process is a
 * replay at the other; a token bound at one is honoured, with a fresh proof, at the other.
 */
import * as client from 'openid-client';
import { DEMO_PASSWORD, freePort, startTestServer, type TestServer } from '../helpers/server.js';
import {
  TEST_REDIS_URL,
  createTestDatabase,
  deleteRedisPrefix,
  describeWith,
  randomPrefix,
  type TestDatabase,
} from '../helpers/services.js';
import { completeAuthorization } from '../helpers/user-agent.js';

describeWith('redis', 'postgres')('DPoP proofs across two processes on one Redis + one PostgreSQL', () => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  let issuer: string;
  const prefix = randomPrefix();

  beforeAll(async () => {
    database = await createTestDatabase();
    const portA = await freePort();
    issuer = `http://127.0.0.1:${portA}`;
    const env = { REDIS_URL: TEST_REDIS_URL!, REDIS_KEY_PREFIX: prefix, DATABASE_URL: database.url, BASE_URL: issuer };
    a = await startTestServer(env, undefined, portA);
    b = await startTestServer(env);
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
    await deleteRedisPrefix(TEST_REDIS_URL!, prefix);
  });

  test('a proof used at A is refused at B (invalid_dpop_proof); a fresh proof works at B', async () => {
    const config = await client.discovery(new URL(issuer), 'demo-member-cli', undefined, client.None(), {
      execute: [client.allowInsecureRequests],
    });
    const keys = await client.randomDPoPKeyPair('ES256');
    const DPoP = client.getDPoPHandle(config, keys);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: 'http://127.0.0.1:53682/callback',
      scope: 'openid account:read',
      resource: issuer,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const { callback } = await completeAuthorization(url, { email: 'student@demo.test', password: DEMO_PASSWORD });
    const tokens = await client.authorizationCodeGrant(
      config,
      callback,
      { pkceCodeVerifier: verifier, expectedState: state },
      { resource: issuer },
      { DPoP },
    );
    expect(tokens.token_type.toLowerCase()).toBe('dpop');

    // The proof openid-client makes for UserInfo is captured as it goes to A, then replayed at B.
    // The balancer is played by the fetch: `toB` sends a request for the origin to B's port.
    let proof = '';
    let toB = false;
    config[client.customFetch] = async (input, init) => {
      proof = new Headers(init?.headers).get('dpop') ?? '';
      const target = toB ? String(input).replace(issuer, `http://127.0.0.1:${b.port}`) : input;
      return fetch(target, init as RequestInit);
    };
    await client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck, { DPoP });
    expect(proof).not.toBe('');
    const at = (origin: string, dpop: string) =>
      fetch(`${origin}/api/oauth/userinfo`, { headers: { authorization: `DPoP ${tokens.access_token}`, dpop } });
    const replay = await at(`http://127.0.0.1:${b.port}`, proof);
    expect(replay.status).toBe(401);
    expect(replay.headers.get('www-authenticate')).toMatch(/^DPoP algs="[^"]+", error="invalid_dpop_proof"/);

    // A new proof from the same key is accepted by B.
    toB = true;
    const fresh = await client.fetchProtectedResource(
      config,
      tokens.access_token,
      new URL('/api/oauth/userinfo', issuer),
      'GET',
      undefined,
      undefined,
      { DPoP },
    );
    expect(fresh.status).toBe(200);
  });
});
