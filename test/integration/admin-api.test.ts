/**
 * Admin API `/api/v1` (DESIGN D4: each route names its scope) and SPEC §5.4 member clients: an
 * operator switches on the "MCP connections" beta, creates an OAuth application, a member of that
 * site authorizes it, and deleting it ends it.
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { memberToken } from '../helpers/member-token.js';
import { pkcePair } from '../helpers/pkce.js';

let server: TestServer;
let base: string;
let operatorClient: string;

beforeAll(async () => {
  server = await startTestServer();
  base = server.baseUrl;
  const reg = await fetch(`${base}/api/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'admin cli',
      redirect_uris: ['http://127.0.0.1/callback'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    }),
  });
  expect(reg.status).toBe(201);
  operatorClient = ((await reg.json()) as { client_id: string }).client_id;
});
afterAll(() => server.close());

const operatorToken = (site: string, scope: string) =>
  memberToken({ baseUrl: base, email: 'owner@demo.test', clientId: operatorClient, scope, site });

function call(method: string, path: string, token?: string, body?: unknown) {
  return fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('DESIGN D4: every admin route names its scope', () => {
  test('no token → 401 invalid_token with resource_metadata', async () => {
    const res = await call('GET', '/api/v1/site');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain(
      `resource_metadata="${base}/.well-known/oauth-protected-resource"`,
    );
  });

  test('read token: GET works, PATCH → 403 insufficient_scope scope="school:write"', async () => {
    const token = await operatorToken('demo', 'openid school:read');
    const get = await call('GET', '/api/v1/site', token);
    expect(get.status).toBe(200);
    expect(await get.json()).toEqual({ id: 'demo', name: 'Demo Academy', mcpConnectionsEnabled: true });
    const patch = await call('PATCH', '/api/v1/site', token, { name: 'x' });
    expect(patch.status).toBe(403);
    expect(patch.headers.get('www-authenticate')).toContain('scope="school:write"');
    expect((await patch.json()).error).toBe('insufficient_scope');
  });

  test('a member token (account scopes only) cannot reach the admin API', async () => {
    const token = await memberToken({ baseUrl: base, email: 'student@demo.test' });
    const res = await call('GET', '/api/v1/oauth-applications', token);
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('scope="school:read"');
  });
});

test('/openapi.json describes every admin route with its scope', async () => {
  const doc = await (await fetch(`${base}/openapi.json`)).json();
  expect(doc.paths['/api/v1/site'].patch.security).toEqual([{ oauth2: ['school:write'] }]);
  expect(doc.paths['/api/v1/oauth-applications'].post.security).toEqual([{ oauth2: ['school:write'] }]);
  expect(doc.paths['/api/v1/oauth-applications/{clientId}'].delete).toBeDefined();
  const map = await (await fetch(`${base}/.well-known/coursegate-scope-map.json`)).json();
  expect(map.scopes['school:write'].admin_operations).toEqual(
    expect.arrayContaining([
      'PATCH /api/v1/site',
      'POST /api/v1/oauth-applications',
      'DELETE /api/v1/oauth-applications/{clientId}',
    ]),
  );
  expect(map.scopes['account:read'].admin_operations).toEqual([]);
});

describe('SPEC §5.4 member clients through the admin API', () => {
  test('beta off → 409; beta on → create; a member of the site authorizes it; delete ends it', async () => {
    const token = await operatorToken('second', 'openid school:read school:write');
    const off = await call('GET', '/api/v1/site', token);
    expect((await off.json()).mcpConnectionsEnabled).toBe(false);
    const app = {
      clientName: 'Second School app',
      redirectUris: ['http://127.0.0.1/callback'],
      scopes: ['openid', 'account:read'],
    };
    const refused = await call('POST', '/api/v1/oauth-applications', token, app);
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toBe('feature_disabled');

    const on = await call('PATCH', '/api/v1/site', token, { mcpConnectionsEnabled: true });
    expect(on.status).toBe(200);
    expect((await on.json()).mcpConnectionsEnabled).toBe(true);
    const created = await call('POST', '/api/v1/oauth-applications', token, app);
    expect(created.status).toBe(201);
    const { clientId, scope } = (await created.json()) as { clientId: string; scope: string };
    expect(scope).toBe('openid account:read');
    const list = await (await call('GET', '/api/v1/oauth-applications', token)).json();
    expect(list.applications.map((a: { clientId: string }) => a.clientId)).toContain(clientId);

    // A student of Second School authorizes it and reads her own data there.
    const memberAt = await memberToken({
      baseUrl: base,
      email: 'learner@second.test',
      clientId,
      scope: 'openid account:read',
    });
    const viewer = await fetch(`${base}/account/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${memberAt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ viewer { id site { id } } }' }),
    });
    expect((await viewer.json()).data.viewer).toEqual({ id: 'usr_learner2', site: { id: 'second' } });

    // Someone without a role at Second School is refused (DESIGN D2).
    await expect(
      memberToken({ baseUrl: base, email: 'student@demo.test', clientId, scope: 'openid account:read' }),
    ).rejects.toThrow(/access_denied/);

    const deleted = await call('DELETE', `/api/v1/oauth-applications/${clientId}`, token);
    expect(deleted.status).toBe(204);
    const { challenge } = pkcePair();
    const gone = await fetch(
      `${base}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: 'http://127.0.0.1:5000/callback', scope: 'account:read', resource: base, code_challenge: challenge, code_challenge_method: 'S256', state: 's' })}`,
      { redirect: 'manual' },
    );
    expect(gone.status).toBe(400);
    expect(gone.headers.get('location')).toBeNull();
    expect((await call('DELETE', `/api/v1/oauth-applications/${clientId}`, token)).status).toBe(404);
  });

  test('bad bodies → 400 invalid_request naming the field; operator scopes are not member scopes', async () => {
    const token = await operatorToken('demo', 'openid school:write');
    const cases: unknown[] = [
      { clientName: 'x', redirectUris: ['https://ok.example/cb'], scopes: ['courses:read'] },
      { clientName: 'x', redirectUris: ['http://evil.example/cb'], scopes: ['account:read'] },
      { clientName: 'x', redirectUris: [], scopes: ['account:read'] },
      { clientName: '', redirectUris: ['https://ok.example/cb'], scopes: ['account:read'] },
      { clientName: 'x', redirectUris: ['https://ok.example/cb'], scopes: ['openid'] },
      { clientName: 'x', redirectUris: ['https://ok.example/cb'], scopes: ['account:read'], extra: true },
      '{not json',
      '[]',
    ];
    for (const body of cases) {
      const res = await call('POST', '/api/v1/oauth-applications', token, body);
      if (res.status !== 400) throw new Error(`${JSON.stringify(body)} → ${res.status} ${await res.text()}`);
      const json = (await res.json()) as { error: string; error_description: string };
      expect(json.error).toBe('invalid_request');
      expect(json.error_description.length).toBeGreaterThan(3);
    }
  });

  test('an operator whose role was removed loses admin access at once (access_denied)', async () => {
    const token = await operatorToken('demo', 'openid school:read');
    await server.store.db
      .deleteFrom('memberships')
      .where('user_id', '=', 'usr_owner')
      .where('site_id', '=', 'demo')
      .execute();
    await server.store.db
      .insertInto('memberships')
      .values({ site_id: 'demo', user_id: 'usr_owner', role: 'instructor' })
      .execute();
    const res = await call('GET', '/api/v1/site', token);
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="access_denied"/);
    expect((await res.json()).error).toBe('access_denied');
    // Restore for any later test in this file.
    await server.store.db
      .deleteFrom('memberships')
      .where('user_id', '=', 'usr_owner')
      .where('site_id', '=', 'demo')
      .execute();
    await server.store.db
      .insertInto('memberships')
      .values({ site_id: 'demo', user_id: 'usr_owner', role: 'owner' })
      .execute();
  });
});

describe('SPEC 2.5 lecturers:write, comments:read over HTTP (issue 10)', () => {
  test('a userId that is no instructor of the site → 400 naming userId; a filter naming another site → 404; ETag guards updates', async () => {
    const token = await operatorToken('demo', 'openid lecturers:read lecturers:write comments:read');
    for (const userId of ['usr_student', 'usr_learner2']) {
      const res = await call('POST', '/api/v1/lecturers', token, { name: 'Nope', userId });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await res.json()).toMatchObject({
        status: 400,
        error: 'invalid_request',
        errors: [{ in: 'body', pointer: '/userId' }],
      });
    }
    const read = await call('GET', '/api/v1/lecturers/lct_grace', token);
    const etag = read.headers.get('etag')!;
    expect((await call('PATCH', '/api/v1/lecturers/lct_grace', token, { bio: 'Databases.' })).status).toBe(200);
    const stale = await fetch(`${base}/api/v1/lecturers/lct_grace`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'if-match': etag },
      body: JSON.stringify({ bio: 'Lost update' }),
    });
    expect(stale.status).toBe(412);
    const foreign = await call('GET', '/api/v1/comments?lectureId=lec_2_1', token);
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error).toBe('not_found');
  });
});
