/**
 * Issue #25 findings 7, 10, 14, 15, 16 and issue #27 through the real server (SQLite store):
 *
 *  10  deleting an application through `/api/v1`, its MCP tool or `/admin` ends its members'
 *      tokens and grants alike (one implementation, `deleteOAuthApplication`);
 *   7  operator actions through MCP tools are audited, like those of `/api/v1` and `/admin`, and
 *      filtering the trail by an application shows the actions of every surface on it;
 *  16  an Idempotency-Key is the caller's own: another client or operator sending the same key
 *      never gets the first caller's stored answer;
 *  14  a pending invitation stops working once its creator lost the role that allowed it;
 *  15  an admin cannot give themselves a lower role by inviting their own address.
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { memberToken } from '../helpers/member-token.js';
import { viewerStatus } from '../helpers/flows.js';
import { AdminBrowser, callApi, mcpOperator, operatorToken } from '../helpers/operator-surfaces.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Invitations } from '../../src/platform/invitations.js';

let server: TestServer;
let base: string;
let owner: { token: string; clientId: string };
let mcp: { client: Client; clientId: string };
const browser = () => new AdminBrowser(base);
/** The platform's invitations service on the server's own store. */
const invitations = () => new Invitations(server.store.db);

beforeAll(async () => {
  server = await startTestServer();
  base = server.baseUrl;
  owner = await operatorToken(base, 'owner@demo.test', 'demo', 'findings api');
  mcp = await mcpOperator(base, 'owner@demo.test', 'demo');
}, 90_000);
afterAll(async () => {
  await mcp?.client.close();
  await server?.close();
});

const api = (path: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) =>
  callApi(base, owner.token, path, method, body, headers);

/** A member application with one member token and one grant. */
async function appWithMember(name: string): Promise<{ clientId: string; memberAccess: string }> {
  const created = await api('/api/v1/oauth-applications', 'POST', {
    clientName: name,
    redirectUris: ['http://127.0.0.1/callback'],
    scopes: ['openid', 'account:read'],
  });
  expect(created.status).toBe(201);
  const clientId = created.body.clientId as string;
  const memberAccess = await memberToken({
    baseUrl: base,
    email: 'student@demo.test',
    clientId,
    scope: 'openid account:read',
  });
  expect(await viewerStatus(base, memberAccess)).toBe(200);
  expect(
    ((await api(`/api/v1/connected-grants?clientId=${encodeURIComponent(clientId)}`)).body.grants as unknown[]).length,
  ).toBe(1);
  return { clientId, memberAccess };
}

async function deletedEverywhere(clientId: string, memberAccess: string) {
  expect(await viewerStatus(base, memberAccess)).toBe(401);
  expect((await api(`/api/v1/connected-grants?clientId=${encodeURIComponent(clientId)}`)).body.grants).toEqual([]);
  expect((await api(`/api/v1/oauth-applications/${encodeURIComponent(clientId)}`)).status).toBe(404);
}

describe('issue #25 finding 10: deleting an application ends its tokens and grants on every surface', () => {
  test('DELETE /api/v1/oauth-applications/{id}', async () => {
    const { clientId, memberAccess } = await appWithMember('Deleted by API');
    expect((await api(`/api/v1/oauth-applications/${encodeURIComponent(clientId)}`, 'DELETE')).status).toBe(204);
    await deletedEverywhere(clientId, memberAccess);
  }, 60_000);

  test('the MCP tool delete_oauth_application', async () => {
    const { clientId, memberAccess } = await appWithMember('Deleted by MCP');
    const result = await mcp.client.callTool({ name: 'delete_oauth_application', arguments: { clientId } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ deleted: clientId });
    await deletedEverywhere(clientId, memberAccess);
  }, 60_000);

  test('/admin delete', async () => {
    const { clientId, memberAccess } = await appWithMember('Deleted by admin');
    const b = browser();
    await b.signIn('owner@demo.test');
    const csrf = await b.csrf('/admin/demo/apps');
    expect(
      (await b.post(`/admin/demo/apps/${encodeURIComponent(clientId)}/delete`, { csrf, confirm: 'yes' })).status,
    ).toBe(303);
    await deletedEverywhere(clientId, memberAccess);
  }, 60_000);

  test("another site's application is not found (and its grants are untouched)", async () => {
    expect((await api('/api/v1/oauth-applications/second-member-cli', 'DELETE')).status).toBe(404);
  });
});

describe('issue #25 finding 7: every surface audits operator actions; the trail filtered by an application shows them all', () => {
  test('an invitation made through an MCP tool is in the audit trail, naming its target and surface', async () => {
    const result = await mcp.client.callTool({
      name: 'invite_member',
      arguments: { email: 'mcp-invited@example.com', role: 'student' },
    });
    expect(result.isError).toBeFalsy();
    const id = (result.structuredContent as { invitation: { id: string } }).invitation.id;
    await server.audit.flush();
    const events = (await api('/api/v1/audit-events?kind=operator_action')).body.events as Array<
      Record<string, unknown>
    >;
    expect(events).toContainEqual(
      expect.objectContaining({
        userId: 'usr_owner',
        clientId: mcp.clientId,
        target: `invitation:${id}`,
        surface: 'mcp',
        detail: 'createInvitation (MCP tool)',
      }),
    );
    // Enrolments too (46 events before and after, in the finding).
    await mcp.client.callTool({
      name: 'enroll_student',
      arguments: { email: 'student2@demo.test', courseSlug: 'sql-basics', lifetimeAccess: true },
    });
    await server.audit.flush();
    const after = (await api('/api/v1/audit-events?kind=operator_action')).body.events as Array<
      Record<string, unknown>
    >;
    expect(after).toContainEqual(
      expect.objectContaining({ surface: 'mcp', detail: expect.stringContaining('enrollStudent') }),
    );
  }, 30_000);

  test('filtering by an application shows its actions through /api/v1, MCP and /admin, and its own requests', async () => {
    const { clientId } = await appWithMember('Audited everywhere');
    const etag = (await api(`/api/v1/oauth-applications/${clientId}`)).headers.get('etag')!;
    expect(
      (
        await api(
          `/api/v1/oauth-applications/${clientId}`,
          'PATCH',
          { clientName: 'Audited (api)' },
          { 'if-match': etag },
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await mcp.client.callTool({
          name: 'update_oauth_application',
          arguments: { clientId, clientName: 'Audited (mcp)' },
        })
      ).isError,
    ).toBeFalsy();
    const b = browser();
    await b.signIn('owner@demo.test');
    const csrf = await b.csrf('/admin/demo/apps');
    expect(
      (
        await b.post(`/admin/demo/apps/${clientId}`, {
          csrf,
          client_name: 'Audited (admin)',
          redirect_uris: 'http://127.0.0.1/callback',
          scopes: ['openid', 'account:read'],
        })
      ).status,
    ).toBe(303);
    await server.audit.flush();
    const events = (await api(`/api/v1/audit-events?clientId=${encodeURIComponent(clientId)}`)).body.events as Array<
      Record<string, unknown>
    >;
    const actions = events.filter((e) => e.kind === 'operator_action');
    expect(actions.map((e) => e.surface).sort()).toEqual(['admin', 'api', 'api', 'mcp']); // create + update through the API
    for (const a of actions) expect(a.target).toBe(`application:${clientId}`);
    expect(actions.find((a) => a.surface === 'api')!.clientId).toBe(owner.clientId);
    expect(actions.find((a) => a.surface === 'admin')!.clientId).toBeNull();
    expect(events.some((e) => e.kind === 'consent' && e.clientId === clientId)).toBe(true);
    // The /admin audit page filters the same way.
    const page = await b.get(`/admin/demo/audit?client=${encodeURIComponent(clientId)}`);
    expect(page.html).toContain('MCP tool');
    expect(page.html).toContain('Admin area');
    expect(page.html).toContain('Consent given');
  }, 60_000);
});

describe('issue #25 finding 16: an Idempotency-Key belongs to its caller (site, client, user)', () => {
  test('another client of the same operator, and another operator, sending the same key get their own answer', async () => {
    const body = { email: 'idem@example.com', role: 'student' };
    const first = await api('/api/v1/invitations', 'POST', body, { 'idempotency-key': 'shared-key-1' });
    expect(first.status).toBe(201);
    const replay = await api('/api/v1/invitations', 'POST', body, { 'idempotency-key': 'shared-key-1' });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(first.body.id);

    const otherClient = await operatorToken(base, 'owner@demo.test', 'demo', 'findings other client');
    const mine = await callApi(base, otherClient.token, '/api/v1/invitations', 'POST', body, {
      'idempotency-key': 'shared-key-1',
    });
    expect(mine.status).toBe(201);
    expect(mine.headers.get('idempotent-replayed')).toBeNull();
    expect(mine.body.id).not.toBe(first.body.id);
    expect(mine.body.acceptUrl).toEqual(expect.any(String));

    // Another operator of the site (an admin made for this test) with the same key and body.
    expect((await api('/api/v1/members/instructor%40demo.test/roles/admin', 'PUT')).status).toBe(200);
    const admin = await operatorToken(base, 'instructor@demo.test', 'demo', 'findings admin');
    const theirs = await callApi(base, admin.token, '/api/v1/invitations', 'POST', body, {
      'idempotency-key': 'shared-key-1',
    });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(first.body.id);
    expect((await api('/api/v1/members/instructor%40demo.test/roles/admin', 'DELETE')).status).toBe(204);
  }, 60_000);
});

describe('issue #25 findings 14 and 15: invitations and the role hierarchy', () => {
  test('14: an invitation stops working once its creator lost the role that allowed it', async () => {
    expect((await api('/api/v1/members/instructor%40demo.test/roles/admin', 'PUT')).status).toBe(200);
    const admin = await operatorToken(base, 'instructor@demo.test', 'demo', 'findings inviter');
    const invited = await callApi(base, admin.token, '/api/v1/invitations', 'POST', {
      email: 'late@example.com',
      role: 'student',
    });
    expect(invited.status).toBe(201);
    const link = invited.body.acceptUrl as string;
    const token = link.slice(link.lastIndexOf('/') + 1);
    expect((await fetch(link)).status).toBe(200);
    await expect(invitations().preview(token)).resolves.toMatchObject({ email: 'late@example.com' });

    expect((await api('/api/v1/members/instructor%40demo.test/roles/admin', 'DELETE')).status).toBe(204);
    expect((await fetch(link)).status).not.toBe(200);
    await expect(invitations().preview(token)).rejects.toMatchObject({
      code: 'conflict',
      reason: 'invitation_revoked',
    });
    // Accepting (a signed-in user with the invited address) is refused the same way.
    await expect(invitations().accept(token, { id: 'usr_student', email: 'late@example.com' })).rejects.toMatchObject({
      reason: 'invitation_revoked',
    });
  }, 60_000);

  test('15: inviting your own address with a role you lack is refused like the direct grant', async () => {
    const direct = await api('/api/v1/members/owner%40demo.test/roles/student', 'PUT');
    expect(direct.status).toBe(403);
    const invite = await api('/api/v1/invitations', 'POST', { email: 'Owner@Demo.test', role: 'student' });
    expect(invite.status).toBe(403);
    expect(invite.body.detail).toBe(direct.body.detail);
    expect(invite.body.detail).toBe('you cannot give yourself a role; ask another operator');
    // The same through MCP and /admin (one rule in the platform service).
    const viaMcp = await mcp.client.callTool({
      name: 'invite_member',
      arguments: { email: 'owner@demo.test', role: 'instructor' },
    });
    expect(viaMcp.isError).toBe(true);
    const b = browser();
    await b.signIn('owner@demo.test');
    const csrf = await b.csrf('/admin/demo/people');
    const page = await b.post('/admin/demo/invitations', { csrf, email: 'owner@demo.test', role: 'student' });
    expect(page.status).toBe(403);
    expect(page.html).toContain('you cannot give yourself a role');
    expect(page.html).toContain('value="owner@demo.test"'); // the form is kept
  }, 60_000);
});

describe('issue #27: /admin shows refusals on the page, the form kept, with readable field names', () => {
  test('an invalid redirect URI names "Redirect URIs (line 2)", not redirectUris.1', async () => {
    const b = browser();
    await b.signIn('owner@demo.test');
    const csrf = await b.csrf('/admin/demo/apps');
    const bad = await b.post('/admin/demo/apps', {
      csrf,
      client_name: 'Kept name',
      redirect_uris: 'http://127.0.0.1/callback\nhttp://evil.example/cb',
      scopes: ['openid', 'account:read', 'account:write'],
    });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('Not created: Redirect URIs (line 2)');
    expect(bad.html).not.toContain('redirectUris.1');
    expect(bad.html).toContain('value="Kept name"');
    expect(bad.html).toContain('http://evil.example/cb</textarea>');
    expect(bad.html).toMatch(/value="account:write" checked/);
  });
});
