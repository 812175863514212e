/**
 * The per-request MCP server (src/resource/mcp/server.ts) and the access rule (access.ts),
 * without HTTP: an in-memory transport links the SDK client to the server.
 */
import pino from 'pino';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { buildMcpServer } from '../../src/resource/mcp/server.js';
import { decide, listedDescription } from '../../src/resource/mcp/access.js';
import { TOOLS, findTool } from '../../src/resource/mcp/tools/registry.js';
import type { Caller, ToolServices } from '../../src/resource/mcp/tools/types.js';
import type { Principal } from '../../src/resource/bearer.js';

const principal = (scopes: string[]): Principal => ({
  userId: 'u1',
  siteId: 'demo',
  clientId: 'c',
  scopes: new Set(scopes),
  grantId: 'g',
  expiresAt: 0,
});

async function connected(caller: Caller, services: Partial<ToolServices>) {
  const server = buildMcpServer(caller, services as ToolServices, pino({ level: 'silent' }), 'req-123');
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(b);
  return client;
}

describe('a tool raising an unexpected error', () => {
  test('→ isError result with a generic message and the request id; the internal message does not leak', async () => {
    const catalog = { searchCourses: async () => Promise.reject(new Error('SQLITE_CORRUPT /var/lib/secret.db')) };
    const client = await connected({ roles: [] }, { catalog: catalog as never });
    const result = await client.callTool({ name: 'search_courses', arguments: { site: 'demo' } });
    expect(result.isError).toBe(true);
    const text = JSON.stringify(result.content);
    expect(text).toContain('internal error in search_courses (request id req-123)');
    expect(text).not.toContain('SQLITE');
    await client.close();
  });
});

describe('DESIGN D4 access rule', () => {
  test('every tool declares scopes (none only for public ones), schemas and all four annotations', () => {
    for (const t of TOOLS) {
      expect(t.audience === 'public').toBe(t.scopes.length === 0);
      expect(typeof t.input).toBe('object');
      expect(Object.keys(t.output).length).toBeGreaterThan(0);
      expect(Object.keys(t.annotations).sort()).toEqual([
        'destructiveHint',
        'idempotentHint',
        'openWorldHint',
        'readOnlyHint',
      ]);
      if (t.annotations.readOnlyHint) expect(t.scopes.every((s) => s.endsWith(':read'))).toBe(true);
    }
  });

  test('anonymous: may call public tools only; protected → 401 with the tool scopes', () => {
    expect(TOOLS.filter((t) => decide(t, { roles: [] }).allowed).map((t) => t.name)).toEqual([
      'how_to_connect',
      'search_courses',
      'get_course',
    ]);
    expect(decide(findTool('list_orders')!, { roles: [] })).toMatchObject({
      allowed: false,
      status: 401,
      error: 'invalid_token',
      scope: 'orders:read',
    });
  });

  test('operator scopes without an operator role (role taken away) → 403', () => {
    const caller = { principal: principal(['orders:read']), roles: ['student'] };
    expect(decide(findTool('list_orders')!, caller)).toMatchObject({
      allowed: false,
      status: 403,
      error: 'insufficient_scope',
    });
    expect(decide(findTool('list_orders')!, { ...caller, roles: ['admin'] })).toEqual({ allowed: true });
  });

  test('member scopes open member tools for any role at the site', () => {
    const caller = { principal: principal(['account:read']), roles: ['student'] };
    expect(TOOLS.filter((t) => t.audience === 'member' && decide(t, caller).allowed).map((t) => t.name)).toEqual([
      'my_enrollments',
      'continue_watching',
      'my_orders',
      'my_event_registrations',
    ]);
  });
});

describe('issue #26: tools/list shows every tool to every caller, saying whom it is for and what it needs', () => {
  test('an anonymous caller lists every tool; descriptions and _meta name the audience and the scopes', async () => {
    const client = await connected({ roles: [] }, {});
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    for (const listed of tools) {
      const tool = findTool(listed.name)!;
      expect(listed.description).toBe(listedDescription(tool));
      expect(listed._meta).toMatchObject({
        'coursegate/audience': tool.audience,
        'coursegate/scopes': [...tool.scopes],
      });
      const who = {
        public: /^For everyone/,
        member: /^For members of the site/,
        operator: /^For the site's owners and admins only/,
      }[tool.audience];
      expect(listed.description).toMatch(who);
      for (const s of tool.scopes) expect(listed.description).toContain(s);
      expect(listed._meta!.securitySchemes).toEqual(
        tool.scopes.length ? [{ type: 'oauth2', scopes: [...tool.scopes] }] : [{ type: 'noauth' }],
      );
    }
    await client.close();
  });

  test('a member token calling an operator tool is told that the tool is for owners and admins', () => {
    const refusal = decide(findTool('site_analytics')!, { principal: principal(['account:read']), roles: ['student'] });
    expect(refusal).toMatchObject({ allowed: false, status: 403, scope: 'analytics:read' });
    expect((refusal as { description: string }).description).toContain(
      "operator tool for the site's owners and admins",
    );
  });
});
