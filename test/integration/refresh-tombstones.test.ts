/**
 * DESIGN D4 / issue #26 with issue #29: the tombstone of an access token issued by a refresh grant
 * is written in the rotation's atomic step (src/oauth/token-tombstones.ts `joinWaitingRotation`),
 * and still does its job: after the grant is revoked, a call with that access token gets a 401
 * naming its client's scope (read from the tombstone), as for a token from the code exchange, not
 * the `openid` of a token nobody knows.
 */
import type { TestServer } from '../helpers/server.js';
import { authorizeMember, MEMBER_CLIENT, postForm, redeemCode, refresh } from '../helpers/flows.js';
import { oidcStoreRuns, startOnStore } from '../helpers/services.js';

const stores = oidcStoreRuns('refresh-tombstones');

let server: TestServer;

/** The `scope` of the 401 that `/mcp` answers a `tools/list` with `token`. */
async function challengeScope(token: string): Promise<string | undefined> {
  const res = await fetch(`${server.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  expect(res.status).toBe(401);
  return /scope="([^"]*)"/.exec(res.headers.get('www-authenticate') ?? '')?.[1];
}

/** A grant's tokens after the code exchange and `refreshes` refresh grants, then revoked (RFC 7009). */
async function revokedAccessToken(refreshes: number): Promise<string> {
  const o = server.baseUrl;
  let tokens = (await redeemCode(o, o, await authorizeMember(o, o, 'openid account:read'))).body;
  for (let i = 0; i < refreshes; i++) {
    const answer = await refresh(o, String(tokens.refresh_token));
    expect(answer.status).toBe(200);
    tokens = answer.body;
  }
  const revoked = await postForm(o, '/api/oauth/revoke', {
    token: String(tokens.refresh_token),
    client_id: MEMBER_CLIENT,
  });
  expect(revoked.status).toBe(200);
  const introspected = await postForm(o, '/api/oauth/introspect', {
    token: String(tokens.access_token),
    client_id: MEMBER_CLIENT,
  });
  expect(introspected.body).toEqual({ active: false });
  return String(tokens.access_token);
}

describe.each(stores)('access-token tombstones of refresh grants (OIDC state on $store)', (run) => {
  beforeAll(async () => {
    server = await startOnStore(run);
  });
  afterAll(() => server.close());

  test('a refreshed access token of a revoked grant is answered with its client scope, like one from the code exchange', async () => {
    const unknown = await challengeScope('never-issued-token-value-0123456789');
    const fromCode = await challengeScope(await revokedAccessToken(0));
    const fromRefresh = await challengeScope(await revokedAccessToken(2));
    expect(fromCode).toBeDefined();
    expect(fromCode).not.toBe(unknown);
    expect(fromRefresh).toBe(fromCode);
  });
});
