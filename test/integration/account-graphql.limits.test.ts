/**
 * Account API protection (limits.ts, page-budget.ts): depth, cost, rows, aliases, directives,
 * tokens, malformed documents and unknown fields are GraphQL request errors with a stable
 * `extensions.code`: HTTP 200 with `application/json`, 400 with `application/graphql-response+json`
 * (GraphQL over HTTP), never a 500 and never a stack trace. Introspection is open to authenticated
 * callers in every mode, bounded by introspection-bound.ts.
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { graphql, memberToken } from '../helpers/member-token.js';
import { createAccountYoga, type AccountServices } from '../../src/resource/account-graphql/index.js';
import { LIMITS } from '../../src/resource/account-graphql/limits.js';
import { INTROSPECTION_LIMITS } from '../../src/resource/account-graphql/introspection-bound.js';
import { readFileSync } from 'node:fs';
import {
  buildSchema,
  getIntrospectionQuery,
  getNamedType,
  isObjectType,
  parse,
  validate,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  token = await memberToken({ baseUrl: server.baseUrl, email: 'student@demo.test' });
});
afterAll(() => server.close());

const FULL = (n: number | string) => `
  enrolledCourses(first: ${n}) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { slug title expireDate hasLifetimeAccess progress completedLectureCount lectureCount lastWatchedLecture { lectureId positionSeconds updatedAt } } } }
  orders(first: ${n}) { totalCount pageInfo { hasNextPage endCursor } nodes { id number status total { amountMinor currency } createdAt items { id title courseSlug quantity unitPrice { amountMinor currency } total { amountMinor currency } } } }
  eventRegistrations(first: ${n}) { totalCount pageInfo { hasNextPage endCursor } nodes { id status createdAt event { id title startsAt endsAt location } } }`;

/** The Account API's schema, as clients get it (docs/account-api.graphql is the same SDL). */
const SCHEMA = buildSchema(
  readFileSync(new URL('../../src/resource/account-graphql/schema.graphql', import.meta.url), 'utf8'),
);

/**
 * Issue #27 part 4: the "every field" document, generated from the schema (not a hand-written list,
 * so a new field is in it the day it is added): every field of `viewer`, every connection with
 * `first: 100`, its rows read once, either through `nodes` or through `edges { cursor node }`
 * (Relay clients), whichever `rows` says.
 */
function everyFieldDocument(schema: GraphQLSchema, rows: 'nodes' | 'edges'): string {
  const select = (type: GraphQLObjectType): string =>
    Object.values(type.getFields())
      .filter(
        (f) => !(type.getFields().nodes && type.getFields().edges && f.name === (rows === 'nodes' ? 'edges' : 'nodes')),
      )
      .map((f) => {
        const named = getNamedType(f.type);
        const args = f.args.some((a) => a.name === 'first') ? '(first: 100)' : '';
        return isObjectType(named) ? `${f.name}${args} { ${select(named)} }` : f.name;
      })
      .join(' ');
  return `{ viewer { ${select(schema.getType('Viewer') as GraphQLObjectType)} } }`;
}

/** graphql-armor's cost of a document (the rule the server runs, with its default weights). */
function armorCost(schema: GraphQLSchema, document: string): number {
  let cost = Number.NaN;
  const errors = validate(schema, parse(document), [
    costLimitRule({
      maxCost: Number.MAX_SAFE_INTEGER,
      onAccept: [(_ctx: unknown, { n }: { n: number }) => (cost = n)],
    } as never),
  ]);
  if (errors.length > 0) throw errors[0];
  return cost;
}

/** The headroom the cost cap keeps over the costliest legitimate document (docs/account-api.md "Limits"). */
const COST_HEADROOM = 0.1;

const DEEP_INTROSPECTION = `{ __type(name: "Viewer") { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } }`;

const cases: Array<[string, string, string]> = [
  ['malformed document', '{ viewer { id ', 'GRAPHQL_PARSE_FAILED'],
  ['not GraphQL at all', 'SELECT * FROM orders', 'GRAPHQL_PARSE_FAILED'],
  ['unknown field', '{ viewer { id password } }', 'GRAPHQL_VALIDATION_FAILED'],
  ['unknown argument', '{ viewer { orders(last: 5) { totalCount } } }', 'GRAPHQL_VALIDATION_FAILED'],
  ['wrong literal type', '{ viewer { orders(first: "ten") { totalCount } } }', 'GRAPHQL_VALIDATION_FAILED'],
  [`depth over ${LIMITS.depth}`, DEEP_INTROSPECTION, 'QUERY_TOO_DEEP'],
  [
    'the full document twice at first: 100 (cost)',
    `{ a: viewer { ${FULL(100)} } b: viewer { ${FULL(100)} } }`,
    'QUERY_TOO_COSTLY',
  ],
  [
    'four connections with a variable first (rows budget)',
    `query($n: Int!) { viewer { a: orders(first: $n) { totalCount } b: orders(first: $n) { totalCount } c: orders(first: $n) { totalCount } d: orders(first: $n) { totalCount } } }`,
    'QUERY_TOO_COSTLY',
  ],
  [
    `more than ${LIMITS.aliases} aliases`,
    `{ viewer { ${Array.from({ length: LIMITS.aliases + 1 }, (_, i) => `a${i}: id`).join(' ')} } }`,
    'TOO_MANY_ALIASES',
  ],
  [
    `more than ${LIMITS.directives} directives`,
    `{ viewer { id ${'@include(if: true) '.repeat(LIMITS.directives + 1)} } }`,
    'TOO_MANY_DIRECTIVES',
  ],
  [`more than ${LIMITS.tokens} tokens`, `{ viewer { ${'id '.repeat(LIMITS.tokens)} } }`, 'TOO_MANY_TOKENS'],
];

describe('limits and bad documents: request errors with stable codes, never 500', () => {
  test.each(cases)('%s → %s', async (_name, query, code) => {
    const json = await graphql(server.baseUrl, token, query, { n: 100 });
    expect(json.status).toBe(200);
    expect(json.body.data).toBeUndefined();
    expect(json.body.errors?.map((e) => e.extensions?.code)).toContain(code);
    expect(JSON.stringify(json.body)).not.toMatch(/stack|at \w+ \(|node_modules/);

    const spec = await graphql(server.baseUrl, token, query, { n: 100 }, 'application/graphql-response+json');
    expect(spec.status).toBe(400);
    expect(spec.headers.get('content-type')).toContain('application/graphql-response+json');
    expect(spec.body.errors?.map((e) => e.extensions?.code)).toContain(code);
  });

  test.each(['nodes', 'edges'] as const)(
    'the most expensive legitimate document (every field of the schema, first: 100, rows through %s) passes',
    async (rows) => {
      const document = everyFieldDocument(SCHEMA, rows);
      // Generated: every scalar of every type under viewer is in it.
      for (const field of ['email', 'roles', 'lastWatchedLecture', 'courseSlug', 'location', 'endCursor'])
        expect(document).toContain(field);
      const res = await graphql(server.baseUrl, token, document);
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.viewer.orders.totalCount).toBe(3);
    },
  );

  test(`the cost cap keeps ≥ ${COST_HEADROOM * 100} % headroom over the costliest legitimate document`, () => {
    const costliest = Math.max(
      armorCost(SCHEMA, everyFieldDocument(SCHEMA, 'nodes')),
      armorCost(SCHEMA, everyFieldDocument(SCHEMA, 'edges')),
    );
    expect(costliest * (1 + COST_HEADROOM)).toBeLessThanOrEqual(LIMITS.cost);
  });

  test('the headroom check fails on a schema grown by new fields (a broken copy)', () => {
    // Six more scalars on each order item and each enrolled course: real clients asking for every
    // field would be refused by the cap; the check says so before they are.
    const grown = buildSchema(
      readFileSync(new URL('../../src/resource/account-graphql/schema.graphql', import.meta.url), 'utf8')
        .replace(
          'type OrderItem {',
          'type OrderItem {\n  a1: Int\n  a2: Int\n  a3: Int\n  a4: Int\n  a5: Int\n  a6: Int',
        )
        .replace(
          'type EnrolledCourse {',
          'type EnrolledCourse {\n  b1: Int\n  b2: Int\n  b3: Int\n  b4: Int\n  b5: Int\n  b6: Int',
        ),
    );
    const document = everyFieldDocument(grown, 'edges');
    expect(document).toContain('a6');
    expect(armorCost(grown, document) * (1 + COST_HEADROOM)).toBeGreaterThan(LIMITS.cost);
  });

  test('three connections with a variable first fit the rows budget', async () => {
    const res = await graphql(server.baseUrl, token, `query($n: Int!) { viewer { ${FULL('$n')} } }`, { n: 2 });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.viewer.orders.nodes).toHaveLength(2);
  });

  test.each([
    ['a JSON body that is not an object', '[1, 2]', 'application/json'],
    ['a body that is not JSON', '{"query": ', 'application/json'],
    ['an empty body', '', 'application/json'],
    ['a query that is not a string', '{"query": 42}', 'application/json'],
    ['variables that are not an object', '{"query": "{ viewer { id } }", "variables": "x"}', 'application/json'],
    ['an unsupported content type', 'query={viewer{id}}', 'text/plain'],
  ])('%s → 4xx, not 500', async (_name, body, contentType) => {
    const res = await fetch(`${server.baseUrl}/account/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      body,
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await res.text()).not.toMatch(/\bat \w+ \(|node_modules/);
  });

  test('a request without a query is a GraphQL error, not a 500', async () => {
    const res = await fetch(`${server.baseUrl}/account/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"variables": {}}',
    });
    expect(res.status).toBeLessThan(500);
    const body = (await res.json()) as { errors?: unknown[] };
    expect(body.errors?.length).toBeGreaterThan(0);
  });

  test('a mutation over GET is refused (405), not executed', async () => {
    const url = new URL(`${server.baseUrl}/account/graphql`);
    url.searchParams.set('query', 'mutation { updateDisplayName(input: { name: "Via GET" }) { viewer { name } } }');
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(405);
    const user = await server.store.db
      .selectFrom('users')
      .select('name')
      .where('id', '=', 'usr_student')
      .executeTakeFirstOrThrow();
    expect(user.name).toBe('Sam Student');
  });

  test('introspection works outside production (developer tooling)', async () => {
    const res = await graphql(server.baseUrl, token, '{ __schema { queryType { name } } }');
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });
});

/** What GraphiQL, graphql-codegen and IDE plugins send (15 fields deep through `ofType`). */
const STANDARD_INTROSPECTION = getIntrospectionQuery({
  descriptions: true,
  specifiedByUrl: true,
  directiveIsRepeatable: true,
  schemaDescription: true,
  inputValueDeprecation: true,
});
const CYCLIC_INTROSPECTION = '{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }';
const TOO_DEEP_INTROSPECTION = `{ __schema { queryType { ${'fields { type { '.repeat(1)}${'ofType { '.repeat(INTROSPECTION_LIMITS.depth)}name${' }'.repeat(INTROSPECTION_LIMITS.depth + 2)} } } }`;

describe('production mode: introspection for authenticated callers (bounded), no field suggestions', () => {
  const principal = {
    userId: 'usr_x',
    siteId: 'demo',
    clientId: 'c',
    scopes: new Set(['account:read']),
    grantId: 'g',
    expiresAt: 0,
  };
  // No resolver runs in these tests: introspection resolves from the schema, the rest is refused at validation.
  const yoga = createAccountYoga({
    services: {} as AccountServices,
    baseUrl: 'https://issuer.example',
    production: true,
  });
  const post = async (query: string) => {
    const res = await yoga.fetch(
      'http://localhost/account/graphql',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) },
      { koa: { state: { principal } } },
    );
    return {
      status: res.status,
      body: (await res.json()) as {
        data?: { __schema?: { types: unknown[] } };
        errors?: Array<{ message: string; extensions?: { code?: string } }>;
      },
    };
  };

  test('the standard introspection query (depth 15, over the depth limit of 8) is answered', async () => {
    const res = await post(STANDARD_INTROSPECTION);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.__schema?.types.length).toBeGreaterThan(10);
  });

  test.each([
    ['types → fields → type → fields … (nested lists)', CYCLIC_INTROSPECTION, 'QUERY_TOO_COSTLY'],
    [`an ofType chain deeper than ${INTROSPECTION_LIMITS.depth}`, TOO_DEEP_INTROSPECTION, 'QUERY_TOO_DEEP'],
    ['__type stays under the ordinary depth limit', DEEP_INTROSPECTION, 'QUERY_TOO_DEEP'],
  ])('bounded: %s → %s', async (_name, query, code) => {
    const res = await post(query);
    expect(res.status).toBe(200);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors?.map((e) => e.extensions?.code)).toContain(code);
  });

  test('an unknown field gets no "Did you mean" hint', async () => {
    const res = await post('{ viewer { nam } }');
    expect(res.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(res.body.errors?.[0]?.message).not.toMatch(/Did you mean/);
  });
});

describe('unexpected errors are masked and logged, never leaked', () => {
  test('a failing store gives INTERNAL_SERVER_ERROR "Unexpected error." without the cause; the log gets type and message', async () => {
    const logged: Array<Record<string, unknown>> = [];
    const failing = {
      accounts: { findUser: async () => Promise.reject(new Error('SQLITE_BUSY: secret detail')) },
    } as unknown as AccountServices;
    const yoga = createAccountYoga({
      services: failing,
      baseUrl: 'https://issuer.example',
      production: false,
      log: { error: (fields) => logged.push(fields) },
    });
    const principal = {
      userId: 'usr_x',
      siteId: 'demo',
      clientId: 'c',
      scopes: new Set(['account:read']),
      grantId: 'g',
      expiresAt: 0,
    };
    const res = await yoga.fetch(
      'http://localhost/account/graphql',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ viewer { id } }' }),
      },
      { koa: { state: { principal } } },
    );
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(JSON.parse(text)).toEqual({
      data: null,
      errors: [
        {
          message: 'Unexpected error.',
          locations: [{ line: 1, column: 3 }],
          path: ['viewer'],
          extensions: { code: 'INTERNAL_SERVER_ERROR' },
        },
      ],
    });
    expect(text).not.toContain('secret');
    expect(logged).toEqual([{ err: { type: 'Error', message: 'SQLITE_BUSY: secret detail' } }]);
  });
});
