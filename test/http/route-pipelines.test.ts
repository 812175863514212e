/**
 * Issue #27 part 2: the route table's columns produce steps, and every pipeline the app builds
 * enforces what its row declares (src/pipelines/assemble.ts `checkPipeline`):
 * - `auth: bearer` → the bearer step with the row's scopes, before any step of the family: a row
 *   with bearer auth never serves an anonymous caller (shown over real HTTP below);
 * - `owner: 'provider'` → the prelude `answerOutageAs503`, `explainMetadataFailure` and the
 *   postlude `handToProvider`;
 * - `rateLimit` → `limitByClient` (client+ip), `limitByIp` (ip) or `offerFailureCount`
 *   (`on: 'failure'`: the handler's reserve/release pair; the `invitation` row declares it now);
 * - `body` → `limitBody`.
 * Each rule is shown to fail on a deliberately broken copy built in memory.
 */
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ROUTE_TABLE, type RouteSpec } from '../../src/http/route-table.js';
import { assemble, checkPipeline, columnOf, type ColumnSteps } from '../../src/pipelines/assemble.js';
import { pipeline, type Pipeline, type Step } from '../../src/pipelines/pipeline.js';
import { failureCountOf } from '../../src/http/failure-count.js';
import type { Context } from 'koa';
import { memberToken } from '../helpers/member-token.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
}, 60_000);

afterAll(async () => {
  await server?.close();
});

const rowNamed = (name: string): RouteSpec => ROUTE_TABLE.find((r) => r.name === name)!;
const built = (name: string): Pipeline => server.pipelines[name]!;
const without = (p: Pipeline, drop: (s: Step) => boolean): Pipeline => ({
  ...p,
  steps: p.steps.filter((s) => !drop(s)),
});

describe('every built pipeline enforces its row', () => {
  test('each of the rows passes the check', () => {
    const names = [...new Set(ROUTE_TABLE.map((r) => r.name))];
    expect(names.length).toBeGreaterThan(40);
    const problems = ROUTE_TABLE.flatMap((row) => checkPipeline(row, built(row.name)));
    expect(problems).toEqual([]);
  });

  test('the columns are read: bearer rows carry the bearer step with their scopes, provider rows the prelude and postlude', () => {
    const bearerRows = ROUTE_TABLE.filter((r) => r.auth.kind === 'bearer' && !r.auth.anonymous).map((r) => r.name);
    expect(bearerRows).toEqual(expect.arrayContaining(['userinfo', 'account_graphql', 'admin_api', 'admin_api_files']));
    const graphqlAuth = built('account_graphql')
      .steps.map(columnOf)
      .find((t) => t?.column === 'auth');
    expect(graphqlAuth).toEqual({ column: 'auth', scopes: ['account:read'], challengeScope: undefined });
    const providerRows = ROUTE_TABLE.filter((r) => r.owner === 'provider');
    expect(providerRows).toHaveLength(13);
    for (const row of providerRows) {
      const tags = built(row.name).steps.map(columnOf);
      expect(tags.at(-1)).toEqual({ column: 'owner', part: 'postlude' });
      expect(tags.filter((t) => t?.column === 'owner' && t.part === 'prelude')).toHaveLength(2);
    }
    const limitKeys = (name: string) =>
      built(name)
        .steps.map(columnOf)
        .filter((t) => t?.column === 'rateLimit');
    expect(limitKeys('token')).toEqual([{ column: 'rateLimit', key: 'client+ip' }]);
    expect(limitKeys('registration')).toEqual([{ column: 'rateLimit', key: 'ip' }]);
    for (const name of ['login', 'signin', 'invitation'])
      expect(limitKeys(name)).toEqual([{ column: 'rateLimit', key: 'account+ip' }]);
    expect(limitKeys('consent')).toEqual([]);
  });
});

describe('broken copies are caught', () => {
  test('a bearer row whose pipeline lacks the bearer step would serve anonymous callers', () => {
    const broken = without(built('account_graphql'), (s) => columnOf(s)?.column === 'auth');
    expect(checkPipeline(rowNamed('account_graphql'), broken)).toEqual([
      expect.stringMatching(/needs exactly one bearer step .*anonymous callers/),
    ]);
    // …or one whose family step runs before authentication.
    const early: Pipeline = {
      ...built('admin_api'),
      steps: [built('admin_api').steps[0]!, async (_ctx, next) => next(), ...built('admin_api').steps.slice(1)],
    };
    expect(checkPipeline(rowNamed('admin_api'), early)).toEqual([expect.stringMatching(/run before the bearer step/)]);
  });

  test('a row whose scopes changed no longer matches the bearer step built for the old ones', () => {
    const row: RouteSpec = { ...rowNamed('account_graphql'), auth: { kind: 'bearer', scopes: ['account:write'] } };
    expect(checkPipeline(row, built('account_graphql'))).toEqual([
      expect.stringMatching(/requires \[account:read\] but the row declares \[account:write\]/),
    ]);
  });

  test('a provider row without its prelude or postlude', () => {
    const noPrelude = without(built('token'), (s) => {
      const t = columnOf(s);
      return t?.column === 'owner' && t.part === 'prelude';
    });
    expect(checkPipeline(rowNamed('token'), noPrelude)).toEqual([expect.stringMatching(/prelude/)]);
    const noPostlude = without(built('revocation'), (s) => {
      const t = columnOf(s);
      return t?.column === 'owner' && t.part === 'postlude';
    });
    expect(checkPipeline(rowNamed('revocation'), noPostlude)).toEqual([
      expect.stringMatching(/ends in handToProvider/),
    ]);
    // An app row handed to the provider by hand.
    const handed: Pipeline = { ...built('healthz'), steps: [...built('healthz').steps, built('token').steps.at(-1)!] };
    expect(checkPipeline(rowNamed('healthz'), handed)).toEqual([expect.stringMatching(/app row has provider steps/)]);
  });

  test('rate limits: the wrong key, a limit the row does not declare, a declared limit missing', () => {
    expect(
      checkPipeline(
        { ...rowNamed('token'), rateLimit: { limit: 'token', key: 'ip', methods: ['POST'] } },
        built('token'),
      ),
    ).toEqual([expect.stringMatching(/rate-limit steps \[client\+ip\] but the row declares \[ip\]/)]);
    // The `invitation` row as it was: limited by its handler, no limit in the row.
    const { rateLimit: _dropped, ...unlimited } = rowNamed('invitation');
    expect(checkPipeline(unlimited, built('invitation'))).toEqual([
      expect.stringMatching(/\[account\+ip\] but the row declares \[\]/),
    ]);
    const noLimit = without(built('signin'), (s) => columnOf(s)?.column === 'rateLimit');
    expect(checkPipeline(rowNamed('signin'), noLimit)).toEqual([
      expect.stringMatching(/\[\] but the row declares \[account\+ip\]/),
    ]);
  });

  test("operator rows (`loop: 'operator'`, issue #29): exactly one shareLoop, after the bearer step; no other row has one", () => {
    for (const name of ['admin_api', 'admin_api_files', 'admin', 'admin_pages']) {
      expect(rowNamed(name).loop).toBe('operator');
      expect(built(name).steps.filter((s) => columnOf(s)?.column === 'loop')).toHaveLength(1);
    }
    const share = built('admin_api').steps.find((s) => columnOf(s)?.column === 'loop')!;
    // An operator row that lost its step.
    expect(
      checkPipeline(
        rowNamed('admin_api'),
        without(built('admin_api'), (s) => s === share),
      ),
    ).toEqual([expect.stringMatching(/needs exactly one shareLoop/)]);
    // The step moved before the bearer step: anonymous calls would wait for the share.
    const steps = [...built('admin_api').steps];
    const authAt = steps.findIndex((s) => columnOf(s)?.column === 'auth');
    const reordered = steps.filter((s) => s !== share);
    reordered.splice(authAt, 0, share);
    expect(checkPipeline(rowNamed('admin_api'), { ...built('admin_api'), steps: reordered })).toEqual([
      expect.stringMatching(/admin_api: 1 step\(s\) run before the bearer step/),
    ]);
    // Token traffic is never held: UserInfo with the step is refused.
    const userinfo = built('userinfo');
    expect(checkPipeline(rowNamed('userinfo'), { ...userinfo, steps: [...userinfo.steps, share] })).toEqual([
      expect.stringMatching(/not an operator row/),
    ]);
  });

  test('a row declared bearer gets the bearer step from its column alone', () => {
    // The family declares one handler; the column decides the rest.
    const columns = {
      limitBody: built('healthz').steps[0]!,
      limitByClient: async () => undefined,
      limitByIp: async () => undefined,
      offerFailureCount: async () => undefined,
      authenticateBearer: () => built('account_graphql').steps.find((s) => columnOf(s)?.column === 'auth')!,
      answerOutageAs503: async () => undefined,
      explainMetadataFailure: async () => undefined,
      handToProvider: async () => undefined,
      shareLoop: async () => undefined,
    } as unknown as ColumnSteps;
    const row: RouteSpec = { ...rowNamed('healthz'), auth: { kind: 'bearer', scopes: ['account:read'] } };
    const assembled = assemble(
      row,
      pipeline(async () => undefined),
      columns,
    );
    expect(assembled.steps.map(columnOf)[1]).toEqual({
      column: 'auth',
      scopes: ['account:read'],
      challengeScope: undefined,
    });
    expect(checkPipeline(row, assembled)).toEqual([]);
  });

  test('a handler on a row without a failure-counted limit gets no reserve/release pair', () => {
    const ctx = {
      state: { route: { spec: rowNamed('consent'), params: {} } },
      path: '/interaction/x/consent',
    } as unknown as Context;
    expect(() => failureCountOf(ctx)).toThrow(/route consent declares no failure-counted limit/);
  });
});

describe('a row with bearer auth never serves an anonymous caller (real HTTP)', () => {
  const concrete = (path: string) => path.replace(/\/\*$/, '/sites').replace(/:[a-zA-Z]+/g, 'x');
  const cases = ROUTE_TABLE.filter((r) => r.auth.kind === 'bearer' && !r.auth.anonymous).flatMap((r) =>
    r.methods.filter((m) => m !== 'HEAD').map((method) => [r.name, method, concrete(r.path)] as const),
  );

  test.each(cases)('%s: %s %s without a token → 401 with a Bearer challenge', async (_name, method, path) => {
    const res = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: method === 'GET' || method === 'DELETE' ? {} : { 'content-type': 'application/json' },
      body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
  });
});

describe('the invitation row declares the failure-counted limit its page spends (real HTTP)', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ RATE_LIMIT_LOGIN_FAILURES: '2/900' });
  }, 60_000);
  afterAll(async () => {
    await limited?.close();
  });

  test('two wrong passwords on the invitation page spend the points; the third try is 429 on the page', async () => {
    const base = limited.baseUrl;
    const reg = await fetch(`${base}/api/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'row limit',
        redirect_uris: ['http://127.0.0.1/callback'],
        token_endpoint_auth_method: 'none',
      }),
    });
    const clientId = ((await reg.json()) as { client_id: string }).client_id;
    const token = await memberToken({
      baseUrl: base,
      email: 'owner@demo.test',
      clientId,
      scope: 'openid members:write',
      site: 'demo',
    });
    const created = await fetch(`${base}/api/v1/invitations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'student@demo.test', role: 'instructor' }),
    });
    expect(created.status).toBe(201);
    const { acceptUrl } = (await created.json()) as { acceptUrl: string };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const page = await (await fetch(acceptUrl)).text();
      const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
      const res = await fetch(acceptUrl, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf, decision: 'accept', password: 'not-the-password' }).toString(),
      });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await res.text()).toMatch(/Too many failed sign-in attempts/);
      } else await res.text();
    }
    expect(statuses).toEqual([401, 401, 429]);
  }, 60_000);
});
