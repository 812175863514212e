/**
 * A client generated from `/openapi.json` (openapi-typescript types, committed in
 * test/generated/admin-api.d.ts and kept equal to the live document here; openapi-fetch at run
 * time) runs a realistic operator session with a token from a loopback client authorized by
 * owner@demo.test (openid-client, real authorization-code + PKCE flow).
 */
import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import * as oidc from 'openid-client';
import type { paths } from '../generated/admin-api.js';
import { startTestServer, DEMO_PASSWORD, type TestServer } from '../helpers/server.js';
import { completeAuthorization } from '../helpers/user-agent.js';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  const base = server.baseUrl;
  const config = await oidc.discovery(new URL(base), 'unused', undefined, oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });
  const registered = await oidc.dynamicClientRegistration(
    new URL(base),
    {
      client_name: 'course ops script',
      redirect_uris: ['http://127.0.0.1:8765/callback'],
      token_endpoint_auth_method: 'none',
    },
    oidc.None(),
    { execute: [oidc.allowInsecureRequests] },
  );
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const scope =
    'openid courses:read courses:write curriculum:write members:write coupons:write analytics:read orders:read storage:write membership_plans:read membership_plans:write curriculum:read pages:write';
  const url = oidc.buildAuthorizationUrl(registered, {
    redirect_uri: 'http://127.0.0.1:8765/callback',
    scope,
    resource: base,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const { callback } = await completeAuthorization(url, {
    email: 'owner@demo.test',
    password: DEMO_PASSWORD,
    site: 'demo',
  });
  const tokens = await oidc.authorizationCodeGrant(
    registered,
    callback,
    { pkceCodeVerifier: verifier, expectedState: state },
    { resource: base },
  );
  token = tokens.access_token;
  void config;
}, 60_000);
afterAll(() => server.close());

test('test/generated/admin-api.d.ts is what openapi-typescript makes of the live /openapi.json', async () => {
  const doc = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
  const generated = astToString(await openapiTS(doc));
  const committed = readFileSync(new URL('../generated/admin-api.d.ts', import.meta.url), 'utf8');
  // Regenerate with: npx tsx scripts/generate-admin-client.ts
  expect(committed).toBe(generated);
});

test('an operator session: course + section + lecture, publish, upload, invite, coupon, membership plan, page, analytics, orders', async () => {
  // JSON and problem+json media types: the exportable lists also declare text/csv (docs/admin-api.md "Exports").
  const api = createClient<paths, `application/${string}`>({
    baseUrl: server.baseUrl,
    headers: { authorization: `Bearer ${token}` },
  });

  const course = await api.POST('/api/v1/courses', {
    body: { slug: 'data-modeling', title: 'Data Modeling', isPublic: false },
    headers: { 'Idempotency-Key': 'session-course-1' },
  });
  expect(course.response.status).toBe(201);
  expect(course.data?.isPublic).toBe(false);
  const replay = await api.POST('/api/v1/courses', {
    body: { slug: 'data-modeling', title: 'Data Modeling', isPublic: false },
    headers: { 'Idempotency-Key': 'session-course-1' },
  });
  expect(replay.response.status).toBe(201);
  expect(replay.response.headers.get('idempotent-replayed')).toBe('true');

  const lecture = await api.POST('/api/v1/courses/{slug}/lectures', {
    params: { path: { slug: 'data-modeling' } },
    body: { title: 'Entities', durationSeconds: 420 },
  });
  expect(lecture.data?.lecture.position).toBe(1);

  // Create a section and put the lecture in it (issue #10: lectures belong to sections).
  const section = await api.POST('/api/v1/courses/{slug}/sections', {
    params: { path: { slug: 'data-modeling' } },
    body: { title: 'Foundations' },
  });
  expect(section.response.status).toBe(201);
  const placed = await api.PUT('/api/v1/lectures/{lectureId}/section', {
    params: { path: { lectureId: lecture.data!.lecture.id } },
    body: { sectionId: section.data!.section.id },
  });
  expect(placed.response.status).toBe(204);
  const sections = await api.GET('/api/v1/courses/{slug}/sections', { params: { path: { slug: 'data-modeling' } } });
  expect(sections.data?.sections).toEqual([
    { id: section.data!.section.id, position: 1, title: 'Foundations', lectureIds: [lecture.data!.lecture.id] },
  ]);

  const read = await api.GET('/api/v1/courses/{slug}', { params: { path: { slug: 'data-modeling' } } });
  const etag = read.response.headers.get('etag')!;
  const published = await api.POST('/api/v1/courses/{slug}/publish', { params: { path: { slug: 'data-modeling' } } });
  expect(published.data?.isPublic).toBe(true);
  // A PATCH based on the representation read before publishing loses: 412, nothing changed.
  const stale = await api.PATCH('/api/v1/courses/{slug}', {
    params: { path: { slug: 'data-modeling' }, header: { 'If-Match': etag } },
    body: { isPublic: false },
  });
  expect(stale.response.status).toBe(412);
  expect(stale.error).toMatchObject({ error: 'precondition_failed' });

  // Upload a course image (issue #10, storage:write): multipart/form-data, typed response.
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
  const image = await api.POST('/api/v1/files', {
    body: { file: 'data-modeling.png' },
    bodySerializer: (body) => {
      const form = new FormData();
      form.append('file', new Blob([png], { type: 'image/png' }), body.file);
      return form;
    },
  });
  expect(image.response.status).toBe(201);
  expect(image.data).toMatchObject({ contentType: 'image/png', size: png.length, filename: 'data-modeling.png' });
  const served = await fetch(image.data!.url);
  expect(served.headers.get('content-type')).toBe('image/png');
  expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);

  const invited = await api.POST('/api/v1/invitations', {
    body: { email: 'future.student@example.com', role: 'student' },
  });
  expect(invited.response.status).toBe(201);
  expect(invited.data?.acceptUrl).toContain('/invitations/');

  const coupon = await api.POST('/api/v1/coupons', { body: { code: 'launch-25', percentOff: 25, maxRedemptions: 50 } });
  expect(coupon.data).toMatchObject({ code: 'LAUNCH-25', active: true });
  const duplicate = await api.POST('/api/v1/coupons', { body: { code: 'LAUNCH-25', percentOff: 10 } });
  expect(duplicate.response.status).toBe(409);
  expect(duplicate.response.headers.get('content-type')).toMatch(/problem\+json/);

  // SPEC §2.5 membership_plans:write: a monthly plan that includes the new course.
  const plan = await api.POST('/api/v1/membership-plans', {
    body: {
      name: 'Data club',
      priceMinor: 1490,
      currency: 'eur',
      interval: 'month',
      courseSlugs: ['data-modeling', 'sql-basics'],
    },
    headers: { 'Idempotency-Key': 'session-plan-1' },
  });
  expect(plan.response.status).toBe(201);
  expect(plan.data).toMatchObject({
    name: 'Data club',
    priceMinor: 1490,
    currency: 'EUR',
    interval: 'month',
    courseSlugs: ['data-modeling', 'sql-basics'],
    status: 'active',
  });
  expect(plan.response.headers.get('location')).toBe(`/api/v1/membership-plans/${plan.data!.id}`);
  const plans = await api.GET('/api/v1/membership-plans', { params: { query: { status: 'active' } } });
  expect(plans.data?.plans.map((p) => p.id)).toContain(plan.data!.id);
  const badPlan = await api.POST('/api/v1/membership-plans', {
    body: { name: 'Nope', priceMinor: 100, currency: 'XXY', interval: 'month', courseSlugs: ['no-such-course'] },
  });
  expect(badPlan.response.status).toBe(400);
  expect(badPlan.error).toMatchObject({ status: 400 });

  // SPEC §2.5 pages:write: a page starts as a draft and is published explicitly.
  const page = await api.POST('/api/v1/pages', {
    body: { slug: 'refund-policy', title: 'Refund policy', body: 'Full refund within 14 days.' },
  });
  expect(page.response.status).toBe(201);
  expect(page.data?.status).toBe('draft');
  const live = await api.POST('/api/v1/pages/{slug}/publish', { params: { path: { slug: 'refund-policy' } } });
  expect(live.data).toMatchObject({ slug: 'refund-policy', status: 'published', publishedAt: expect.any(String) });

  const analytics = await api.GET('/api/v1/analytics');
  expect(analytics.data?.courses.public).toBeGreaterThanOrEqual(1);
  const orders = await api.GET('/api/v1/orders', { params: { query: { status: 'paid', limit: 1 } } });
  expect(orders.data?.orders).toHaveLength(1);
  expect(orders.data?.orders[0]?.status).toBe('paid');
  expect(orders.data?.nextCursor).toEqual(expect.any(String));
  const next = await api.GET('/api/v1/orders', {
    params: { query: { status: 'paid', limit: 1, cursor: orders.data!.nextCursor! } },
  });
  expect(next.data?.orders).toHaveLength(1);
  expect(next.data?.orders[0]?.number).not.toBe(orders.data!.orders[0]!.number);

  const bad = await api.POST('/api/v1/courses', { body: { slug: 'X', title: '' } });
  expect(bad.response.status).toBe(400);
  expect((bad.error as { errors: Array<{ pointer: string }> }).errors.map((e) => e.pointer).sort()).toEqual([
    '/slug',
    '/title',
  ]);
});
