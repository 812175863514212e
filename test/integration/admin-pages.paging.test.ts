/**
 * Issue #29, "operator pages that page instead of rendering a whole site": over real HTTP, with an
 * operator signed in through the real sign-in form (bench/admin-session.ts), the `/admin` lists of a
 * site holding more than one page of rows (510 extra members, 520 grants of one application from
 * 510 members, 120 invitations, 120 audit events of one client) show at most ADMIN_PAGE_SIZE rows a
 * page, reach every row exactly once by following "Next page", answer 400 with a clear message for
 * a cursor that is not one of the list, count an application's members in SQL past 500, and revoke
 * every one of its grants, not the newest 500.
 */
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { adminSession } from '../../bench/admin-session.js';
import { ADMIN_PAGE_SIZE, BAD_CURSOR } from '../../src/operator/pages.js';
import { encodeCursor } from '../../src/platform/paging.js';
import { ConnectedGrants } from '../../src/platform/connected-grants.js';

const MEMBERS = 510;
const GRANTS = 520;
const INVITATIONS = 120;
const EVENTS = 120;

let server: TestServer;
let cookie: string;
let clientName: string;
/** An OAuth application of the site (Developers), made as the operator area makes one. */
let MEMBER_CLIENT: string;
const seededGrants: string[] = [];

const n = (i: number) => String(i).padStart(4, '0');

beforeAll(async () => {
  server = await startTestServer();
  const sqlite = server.store.sqlite!;
  const user = sqlite.prepare(
    `INSERT INTO users (id, email, name, password_hash, created_at) VALUES (?, ?, ?, 'x', '2026-01-01T00:00:00.000Z')`,
  );
  const membership = sqlite.prepare(`INSERT INTO memberships (site_id, user_id, role) VALUES ('demo', ?, 'student')`);
  const invitation = sqlite.prepare(
    `INSERT INTO invitations (id, site_id, email, role, token_hash, invited_by, created_at, expires_at) VALUES (?, 'demo', ?, 'student', ?, 'x', ?, '2099-01-01T00:00:00.000Z')`,
  );
  const event = sqlite.prepare(
    `INSERT INTO audit_events (id, site_id, at, kind, client_id, user_id, detail) VALUES (?, 'demo', ?, 'consent', 'pg-audit-client', NULL, ?)`,
  );
  const recent = Date.now() - 86_400_000;
  sqlite.transaction(() => {
    for (let i = 0; i < MEMBERS; i++) {
      user.run(`usr_pg_${n(i)}`, `pg-${n(i)}@demo.test`, `Paged ${i}`);
      membership.run(`usr_pg_${n(i)}`);
    }
    // Pairs share a creation time: the tie-break on id is walked too.
    for (let i = 0; i < INVITATIONS; i++)
      invitation.run(
        `inv_pg_${n(i)}`,
        `inv-${n(i)}@demo.test`,
        `hash-pg-${n(i)}`,
        new Date(recent + Math.floor(i / 2) * 1000).toISOString(),
      );
    for (let i = 0; i < EVENTS; i++)
      event.run(`evt_pg_${n(i)}`, new Date(recent + Math.floor(i / 2) * 1000).toISOString(), `pg-evt-${n(i)}`);
  })();
  const app = await server.memberClients.create('demo', {
    clientName: 'Paged helper & co',
    redirectUris: ['http://127.0.0.1/callback'],
    scope: 'openid account:read',
  });
  MEMBER_CLIENT = app.clientId;
  // Real grants in the OIDC store (the connected-apps page drops index rows whose grant is gone),
  // indexed as consent indexes them; the first 10 members have two grants each.
  const base = Date.parse('2026-02-01T00:00:00.000Z');
  const index = new ConnectedGrants(server.store.db);
  for (let i = 0; i < GRANTS; i++) {
    const userId = `usr_pg_${n(i % MEMBERS)}`;
    const grant = new server.provider.Grant({ accountId: userId, clientId: MEMBER_CLIENT });
    grant.addOIDCScope('openid');
    const grantId = await grant.save();
    seededGrants.push(grantId);
    await index.record(
      { grantId, siteId: 'demo', clientId: MEMBER_CLIENT, userId, scope: 'openid' },
      new Date(base + Math.floor(i / 2) * 1000),
    );
  }
  clientName = app.clientName;
  cookie = await adminSession(server.baseUrl, 'owner@demo.test', DEMO_PASSWORD);
}, 120_000);
afterAll(() => server.close());

async function get(path: string): Promise<{ status: number; html: string }> {
  const res = await fetch(new URL(path, server.baseUrl), { redirect: 'manual', headers: { cookie } });
  return { status: res.status, html: await res.text() };
}

const decodeAttr = (s: string) => s.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'");

/** The rows of the first table whose caption starts with `caption`. */
function rowsOf(html: string, caption: string): string[] {
  const at = html.indexOf(`>${caption}`);
  if (at < 0) return [];
  const body = html.slice(at, html.indexOf('</table>', at));
  return [...body.matchAll(/<tr>(.*?)<\/tr>/gs)].map((m) => m[1]!).filter((r) => r.includes('<td'));
}

/**
 * Follows the "Next page" links of the list whose cursor is the query parameter `param`, from
 * `first`; every page answers 200 and holds at most ADMIN_PAGE_SIZE rows of the table captioned
 * `caption`. (The people page has two lists: the other list's links keep this one's cursor as is.)
 * @returns the rows of every page, in order, and how many pages
 */
async function walk(first: string, caption: string, param = 'cursor'): Promise<{ rows: string[]; pages: number }> {
  const rows: string[] = [];
  let path: string | undefined = first;
  let pages = 0;
  while (path && pages < 100) {
    const page = await get(path);
    expect(page.status).toBe(200);
    const these = rowsOf(page.html, caption);
    expect(these.length).toBeLessThanOrEqual(ADMIN_PAGE_SIZE);
    rows.push(...these);
    pages += 1;
    const current = new URL(path, server.baseUrl).searchParams.get(param);
    path = [...page.html.matchAll(/<a href="([^"]+)" rel="next">Next page<\/a>/g)]
      .map((m) => decodeAttr(m[1]!))
      .find((href) => {
        const next = new URL(href, server.baseUrl).searchParams.get(param);
        return next !== null && next !== current;
      });
  }
  return { rows, pages };
}

/** Each value once: no row shown twice, none skipped (compared with `expected`). */
function expectEachOnce(seen: string[], expected: string[]): void {
  expect(seen.length).toBe(new Set(seen).size);
  expect(new Set(seen)).toEqual(new Set(expected));
}

test('adminSession signs an operator in through the sign-in form; its cookie opens /admin pages', async () => {
  expect(cookie).toMatch(/=/);
  const overview = await get('/admin/demo');
  expect(overview.status).toBe(200);
  expect(overview.html).toContain('Overview');
  // Without the cookie: the sign-in page, not the admin area.
  const anon = await fetch(new URL('/admin/demo', server.baseUrl), { redirect: 'manual' });
  expect(anon.status).toBe(302);
  await expect(adminSession(server.baseUrl, 'owner@demo.test', 'wrong password')).rejects.toThrow(/401/);
});

test(`/admin/demo/people pages ${MEMBERS}+ members ${ADMIN_PAGE_SIZE} at a time: each member exactly once`, async () => {
  const first = await get('/admin/demo/people');
  expect(rowsOf(first.html, 'Members and their roles')).toHaveLength(ADMIN_PAGE_SIZE);
  expect(first.html).toContain('rel="next">Next page</a>');
  const { rows, pages } = await walk('/admin/demo/people', 'Members and their roles');
  const emails = rows.map((r) => /<td[^>]*>[^<]*<\/td><td[^>]*>([^<]+)<\/td>/.exec(r)![1]!);
  const all = (
    server.store.sqlite!.prepare(`SELECT DISTINCT email FROM memberships WHERE site_id = 'demo'`).all() as Array<{
      email: string;
    }>
  ).map((r) => r.email);
  expect(all.length).toBeGreaterThan(MEMBERS);
  expectEachOnce(emails, all);
  expect(pages).toBe(Math.ceil(all.length / ADMIN_PAGE_SIZE));
  // In e-mail order across pages.
  expect([...emails].sort()).toEqual(emails);
}, 60_000);

test(`/admin/demo/people pages ${INVITATIONS} invitations with their own cursor, each once, the members page kept`, async () => {
  const { rows } = await walk('/admin/demo/people', 'Invitations', 'invitations_cursor');
  const emails = rows.map((r) => /<td[^>]*>([^<]+)<\/td>/.exec(r)![1]!).filter((m) => m.startsWith('inv-'));
  expectEachOnce(
    emails,
    Array.from({ length: INVITATIONS }, (_, i) => `inv-${n(i)}@demo.test`),
  );
  // Newest first, a tie on the time broken by id: the newest pair (118 and 119 share a time) first.
  expect(emails.slice(0, 2)).toEqual([`inv-${n(INVITATIONS - 2)}@demo.test`, `inv-${n(INVITATIONS - 1)}@demo.test`]);
}, 60_000);

test(`/admin/demo/connections reaches all ${GRANTS} grants (past the old cap of 500), ${ADMIN_PAGE_SIZE} a page`, async () => {
  const { rows, pages } = await walk('/admin/demo/connections', 'Grants at this site');
  const ids = rows.map((r) => /name="grant_id" value="([^"]+)"/.exec(r)![1]!);
  const all = (
    server.store.sqlite!.prepare(`SELECT grant_id FROM connected_grants WHERE site_id = 'demo'`).all() as Array<{
      grant_id: string;
    }>
  ).map((r) => r.grant_id);
  expect(all.length).toBeGreaterThanOrEqual(GRANTS);
  expectEachOnce(ids, all);
  for (const id of seededGrants) expect(ids).toContain(id);
  expect(pages).toBe(Math.ceil(all.length / ADMIN_PAGE_SIZE));
}, 60_000);

test(`/admin/demo/audit pages the ${EVENTS} events of a client ${ADMIN_PAGE_SIZE} at a time, the filter kept`, async () => {
  const { rows, pages } = await walk('/admin/demo/audit?client=pg-audit-client', 'Events, newest first');
  const details = rows.map((r) => /pg-evt-\d+/.exec(r)![0]);
  expectEachOnce(
    details,
    Array.from({ length: EVENTS }, (_, i) => `pg-evt-${n(i)}`),
  );
  expect(pages).toBe(Math.ceil(EVENTS / ADMIN_PAGE_SIZE));
  const second = await get('/admin/demo/audit?client=pg-audit-client');
  const next = decodeAttr(/<a href="([^"]+)" rel="next">/.exec(second.html)![1]!);
  expect(new URL(next, server.baseUrl).searchParams.get('client')).toBe('pg-audit-client');
}, 60_000);

test('a cursor that is not one of the list answers 400 with a clear message, not 500', async () => {
  const foreign = encodeCursor(['a', 'b', 'c']);
  for (const path of [
    '/admin/demo/people?cursor=not-a-cursor',
    `/admin/demo/people?cursor=${foreign}`,
    '/admin/demo/people?invitations_cursor=%25%25',
    `/admin/demo/connections?cursor=${foreign}`,
    '/admin/demo/connections?cursor=!!',
    '/admin/demo/audit?cursor=bm90IGpzb24',
    `/admin/demo/audit?cursor=${foreign}`,
    `/admin/demo/connections?cursor=${'x'.repeat(600)}`,
  ]) {
    const res = await get(path);
    expect({ path, status: res.status }).toEqual({ path, status: 400 });
    expect(res.html).toContain(BAD_CURSOR.slice(0, 40));
  }
});

test(`the overview counts grants per application in SQL (${GRANTS}, past 500)`, async () => {
  const overview = await get('/admin/demo');
  const total = (
    server.store
      .sqlite!.prepare(`SELECT count(*) AS n FROM connected_grants WHERE site_id = 'demo' AND client_id = ?`)
      .get(MEMBER_CLIENT) as { n: number }
  ).n;
  expect(total).toBeGreaterThanOrEqual(GRANTS);
  const escaped = clientName.replaceAll('&', '&amp;');
  expect(overview.html).toMatch(new RegExp(`>${escaped}</td><td[^>]*>${total}<`));
});

test(`deleting an application names its ${MEMBERS} members (counted in SQL); revoking all of it ends all ${GRANTS} grants`, async () => {
  const members = (
    server.store
      .sqlite!.prepare(
        `SELECT count(DISTINCT user_id) AS n FROM connected_grants WHERE site_id = 'demo' AND client_id = ?`,
      )
      .get(MEMBER_CLIENT) as { n: number }
  ).n;
  expect(members).toBeGreaterThanOrEqual(MEMBERS);
  const confirm = await get(`/admin/demo/apps/${MEMBER_CLIENT}/delete`);
  expect(confirm.status).toBe(200);
  expect(confirm.html).toContain(`its ${members} members&#39; sign-ins end`);

  const grants = (
    server.store
      .sqlite!.prepare(`SELECT count(*) AS n FROM connected_grants WHERE site_id = 'demo' AND client_id = ?`)
      .get(MEMBER_CLIENT) as { n: number }
  ).n;
  const csrf = /name="csrf" value="([^"]+)"/.exec((await get('/admin/demo/connections')).html)![1]!;
  const res = await fetch(new URL('/admin/demo/connections/revoke', server.baseUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf, client_id: MEMBER_CLIENT, confirm: 'yes' }),
  });
  expect(res.status).toBe(303);
  expect(res.headers.get('location')).toBe(`/admin/demo/connections?revoked=${grants}`);
  const left = server.store
    .sqlite!.prepare(`SELECT count(*) AS n FROM connected_grants WHERE site_id = 'demo' AND client_id = ?`)
    .get(MEMBER_CLIENT) as { n: number };
  expect(left.n).toBe(0);
  // The oldest grant (past the newest 500) is gone from the OIDC store too.
  expect(await server.provider.Grant.find(seededGrants[0]!)).toBeUndefined();
}, 120_000);
