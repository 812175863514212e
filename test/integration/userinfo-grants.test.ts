/**
 * SPEC §2.3 UserInfo: the claims are those of the token's grant (its OpenID scopes). Issue #15: a
 * process keeps a grant's fixed facts once read (src/resource/kept-grants.ts) instead of reading
 * the grant at every request. These tests pin what must not change with that: the same answer on
 * every call, a revoked grant's token refused at once by every revocation path, and a token that
 * outlives its grant refused once the grant has expired.
 */
import type { TestServer } from '../helpers/server.js';
import { authorizeMember, MEMBER_CLIENT, postForm, redeemCode } from '../helpers/flows.js';
import { Connections } from '../../src/oauth/connections.js';
import { ConnectedGrants } from '../../src/platform/connected-grants.js';
import { oidcStoreRuns, startOnStore } from '../helpers/services.js';

const stores = oidcStoreRuns('userinfo-grants');

describe.each(stores)('SPEC 2.3 UserInfo and the grant of the token (OIDC state on $store)', (run) => {
  const { store } = run;
  let server: TestServer;
  beforeAll(async () => {
    server = await startOnStore(run);
  });
  afterAll(() => server.close());

  const userinfo = (token: string) =>
    fetch(`${server.baseUrl}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } });
  const issue = async (scope: string) => {
    const issued = await authorizeMember(server.baseUrl, server.baseUrl, scope);
    const { body } = await redeemCode(server.baseUrl, server.baseUrl, issued);
    return { issued, accessToken: String(body.access_token), refreshToken: String(body.refresh_token) };
  };
  /** How many times the OIDC store was asked for a grant so far (`/metrics`). */
  const grantReads = async () => {
    const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
    const line = new RegExp(
      `coursegate_store_operation_duration_seconds_count\\{store="${store}",model="Grant",op="find"\\} (\\d+)`,
    );
    return Number(line.exec(text)?.[1] ?? 0);
  };
  /** Status, body and headers of an answer, without the per-request ones. */
  const answer = async (res: Response) => {
    const headers = [...res.headers].filter(([name]) => name !== 'date' && name !== 'x-request-id');
    return { status: res.status, body: await res.text(), headers };
  };
  const expectRefused = async (token: string, description: string) => {
    const res = await userinfo(token);
    await res.arrayBuffer();
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(res.headers.get('www-authenticate')).toContain(description);
  };

  test('every call answers the same bytes; the grant is read from the store once per process', async () => {
    const { accessToken } = await issue('openid email profile account:read');
    const first = await answer(await userinfo(accessToken));
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toEqual({
      sub: 'usr_student',
      org_id: 'demo',
      roles: ['student'],
      email: 'student@demo.test',
      email_verified: true,
      name: expect.any(String),
    });
    const readsAfterFirst = await grantReads();
    expect(readsAfterFirst).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) expect(await answer(await userinfo(accessToken))).toEqual(first);
    expect(await grantReads()).toBe(readsAfterFirst);
  });

  test('the claims follow the grant of each token: a grant without email releases no e-mail', async () => {
    const { accessToken } = await issue('openid account:read');
    const res = await userinfo(accessToken);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ sub: 'usr_student', org_id: 'demo', roles: ['student'] });
  });

  test('RFC 7009: after the refresh token is revoked (the grant with it), the access token is refused at once', async () => {
    const { accessToken, refreshToken } = await issue('openid account:read');
    expect((await userinfo(accessToken)).status).toBe(200);
    const revoked = await postForm(server.baseUrl, '/api/oauth/revoke', {
      token: refreshToken,
      token_type_hint: 'refresh_token',
      client_id: MEMBER_CLIENT,
    });
    expect(revoked.status).toBe(200);
    await expectRefused(accessToken, 'the access token is unknown or was revoked');
  });

  test('a replayed authorization code revokes the grant: its access token is refused at once', async () => {
    const { issued, accessToken } = await issue('openid account:read');
    expect((await userinfo(accessToken)).status).toBe(200);
    expect((await redeemCode(server.baseUrl, server.baseUrl, issued)).body.error).toBe('invalid_grant');
    await expectRefused(accessToken, 'the access token is unknown or was revoked');
  });

  test('connected apps: a revoked grant (src/oauth/connections.ts) refuses its access token at once', async () => {
    const { accessToken } = await issue('openid account:read');
    expect((await userinfo(accessToken)).status).toBe(200);
    const grantId = (await server.provider.AccessToken.find(accessToken))!.grantId!;
    const connections = new Connections(server.provider, new ConnectedGrants(server.store.db));
    expect(await connections.revoke({ userId: 'usr_student' }, { grantId }, { userId: 'usr_student' })).toBe(1);
    await expectRefused(accessToken, 'the access token is unknown or was revoked');
  });

  test('an access token that outlives its grant is refused once the grant has expired', async () => {
    // A refresh shortly before the grant's end issues an access token for its full lifetime.
    const provider = server.provider;
    const grant = new provider.Grant({ accountId: 'usr_student', clientId: MEMBER_CLIENT });
    grant.addOIDCScope('openid email account:read');
    grant.exp = Math.floor(Date.now() / 1000) + 2;
    const grantId = await grant.save();
    await new server.adapter('SiteChoice').upsert(grantId, { siteId: 'demo' } as never, 3600);
    const client = await provider.Client.find(MEMBER_CLIENT);
    const token = new provider.AccessToken({
      accountId: 'usr_student',
      client,
      grantId,
      scope: 'account:read',
      gty: 'refresh_token',
      aud: server.baseUrl,
    } as never);
    const accessToken = await token.save();
    const res = await userinfo(accessToken);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      sub: 'usr_student',
      org_id: 'demo',
      roles: ['student'],
      email: 'student@demo.test',
      email_verified: true,
    });
    while (Date.now() / 1000 < grant.exp + 1) await new Promise((r) => setTimeout(r, 200));
    await expectRefused(accessToken, 'the grant of this access token was revoked');
  });
});
