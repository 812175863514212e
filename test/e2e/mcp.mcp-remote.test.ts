/**
 * `/mcp` through `mcp-remote` (npm), the stdio proxy desktop clients launch (research §4),
 * driven headlessly: anonymous tools/list, then a member tool whose 401 makes mcp-remote sign in
 * mid-session with the pre-registered `demo-member-cli` (student@demo.test); and an operator tool
 * whose 401 makes it register a loopback client dynamically (owner@demo.test, site demo), then
 * steps up twice (403 insufficient_scope) with that same registration. As a listed-only host
 * (issue #26): every protected tool is called only after the anonymous listing offered it and the
 * scripted model (test/helpers/listed-only-model.ts) picked it by its description.
 */
import { writeFileSync } from 'node:fs';
import { freePort, startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { startMcpRemote, type McpRemoteSession } from '../helpers/mcp-remote.js';
import { pickByDescription } from '../helpers/listed-only-model.js';

/** Lists the tools through the session and lets the scripted model pick one for `intent`. */
async function pick(session: McpRemoteSession, intent: string) {
  const { tools } = await session.client.listTools();
  return pickByDescription(tools, intent);
}

let server: TestServer;
let session: McpRemoteSession;

beforeAll(async () => {
  server = await startTestServer();
  session = await startMcpRemote(
    `${server.baseUrl}/mcp`,
    await freePort(),
    { email: 'student@demo.test', password: DEMO_PASSWORD },
    ['--static-oauth-client-info', JSON.stringify({ client_id: 'demo-member-cli' })],
  );
}, 60_000);
afterAll(async () => {
  if (process.env.MCP_REMOTE_LOG) writeFileSync(process.env.MCP_REMOTE_LOG, session?.log() ?? '');
  await session?.close();
  await server.close();
});

describe('mcp-remote as a real client', () => {
  test('lists every tool anonymously (issue #26), the member tools among them', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['get_course', 'how_to_connect', 'search_courses', 'my_enrollments', 'site_analytics']),
    );
    expect(tools.find((t) => t.name === 'my_enrollments')!.description).toMatch(/^For members of the site/);
  }, 30_000);

  test('a member tool picked from the anonymous listing makes mcp-remote sign in (401 → OAuth with demo-member-cli) and answers with the course slugs', async () => {
    const tool = await pick(session, 'members: which courses am I enrolled in, my enrollments and access expiry');
    expect(tool.name).toBe('my_enrollments');
    expect(session.authorizationUrls).toHaveLength(0); // still anonymous when the model chose
    const result = await session.client.callTool({ name: tool.name, arguments: {} }, undefined, {
      timeout: 30_000,
    });
    if (result.isError) console.log(session.log());
    expect(result.isError).toBeFalsy();
    const slugs = (result.structuredContent as { enrollments: Array<{ slug: string }> }).enrollments.map((e) => e.slug);
    expect(slugs).toEqual(['typescript-fundamentals', 'oauth-in-practice', 'sql-basics']);
    const url = session.authorizationUrls[0]!;
    expect(url.searchParams.get('client_id')).toBe('demo-member-cli');
    // mcp-remote sends the resource with a trailing slash; the AS treats it as BASE_URL (RFC 3986 §6.2.3).
    expect(url.searchParams.get('resource')).toBe(`${server.baseUrl}/`);
    expect(url.searchParams.get('scope')).toContain('account:read');
    // After signing in, the listing is the same (every tool, for every caller).
    const names = (await session.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('continue_watching');
  }, 60_000);
});

describe('mcp-remote with dynamic registration (operator, owner@demo.test at site demo)', () => {
  let operator: McpRemoteSession;
  beforeAll(async () => {
    operator = await startMcpRemote(`${server.baseUrl}/mcp`, await freePort(), {
      email: 'owner@demo.test',
      password: DEMO_PASSWORD,
      site: 'demo',
    });
  }, 60_000);
  afterAll(async () => {
    if (process.env.MCP_REMOTE_LOG) writeFileSync(`${process.env.MCP_REMOTE_LOG}.operator`, operator?.log() ?? '');
    await operator?.close();
  });

  test('an operator tool picked from the anonymous listing makes mcp-remote register a loopback client (DCR), sign in and call it', async () => {
    const tool = await pick(operator, "owners and admins: list the site's courses with their status");
    expect(tool.name).toBe('list_courses');
    expect(tool.description).toMatch(/^For the site's owners and admins only/);
    expect(operator.authorizationUrls).toHaveLength(0);
    const result = await operator.client.callTool({ name: tool.name, arguments: {} }, undefined, {
      timeout: 30_000,
    });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { courses: Array<{ slug: string }> }).courses.map((c) => c.slug)).toContain(
      'sql-basics',
    );
    const url = operator.authorizationUrls[0]!;
    expect(url.searchParams.get('client_id')).not.toBe('demo-member-cli');
    expect(url.searchParams.get('scope')).toContain('courses:read');
  }, 60_000);

  test('step-up (DESIGN D2, issue #12): orders:read then analytics:read tools, re-authorized with the same registration', async () => {
    const clientId = operator.authorizationUrls[0]!.searchParams.get('client_id');
    const ordersTool = await pick(operator, 'owners and admins: list the orders and payments of the site');
    expect(ordersTool.name).toBe('list_orders');
    const orders = await operator.client.callTool({ name: ordersTool.name, arguments: { status: 'paid' } }, undefined, {
      timeout: 30_000,
    });
    if (orders.isError) console.log(operator.log());
    expect(orders.isError).toBeFalsy();
    expect((orders.structuredContent as { orders: unknown[] }).orders).toHaveLength(2);
    const analyticsTool = await pick(operator, 'owners and admins: sales and learning analytics of the site');
    expect(analyticsTool.name).toBe('site_analytics');
    const analytics = await operator.client.callTool({ name: analyticsTool.name, arguments: {} }, undefined, {
      timeout: 30_000,
    });
    expect(analytics.isError).toBeFalsy();
    expect(analytics.structuredContent).toMatchObject({ courses: { total: 3 } });
    // Two step-ups, one registration: every authorization names the first client_id.
    expect(operator.authorizationUrls).toHaveLength(3);
    for (const url of operator.authorizationUrls) expect(url.searchParams.get('client_id')).toBe(clientId);
    expect(operator.authorizationUrls[1]!.searchParams.get('scope')?.split(' ')).toEqual(
      expect.arrayContaining(['courses:read', 'orders:read']),
    );
    expect(operator.authorizationUrls[2]!.searchParams.get('scope')?.split(' ')).toEqual(
      expect.arrayContaining(['courses:read', 'orders:read', 'analytics:read']),
    );
  }, 90_000);
});
