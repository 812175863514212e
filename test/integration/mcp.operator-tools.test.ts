/**
 * Operator tools end to end over `/mcp` (SPEC §2.5 operator scopes, DESIGN D2, D5): writes of
 * every area, the site boundary of the token, and the operator role read on every request.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { HeadlessOAuthProvider } from '../helpers/mcp-oauth-provider.js';

const ALL_OPERATOR_TOOL_SCOPES = [
  'courses:read',
  'courses:write',
  'curriculum:read',
  'curriculum:write',
  'students:read',
  'students:write',
  'members:read',
  'members:write',
  'orders:read',
  'analytics:read',
  'events:read',
  'events:write',
  'coupons:read',
  'coupons:write',
].join(' ');

let server: TestServer;
let mcpUrl: URL;

beforeAll(async () => {
  server = await startTestServer();
  mcpUrl = new URL(`${server.baseUrl}/mcp`);
});
afterAll(() => server.close());

/** Signs in through the SDK (DCR loopback client) and returns a connected client. */
async function operatorClient(email: string, site: string, scope = ALL_OPERATOR_TOOL_SCOPES) {
  const provider = new HeadlessOAuthProvider({
    user: { email, password: DEMO_PASSWORD, site },
    issuer: server.baseUrl,
  });
  expect(await auth(provider, { serverUrl: mcpUrl, scope })).toBe('REDIRECT');
  expect(await auth(provider, { serverUrl: mcpUrl, authorizationCode: provider.code })).toBe('AUTHORIZED');
  const client = new Client({ name: 'operator-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  return { client, provider };
}

const structured = <T>(r: object) => (r as { structuredContent?: unknown }).structuredContent as T;

describe('operator write tools at site demo (owner@demo.test)', () => {
  let client: Client;
  beforeAll(async () => {
    ({ client } = await operatorClient('owner@demo.test', 'demo'));
  });
  afterAll(() => client.close());

  test('every tool is listed (issue #26); the operator tools say they are for owners and admins', async () => {
    const { tools } = await client.listTools();
    const operator = tools.filter((t) => (t._meta as Record<string, unknown>)['coursegate/audience'] === 'operator');
    expect(operator.length).toBeGreaterThanOrEqual(25);
    for (const t of operator) expect(t.description).toMatch(/^For the site's owners and admins only/);
    expect(tools.map((t) => t.name)).toContain('my_enrollments');
  });

  test('curriculum: add a lecture, remove it', async () => {
    const added = await client.callTool({
      name: 'add_lecture',
      arguments: { slug: 'sql-basics', title: 'JOIN', durationSeconds: 600 },
    });
    const lecture = structured<{ lecture: { id: string; position: number } }>(added).lecture;
    expect(lecture.position).toBe(2);
    expect(
      structured<{ lectures: unknown[] }>(
        await client.callTool({ name: 'get_curriculum', arguments: { slug: 'sql-basics' } }),
      ).lectures,
    ).toHaveLength(2);
    await client.callTool({ name: 'remove_lecture', arguments: { lectureId: lecture.id } });
    expect(
      structured<{ lectures: unknown[] }>(
        await client.callTool({ name: 'get_curriculum', arguments: { slug: 'sql-basics' } }),
      ).lectures,
    ).toHaveLength(1);
    const gone = await client.callTool({ name: 'remove_lecture', arguments: { lectureId: lecture.id } });
    expect(gone.isError).toBe(true);
  });

  test('courses: update title and visibility', async () => {
    const updated = await client.callTool({
      name: 'update_course',
      arguments: { slug: 'sql-basics', title: 'SQL Basics (2nd ed.)' },
    });
    expect(structured<{ course: { title: string; isPublic: boolean } }>(updated).course).toMatchObject({
      title: 'SQL Basics (2nd ed.)',
      isPublic: true,
    });
    const bad = await client.callTool({ name: 'update_course', arguments: { slug: 'nope' } });
    expect(bad).toMatchObject({ isError: true, content: [{ text: 'not_found: no course "nope"' }] });
  });

  test('students: renew an expired enrollment, then remove it; past dates are refused', async () => {
    const renewed = await client.callTool({
      name: 'enroll_student',
      arguments: { email: 'student@demo.test', courseSlug: 'sql-basics', expiresAt: '2030-01-01T00:00:00Z' },
    });
    expect(structured<{ enrollment: { status: string; expireDate: string } }>(renewed).enrollment).toMatchObject({
      status: 'active',
      expireDate: '2030-01-01T00:00:00.000Z',
    });
    const past = await client.callTool({
      name: 'enroll_student',
      arguments: { email: 'student@demo.test', courseSlug: 'sql-basics', expiresAt: '2001-01-01T00:00:00Z' },
    });
    expect(past.isError).toBe(true);
    const instructor = await client.callTool({
      name: 'enroll_student',
      arguments: { email: 'instructor@demo.test', courseSlug: 'sql-basics', lifetimeAccess: true },
    });
    expect(structured<{ enrollment: { hasLifetimeAccess: boolean } }>(instructor).enrollment.hasLifetimeAccess).toBe(
      true,
    );
    await client.callTool({
      name: 'unenroll_student',
      arguments: { email: 'instructor@demo.test', courseSlug: 'sql-basics' },
    });
    const left = structured<{ students: Array<{ email: string }> }>(
      await client.callTool({ name: 'list_students', arguments: { courseSlug: 'sql-basics' } }),
    ).students;
    expect(left.map((s) => s.email)).toEqual(['student@demo.test']);
  });

  test('members: the last owner keeps the owner role; roles can be granted and taken', async () => {
    const last = await client.callTool({
      name: 'revoke_member_role',
      arguments: { email: 'owner@demo.test', role: 'owner' },
    });
    expect(last).toMatchObject({ isError: true });
    expect(JSON.stringify(last.content)).toContain('conflict');
    const granted = await client.callTool({
      name: 'grant_member_role',
      arguments: { email: 'student@demo.test', role: 'instructor' },
    });
    expect(structured<{ member: { roles: string[] } }>(granted).member.roles).toEqual(['instructor', 'student']);
    await client.callTool({
      name: 'revoke_member_role',
      arguments: { email: 'student@demo.test', role: 'instructor' },
    });
    const invalidRole = await client.callTool({
      name: 'grant_member_role',
      arguments: { email: 'student@demo.test', role: 'superuser' },
    });
    expect(invalidRole.isError).toBe(true);
  });

  test('events: create and cancel; end before start is refused', async () => {
    const created = await client.callTool({
      name: 'create_event',
      arguments: {
        title: 'Office hours',
        startsAt: '2027-03-01T10:00:00Z',
        endsAt: '2027-03-01T11:00:00Z',
        location: 'Online',
      },
    });
    const id = structured<{ event: { id: string } }>(created).event.id;
    const upcoming = structured<{ events: Array<{ id: string }> }>(
      await client.callTool({ name: 'list_events', arguments: { upcomingOnly: true } }),
    ).events;
    expect(upcoming.map((e) => e.id)).toContain(id);
    await client.callTool({ name: 'cancel_event', arguments: { eventId: id } });
    const inverted = await client.callTool({
      name: 'create_event',
      arguments: {
        title: 'Backwards',
        startsAt: '2027-03-01T11:00:00Z',
        endsAt: '2027-03-01T10:00:00Z',
        location: 'Online',
      },
    });
    expect(inverted.isError).toBe(true);
  });
});

describe('SPEC §2.5 membership plans, subscriptions and digital products as MCP tools (issue 10)', () => {
  let client: Client;
  beforeAll(async () => {
    ({ client } = await operatorClient(
      'owner@demo.test',
      'demo',
      'membership_plans:read membership_plans:write subscriptions:read subscriptions:write digital_products:read digital_products:write',
    ));
  });
  afterAll(() => client.close());

  test('plan → subscribe a member (never a person of another site) → cancel → archive; product publish/unpublish', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'list_membership_plans',
        'create_membership_plan',
        'archive_membership_plan',
        'list_subscriptions',
        'create_subscription',
        'cancel_subscription',
        'list_digital_products',
        'create_digital_product',
        'publish_digital_product',
        'unpublish_digital_product',
      ]),
    );
    const plan = structured<{ plan: { id: string; currency: string } }>(
      await client.callTool({
        name: 'create_membership_plan',
        arguments: { name: 'MCP plan', priceMinor: 700, currency: 'chf', interval: 'month' },
      }),
    ).plan;
    expect(plan.currency).toBe('CHF');
    // learner@second.test has an account, but no role at demo: refused, name not revealed.
    const stranger = await client.callTool({
      name: 'create_subscription',
      arguments: { email: 'learner@second.test', planId: plan.id },
    });
    expect(stranger.isError).toBe(true);
    expect(JSON.stringify(stranger.content)).toContain('invite them first');
    expect(JSON.stringify(stranger.content)).not.toContain('Lee Learner');
    const sub = structured<{ subscription: { id: string; status: string } }>(
      await client.callTool({
        name: 'create_subscription',
        arguments: { email: 'student2@demo.test', planId: plan.id },
      }),
    ).subscription;
    expect(sub.status).toBe('active');
    const listed = structured<{ subscriptions: Array<{ id: string }> }>(
      await client.callTool({ name: 'list_subscriptions', arguments: { planId: plan.id, status: 'active' } }),
    );
    expect(listed.subscriptions.map((s) => s.id)).toEqual([sub.id]);
    expect(
      structured<{ subscription: { status: string } }>(
        await client.callTool({ name: 'cancel_subscription', arguments: { subscriptionId: sub.id } }),
      ).subscription.status,
    ).toBe('cancelled');
    expect(
      structured<{ plan: { status: string } }>(
        await client.callTool({ name: 'archive_membership_plan', arguments: { planId: plan.id } }),
      ).plan.status,
    ).toBe('archived');

    const product = structured<{ product: { id: string; published: boolean } }>(
      await client.callTool({
        name: 'create_digital_product',
        arguments: { name: 'MCP e-book', priceMinor: 500, currency: 'EUR', file: 'https://files.example.com/e.pdf' },
      }),
    ).product;
    expect(product.published).toBe(false);
    expect(
      structured<{ product: { published: boolean } }>(
        await client.callTool({ name: 'publish_digital_product', arguments: { productId: product.id } }),
      ).product.published,
    ).toBe(true);
    expect(
      structured<{ product: { published: boolean } }>(
        await client.callTool({ name: 'unpublish_digital_product', arguments: { productId: product.id } }),
      ).product.published,
    ).toBe(false);
  });
});

describe('DESIGN D5 a token reaches its own site only', () => {
  test('owner@demo.test signed in for site "second" sees the second site only', async () => {
    const { client } = await operatorClient('owner@demo.test', 'second', 'courses:read orders:read');
    const courses = structured<{ courses: Array<{ slug: string }> }>(
      await client.callTool({ name: 'list_courses', arguments: {} }),
    ).courses;
    expect(courses.map((c) => c.slug)).toEqual(['second-school-intro']);
    const orders = structured<{ orders: Array<{ number: string }> }>(
      await client.callTool({ name: 'list_orders', arguments: {} }),
    ).orders;
    expect(orders.map((o) => o.number)).toEqual(['SS-3001']); // the second site's only order
    await client.close();
  });
});

describe('DESIGN D2 the operator role is read on every request', () => {
  test('an admin whose role is taken away loses the operator tools at once (403)', async () => {
    const { client: owner } = await operatorClient('owner@demo.test', 'demo', 'members:write');
    await owner.callTool({ name: 'grant_member_role', arguments: { email: 'instructor@demo.test', role: 'admin' } });
    const { client: admin, provider } = await operatorClient('instructor@demo.test', 'demo', 'courses:read');
    expect((await admin.callTool({ name: 'list_courses', arguments: {} })).isError).toBeFalsy();
    await owner.callTool({ name: 'revoke_member_role', arguments: { email: 'instructor@demo.test', role: 'admin' } });
    const res = await fetch(mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${provider.tokens()!.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_courses', arguments: {} },
      }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('owner or admin role');
    await owner.close();
    await admin.close();
  });
});

describe('SPEC 2.5 comments:read, forms:read, lecturers:read as MCP tools (issue 10)', () => {
  test('comments filtered by lecture; form submissions page by cursor; lecturers of one course', async () => {
    const { client } = await operatorClient('owner@demo.test', 'demo', 'comments:read forms:read lecturers:read');
    const onPkce = structured<{ comments: Array<{ id: string; author: { name: string } }> }>(
      await client.callTool({ name: 'list_comments', arguments: { lectureId: 'lec_oa_2' } }),
    ).comments;
    expect(onPkce).toEqual([
      expect.objectContaining({ id: 'cmt_pkce', author: { userId: 'usr_student2', name: 'Bea Learner' } }),
    ]);
    type Page = { submissions: Array<{ id: string }>; nextCursor: string | null };
    const first = structured<Page>(
      await client.callTool({ name: 'list_form_submissions', arguments: { formId: 'frm_contact', limit: 1 } }),
    );
    expect(first.submissions.map((s) => s.id)).toEqual(['sub_contact_2']);
    const second = structured<Page>(
      await client.callTool({
        name: 'list_form_submissions',
        arguments: { formId: 'frm_contact', limit: 1, cursor: first.nextCursor },
      }),
    );
    expect(second).toEqual({
      formId: 'frm_contact',
      submissions: [expect.objectContaining({ id: 'sub_contact_1' })],
      nextCursor: null,
    });
    const sql = structured<{ lecturers: Array<{ name: string }> }>(
      await client.callTool({ name: 'list_lecturers', arguments: { courseSlug: 'sql-basics' } }),
    ).lecturers;
    expect(sql.map((l) => l.name)).toEqual(['Grace Guest']);
    await client.close();
  });
});
