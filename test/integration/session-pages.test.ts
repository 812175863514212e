/**
 * The people's pages over real HTTP:
 * - `/signout` is a session route (route table `auth: session`): without a session, GET goes to
 *   sign-in and POST gets the 401 "Signed out" page, as every session page;
 * - destructive `/admin` actions (Remove role, Revoke all of an application) first show a
 *   confirmation page; only its form (`confirm=yes`, with the session's CSRF field) acts;
 * - the audit trail names the operator who revoked (DESIGN D10): the credential filter of its
 *   `detail` cuts secrets, not identifiers such as `usr_<uuid>`.
 */
import { randomUUID } from 'node:crypto';
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { CookieJar, parseForm } from '../helpers/user-agent.js';
import { authorizeMember, redeemCode } from '../helpers/flows.js';
import { hashPassword } from '../../src/platform/passwords.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(() => server?.close());

/** A cookie-keeping browser of the server. */
function browser() {
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
  return {
    get: (path: string) => call(path),
    post: (path: string, fields: Record<string, string>) => call(path, fields),
    async signIn(email: string, password = DEMO_PASSWORD) {
      const { hidden } = parseForm((await call('/signin')).html);
      const res = await call('/signin', { ...hidden, email, password });
      expect(res.status).toBe(303);
    },
  };
}

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1]!;

describe('/signout is a session route', () => {
  test('without a session: GET redirects to sign-in, POST answers 401', async () => {
    const anonymous = browser();
    const page = await anonymous.get('/signout');
    expect(page.status).toBe(302);
    expect(page.location).toBe('/signin');
    const post = await anonymous.post('/signout', { csrf: 'x' });
    expect(post.status).toBe(401);
    expect(post.html).toContain('Signed out');
  });

  test('with a session: GET shows the sign-out button, POST ends the session', async () => {
    const b = browser();
    await b.signIn('instructor@demo.test');
    const page = await b.get('/signout');
    expect(page.status).toBe(200);
    expect(page.html).toContain('Sign out?');
    expect((await b.post('/signout', { csrf: csrfOf(page.html) })).status).toBe(303);
    expect((await b.get('/signout')).status).toBe(302);
  });
});

describe('destructive /admin actions ask for confirmation', () => {
  test('Remove role: the button shows a confirmation page; its form removes the role', async () => {
    const owner = browser();
    await owner.signIn('owner@demo.test');
    const csrf = csrfOf((await owner.get('/admin/demo/people')).html);
    const fields = { csrf, email: 'student2@demo.test', role: 'student', change: 'revoke' };
    const asked = await owner.post('/admin/demo/people/roles', fields);
    expect(asked.status).toBe(200);
    expect(asked.html).toContain('Remove the student role of student2@demo.test?');
    expect(asked.html).toContain('name="confirm" value="yes"');
    expect(await server.accounts.membershipsOf((await server.accounts.userIdByEmail('student2@demo.test'))!)).toEqual(
      expect.arrayContaining([expect.objectContaining({ roles: expect.arrayContaining(['student']) })]),
    );
    // The confirmation is CSRF-protected like every form.
    expect((await owner.post('/admin/demo/people/roles', { ...fields, csrf: 'forged', confirm: 'yes' })).status).toBe(
      403,
    );
    const confirmed = parseForm(
      asked.html.slice(asked.html.lastIndexOf('<form', asked.html.indexOf('name="confirm"'))),
    );
    const done = await owner.post('/admin/demo/people/roles', confirmed.hidden);
    expect(done.status).toBe(303);
    expect(done.location).toBe('/admin/demo/people?done=revoked');
    const left = await server.accounts.membershipsOf((await server.accounts.userIdByEmail('student2@demo.test'))!);
    expect(left.find((m) => m.site.id === 'demo')?.roles ?? []).not.toContain('student');
  });

  test('Revoke all of an app: confirmation first; the audit row names the operator by id', async () => {
    // An operator whose id is a `usr_<uuid>` (as every account made through a link).
    const id = `usr_${randomUUID()}`;
    const email = 'uuid-owner@demo.test';
    await server.store.db
      .insertInto('users')
      .values({
        id,
        email,
        name: 'UUID Owner',
        password_hash: await hashPassword(DEMO_PASSWORD),
        created_at: new Date().toISOString(),
      })
      .execute();
    await server.store.db.insertInto('memberships').values({ site_id: 'demo', user_id: id, role: 'owner' }).execute();
    // A member's grant of the demo member client.
    const issued = await authorizeMember(server.baseUrl, server.baseUrl, 'openid account:read');
    expect((await redeemCode(server.baseUrl, server.baseUrl, issued)).status).toBe(200);

    const op = browser();
    await op.signIn(email);
    const csrf = csrfOf((await op.get('/admin/demo/connections')).html);
    const asked = await op.post('/admin/demo/connections/revoke', { csrf, client_id: 'demo-member-cli' });
    expect(asked.status).toBe(200);
    expect(asked.html).toContain('Revoke this application for every member?');
    const before = await server.store.db
      .selectFrom('connected_grants')
      .select('grant_id')
      .where('client_id', '=', 'demo-member-cli')
      .execute();
    expect(before.length).toBeGreaterThan(0);
    const done = await op.post('/admin/demo/connections/revoke', {
      csrf,
      client_id: 'demo-member-cli',
      confirm: 'yes',
    });
    expect(done.status).toBe(303);
    expect(done.location).toBe(`/admin/demo/connections?revoked=${before.length}`);

    const audit = await op.get('/admin/demo/audit');
    expect(audit.html).toContain(`grant revoked by an operator (${id})`);
    expect(audit.html).not.toContain('[redacted]');
  });
});
