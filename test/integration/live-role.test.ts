/**
 * Issue #9 / DESIGN D2: "the user still has a role at this site" is checked live, by one rule
 * (`Accounts.liveRolesAt`) in the shared bearer step and the refresh grant. A member whose role was
 * removed is refused at once on `/account/graphql`, `/mcp`, UserInfo, `/api/v1` and refresh, with
 * the same SPEC §5.7 challenge on every resource surface, and introspection (RFC 7662) calls its
 * tokens `active: false`.
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizeMember, redeemCode, refresh } from '../helpers/flows.js';

describe('SPEC 5.7 / issue #9: a member whose role was removed is refused at once', () => {
  let server: TestServer;
  let accessToken: string;
  let refreshToken: string;

  beforeAll(async () => {
    server = await startTestServer();
    const issued = await authorizeMember(server.baseUrl, server.baseUrl, 'openid account:read');
    const res = await redeemCode(server.baseUrl, server.baseUrl, issued);
    accessToken = res.body.access_token as string;
    refreshToken = res.body.refresh_token as string;
    expect(typeof accessToken).toBe('string');
    expect(typeof refreshToken).toBe('string');
  });
  afterAll(() => server.close());

  const graphql = () =>
    fetch(`${server.baseUrl}/account/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ viewer { id } }' }),
    });
  const mcp = () =>
    fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${accessToken}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
  const userinfo = () =>
    fetch(`${server.baseUrl}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
  /** RFC 7662 introspection by the client the token was issued to (public: its client_id). */
  const introspect = async (token: string) => {
    const res = await fetch(`${server.baseUrl}/api/oauth/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: 'demo-member-cli' }).toString(),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { active: boolean; org_id?: string };
  };
  const adminApi = () =>
    fetch(`${server.baseUrl}/api/v1/site`, { headers: { authorization: `Bearer ${accessToken}` } });

  test('while the member holds a role, every surface serves the token', async () => {
    for (const call of [graphql, mcp, userinfo]) {
      const res = await call();
      await res.arrayBuffer();
      expect(res.status).toBe(200);
    }
    // The admin API passes the same bearer step: the token is accepted, then lacks the operator scope.
    const admin = await adminApi();
    await admin.arrayBuffer();
    expect(admin.status).toBe(403);
    expect(admin.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(await introspect(accessToken)).toMatchObject({ active: true, org_id: 'demo' });
    expect((await introspect(refreshToken)).active).toBe(true);
  });

  test('after the role is removed: 401 invalid_token on /account/graphql, /mcp, UserInfo and /api/v1; invalid_grant on refresh; active: false at introspection', async () => {
    await server.store.db
      .deleteFrom('memberships')
      .where('user_id', '=', 'usr_student')
      .where('site_id', '=', 'demo')
      .execute();
    const challenges: string[] = [];
    for (const call of [graphql, mcp, userinfo, adminApi]) {
      const res = await call();
      await res.arrayBuffer();
      expect(res.status).toBe(401);
      const header = res.headers.get('www-authenticate') ?? '';
      expect(header).toMatch(/^Bearer /);
      expect(header).toContain('error="invalid_token"');
      challenges.push(/error_description="([^"]*)"/.exec(header)?.[1] ?? '');
    }
    // The same rule, hence the same refusal, on every resource surface.
    expect(new Set(challenges).size).toBe(1);
    expect(challenges[0]).toMatch(/no member of its site|no longer has a role/);

    // Introspection agrees with every other surface: neither token is active.
    expect(await introspect(accessToken)).toEqual({ active: false });
    expect(await introspect(refreshToken)).toEqual({ active: false });

    const refreshed = await refresh(server.baseUrl, refreshToken);
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
  });
});
