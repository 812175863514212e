/**
 * DESIGN D9 / issue 10: a walk over EVERY declared admin operation, through real HTTP with real
 * tokens: right scope → its 2xx; missing scope → 403 insufficient_scope with scope="<needed>";
 * another site's id → 404 problem+json; a member token (account:*) → 403. `/openapi.json` is
 * validated as OpenAPI 3.1 and lists exactly the declared operations.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { memberToken, registerLoopbackClient } from '../helpers/member-token.js';
import { OPERATIONS } from '../../src/resource/admin-api/index.js';
import { OPERATOR_SCOPES } from '../../src/domain/scopes.js';

let server: TestServer;
let base: string;
let full: string;
const narrow: Record<string, string> = {};
let member: string;
const made: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
  base = server.baseUrl;
  const clientId = await registerLoopbackClient(base, 'ops walker');
  const token = (scope: string) =>
    memberToken({ baseUrl: base, email: 'owner@demo.test', clientId, scope, site: 'demo' });
  [full, narrow.a, narrow.b, member] = await Promise.all([
    token(`openid ${[...OPERATOR_SCOPES].join(' ')}`),
    token('openid analytics:read'),
    token('openid orders:read'),
    memberToken({ baseUrl: base, email: 'student@demo.test' }),
  ]);
  // A row of the second site that only the database can show us (no coupon there in the seed).
  await server.store.db
    .insertInto('coupons' as never)
    .values({
      id: 'cpn_second',
      site_id: 'second',
      code: 'SECOND5',
      percent_off: 5,
      max_redemptions: null,
      redemptions: 0,
      expires_at: null,
      active: 1,
      created_at: new Date().toISOString(),
    } as never)
    .execute();
  for (const kind of ['page', 'post']) {
    await server.store.db
      .insertInto('site_content' as never)
      .values({
        id: `cnt_second_${kind}`,
        site_id: 'second',
        kind,
        slug: `second-${kind}`,
        title: 'Second',
        body: '',
        status: 'draft',
        published_at: null,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      } as never)
      .execute();
  }
  // Membership plans, subscriptions and digital products of the second site (issue 10).
  const learner = await server.store.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'learner@second.test')
    .executeTakeFirstOrThrow();
  const at = '2026-01-01T00:00:00.000Z';
  await server.store.db
    .insertInto('membership_plans' as never)
    .values({
      id: 'pln_second',
      site_id: 'second',
      name: 'Second plan',
      price_minor: 500,
      currency: 'EUR',
      billing_interval: 'month',
      course_slugs: '[]',
      status: 'active',
      created_at: at,
      updated_at: at,
    } as never)
    .execute();
  await server.store.db
    .insertInto('subscriptions' as never)
    .values({
      id: 'sub_second',
      site_id: 'second',
      plan_id: 'pln_second',
      user_id: learner.id,
      status: 'active',
      current_period_start: at,
      current_period_end: '2026-02-01T00:00:00.000Z',
      cancelled_at: null,
      created_at: at,
    } as never)
    .execute();
  await server.store.db
    .insertInto('digital_products' as never)
    .values({
      id: 'dp_second',
      site_id: 'second',
      name: 'Second product',
      price_minor: 100,
      currency: 'EUR',
      file: 'https://example.com/f.pdf',
      published: 0,
      created_at: at,
      updated_at: at,
    } as never)
    .execute();
  await server.store.db
    .insertInto('uploaded_files' as never)
    .values({
      id: 'fil_second',
      site_id: 'second',
      content_type: 'image/png',
      size: 8,
      sha256: '0'.repeat(64),
      filename: 'x.png',
      bytes: PNG,
      created_at: '2026-01-01T00:00:00.000Z',
    } as never)
    .execute();
  await server.store.db
    .insertInto('invitations' as never)
    .values({
      id: 'inv_second',
      site_id: 'second',
      email: 'x@example.com',
      role: 'student',
      token_hash: 'h',
      invited_by: 'usr_owner',
      created_at: '2026-01-01T00:00:00.000Z',
      expires_at: '2099-01-01T00:00:00.000Z',
      accepted_at: null,
      accepted_by: null,
      revoked_at: null,
    } as never)
    .execute();
  // Issue 10 lecturers, comments, forms: one row of each at the second site.
  const rows: Array<[string, Record<string, unknown>]> = [
    [
      'lecturers',
      {
        id: 'lct_second',
        site_id: 'second',
        name: 'Second',
        bio: '',
        photo_url: null,
        user_id: null,
        created_at: at,
        updated_at: at,
      },
    ],
    [
      'comments',
      {
        id: 'cmt_second',
        site_id: 'second',
        lecture_id: 'lec_2_1',
        post_id: null,
        author_user_id: 'usr_learner2',
        body: 'Hi',
        created_at: at,
      },
    ],
    ['forms', { id: 'frm_second', site_id: 'second', title: 'Second', description: '', fields: '[]', created_at: at }],
  ];
  for (const [table, values] of rows)
    await server.store.db
      .insertInto(table as never)
      .values(values as never)
      .execute();
  // Connected apps (issue 11): two real grants at demo (one to revoke by id, one by client) and
  // one at the second site, in oidc-provider's store and the platform's grant index.
  const grantRow = async (site: string, clientId: string, userId: string, fixedId?: string) => {
    const grant = new server.provider.Grant({ accountId: userId, clientId });
    grant.addOIDCScope('openid');
    const grantId = fixedId ?? (await grant.save());
    await server.store.db
      .insertInto('connected_grants' as never)
      .values({
        grant_id: grantId,
        site_id: site,
        client_id: clientId,
        user_id: userId,
        scope: 'openid account:read',
        created_at: new Date().toISOString(),
        last_used_at: null,
      } as never)
      .execute();
    return grantId;
  };
  made.grantId = await grantRow('demo', 'walk-client', 'usr_student');
  await grantRow('demo', 'walk-client-2', 'usr_student');
  await grantRow('second', 'second-member-cli', 'usr_learner2', 'grt_second');
}, 60_000);
afterAll(() => server.close());

interface Sample {
  /** Path parameters at the token's site (demo). */
  params?: () => Record<string, string>;
  /** Path parameters naming a row of site `second`. */
  other?: Record<string, string>;
  query?: Record<string, string>;
  body?: () => unknown;
  /** Remembers what a create returned, for later operations of the walk. */
  keep?: (body: Record<string, unknown>) => void;
}

/** One sample call per operation, in walk order (later ones use rows earlier ones made). */
/** The smallest thing with a PNG signature (the allowlist judges the magic number). */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const pngForm = () => {
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'walk.png');
  return form;
};

const SAMPLES: Record<string, Sample> = {
  uploadFile: { body: pngForm, keep: (b) => (made.fileId = b.id as string) },
  getFile: { params: () => ({ fileId: made.fileId! }), other: { fileId: 'fil_second' } },
  deleteFile: { params: () => ({ fileId: made.fileId! }), other: { fileId: 'fil_second' } },
  getSite: {},
  updateSite: { body: () => ({ name: 'Demo Academy' }) },
  listOAuthApplications: {},
  createOAuthApplication: {
    body: () => ({
      clientName: 'walk app',
      redirectUris: ['http://127.0.0.1/cb'],
      scopes: ['openid', 'account:read'],
      confidential: true,
    }),
    keep: (b) => (made.clientId = b.clientId as string),
  },
  getOAuthApplication: { params: () => ({ clientId: made.clientId! }), other: { clientId: 'second-member-cli' } },
  updateOAuthApplication: {
    params: () => ({ clientId: made.clientId! }),
    other: { clientId: 'second-member-cli' },
    body: () => ({ clientName: 'walk app, renamed' }),
  },
  rotateOAuthApplicationSecret: {
    params: () => ({ clientId: made.clientId! }),
    other: { clientId: 'second-member-cli' },
  },
  deleteOAuthApplication: { params: () => ({ clientId: made.clientId! }), other: { clientId: 'second-member-cli' } },
  listConnectedGrants: { query: { userId: 'usr_student' } },
  revokeConnectedGrant: { params: () => ({ grantId: made.grantId! }), other: { grantId: 'grt_second' } },
  revokeClientGrants: { params: () => ({ clientId: 'walk-client-2' }), other: { clientId: 'second-member-cli' } },
  listAuditEvents: { query: { kind: 'operator_action', from: '2026-01-01T00:00:00Z' } },
  listCourses: { query: { limit: '2' } },
  getCourse: { params: () => ({ slug: 'sql-basics' }), other: { slug: 'second-school-intro' } },
  createCourse: { body: () => ({ slug: 'walk-course', title: 'Walk' }) },
  updateCourse: {
    params: () => ({ slug: 'walk-course' }),
    other: { slug: 'second-school-intro' },
    body: () => ({ description: 'Walked' }),
  },
  publishCourse: { params: () => ({ slug: 'walk-course' }), other: { slug: 'second-school-intro' } },
  getCurriculum: { params: () => ({ slug: 'sql-basics' }), other: { slug: 'second-school-intro' } },
  addLecture: {
    params: () => ({ slug: 'walk-course' }),
    other: { slug: 'second-school-intro' },
    body: () => ({ title: 'Step', durationSeconds: 60 }),
    keep: (b) => (made.lectureId = (b.lecture as { id: string }).id),
  },
  listSections: { params: () => ({ slug: 'sql-basics' }), other: { slug: 'second-school-intro' } },
  createSection: {
    params: () => ({ slug: 'walk-course' }),
    other: { slug: 'second-school-intro' },
    body: () => ({ title: 'Chapter 1' }),
    keep: (b) => (made.sectionId = (b.section as { id: string }).id),
  },
  setLectureSection: {
    params: () => ({ lectureId: made.lectureId! }),
    other: { lectureId: 'lec_2_1' },
    body: () => ({ sectionId: made.sectionId! }),
  },
  removeLecture: { params: () => ({ lectureId: made.lectureId! }), other: { lectureId: 'lec_2_1' } },
  listStudents: { query: { courseSlug: 'oauth-in-practice' } },
  enrollStudent: {
    params: () => ({ courseSlug: 'walk-course', email: 'student2@demo.test' }),
    other: { courseSlug: 'second-school-intro', email: 'learner@second.test' },
    body: () => ({ lifetimeAccess: true }),
  },
  unenrollStudent: {
    params: () => ({ courseSlug: 'walk-course', email: 'student2@demo.test' }),
    other: { courseSlug: 'second-school-intro', email: 'learner@second.test' },
  },
  listMembers: { query: { role: 'owner' } },
  grantMemberRole: {
    params: () => ({ email: 'instructor@demo.test', role: 'student' }),
    other: { email: 'learner@second.test', role: 'student' },
  },
  revokeMemberRole: {
    params: () => ({ email: 'instructor@demo.test', role: 'student' }),
    other: { email: 'learner@second.test', role: 'student' },
  },
  listInvitations: { query: { status: 'pending' } },
  createInvitation: {
    body: () => ({ email: 'walker@example.com', role: 'student' }),
    keep: (b) => (made.invitationId = b.id as string),
  },
  getInvitation: { params: () => ({ invitationId: made.invitationId! }), other: { invitationId: 'inv_second' } },
  revokeInvitation: { params: () => ({ invitationId: made.invitationId! }), other: { invitationId: 'inv_second' } },
  listOrders: { query: { status: 'paid' } },
  siteAnalytics: {},
  listEvents: { query: { upcomingOnly: 'true' } },
  getEvent: { params: () => ({ eventId: 'evt_meetup' }), other: { eventId: 'evt_second_open' } },
  createEvent: {
    body: () => ({
      title: 'Walk event',
      startsAt: '2027-01-01T10:00:00Z',
      endsAt: '2027-01-01T11:00:00Z',
      location: 'Online',
    }),
    keep: (b) => (made.eventId = b.id as string),
  },
  cancelEvent: { params: () => ({ eventId: made.eventId! }), other: { eventId: 'evt_second_open' } },
  listCoupons: { query: { active: 'true' } },
  getCoupon: { params: () => ({ code: 'WELCOME10' }), other: { code: 'SECOND5' } },
  createCoupon: { body: () => ({ code: 'WALK20', percentOff: 20 }) },
  deactivateCoupon: { params: () => ({ code: 'WALK20' }), other: { code: 'SECOND5' } },
  getAppearance: {},
  setAppearance: {
    body: () => ({
      primaryColor: '#113355',
      accentColor: '#ffaa00',
      logoUrl: 'https://cdn.example.com/logo.svg',
      fontFamily: 'Inter',
    }),
  },
  listLecturers: { query: { courseSlug: 'typescript-fundamentals' } },
  getLecturer: { params: () => ({ lecturerId: 'lct_ian' }), other: { lecturerId: 'lct_second' } },
  createLecturer: {
    body: () => ({ name: 'Walk Lecturer', bio: 'Walks.', userId: 'usr_instructor' }),
    keep: (b) => (made.lecturerId = b.id as string),
  },
  updateLecturer: {
    params: () => ({ lecturerId: made.lecturerId! }),
    other: { lecturerId: 'lct_second' },
    body: () => ({ bio: 'Updated' }),
  },
  assignLecturer: {
    params: () => ({ lecturerId: made.lecturerId!, courseSlug: 'sql-basics' }),
    other: { lecturerId: 'lct_second', courseSlug: 'second-school-intro' },
  },
  unassignLecturer: {
    params: () => ({ lecturerId: made.lecturerId!, courseSlug: 'sql-basics' }),
    other: { lecturerId: 'lct_second', courseSlug: 'second-school-intro' },
  },
  deleteLecturer: { params: () => ({ lecturerId: made.lecturerId! }), other: { lecturerId: 'lct_second' } },
  listComments: { query: { courseSlug: 'typescript-fundamentals' } },
  getComment: { params: () => ({ commentId: 'cmt_generics' }), other: { commentId: 'cmt_second' } },
  listForms: {},
  getForm: { params: () => ({ formId: 'frm_contact' }), other: { formId: 'frm_second' } },
  listFormSubmissions: {
    params: () => ({ formId: 'frm_contact' }),
    other: { formId: 'frm_second' },
    query: { limit: '1' },
  },
  listMembershipPlans: { query: { status: 'active' } },
  createMembershipPlan: {
    body: () => ({
      name: 'Walk plan',
      priceMinor: 1200,
      currency: 'EUR',
      interval: 'month',
      courseSlugs: ['sql-basics'],
    }),
    keep: (b) => (made.planId = b.id as string),
  },
  getMembershipPlan: { params: () => ({ planId: made.planId! }), other: { planId: 'pln_second' } },
  updateMembershipPlan: {
    params: () => ({ planId: made.planId! }),
    other: { planId: 'pln_second' },
    body: () => ({ priceMinor: 1500 }),
  },
  listSubscriptions: { query: { status: 'active' } },
  createSubscription: {
    body: () => ({ email: 'student2@demo.test', planId: made.planId! }),
    keep: (b) => (made.subscriptionId = b.id as string),
  },
  getSubscription: {
    params: () => ({ subscriptionId: made.subscriptionId! }),
    other: { subscriptionId: 'sub_second' },
  },
  cancelSubscription: {
    params: () => ({ subscriptionId: made.subscriptionId! }),
    other: { subscriptionId: 'sub_second' },
  },
  archiveMembershipPlan: { params: () => ({ planId: made.planId! }), other: { planId: 'pln_second' } },
  listDigitalProducts: { query: { published: 'true' } },
  createDigitalProduct: {
    body: () => ({ name: 'Walk e-book', priceMinor: 900, currency: 'EUR', file: 'https://files.example.com/walk.pdf' }),
    keep: (b) => (made.productId = b.id as string),
  },
  getDigitalProduct: { params: () => ({ productId: made.productId! }), other: { productId: 'dp_second' } },
  updateDigitalProduct: {
    params: () => ({ productId: made.productId! }),
    other: { productId: 'dp_second' },
    body: () => ({ name: 'Walk e-book, 2nd ed.' }),
  },
  publishDigitalProduct: { params: () => ({ productId: made.productId! }), other: { productId: 'dp_second' } },
  unpublishDigitalProduct: { params: () => ({ productId: made.productId! }), other: { productId: 'dp_second' } },
  ...Object.fromEntries(
    (['Page', 'Post'] as const).flatMap((k) => {
      const other = { slug: `second-${k.toLowerCase()}` };
      const own = () => ({ slug: `walk-${k.toLowerCase()}` });
      return [
        [`list${k}s`, { query: { status: 'published' } }],
        [`get${k}`, { params: () => ({ slug: k === 'Page' ? 'about' : 'welcome' }), other }],
        [`create${k}`, { body: () => ({ slug: `walk-${k.toLowerCase()}`, title: 'Walk', body: '# Hello' }) }],
        [`update${k}`, { params: own, other, body: () => ({ body: 'Updated' }) }],
        [`publish${k}`, { params: own, other }],
        [`delete${k}`, { params: own, other }],
      ];
    }),
  ),
};

const pathOf = (template: string, params: Record<string, string> = {}) =>
  template.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? `missing-${name}`));

function send(method: string, path: string, token: string, body?: unknown, query?: Record<string, string>) {
  const url = new URL(path, base);
  if (query) url.search = new URLSearchParams(query).toString();
  return fetch(url, {
    method: method.toUpperCase(),
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
  });
}

test('every declared operation has a sample (a new operation must join the walk)', () => {
  expect(Object.keys(SAMPLES).sort()).toEqual(OPERATIONS.map((o) => o.id).sort());
});

describe('DESIGN D9: every admin operation, walked', () => {
  for (const op of OPERATIONS) {
    test(`${op.method.toUpperCase()} ${op.path} (${op.scope})`, async () => {
      const sample = SAMPLES[op.id]!;
      const body = op.body || op.upload ? (sample.body?.() ?? {}) : undefined;
      const own = pathOf(op.path, sample.params?.());

      // Missing scope: 403 insufficient_scope naming the scope to ask for (DESIGN D4).
      const wrong = await send(
        op.method,
        own,
        op.scope === 'analytics:read' ? narrow.b! : narrow.a!,
        body,
        sample.query,
      );
      expect(wrong.status).toBe(403);
      expect(wrong.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(wrong.headers.get('www-authenticate')).toContain(`scope="${op.scope}"`);
      expect(await wrong.json()).toMatchObject({ status: 403, error: 'insufficient_scope' });

      // A member token (account:* only) never reaches the admin API.
      const asMember = await send(op.method, own, member, body, sample.query);
      expect(asMember.status).toBe(403);
      expect((await asMember.json()).error).toBe('insufficient_scope');

      // Another site's row: 404, never revealed.
      if (op.params) {
        expect(sample.other).toBeDefined();
        const foreign = await send(op.method, pathOf(op.path, sample.other), full, body, sample.query);
        const problem = await foreign.json();
        if (foreign.status !== 404)
          throw new Error(`${op.id} other site → ${foreign.status} ${JSON.stringify(problem)}`);
        expect(foreign.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(problem).toMatchObject({ status: 404, title: 'Not Found', error: 'not_found' });
      }

      // The right scope: the declared success status.
      const ok = await send(op.method, own, full, body, sample.query);
      const text = await ok.text();
      if (ok.status !== (op.status ?? 200)) throw new Error(`${op.id} → ${ok.status} ${text}`);
      if (op.status === 201) expect(ok.headers.get('location')).toMatch(/^\/api\/v1\//);
      if (op.status !== 204) sample.keep?.(JSON.parse(text) as Record<string, unknown>);
    });
  }
});

describe('/openapi.json (OpenAPI 3.1)', () => {
  test('validates with @seriousme/openapi-schema-validator and lists every operation with its scope', async () => {
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, Record<string, { operationId?: string; security?: unknown }>>;
    };
    const validator = new Validator();
    const result = await validator.validate(doc);
    if (!result.valid) throw new Error(JSON.stringify(result.errors, null, 2).slice(0, 2000));
    expect(validator.version).toBe('3.1');
    for (const op of OPERATIONS) {
      expect(doc.paths[op.path]?.[op.method]).toMatchObject({ operationId: op.id, security: [{ oauth2: [op.scope] }] });
    }
    const declared = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([, item]) => Object.values(item))
      .filter((o) => o.operationId).length;
    expect(declared).toBe(OPERATIONS.length);
  });
});
