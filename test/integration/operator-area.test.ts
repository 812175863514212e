/**
 * Issue 11 operator area over real HTTP (no browser): access rules of `/admin` (anonymous →
 * sign-in, a student → 403, an admin of site A never sees site B), CSRF on every form, the
 * beta switch, OAuth applications, connected apps with revocation effective at once, the audit
 * trail, `/account/connections` and `/`.
 */
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { CookieJar, parseForm } from '../helpers/user-agent.js';
import { memberToken } from '../helpers/member-token.js';
import { MEMBER_CLIENT, authorizeMember, redeemCode, refresh, viewerStatus } from '../helpers/flows.js';
import { FirstRun } from '../../src/platform/first-run.js';
import { OneTimeLinks } from '../../src/platform/one-time-links.js';

let server: TestServer;
let base: string;

beforeAll(async () => {
  server = await startTestServer();
  base = server.baseUrl;
});
afterAll(() => server.close());

/** A browser-like session: cookies kept, redirects not followed. */
class Browser {
  readonly jar = new CookieJar();
  async get(path: string) {
    const res = await fetch(new URL(path, base), { redirect: 'manual', headers: { cookie: this.jar.header() } });
    this.jar.store(res);
    return { status: res.status, location: res.headers.get('location'), html: await res.text(), headers: res.headers };
  }
  async post(path: string, fields: Record<string, string | string[]>) {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one);
    const res = await fetch(new URL(path, base), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: this.jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    this.jar.store(res);
    return { status: res.status, location: res.headers.get('location'), html: await res.text() };
  }
  async signIn(email: string, password = DEMO_PASSWORD) {
    const { hidden } = parseForm((await this.get('/signin?next=/admin')).html);
    const res = await this.post('/signin', { ...hidden, email, password });
    expect(res.status).toBe(303);
    return res;
  }
  /** The CSRF token of the signed-in pages (from the sign-out form of any page). */
  async csrf(path = '/') {
    return /name="csrf" value="([^"]+)"/.exec((await this.get(path)).html)![1]!;
  }
}

describe('issue 11 access to /admin', () => {
  test('anonymous /admin → /signin?next=…; `/` is a home page with a sign-in link', async () => {
    const anon = new Browser();
    const res = await anon.get('/admin/demo/connections');
    expect(res.status).toBe(302);
    expect(res.location).toBe('/signin?next=%2Fadmin%2Fdemo%2Fconnections');
    const home = await anon.get('/');
    expect(home.status).toBe(200);
    expect(home.html).toContain('href="/signin"');
    expect(home.html).toContain('/.well-known/openid-configuration');
  });

  test('wrong password → 401 on the sign-in page; the sign-in form is CSRF-protected', async () => {
    const b = new Browser();
    const { hidden } = parseForm((await b.get('/signin')).html);
    expect((await b.post('/signin', { ...hidden, email: 'owner@demo.test', password: 'wrong' })).status).toBe(401);
    expect(
      (await b.post('/signin', { csrf: 'forged', email: 'owner@demo.test', password: DEMO_PASSWORD })).status,
    ).toBe(403);
  });

  test('a student gets 403 at /admin and /admin/demo, and has /account/connections', async () => {
    const b = new Browser();
    await b.signIn('student@demo.test');
    expect((await b.get('/admin')).status).toBe(403);
    const page = await b.get('/admin/demo');
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect((await b.get('/account/connections')).status).toBe(200);
  });

  test('an owner of a new site never sees demo: 403 for its pages, its own lists hold none of demo’s rows', async () => {
    const firstRun = new FirstRun(server.store.db);
    const { link } = await firstRun.createSite({ id: 'gamma', name: 'Gamma School', ownerEmail: 'owner@gamma.test' });
    await new OneTimeLinks(server.store.db).setPassword(link!.token, 'gamma-owner-password');
    const b = new Browser();
    await b.signIn('owner@gamma.test', 'gamma-owner-password');
    expect((await b.get('/admin')).location).toBe('/admin/gamma');
    for (const path of [
      '/admin/demo',
      '/admin/demo/connections',
      '/admin/demo/audit',
      '/admin/demo/apps',
      '/admin/nope',
    ])
      expect((await b.get(path)).status).toBe(403);
    const csrf = await b.csrf('/admin/gamma');
    expect((await b.post('/admin/demo/settings', { csrf, mcp_connections: 'off' })).status).toBe(403);
    const own = await b.get('/admin/gamma/connections');
    expect(own.status).toBe(200);
    expect(own.html).not.toContain('demo-member-cli');
    expect((await b.get('/admin/gamma/audit')).html).not.toContain('demo-member-cli');
    // The site switcher names only the sites the person runs.
    expect(own.html).not.toContain('Demo Academy');
  });
});

describe('issue 11 operator pages', () => {
  test('overview has SVG charts with number tables; people lists roles; the switcher lists both sites', async () => {
    const b = new Browser();
    await b.signIn('owner@demo.test');
    const overview = await b.get('/admin/demo');
    expect(overview.status).toBe(200);
    expect(overview.html).toContain('<svg');
    expect(overview.html).toMatch(/<caption[^>]*>Enrollments by state<\/caption>/);
    expect(overview.html).toContain('href="/admin/second"');
    const people = await b.get('/admin/demo/people');
    expect(people.html).toMatch(/student@demo\.test<\/td><td[^>]*>student/);
  });

  test('audit trail: the refreshes of a grant within an hour are one row with their count (DESIGN D10, issue #29)', async () => {
    const issued = await redeemCode(base, base, await authorizeMember(base, base));
    let token = String(issued.body.refresh_token);
    for (let i = 0; i < 3; i++) {
      const res = await refresh(base, token);
      expect(res.status).toBe(200);
      token = String(res.body.refresh_token);
    }
    const b = new Browser();
    await b.signIn('owner@demo.test');
    let html = '';
    for (let i = 0; i < 50 && !/<td>Tokens refreshed<\/td><td>3<\/td>/.test(html); i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      html = (
        await b.get(
          `/admin/demo/audit?kind=refresh&client=${MEMBER_CLIENT}&from=${new Date().toISOString().slice(0, 10)}`,
        )
      ).html;
    }
    expect(html).toContain('<th scope="col">Count</th>');
    // Three refreshes within seconds: one row counting 3 (or 2 + 1 if an hour began between them).
    const counts = [...html.matchAll(/<td[^>]*>Tokens refreshed<\/td><td[^>]*>(\d+)<\/td>/g)].map((m) => Number(m[1]));
    expect(counts.some((c) => c >= 2)).toBe(true);
  }, 30_000);

  test('overview: "MCP/API usage by client" charts token issuances per client per day (audit trail) beside a table of the counts', async () => {
    const reg = await fetch(`${base}/api/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'usage chart probe',
        redirect_uris: ['http://127.0.0.1/callback'],
        token_endpoint_auth_method: 'none',
      }),
    });
    const clientId = ((await reg.json()) as { client_id: string }).client_id;
    for (let i = 0; i < 3; i++)
      await memberToken({
        baseUrl: base,
        email: 'owner@demo.test',
        clientId,
        scope: 'openid members:read',
        site: 'demo',
      });
    const b = new Browser();
    await b.signIn('owner@demo.test');
    const today = new Date().toISOString().slice(0, 10);
    const row = `<tr><td>${today}</td><td>${clientId}</td><td>3</td></tr>`;
    // The audit rows are written just after the token answer: look again briefly until they are in.
    let html = '';
    for (let i = 0; i < 50 && !html.includes(row); i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      html = (await b.get('/admin/demo')).html;
    }
    expect(html).toMatch(
      /<caption[^>]*>MCP\/API usage by client: tokens issued and refreshed per day, last 14 days<\/caption>/,
    );
    expect(html).toContain(row);
    const svg = /<svg[^>]*id="chart-Usage"[\s\S]*?<\/svg>/.exec(html)?.[0] ?? '';
    expect(svg).toContain('<rect');
    expect(svg).toContain(today.slice(5)); // today's bar is labelled (the last of 14 days)
    // Another site's overview does not count demo's tokens.
    const owner2 = new Browser();
    await owner2.signIn('owner@demo.test');
    expect((await owner2.get('/admin/second')).html).not.toContain(clientId);
  });

  test('create an app, a member authorizes it, the owner sees and revokes the grant: the token is refused at once', async () => {
    const b = new Browser();
    await b.signIn('owner@demo.test');
    const csrf = await b.csrf('/admin/demo/apps');
    expect(
      (
        await b.post('/admin/demo/apps', {
          client_name: 'x',
          redirect_uris: 'http://127.0.0.1/callback',
          scopes: ['openid', 'account:read'],
        })
      ).status,
    ).toBe(403); // no CSRF
    const bad = await b.post('/admin/demo/apps', {
      csrf,
      client_name: 'Bad',
      redirect_uris: 'http://evil.example/cb',
      scopes: ['openid', 'account:read'],
    });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('Not created');
    const created = await b.post('/admin/demo/apps', {
      csrf,
      client_name: 'Study buddy',
      redirect_uris: 'http://127.0.0.1/callback',
      scopes: ['openid', 'account:read'],
    });
    expect(created.status).toBe(201);
    const clientId = /id="new-client-id">([^<]+)</.exec(created.html)![1]!;

    const token = await memberToken({
      baseUrl: base,
      email: 'student@demo.test',
      clientId,
      scope: 'openid account:read',
    });
    expect(await viewerStatus(base, token)).toBe(200);
    const connections = await b.get('/admin/demo/connections');
    expect(connections.html).toContain('Study buddy');
    expect(connections.html).toContain('student@demo.test');
    const grantId = /name="grant_id" value="([^"]+)"/.exec(
      connections.html.slice(connections.html.indexOf('Study buddy')),
    )![1]!;

    const member = new Browser();
    await member.signIn('student@demo.test');
    expect((await member.get('/account/connections')).html).toContain('Study buddy');

    const revoked = await b.post('/admin/demo/connections/revoke', { csrf, grant_id: grantId });
    expect(revoked.status).toBe(303);
    expect(await viewerStatus(base, token)).toBe(401);
    expect((await member.get('/account/connections')).html).not.toContain('Study buddy');
    const audit = await b.get(`/admin/demo/audit?client=${encodeURIComponent(clientId)}`);
    expect(audit.html).toContain('Consent given');
    expect(audit.html).toContain('revoked by an operator');
    expect((await b.get(`/admin/demo/audit?kind=consent&client=${encodeURIComponent(clientId)}`)).html).not.toContain(
      'revoked by an operator',
    );

    // A member revokes their own grant from /account/connections.
    const again = await memberToken({
      baseUrl: base,
      email: 'student@demo.test',
      clientId,
      scope: 'openid account:read',
    });
    // Issue 30: one row per app, then a confirmation page (plain form) before the revocation.
    const mine = await member.get('/account/connections');
    expect(mine.html).toContain(`/account/connections/revoke?client_id=${encodeURIComponent(clientId)}`);
    const confirm = await member.get(`/account/connections/revoke?client_id=${encodeURIComponent(clientId)}`);
    expect(confirm.html).toContain('Revoke access of Study buddy?');
    const memberCsrf = /name="csrf" value="([^"]+)"/.exec(confirm.html.slice(confirm.html.indexOf('<main')))![1]!;
    expect((await member.post('/account/connections/revoke', { csrf: memberCsrf, client_id: clientId })).status).toBe(
      303,
    );
    expect(await viewerStatus(base, again)).toBe(401);

    // Deleting the application revokes what is left and removes it, once confirmed (issue 30 item 8).
    const unconfirmed = await b.post(`/admin/demo/apps/${encodeURIComponent(clientId)}/delete`, { csrf });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.html).toContain('Not deleted: tick the box to confirm.');
    expect((await b.get('/admin/demo/apps')).html).toContain(clientId);
    const del = await b.post(`/admin/demo/apps/${encodeURIComponent(clientId)}/delete`, { csrf, confirm: 'yes' });
    expect(del.status).toBe(303);
    expect((await b.get('/admin/demo/apps')).html).not.toContain(clientId);
  }, 60_000);

  test('People: invitations made and withdrawn, roles changed under the DESIGN D5 hierarchy, every form CSRF-checked', async () => {
    const b = new Browser();
    await b.signIn('owner@demo.test');
    const csrf = await b.csrf('/admin/demo/people');
    expect((await b.post('/admin/demo/invitations', { email: 'newcomer@example.com', role: 'student' })).status).toBe(
      403,
    ); // no CSRF

    // Invite: the one-time link is shown to the operator, once; it opens the invitation page.
    const invited = await b.post('/admin/demo/invitations', {
      csrf,
      email: 'newcomer@example.com',
      role: 'instructor',
    });
    expect(invited.status).toBe(201);
    const link = /id="invitation-link">([^<]+)</.exec(invited.html)![1]!;
    expect(link.startsWith(`${base}/invitations/`)).toBe(true);
    expect((await fetch(link)).status).toBe(200);
    expect((await b.get('/admin/demo/people')).html).not.toContain(link);

    // Withdraw: the link stops working and the list says so.
    const id = /\/admin\/demo\/invitations\/([^/"]+)\/withdraw/.exec((await b.get('/admin/demo/people')).html)![1]!;
    const withdrawn = await b.post(`/admin/demo/invitations/${id}/withdraw`, { csrf });
    expect(withdrawn.status).toBe(303);
    expect((await fetch(link)).status).not.toBe(200);
    expect((await b.get('/admin/demo/people?done=withdrawn')).html).toMatch(
      /newcomer@example\.com<\/td><td[^>]*>instructor<\/td><td[^>]*>revoked/,
    );

    // Roles through PeopleAdmin: give, remove; the last owner keeps the role (409).
    expect(
      (
        await b.post('/admin/demo/people/roles', {
          csrf,
          email: 'instructor@demo.test',
          role: 'admin',
          change: 'grant',
        })
      ).status,
    ).toBe(303);
    expect((await b.get('/admin/demo/people')).html).toMatch(
      /instructor@demo\.test<\/td><td[^>]*>(admin, instructor|instructor, admin)</,
    );
    expect(
      (
        await b.post('/admin/demo/people/roles', {
          csrf,
          email: 'instructor@demo.test',
          role: 'admin',
          change: 'revoke',
          confirm: 'yes',
        })
      ).status,
    ).toBe(303);
    const lastOwner = await b.post('/admin/demo/people/roles', {
      csrf,
      email: 'owner@demo.test',
      role: 'owner',
      change: 'revoke',
      confirm: 'yes',
    });
    expect(lastOwner.status).toBe(409);
    expect(lastOwner.html).toContain('Not done');
    expect(
      (
        await b.post('/admin/demo/people/roles', {
          csrf,
          email: 'nobody@example.com',
          role: 'student',
          change: 'grant',
        })
      ).status,
    ).toBe(404);

    // At `second` the same person is only an admin: inviting or granting an owner is refused (403).
    const asAdmin = await b.post('/admin/second/invitations', { csrf, email: 'boss@example.com', role: 'owner' });
    expect(asAdmin.status).toBe(403);
    expect(asAdmin.html).toContain('only an owner');
    expect(
      (
        await b.post('/admin/second/people/roles', {
          csrf,
          email: 'learner@second.test',
          role: 'owner',
          change: 'grant',
        })
      ).status,
    ).toBe(403);
  });

  test('OAuth applications: a confidential one shows its secret once; edit and rotation work from the page', async () => {
    const b = new Browser();
    await b.signIn('owner@demo.test');
    const csrf = await b.csrf('/admin/demo/apps');
    const created = await b.post('/admin/demo/apps', {
      csrf,
      client_name: 'Grader',
      redirect_uris: 'https://grader.example.com/cb',
      scopes: ['openid', 'account:read'],
      confidential: 'on',
    });
    expect(created.status).toBe(201);
    const clientId = /id="new-client-id">([^<]+)</.exec(created.html)![1]!;
    const secret = /id="new-client-secret">([^<]+)</.exec(created.html)![1]!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const list = await b.get('/admin/demo/apps');
    expect(list.html).not.toContain(secret);
    expect(list.html).toContain('Confidential');

    expect(
      (
        await b.post(`/admin/demo/apps/${clientId}`, {
          client_name: 'x',
          redirect_uris: 'https://grader.example.com/cb',
          scopes: ['openid', 'account:read'],
        })
      ).status,
    ).toBe(403); // no CSRF
    expect((await b.get(`/admin/demo/apps/${clientId}`)).html).toContain('value="Grader"');
    const bad = await b.post(`/admin/demo/apps/${clientId}`, {
      csrf,
      client_name: 'Grader',
      redirect_uris: 'http://evil.example/cb',
      scopes: ['openid', 'account:read'],
    });
    expect(bad.status).toBe(400);
    const changed = {
      csrf,
      client_name: 'Grader 2',
      redirect_uris: 'https://grader.example.com/cb https://grader.example.com/cb2',
      scopes: ['openid', 'email', 'account:read'],
    };
    // New redirect URIs are shown for confirmation first; nothing is saved until confirmed.
    const asked = await b.post(`/admin/demo/apps/${clientId}`, changed);
    expect([asked.status, asked.html.includes('https://grader.example.com/cb2')]).toEqual([200, true]);
    expect((await server.memberClients.list('demo')).find((a) => a.clientId === clientId)!.clientName).toBe('Grader');
    const saved = await b.post(`/admin/demo/apps/${clientId}`, { ...changed, confirm_redirects: 'yes' });
    expect(saved.status).toBe(303);
    const app = (await server.memberClients.list('demo')).find((a) => a.clientId === clientId)!;
    expect(app).toMatchObject({
      clientName: 'Grader 2',
      redirectUris: ['https://grader.example.com/cb', 'https://grader.example.com/cb2'],
      scope: 'openid email account:read',
      confidential: true,
    });

    const rotated = await b.post(`/admin/demo/apps/${clientId}/secret`, { csrf });
    expect(rotated.status).toBe(200);
    const next = /id="new-client-secret">([^<]+)</.exec(rotated.html)![1]!;
    expect(next).not.toBe(secret);
    const stored = (await new server.adapter('Client').find(clientId)) as { client_secret?: string };
    expect(stored.client_secret).toBe(next);
    // Another site's application is not found from this site's pages.
    expect((await b.get('/admin/demo/apps/second-member-cli')).status).toBe(404);
    expect((await b.post('/admin/demo/apps/second-member-cli/secret', { csrf })).status).toBe(404);
  });

  test('the beta switch: off suspends and Developers says how to turn it on (issue 30 item 8); on restores', async () => {
    const b = new Browser();
    await b.signIn('owner@demo.test');
    const csrf = await b.csrf('/admin/demo/settings');
    expect((await b.post('/admin/demo/settings', { csrf, mcp_connections: 'off' })).status).toBe(303);
    const settings = await b.get('/admin/demo/settings');
    expect(settings.html).toContain('href="/admin/demo/apps"');
    const off = await b.get('/admin/demo/apps');
    expect(off.status).toBe(200);
    expect(off.html).toContain('<a href="/admin/demo/settings">Turn it on in Site settings</a>');
    expect(off.html).not.toContain('New application');
    const authorize = await fetch(`${base}/oauth/authorize?client_id=demo-member-cli&response_type=code`, {
      redirect: 'manual',
    });
    expect(authorize.status).toBe(403);
    expect((await b.post('/admin/demo/settings', { csrf, mcp_connections: 'on' })).status).toBe(303);
    expect((await b.get('/admin/demo/settings')).html).toContain('href="/admin/demo/apps"');
    expect((await b.get('/admin/demo/audit?kind=operator_action')).html).toContain('updateSite (admin area)');
  });
});

describe('issue 30 item 8: admin forms', () => {
  test('a refused application form keeps what was typed and names the field as people read it', async () => {
    const b = new Browser();
    await b.signIn('owner@demo.test');
    const csrf = await b.csrf('/admin/demo/apps');
    const bad = await b.post('/admin/demo/apps', {
      csrf,
      client_name: 'Kept name',
      redirect_uris: 'https://kept.example.com/cb\nhttp://evil.example/cb',
      scopes: ['openid', 'email'],
    });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('Redirect URIs (line 2)');
    expect(bad.html).not.toMatch(/redirectUris\.\d/);
    expect(bad.html).toContain('value="Kept name"');
    expect(bad.html).toContain('https://kept.example.com/cb\nhttp://evil.example/cb</textarea>');
    expect(bad.html).toContain('value="email" checked');
    expect(bad.html).not.toContain('value="account:read" checked');
  });

  test("application forms describe scopes for the operator, not in the member's voice", async () => {
    const b = new Browser();
    await b.signIn('owner@demo.test');
    for (const path of ['/admin/demo/apps', '/admin/demo/apps/demo-member-cli']) {
      const { html } = await b.get(path);
      expect(html).toContain(
        'Lets the app read the member&#39;s enrollments, progress, orders and event registrations',
      );
      expect(html).toContain('Lets the app sign the member in and know who they are');
      expect(html).not.toContain('See your enrollments');
    }
  });

  test('the creation page tells what the developer needs: client_id, secret once, discovery URL, redirect URIs, resource, scopes, the guide', async () => {
    const b = new Browser();
    await b.signIn('owner@demo.test');
    const csrf = await b.csrf('/admin/demo/apps');
    const created = await b.post('/admin/demo/apps', {
      csrf,
      client_name: 'Next steps',
      redirect_uris: 'https://steps.example.com/cb',
      scopes: ['openid', 'account:read'],
      confidential: 'on',
    });
    expect(created.status).toBe(201);
    const main = created.html.slice(created.html.indexOf('<main'));
    expect(main).toMatch(/id="new-client-id">mc_/);
    expect(main).toMatch(/id="new-client-secret">[A-Za-z0-9_-]{43}</);
    expect(main).toContain(`<code id="discovery-url">${base}/.well-known/oauth-authorization-server</code>`);
    expect((await fetch(`${base}/.well-known/oauth-authorization-server`)).status).toBe(200);
    expect(main).toContain('<code>https://steps.example.com/cb</code>');
    expect(main).toContain(`resource=${base}</code>`);
    expect(main).toContain('<code>account:read</code> Lets the app read');
    expect(main).toContain('href="/docs/client-developer-guide.md"');
    expect((await fetch(`${base}/docs/client-developer-guide.md`)).status).toBe(200);
  });

  test('delete asks first: the confirmation page counts the members whose sign-ins end; the POST needs the box ticked', async () => {
    const b = new Browser();
    await b.signIn('owner@demo.test');
    const csrf = await b.csrf('/admin/demo/apps');
    const created = await b.post('/admin/demo/apps', {
      csrf,
      client_name: 'Doomed',
      redirect_uris: 'http://127.0.0.1/callback',
      scopes: ['openid', 'account:read'],
    });
    const clientId = /id="new-client-id">([^<]+)</.exec(created.html)![1]!;
    const tokens = [];
    for (const email of ['student@demo.test', 'instructor@demo.test'])
      tokens.push(await memberToken({ baseUrl: base, email, clientId, scope: 'openid account:read' }));
    const list = await b.get('/admin/demo/apps');
    expect(list.html).toContain(`href="/admin/demo/apps/${clientId}/delete"`);
    expect(list.html).not.toContain(`action="/admin/demo/apps/${clientId}/delete"`); // no one-click delete
    const confirm = await b.get(`/admin/demo/apps/${clientId}/delete`);
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain(
      '<input type="checkbox" name="confirm" value="yes" required> Delete Doomed: its 2 members&#39; sign-ins end',
    );
    expect((await b.post(`/admin/demo/apps/${clientId}/delete`, { csrf, confirm: 'no' })).status).toBe(400);
    for (const token of tokens) expect(await viewerStatus(base, token)).toBe(200);
    expect((await b.post(`/admin/demo/apps/${clientId}/delete`, { csrf, confirm: 'yes' })).status).toBe(303);
    for (const token of tokens) expect(await viewerStatus(base, token)).toBe(401);
    expect((await b.get(`/admin/demo/apps/${clientId}/delete`)).status).toBe(404);
  }, 60_000);

  test('role pickers default to student and offer only what the operator may give; the only owner is not offered "Remove owner"', async () => {
    const b = new Browser();
    await b.signIn('owner@demo.test');
    const selected = (html: string, id: string) =>
      new RegExp(`<select id="${id}" name="role">([\\s\\S]*?)</select>`).exec(html)?.[1] ?? '';
    const asOwner = (await b.get('/admin/demo/people')).html;
    for (const id of ['role_role', 'invite_role']) {
      const picker = selected(asOwner, id);
      expect(picker).toContain('<option value="student" selected>');
      expect(picker).toContain('<option value="owner">');
    }
    // demo has one owner: no button offers to remove that role.
    expect(asOwner).toContain('Remove student');
    expect(asOwner).not.toContain('Remove owner');
    // At `second` the same person is an admin: no owner to give, invite or remove.
    const asAdmin = (await b.get('/admin/second/people')).html;
    for (const id of ['role_role', 'invite_role']) {
      const picker = selected(asAdmin, id);
      expect(picker).toContain('<option value="student" selected>');
      expect(picker).not.toContain('value="owner"');
    }
    expect(asAdmin).not.toContain('Remove owner');
  });
});
