/**
 * Automatic persisted queries on `/account/graphql` (the APQ protocol of Apollo and urql): a
 * request with only `extensions.persistedQuery.sha256Hash` is answered `PersistedQueryNotFound`
 * until the full query has been sent once with its hash, then runs by the hash alone, by POST and
 * GET; every limit of the Account API applies to the stored document. Driven over real HTTP, and
 * by the real clients with APQ switched on: Apollo Client 4 (`PersistedQueryLink`) and urql
 * (`@urql/exchange-persisted`), with a member token from the real authorization-code flow.
 */
import { createHash } from 'node:crypto';
import { ApolloClient, HttpLink, InMemoryCache, gql as apolloGql } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { Client as UrqlClient, fetchExchange, gql as urqlGql } from '@urql/core';
import { persistedExchange } from '@urql/exchange-persisted';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { memberToken } from '../helpers/member-token.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

let server: TestServer;
let token: string;
let endpoint: string;

beforeAll(async () => {
  server = await startTestServer();
  endpoint = `${server.baseUrl}/account/graphql`;
  token = await memberToken({ baseUrl: server.baseUrl, email: 'student@demo.test', scope: 'openid account:read' });
});
afterAll(() => server?.close());

/** Every request a client sends, as the server saw its parameters, and the answer's status. */
interface Seen {
  method: string;
  hasQuery: boolean;
  hash?: string;
  status: number;
}

/** A `fetch` that records what each request carried (query or hash only) and how it was answered. */
function recordingFetch(seen: Seen[]): typeof fetch {
  return async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = init?.method ?? 'GET';
    const params: { query?: string; extensions?: { persistedQuery?: { sha256Hash?: string } } } =
      method === 'GET'
        ? {
            query: url.searchParams.get('query') ?? undefined,
            extensions: JSON.parse(url.searchParams.get('extensions') ?? '{}'),
          }
        : JSON.parse(String(init?.body));
    const res = await fetch(input, init);
    seen.push({
      method,
      hasQuery: typeof params.query === 'string' && params.query !== '',
      hash: params.extensions?.persistedQuery?.sha256Hash,
      status: res.status,
    });
    return res;
  };
}

async function post(body: unknown) {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

async function get(params: Record<string, string>) {
  const res = await fetch(`${endpoint}?${new URLSearchParams(params)}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

const pq = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

describe('APQ protocol over HTTP', () => {
  const query = '{ viewer { email name } }';
  const hash = sha256(query);

  test('hash only, unknown: PersistedQueryNotFound (POST and GET), not cached', async () => {
    const byPost = await post({ extensions: pq(hash) });
    expect(byPost.status).toBe(404);
    expect(byPost.body.errors[0]).toMatchObject({
      message: 'PersistedQueryNotFound',
      extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' },
    });
    expect(byPost.body.data).toBeUndefined();
    const byGet = await get({ extensions: JSON.stringify(pq(hash)) });
    expect(byGet.status).toBe(404);
    expect(byGet.body.errors[0].message).toBe('PersistedQueryNotFound');
    expect(byGet.headers.get('cache-control')).toMatch(/no-cache/);
  });

  test('query with a hash that is not its SHA-256: PersistedQueryMismatch, nothing stored', async () => {
    const wrong = sha256('{ viewer { email } }');
    const res = await post({ query, extensions: pq(wrong) });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ extensions: { code: 'PERSISTED_QUERY_MISMATCH' } });
    expect((await post({ extensions: pq(wrong) })).status).toBe(404);
  });

  test('malformed persistedQuery: 400 BAD_REQUEST', async () => {
    const res = await post({ extensions: { persistedQuery: { version: 2, sha256Hash: hash } } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });

  test('query with its hash runs and is remembered; then the hash alone runs it (POST and GET)', async () => {
    const first = await post({ query, extensions: pq(hash) });
    expect(first.status).toBe(200);
    expect(first.body.data.viewer.email).toBe('student@demo.test');
    const byPost = await post({ extensions: pq(hash) });
    expect(byPost.status).toBe(200);
    expect(byPost.body).toEqual(first.body);
    const byGet = await get({ extensions: JSON.stringify(pq(hash)) });
    expect(byGet.status).toBe(200);
    expect(byGet.body).toEqual(first.body);
  });

  test('the limits apply to a stored document on every use (16 aliases: TOO_MANY_ALIASES)', async () => {
    const tooMany = `{ ${Array.from({ length: 16 }, (_, i) => `a${i}: viewer { email }`).join(' ')} }`;
    const h = sha256(tooMany);
    const registered = await post({ query: tooMany, extensions: pq(h) });
    expect(registered.body.data).toBeUndefined();
    expect(registered.body.errors[0].extensions.code).toBe('TOO_MANY_ALIASES');
    const reused = await post({ extensions: pq(h) });
    expect(reused.body.data).toBeUndefined();
    expect(reused.body.errors[0].extensions.code).toBe('TOO_MANY_ALIASES');
  });

  test('a stored mutation is not run by GET', async () => {
    const mutation = 'mutation { updateDisplayName(input: { name: "APQ" }) { viewer { name } } }';
    const h = sha256(mutation);
    await post({ query: mutation, extensions: pq(h) });
    const res = await get({ extensions: JSON.stringify(pq(h)) });
    expect(res.status).toBe(405);
  });
});

describe('real clients with automatic persisted queries', () => {
  test('Apollo Client 4 (PersistedQueryLink, POST): resends the full query once, then uses the hash', async () => {
    const seen: Seen[] = [];
    const client = new ApolloClient({
      cache: new InMemoryCache(),
      link: new PersistedQueryLink({ sha256 }).concat(
        new HttpLink({ uri: endpoint, headers: { authorization: `Bearer ${token}` }, fetch: recordingFetch(seen) }),
      ),
    });
    const VIEWER = apolloGql`query ApolloViewer { viewer { email enrolledCourses(first: 5) { nodes { slug } } } }`;
    const first = await client.query({ query: VIEWER, fetchPolicy: 'network-only' });
    expect(first.error).toBeUndefined();
    expect((first.data as any).viewer.email).toBe('student@demo.test');
    const second = await client.query({ query: VIEWER, fetchPolicy: 'network-only' });
    expect(second.data).toEqual(first.data);
    expect(seen.map((s) => [s.hasQuery, s.status])).toEqual([
      [false, 404],
      [true, 200],
      [false, 200],
    ]);
    expect(new Set(seen.map((s) => s.hash)).size).toBe(1);
  });

  test('Apollo Client 4 with useGETForHashedQueries: the hash goes by GET', async () => {
    const seen: Seen[] = [];
    const client = new ApolloClient({
      cache: new InMemoryCache(),
      link: new PersistedQueryLink({ sha256, useGETForHashedQueries: true }).concat(
        new HttpLink({ uri: endpoint, headers: { authorization: `Bearer ${token}` }, fetch: recordingFetch(seen) }),
      ),
    });
    const VIEWER = apolloGql`query ApolloGetViewer { viewer { name } }`;
    const first = await client.query({ query: VIEWER, fetchPolicy: 'network-only' });
    expect((first.data as any).viewer.name).toBeDefined();
    await client.query({ query: VIEWER, fetchPolicy: 'network-only' });
    expect(seen.map((s) => [s.method, s.hasQuery, s.status])).toEqual([
      ['GET', false, 404],
      ['POST', true, 200],
      ['GET', false, 200],
    ]);
  });

  test('urql (@urql/exchange-persisted, GET for hashes): resends the full query once, then uses the hash', async () => {
    const seen: Seen[] = [];
    const client = new UrqlClient({
      url: endpoint,
      fetch: recordingFetch(seen),
      fetchOptions: { headers: { authorization: `Bearer ${token}` } },
      exchanges: [persistedExchange({ preferGetForPersistedQueries: true }), fetchExchange],
    });
    const VIEWER = urqlGql`query UrqlViewer { viewer { email } }`;
    const first = await client.query(VIEWER, {}, { requestPolicy: 'network-only' }).toPromise();
    expect(first.error).toBeUndefined();
    expect(first.data.viewer.email).toBe('student@demo.test');
    const second = await client.query(VIEWER, {}, { requestPolicy: 'network-only' }).toPromise();
    expect(second.error).toBeUndefined();
    expect(second.data).toEqual(first.data);
    expect(seen.map((s) => [s.hasQuery, s.status])).toEqual([
      [false, 404],
      [true, 200],
      [false, 200],
    ]);
  });
});
