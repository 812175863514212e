/**
 * Connected apps (DESIGN D5, D11): each authorization is a grant of its own (one device's sign-out
 * ends that device only), and revoking an app, by the member (`/account/connections`) or by an
 * operator (`/api/v1`), revokes every grant it holds, however many, with every token of each.
 */
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { CookieJar, parseForm } from '../helpers/user-agent.js';
import { authorizeMember, MEMBER_CLIENT, redeemCode, refresh, viewerStatus } from '../helpers/flows.js';
import { callApi, operatorToken } from '../helpers/operator-surfaces.js';
import { ConnectedGrants } from '../../src/platform/connected-grants.js';

let server: TestServer;
let grants: ConnectedGrants;
let studentId: string;
beforeAll(async () => {
  server = await startTestServer();
  grants = new ConnectedGrants(server.store.db);
  studentId = (await server.accounts.userIdByEmail('student@demo.test'))!;
}, 60_000);
afterAll(() => server?.close());

const countOf = async (userId: string, clientId: string) =>
  Number(
    (
      await server.store.db
        .selectFrom('connected_grants')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .where('client_id', '=', clientId)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A member's tokens through the real flow: login, consent, code exchange. */
async function tokens(scope = 'openid account:read') {
  const res = await redeemCode(
    server.baseUrl,
    server.baseUrl,
    await authorizeMember(server.baseUrl, server.baseUrl, scope),
  );
  expect(res.status).toBe(200);
  return { access: res.body.access_token as string, refresh: res.body.refresh_token as string };
}

/** `count` more grants of `clientId` for `userId` at `siteId`, made in the stores as a consent makes them. */
async function moreGrants(userId: string, clientId: string, siteId: string, count: number): Promise<void> {
  const started = Date.now();
  for (let i = 0; i < count; i++) {
    const grant = new server.provider.Grant({ accountId: userId, clientId });
    grant.addOIDCScope('openid account:read');
    grant.addResourceScope(server.baseUrl, 'account:read');
    const grantId = await grant.save();
    await grants.record(
      { grantId, siteId, clientId, userId, scope: 'openid account:read' },
      new Date(started + 1000 + i),
    );
  }
}

test('each authorization is a grant of its own: revoking one device’s refresh token (RFC 7009) leaves the other’s working', async () => {
  const before = await countOf(studentId, MEMBER_CLIENT);
  const laptop = await tokens();
  const phone = await tokens();
  expect(await countOf(studentId, MEMBER_CLIENT)).toBe(before + 2);
  const revoked = await fetch(`${server.baseUrl}/api/oauth/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: laptop.refresh, client_id: MEMBER_CLIENT }).toString(),
  });
  expect(revoked.status).toBe(200);
  expect(await viewerStatus(server.baseUrl, laptop.access)).toBe(401);
  expect(await viewerStatus(server.baseUrl, phone.access)).toBe(200);
  expect((await refresh(server.baseUrl, phone.refresh)).status).toBe(200);
}, 60_000);

test("a member's revocation of an app with 2,000 grants leaves none, and the first grant's tokens stop working", async () => {
  const first = await tokens();
  await moreGrants(studentId, MEMBER_CLIENT, 'demo', 2000);
  expect(await countOf(studentId, MEMBER_CLIENT)).toBeGreaterThanOrEqual(2001);
  expect(await viewerStatus(server.baseUrl, first.access)).toBe(200);

  const jar = new CookieJar();
  const call = async (path: string, fields?: Record<string, string>) => {
    const res = await fetch(new URL(path, server.baseUrl), {
      method: fields ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: jar.header(), ...(fields ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: fields ? new URLSearchParams(fields).toString() : undefined,
    });
    jar.store(res);
    return { status: res.status, location: res.headers.get('location'), html: await res.text() };
  };
  const signin = parseForm((await call('/signin')).html);
  expect(
    (await call('/signin', { ...signin.hidden, email: 'student@demo.test', password: DEMO_PASSWORD })).status,
  ).toBe(303);
  const confirm = await call(`/account/connections/revoke?client_id=${MEMBER_CLIENT}`);
  expect(confirm.status).toBe(200);
  const revoked = await call('/account/connections/revoke', { ...parseForm(confirm.html).hidden });
  expect([revoked.status, revoked.location]).toEqual([303, '/account/connections?revoked=1']);

  expect(await countOf(studentId, MEMBER_CLIENT)).toBe(0);
  expect(await viewerStatus(server.baseUrl, first.access)).toBe(401);
  const again = await refresh(server.baseUrl, first.refresh);
  expect([again.status, again.body.error]).toEqual([400, 'invalid_grant']);
}, 180_000);

test("an operator's revocation of a client's grants at the site reaches all of them, past any page", async () => {
  const first = await tokens();
  const owner = await operatorToken(server.baseUrl, 'owner@demo.test', 'demo', 'grant revoker');
  await moreGrants(studentId, MEMBER_CLIENT, 'demo', 700);
  const res = await callApi(
    server.baseUrl,
    owner.token,
    `/api/v1/connected-grants/by-client/${MEMBER_CLIENT}`,
    'DELETE',
  );
  expect(res.status).toBe(204);
  expect(await countOf(studentId, MEMBER_CLIENT)).toBe(0);
  expect(await viewerStatus(server.baseUrl, first.access)).toBe(401);
}, 120_000);
