/**
 * SPEC §5.4 member clients, issue 11: a confidential OAuth application created through the admin
 * API gets a secret shown once; the token endpoint then needs it (client_secret_post, PKCE still);
 * a rotation ends the old secret at once; an edit changes name, redirect URIs and scopes and keeps
 * the secret. A public application has no secret to rotate (409).
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { memberToken, registerLoopbackClient } from '../helpers/member-token.js';
import { completeAuthorization } from '../helpers/user-agent.js';
import { pkcePair, randomString } from '../helpers/pkce.js';

let server: TestServer;
let base: string;
let operator: string;
const REDIRECT = 'http://127.0.0.1:53682/callback';

beforeAll(async () => {
  server = await startTestServer();
  base = server.baseUrl;
  const clientId = await registerLoopbackClient(base, 'apps script');
  operator = await memberToken({
    baseUrl: base,
    email: 'owner@demo.test',
    clientId,
    scope: 'openid school:read school:write',
    site: 'demo',
  });
}, 60_000);
afterAll(() => server.close());

const api = (path: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) =>
  fetch(new URL(path, base), {
    method,
    headers: {
      authorization: `Bearer ${operator}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body ? JSON.stringify(body) : undefined,
  });

/** Authorizes `clientId` as a member (real login + consent pages) and redeems the code with `secret`. */
async function exchange(clientId: string, secret?: string): Promise<Response> {
  const { verifier, challenge } = pkcePair();
  const state = randomString(16);
  const url = new URL('/oauth/authorize', base);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: 'openid account:read',
    resource: base,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
  }).toString();
  const { callback } = await completeAuthorization(url, { email: 'student@demo.test', password: DEMO_PASSWORD });
  const form = {
    grant_type: 'authorization_code',
    code: callback.searchParams.get('code')!,
    redirect_uri: REDIRECT,
    client_id: clientId,
    code_verifier: verifier,
    resource: base,
  };
  return fetch(`${base}/api/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(secret === undefined ? form : { ...form, client_secret: secret }).toString(),
  });
}

describe('SPEC §5.4 confidential OAuth applications through /api/v1', () => {
  test('the secret is shown once, needed at the token endpoint, and rotated', async () => {
    const created = await api('/api/v1/oauth-applications', 'POST', {
      clientName: 'Grading service',
      redirectUris: [REDIRECT],
      scopes: ['openid', 'account:read'],
      confidential: true,
    });
    expect(created.status).toBe(201);
    const app = (await created.json()) as { clientId: string; clientSecret: string; confidential: boolean };
    expect(app.confidential).toBe(true);
    expect(app.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const read = (await (await api(`/api/v1/oauth-applications/${app.clientId}`)).json()) as Record<string, unknown>;
    expect(read).toMatchObject({ clientId: app.clientId, confidential: true });
    expect(read).not.toHaveProperty('clientSecret');

    const without = await exchange(app.clientId);
    expect(without.status).toBe(401);
    expect(((await without.json()) as { error: string }).error).toBe('invalid_client');
    expect((await exchange(app.clientId, app.clientSecret)).status).toBe(200);

    const rotated = await api(`/api/v1/oauth-applications/${app.clientId}/secret`, 'POST');
    expect(rotated.status).toBe(200);
    const { clientSecret } = (await rotated.json()) as { clientSecret: string };
    expect(clientSecret).not.toBe(app.clientSecret);
    expect((await exchange(app.clientId, app.clientSecret)).status).toBe(401);
    expect((await exchange(app.clientId, clientSecret)).status).toBe(200);

    // Edit: name, redirect URIs and scopes change; the secret stays; a stale If-Match is refused.
    const etag = (await api(`/api/v1/oauth-applications/${app.clientId}`)).headers.get('etag')!;
    const edited = await api(
      `/api/v1/oauth-applications/${app.clientId}`,
      'PATCH',
      {
        clientName: 'Grader',
        redirectUris: [REDIRECT, 'https://grader.example.com/cb'],
        scopes: ['openid', 'email', 'account:read'],
      },
      { 'if-match': etag },
    );
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({
      clientName: 'Grader',
      redirectUris: [REDIRECT, 'https://grader.example.com/cb'],
      scope: 'openid email account:read',
      confidential: true,
    });
    expect(
      (await api(`/api/v1/oauth-applications/${app.clientId}`, 'PATCH', { clientName: 'Stale' }, { 'if-match': etag }))
        .status,
    ).toBe(412);
    const badUri = await api(`/api/v1/oauth-applications/${app.clientId}`, 'PATCH', {
      redirectUris: ['http://evil.example/cb'],
    });
    expect(badUri.status).toBe(400);
    expect(JSON.stringify(await badUri.json())).toContain('redirectUris');
    expect((await exchange(app.clientId, clientSecret)).status).toBe(200);
  }, 30_000);

  test('a replayed Idempotency-Key answers the same application without its secret, which is never stored in the idempotency record', async () => {
    const body = {
      clientName: 'Retrying script',
      redirectUris: [REDIRECT],
      scopes: ['openid', 'account:read'],
      confidential: true,
    };
    const first = await api('/api/v1/oauth-applications', 'POST', body, { 'idempotency-key': 'apps-retry-1' });
    expect(first.status).toBe(201);
    const app = (await first.json()) as { clientId: string; clientSecret: string };
    expect(app.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const replay = await api('/api/v1/oauth-applications', 'POST', body, { 'idempotency-key': 'apps-retry-1' });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('location')).toBe(first.headers.get('location'));
    const replayed = (await replay.json()) as Record<string, unknown>;
    expect(replayed).toMatchObject({ clientId: app.clientId, confidential: true });
    expect(replayed).not.toHaveProperty('clientSecret');
    const db = new Database(path.join(server.dataDir, 'coursegate.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT * FROM idempotency_keys').all();
      expect(JSON.stringify(rows)).toContain(app.clientId);
      expect(JSON.stringify(rows)).not.toContain(app.clientSecret);
    } finally {
      db.close();
    }
  });

  test('a public application has no secret: none shown, rotation refused with 409', async () => {
    const created = await api('/api/v1/oauth-applications', 'POST', {
      clientName: 'CLI',
      redirectUris: [REDIRECT],
      scopes: ['openid', 'account:read'],
    });
    const app = (await created.json()) as Record<string, unknown>;
    expect(app).toMatchObject({ confidential: false });
    expect(app).not.toHaveProperty('clientSecret');
    const rotate = await api(`/api/v1/oauth-applications/${String(app.clientId)}/secret`, 'POST');
    expect(rotate.status).toBe(409);
    expect(await rotate.json()).toMatchObject({ status: 409 });
  });
});
