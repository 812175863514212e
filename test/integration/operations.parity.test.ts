/**
 * Issue #27 parity: every operator write that `/admin` offers runs through all three surfaces, as
 * their users drive them: `/api/v1` over HTTP with a real operator token, the MCP operator tool
 * through the MCP SDK client, and the `/admin` form with a real `cg_web` session. For each surface
 * the test starts from the same state, runs the action, and compares the resulting state and the
 * audit row (kind, acting user, operation, target) across surfaces; only the surface and the acting
 * client differ (the token's client on `/api/v1` and MCP, none on `/admin`).
 *
 * Two actions have no MCP tool on purpose: creating an application and rotating its secret answer
 * a client secret, which has no place in a model's context (docs/mcp.md).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { memberToken } from '../helpers/member-token.js';
import { viewerStatus } from '../helpers/flows.js';
import { AdminBrowser, callApi, mcpOperator, operatorToken } from '../helpers/operator-surfaces.js';

type Surface = 'api' | 'mcp' | 'admin';
type Vars = Record<string, string>;

let server: TestServer;
let base: string;
let apiOperator: { token: string; clientId: string };
let mcp: { client: Client; clientId: string };
let admin: AdminBrowser;
let csrf: string;

beforeAll(async () => {
  server = await startTestServer();
  base = server.baseUrl;
  apiOperator = await operatorToken(base, 'owner@demo.test', 'demo', 'parity api');
  mcp = await mcpOperator(base, 'owner@demo.test', 'demo');
  admin = new AdminBrowser(base);
  await admin.signIn('owner@demo.test');
  csrf = await admin.csrf('/admin/demo/people');
}, 90_000);
afterAll(async () => {
  await mcp?.client.close();
  await server?.close();
});

const api = (path: string, method = 'GET', body?: unknown) => callApi(base, apiOperator.token, path, method, body);
const tool = async (name: string, args: Record<string, unknown>) => {
  const result = await mcp.client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Record<string, unknown>;
};
const form = async (path: string, fields: Record<string, string | string[]>) => {
  const res = await admin.post(path, { csrf, ...fields });
  if (res.status >= 400) throw new Error(`${path}: ${res.status}`);
  return res.html;
};

const REDIRECT = 'http://127.0.0.1/callback';
async function newApp(confidential = false): Promise<string> {
  const created = await api('/api/v1/oauth-applications', 'POST', {
    clientName: 'Parity app',
    redirectUris: [REDIRECT],
    scopes: ['openid', 'account:read'],
    confidential,
  });
  expect(created.status).toBe(201);
  return created.body.clientId as string;
}
async function appWithGrant(): Promise<Vars> {
  const clientId = await newApp();
  const access = await memberToken({
    baseUrl: base,
    email: 'student@demo.test',
    clientId,
    scope: 'openid account:read',
  });
  const grants = (await api(`/api/v1/connected-grants?clientId=${encodeURIComponent(clientId)}`)).body.grants as Array<{
    grantId: string;
  }>;
  return { clientId, access, grantId: grants[0]!.grantId };
}
const appState = async (clientId: string) => {
  const read = await api(`/api/v1/oauth-applications/${encodeURIComponent(clientId)}`);
  if (read.status !== 200) return { status: read.status };
  const { clientId: _id, createdAt: _at, ...rest } = read.body;
  return rest;
};
const grantsState = async (v: Vars) => ({
  grants: ((await api(`/api/v1/connected-grants?clientId=${encodeURIComponent(v.clientId!)}`)).body.grants as unknown[])
    .length,
  memberToken: await viewerStatus(base, v.access!),
});
const rolesOf = async (email: string) =>
  ((await api('/api/v1/members?limit=200')).body.members as Array<{ email: string; roles: string[] }>).find(
    (m) => m.email === email,
  )?.roles ?? [];
const newestInvitation = async () =>
  ((await api('/api/v1/invitations?limit=1')).body.invitations as Array<Record<string, unknown>>)[0]!;

/** One operator write of /admin and how each surface runs it. */
interface Case {
  op: string;
  setup(): Promise<Vars>;
  run: Partial<Record<Surface, (v: Vars) => Promise<Vars | undefined>>>;
  state(v: Vars): Promise<unknown>;
  target(v: Vars): string;
}

const CASES: Case[] = [
  {
    op: 'updateSite',
    setup: async () => {
      expect((await api('/api/v1/site', 'PATCH', { mcpConnectionsEnabled: false })).status).toBe(200);
      return {};
    },
    run: {
      api: async () =>
        void expect((await api('/api/v1/site', 'PATCH', { mcpConnectionsEnabled: true })).status).toBe(200),
      mcp: async () => void (await tool('update_site', { mcpConnectionsEnabled: true })),
      admin: async () => void (await form('/admin/demo/settings', { mcp_connections: 'on' })),
    },
    state: async () => (await api('/api/v1/site')).body,
    target: () => 'site:demo',
  },
  {
    op: 'createOAuthApplication',
    setup: async () => ({}),
    run: {
      api: async () => {
        const created = await api('/api/v1/oauth-applications', 'POST', {
          clientName: 'Created',
          redirectUris: ['https://parity.example.com/cb'],
          scopes: ['openid', 'email', 'account:read'],
          confidential: true,
        });
        return { clientId: created.body.clientId as string };
      },
      admin: async () => {
        const html = await form('/admin/demo/apps', {
          client_name: 'Created',
          redirect_uris: 'https://parity.example.com/cb',
          scopes: ['openid', 'email', 'account:read'],
          confidential: 'on',
        });
        return { clientId: /id="new-client-id">([^<]+)</.exec(html)![1]! };
      },
    },
    state: (v) => appState(v.clientId!),
    target: (v) => `application:${v.clientId}`,
  },
  {
    op: 'updateOAuthApplication',
    setup: async () => ({ clientId: await newApp() }),
    run: {
      // Name and scopes on every surface; redirect URIs are not an MCP change (test below).
      api: async (v) =>
        void expect(
          (
            await api(`/api/v1/oauth-applications/${v.clientId}`, 'PATCH', {
              clientName: 'Renamed',
              scopes: ['openid', 'email', 'account:read'],
            })
          ).status,
        ).toBe(200),
      mcp: async (v) =>
        void (await tool('update_oauth_application', {
          clientId: v.clientId,
          clientName: 'Renamed',
          scopes: ['openid', 'email', 'account:read'],
        })),
      admin: async (v) =>
        void (await form(`/admin/demo/apps/${v.clientId}`, {
          client_name: 'Renamed',
          redirect_uris: REDIRECT,
          scopes: ['openid', 'email', 'account:read'],
        })),
    },
    state: (v) => appState(v.clientId!),
    target: (v) => `application:${v.clientId}`,
  },
  {
    op: 'rotateOAuthApplicationSecret',
    setup: async () => ({ clientId: await newApp(true) }),
    run: {
      api: async (v) =>
        void expect((await api(`/api/v1/oauth-applications/${v.clientId}/secret`, 'POST')).status).toBe(200),
      admin: async (v) =>
        void expect(await form(`/admin/demo/apps/${v.clientId}/secret`, {})).toContain('new-client-secret'),
    },
    state: (v) => appState(v.clientId!),
    target: (v) => `application:${v.clientId}`,
  },
  {
    op: 'deleteOAuthApplication',
    setup: appWithGrant,
    run: {
      api: async (v) => void expect((await api(`/api/v1/oauth-applications/${v.clientId}`, 'DELETE')).status).toBe(204),
      mcp: async (v) => void (await tool('delete_oauth_application', { clientId: v.clientId })),
      admin: async (v) => void (await form(`/admin/demo/apps/${v.clientId}/delete`, { confirm: 'yes' })),
    },
    state: async (v) => ({ app: await appState(v.clientId!), ...(await grantsState(v)) }),
    target: (v) => `application:${v.clientId}`,
  },
  {
    op: 'revokeConnectedGrant',
    setup: appWithGrant,
    run: {
      api: async (v) => void expect((await api(`/api/v1/connected-grants/${v.grantId}`, 'DELETE')).status).toBe(204),
      mcp: async (v) => void (await tool('revoke_connected_grant', { grantId: v.grantId })),
      admin: async (v) => void (await form('/admin/demo/connections/revoke', { grant_id: v.grantId! })),
    },
    state: grantsState,
    target: (v) => `grant:${v.grantId}`,
  },
  {
    op: 'revokeClientGrants',
    setup: appWithGrant,
    run: {
      api: async (v) =>
        void expect((await api(`/api/v1/connected-grants/by-client/${v.clientId}`, 'DELETE')).status).toBe(204),
      mcp: async (v) => void (await tool('revoke_client_grants', { clientId: v.clientId })),
      admin: async (v) =>
        void (await form('/admin/demo/connections/revoke', { client_id: v.clientId!, confirm: 'yes' })),
    },
    state: grantsState,
    target: (v) => `application:${v.clientId}`,
  },
  {
    op: 'grantMemberRole',
    setup: async () => {
      await api('/api/v1/members/student2%40demo.test/roles/instructor', 'DELETE');
      return {};
    },
    run: {
      api: async () =>
        void expect((await api('/api/v1/members/student2%40demo.test/roles/instructor', 'PUT')).status).toBe(200),
      mcp: async () => void (await tool('grant_member_role', { email: 'student2@demo.test', role: 'instructor' })),
      admin: async () =>
        void (await form('/admin/demo/people/roles', {
          email: 'student2@demo.test',
          role: 'instructor',
          change: 'grant',
        })),
    },
    state: async () => (await rolesOf('student2@demo.test')).sort(),
    target: () => 'member:student2@demo.test/instructor',
  },
  {
    op: 'revokeMemberRole',
    setup: async () => {
      expect((await api('/api/v1/members/student2%40demo.test/roles/instructor', 'PUT')).status).toBe(200);
      return {};
    },
    run: {
      api: async () =>
        void expect((await api('/api/v1/members/student2%40demo.test/roles/instructor', 'DELETE')).status).toBe(204),
      mcp: async () => void (await tool('revoke_member_role', { email: 'student2@demo.test', role: 'instructor' })),
      admin: async () =>
        void (await form('/admin/demo/people/roles', {
          email: 'student2@demo.test',
          role: 'instructor',
          change: 'revoke',
          confirm: 'yes',
        })),
    },
    state: async () => (await rolesOf('student2@demo.test')).sort(),
    target: () => 'member:student2@demo.test/instructor',
  },
  {
    op: 'createInvitation',
    setup: async () => ({}),
    run: {
      api: async () => ({
        id: (await api('/api/v1/invitations', 'POST', { email: 'parity@example.com', role: 'instructor' })).body
          .id as string,
      }),
      mcp: async () => ({
        id: (
          (await tool('invite_member', { email: 'parity@example.com', role: 'instructor' })).invitation as {
            id: string;
          }
        ).id,
      }),
      admin: async () => {
        await form('/admin/demo/invitations', { email: 'parity@example.com', role: 'instructor' });
        return { id: (await newestInvitation()).id as string };
      },
    },
    state: async (v) => {
      const { id: _id, createdAt: _c, expiresAt: _e, ...rest } = (await api(`/api/v1/invitations/${v.id}`)).body;
      return rest;
    },
    target: (v) => `invitation:${v.id}`,
  },
  {
    op: 'revokeInvitation',
    setup: async () => ({
      id: (await api('/api/v1/invitations', 'POST', { email: 'withdrawn@example.com', role: 'student' })).body
        .id as string,
    }),
    run: {
      api: async (v) => void expect((await api(`/api/v1/invitations/${v.id}`, 'DELETE')).status).toBe(204),
      mcp: async (v) => void (await tool('revoke_invitation', { invitationId: v.id })),
      admin: async (v) => void (await form(`/admin/demo/invitations/${v.id}/withdraw`, {})),
    },
    state: async (v) => {
      const { id: _id, createdAt: _c, expiresAt: _e, ...rest } = (await api(`/api/v1/invitations/${v.id}`)).body;
      return rest;
    },
    target: (v) => `invitation:${v.id}`,
  },
];

const LABEL: Record<Surface, string> = { api: 'admin API', mcp: 'MCP tool', admin: 'admin area' };
const actingClient = (surface: Surface) =>
  surface === 'api' ? apiOperator.clientId : surface === 'mcp' ? mcp.clientId : null;

describe('issue #27: every operator write of /admin gives the same state and audit row on /api/v1, MCP and /admin', () => {
  test('the cases cover every operator write the /admin pages post to', async () => {
    // The /admin page handlers name their operations (src/operator/admin-routes.ts, admin-people.ts).
    const { readFileSync } = await import('node:fs');
    const pages = ['admin-routes.ts', 'admin-people.ts']
      .map((f) => readFileSync(new URL(`../../src/operator/${f}`, import.meta.url), 'utf8'))
      .join('\n');
    const named = new Set(
      [
        ...pages.matchAll(
          // Whatever the formatter's line breaks between the arguments.
          /act(?:<[^>]*>)?\(\s*(?:deps\.)?services,\s*op,\s*(?:'(\w+)'|change === 'grant'\s*\?\s*'(\w+)'\s*:\s*'(\w+)')/g,
        ),
      ]
        .flatMap((m) => [m[1], m[2], m[3]])
        .filter((x): x is string => !!x),
    );
    expect([...named].sort()).toEqual(CASES.map((c) => c.op).sort());
  });

  test.each(CASES.map((c) => [c.op, c] as const))(
    '%s',
    async (_op, c) => {
      const outcomes: Array<{ surface: Surface; state: unknown; audit: Record<string, unknown> }> = [];
      for (const surface of ['api', 'mcp', 'admin'] as const) {
        const run = c.run[surface];
        if (!run) continue;
        const before = await c.setup();
        const vars = { ...before, ...((await run(before)) ?? {}) };
        await server.audit.flush();
        const events = (await api('/api/v1/audit-events?kind=operator_action&limit=1')).body.events as Array<
          Record<string, unknown>
        >;
        const audit = events[0]!;
        expect(audit).toMatchObject({
          userId: 'usr_owner',
          surface,
          clientId: actingClient(surface),
          target: c.target(vars),
          detail: `${c.op} (${LABEL[surface]})`,
        });
        outcomes.push({
          surface,
          state: await c.state(vars),
          audit: { kind: audit.kind, userId: audit.userId, op: String(audit.detail).split(' ')[0] },
        });
      }
      expect(outcomes.length).toBe(c.run.mcp ? 3 : 2);
      for (const o of outcomes.slice(1)) {
        expect({ surface: o.surface, state: o.state }).toEqual({ surface: o.surface, state: outcomes[0]!.state });
        expect(o.audit).toEqual(outcomes[0]!.audit);
      }
    },
    60_000,
  );

  test("a member app's redirect URIs change through /api/v1 and /admin (once the page showed the change), never through MCP", async () => {
    const moved = ['https://parity.example.com/cb'];
    // MCP: a call naming redirect URIs is refused with the reason; the application keeps its own.
    const viaMcp = await newApp();
    const refused = await mcp.client.callTool({
      name: 'update_oauth_application',
      arguments: { clientId: viaMcp, clientName: 'Rerouted', redirectUris: moved },
    });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('redirect URIs change only through');
    expect(await appState(viaMcp)).toMatchObject({ clientName: 'Parity app', redirectUris: [REDIRECT] });
    const listed = (await mcp.client.listTools()).tools.find((t) => t.name === 'update_oauth_application')!;
    expect(listed.description).toContain('not changed here');

    // /admin: the first post shows what changes and changes nothing; the confirmed one saves.
    const viaAdmin = await newApp();
    const fields = { client_name: 'Parity app', redirect_uris: moved[0]!, scopes: ['openid', 'account:read'] };
    const shown = await form(`/admin/demo/apps/${viaAdmin}`, fields);
    expect(shown).toContain('Change where Parity app sends sign-ins?');
    expect(shown).toMatch(/<h2>Removed<\/h2><ul class="plain"><li><code>http:\/\/127\.0\.0\.1\/callback<\/code>/);
    expect(shown).toMatch(/<h2>Added<\/h2><ul class="plain"><li><code>https:\/\/parity\.example\.com\/cb<\/code>/);
    expect((await appState(viaAdmin)).redirectUris).toEqual([REDIRECT]);
    await form(`/admin/demo/apps/${viaAdmin}`, { ...fields, confirm_redirects: 'yes' });

    // /api/v1: the explicit body is the confirmation; both surfaces end in the same state.
    const viaApi = await newApp();
    expect((await api(`/api/v1/oauth-applications/${viaApi}`, 'PATCH', { redirectUris: moved })).status).toBe(200);
    expect(await appState(viaAdmin)).toEqual(await appState(viaApi));
    expect((await appState(viaApi)).redirectUris).toEqual(moved);
  }, 60_000);
});
