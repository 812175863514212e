/**
 * Issue 11 "every admin action is also an admin API operation": connected apps and the audit trail
 * through /api/v1, with real grants given by members through the real login and consent pages.
 * Revoking through the API kills the grant's tokens at once (SPEC §5.3: `/account/graphql` answers
 * 401); the audit trail lists the revocation, filtered and paged with a cursor (DESIGN D10).
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { memberToken, registerLoopbackClient } from '../helpers/member-token.js';

let server: TestServer;
let base: string;
let operator: string;
let reader: string;

beforeAll(async () => {
  server = await startTestServer();
  base = server.baseUrl;
  const clientId = await registerLoopbackClient(base, 'grants script');
  [operator, reader] = await Promise.all([
    memberToken({
      baseUrl: base,
      email: 'owner@demo.test',
      clientId,
      scope: 'openid school:read school:write',
      site: 'demo',
    }),
    memberToken({ baseUrl: base, email: 'owner@demo.test', clientId, scope: 'openid school:read', site: 'demo' }),
  ]);
}, 60_000);
afterAll(() => server.close());

const api = (path: string, token: string, method = 'GET') =>
  fetch(new URL(path, base), { method, headers: { authorization: `Bearer ${token}` } });
const graphql = (token: string) =>
  fetch(`${base}/account/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ __typename }' }),
  });

interface Grant {
  grantId: string;
  clientId: string;
  kind: string;
  userEmail: string;
  scope: string;
  createdAt: string;
  lastUsedAt: string | null;
}
const grantsOf = async (query: string): Promise<Grant[]> =>
  ((await (await api(`/api/v1/connected-grants?${query}`, reader)).json()) as { grants: Grant[] }).grants;

describe('issue 11: connected apps through the admin API', () => {
  test('a member grant is listed, and revoking it refuses its token at once', async () => {
    const token = await memberToken({ baseUrl: base, email: 'student@demo.test' });
    expect((await graphql(token)).status).toBe(200);

    const [grant] = (await grantsOf('clientId=demo-member-cli')).filter((g) => g.userEmail === 'student@demo.test');
    expect(grant).toMatchObject({ clientId: 'demo-member-cli', scope: expect.stringContaining('account:read') });
    expect(grant!.kind).toEqual(expect.any(String));
    expect(Date.parse(grant!.createdAt)).not.toBeNaN();

    // school:read lists but does not revoke (SPEC §2.5; DESIGN D4: the 403 names the scope).
    const denied = await api(`/api/v1/connected-grants/${grant!.grantId}`, reader, 'DELETE');
    expect(denied.status).toBe(403);
    expect(denied.headers.get('www-authenticate')).toContain('scope="school:write"');

    expect((await api(`/api/v1/connected-grants/${grant!.grantId}`, operator, 'DELETE')).status).toBe(204);
    expect((await graphql(token)).status).toBe(401);
    expect((await grantsOf('clientId=demo-member-cli')).map((g) => g.grantId)).not.toContain(grant!.grantId);
    const again = await api(`/api/v1/connected-grants/${grant!.grantId}`, operator, 'DELETE');
    expect(again.status).toBe(404);
    expect(again.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  }, 30_000);

  test('revoking by client ends every grant of that client at the site', async () => {
    const token = await memberToken({ baseUrl: base, email: 'instructor@demo.test' });
    expect((await grantsOf('clientId=demo-member-cli')).length).toBeGreaterThan(0);
    expect((await api('/api/v1/connected-grants/by-client/demo-member-cli', operator, 'DELETE')).status).toBe(204);
    expect((await graphql(token)).status).toBe(401);
    expect(await grantsOf('clientId=demo-member-cli')).toEqual([]);
    expect((await api('/api/v1/connected-grants/by-client/demo-member-cli', operator, 'DELETE')).status).toBe(404);
  }, 30_000);
});

interface AuditPage {
  events: { id: string; at: string; kind: string; clientId: string | null; detail: string }[];
  nextCursor: string | null;
}
const audit = async (query: string): Promise<AuditPage> => {
  const res = await api(`/api/v1/audit-events?${query}`, reader);
  expect(res.status).toBe(200);
  return (await res.json()) as AuditPage;
};

describe('DESIGN D10: the audit trail through the admin API', () => {
  test('filters by kind and client, and pages with a cursor without repeating a row', async () => {
    const revocations = await audit('kind=revocation&clientId=demo-member-cli');
    expect(revocations.events.length).toBeGreaterThanOrEqual(2);
    expect(revocations.events.every((e) => e.kind === 'revocation' && e.clientId === 'demo-member-cli')).toBe(true);

    const everything = await audit('limit=100');
    expect(everything.events.length).toBeGreaterThan(3);
    const first = await audit('limit=2');
    expect(first.events).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await audit(`limit=2&cursor=${first.nextCursor}`);
    expect([...first.events, ...second.events].map((e) => e.id)).toEqual(
      everything.events.slice(0, 4).map((e) => e.id),
    );
  });

  test('time bounds: from inclusive, to exclusive; bad input is a 400 problem naming the field', async () => {
    const all = (await audit('limit=100')).events;
    const newest = all[0]!;
    expect((await audit(`from=${encodeURIComponent(newest.at)}`)).events.map((e) => e.id)).toContain(newest.id);
    expect((await audit(`to=${encodeURIComponent(newest.at)}`)).events.map((e) => e.id)).not.toContain(newest.id);
    expect((await audit('to=2000-01-01T00:00:00Z')).events).toEqual([]);

    for (const [query, field] of [
      ['from=yesterday', 'from'],
      ['kind=everything', 'kind'],
      ['cursor=bm90LWEtY3Vyc29y', 'cursor'],
    ] as const) {
      const res = await api(`/api/v1/audit-events?${query}`, reader);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(JSON.stringify(await res.json())).toContain(field);
    }
  });
});
