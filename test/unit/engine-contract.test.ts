/**
 * The engine contract (issue #27 part 3): every assumption src/engine/oidc-provider.ts makes about
 * oidc-provider, stated against the installed package by running it (a bare Provider on a real
 * port, a recording adapter, real HTTP). An oidc-provider upgrade is one file (the seam) and this
 * test away: each `contractProblems` line names the assumption that no longer holds.
 *
 * Each check is also run on a deliberately broken copy of the seam's facts, to show it fails.
 */
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import Provider, { type Adapter, type AdapterPayload } from 'oidc-provider';
import {
  CIMD_FETCH_FAILED,
  ENGINE_VERSION,
  REFRESH_GRANT_CALLS,
  ROUTE,
  canonicalPath,
  currentRequest,
  patchIdTokenIssue,
  routeOf,
} from '../../src/engine/oidc-provider.js';
import { PROVIDER_ROUTES, ROUTE_TABLE } from '../../src/http/route-table.js';
import { readFileSync } from 'node:fs';

const require = createRequire(import.meta.url);

/** The route `Provider.ctx` named inside the refresh token's adapter `find`. */
let routeInsideFind: string | undefined;
/** Every adapter call as `Model.method`, in order. */
const calls: string[] = [];
const stores = new Map<string, Map<string, AdapterPayload>>();

class RecordingAdapter implements Adapter {
  private readonly rows: Map<string, AdapterPayload>;
  constructor(private readonly name: string) {
    this.rows = stores.get(name) ?? new Map();
    stores.set(name, this.rows);
  }
  async upsert(id: string, payload: AdapterPayload): Promise<void> {
    calls.push(`${this.name}.upsert`);
    this.rows.set(id, { ...payload });
  }
  async find(id: string): Promise<AdapterPayload | undefined> {
    calls.push(`${this.name}.find`);
    // What the patched finders and the rotation wrapper read: the request, from inside a model.
    if (this.name === 'RefreshToken') routeInsideFind = routeOf(currentRequest());
    return this.rows.get(id);
  }
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }
  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return [...this.rows.values()].find((p) => p.uid === uid);
  }
  async consume(id: string): Promise<void> {
    calls.push(`${this.name}.consume`);
    const row = this.rows.get(id);
    if (row) row.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string): Promise<void> {
    calls.push(`${this.name}.destroy`);
    this.rows.delete(id);
  }
  async revokeByGrantId(): Promise<void> {
    calls.push(`${this.name}.revokeByGrantId`);
  }
}

/** What the installed oidc-provider is seen to do. */
interface Observed {
  version: string;
  /** `ctx.oidc.route` per path requested. */
  routes: Record<string, string | undefined>;
  /** The adapter calls of one refresh_token grant (RefreshToken / AccessToken only). */
  refreshCalls: string[];
  /** `ctx.oidc` was an own accessor property of the request's context. */
  oidcIsOwnGetter: boolean;
  /** `Provider.ctx` named the token route inside the refresh token's adapter `find`. */
  providerCtxIsRequest: boolean;
  /** Methods the seam patches exist with the shape it assumes. */
  methods: { idTokenIssue: boolean; accessTokenFind: boolean; refreshTokenFind: boolean };
  /** The CIMD error description appears in the provider's source. */
  cimdDescription: boolean;
  /** `patchIdTokenIssue` withheld the id_token of a refresh answer. */
  idTokenWithheld: boolean;
}

/** The seam's facts as this test reads them (a broken copy is made from it below). */
interface SeamFacts {
  version: string;
  routeNames: readonly string[];
  /** Path → route name our route table expects (its provider rows are named by route name). */
  rowNames: Record<string, string>;
  refreshCalls: readonly string[];
  cimdDescription: string;
}

const FACTS: SeamFacts = {
  version: ENGINE_VERSION,
  routeNames: Object.values(ROUTE),
  rowNames: Object.fromEntries(
    ROUTE_TABLE.filter((r) => r.owner === 'provider').map((r) => [
      r.path.replace(':uid', 'nope').replace(':clientId', 'nope'),
      r.name,
    ]),
  ),
  refreshCalls: REFRESH_GRANT_CALLS,
  cimdDescription: CIMD_FETCH_FAILED,
};

/** Each assumption of the seam that the observation contradicts (empty: the contract holds). */
function contractProblems(facts: SeamFacts, seen: Observed): string[] {
  const problems: string[] = [];
  if (seen.version !== facts.version)
    problems.push(`installed oidc-provider ${seen.version}, the seam was checked against ${facts.version}`);
  const observedNames = new Set(Object.values(seen.routes));
  for (const name of facts.routeNames)
    if (!observedNames.has(name)) problems.push(`route name ${name} is not one oidc-provider uses`);
  for (const [path, name] of Object.entries(facts.rowNames)) {
    if (seen.routes[path] !== name)
      problems.push(`route-table row ${name} (${path}) is served as ${seen.routes[path]}`);
  }
  if (seen.refreshCalls.join(' → ') !== facts.refreshCalls.join(' → ')) {
    problems.push(
      `refresh grant calls ${seen.refreshCalls.join(' → ')}, the rotation wrapper assumes ${facts.refreshCalls.join(' → ')}`,
    );
  }
  if (!seen.oidcIsOwnGetter)
    problems.push('ctx.oidc is no longer an own getter of the request context (src/http/release.ts)');
  if (!seen.providerCtxIsRequest) problems.push('Provider.ctx is not the request inside the provider');
  for (const [method, ok] of Object.entries(seen.methods))
    if (!ok) problems.push(`patched method ${method} is gone or changed shape`);
  if (!seen.cimdDescription) problems.push(`no "${facts.cimdDescription}" in oidc-provider's CIMD helper`);
  if (!seen.idTokenWithheld) problems.push('IdToken.prototype.issue returning undefined no longer leaves id_token out');
  return problems;
}

let server: Server;
let base: string;
let observed: Observed;

beforeAll(async () => {
  const routesSeen: Record<string, string | undefined> = {};
  let oidcIsOwnGetter = true;
  const issuer = 'http://127.0.0.1';
  const provider = new Provider(issuer, {
    adapter: RecordingAdapter,
    clients: [
      {
        client_id: 'rp',
        client_secret: 'rp-secret-rp-secret-rp-secret-00',
        grant_types: ['authorization_code', 'refresh_token'],
        redirect_uris: ['https://rp.example/cb'],
        response_types: ['code'],
      },
    ],
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    routes: PROVIDER_ROUTES,
    scopes: ['openid', 'offline_access'],
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      introspection: { enabled: true },
      registration: { enabled: true },
      rpInitiatedLogout: { enabled: true },
    },
    issueRefreshToken: async () => true,
    rotateRefreshToken: true,
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 600,
      Interaction: 600,
      RefreshToken: 3600,
      Session: 3600,
    },
  });
  provider.use(async (ctx, next) => {
    await next();
    const route = routeOf(ctx);
    routesSeen[ctx.path] = route;
    if (route) {
      const descriptor = Object.getOwnPropertyDescriptor(ctx, 'oidc');
      if (typeof descriptor?.get !== 'function') oidcIsOwnGetter = false;
    }
  });
  // The seam's IdToken patch: withhold the id_token of every refresh answer.
  patchIdTokenIssue(
    provider,
    (ctx) => routeOf(ctx) === ROUTE.token && ctx?.oidc?.params?.grant_type === 'refresh_token',
  );
  server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const basic = `Basic ${Buffer.from('rp:rp-secret-rp-secret-rp-secret-00').toString('base64')}`;
  const form = { 'content-type': 'application/x-www-form-urlencoded', authorization: basic };
  const paths: Array<[string, RequestInit]> = [
    ['/.well-known/openid-configuration', {}],
    ['/.well-known/oauth-authorization-server', {}],
    [PROVIDER_ROUTES.jwks, {}],
    [
      `${PROVIDER_ROUTES.authorization}?client_id=rp&response_type=code&scope=openid&redirect_uri=https://rp.example/cb`,
      {},
    ],
    [`${PROVIDER_ROUTES.authorization}/nope`, {}],
    [PROVIDER_ROUTES.revocation, { method: 'POST', headers: form, body: 'token=x' }],
    [PROVIDER_ROUTES.introspection, { method: 'POST', headers: form, body: 'token=x' }],
    [PROVIDER_ROUTES.registration, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }],
    [`${PROVIDER_ROUTES.registration}/nope`, {}],
    [PROVIDER_ROUTES.end_session, {}],
    [
      `${PROVIDER_ROUTES.end_session}/confirm`,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'xsrf=x' },
    ],
    [`${PROVIDER_ROUTES.end_session}/success`, {}],
    // The router's matching (copied by canonicalPath): case-insensitive, one trailing slash ignored.
    ['/API/OAUTH/REVOKE/', { method: 'POST', headers: form, body: 'token=x' }],
  ];
  for (const [path, init] of paths) await fetch(`${base}${path}`, { redirect: 'manual', ...init });

  // One refresh_token grant on a grant and refresh token saved through the provider's models.
  const grant = new provider.Grant({ accountId: 'u1', clientId: 'rp' });
  grant.addOIDCScope('openid offline_access');
  const grantId = await grant.save();
  const client = await provider.Client.find('rp');
  const refreshToken = await new provider.RefreshToken({
    accountId: 'u1',
    client: client!,
    grantId,
    scope: 'openid offline_access',
    gty: 'authorization_code',
  }).save();
  calls.length = 0;
  const refreshed = await fetch(`${base}${PROVIDER_ROUTES.token}`, {
    method: 'POST',
    headers: form,
    body: `grant_type=refresh_token&refresh_token=${refreshToken}`,
  });
  const answer = (await refreshed.json()) as Record<string, unknown>;
  if (refreshed.status !== 200) throw new Error(`refresh failed: ${JSON.stringify(answer)}`);

  const pkg = JSON.parse(readFileSync(require.resolve('oidc-provider/package.json'), 'utf8')) as { version: string };
  const cimdSource = readFileSync(require.resolve('oidc-provider/lib/helpers/client_id_metadata_document.js'), 'utf8');
  const IdToken = provider.IdToken as unknown as { prototype: { issue?: unknown } };
  observed = {
    version: pkg.version,
    routes: Object.fromEntries(Object.entries(routesSeen).map(([path, route]) => [path, route])),
    refreshCalls: calls.filter((c) => /^(RefreshToken|AccessToken)\./.test(c)),
    oidcIsOwnGetter,
    providerCtxIsRequest: routeInsideFind === ROUTE.token,
    methods: {
      idTokenIssue: typeof IdToken.prototype.issue === 'function',
      accessTokenFind: typeof (provider.AccessToken as unknown as { find?: unknown }).find === 'function',
      refreshTokenFind: typeof (provider.RefreshToken as unknown as { find?: unknown }).find === 'function',
    },
    cimdDescription: cimdSource.includes(`'${FACTS.cimdDescription}'`),
    idTokenWithheld:
      typeof answer.access_token === 'string' && typeof answer.refresh_token === 'string' && !('id_token' in answer),
  };
}, 30_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

describe("engine contract: the seam's assumptions hold for the installed oidc-provider", () => {
  test('every assumption holds', () => {
    expect(contractProblems(FACTS, observed)).toEqual([]);
  });

  test("the route names we compare ctx.oidc.route with are the provider's, and its router matches as canonicalPath says", () => {
    expect(observed.routes[PROVIDER_ROUTES.revocation]).toBe(ROUTE.revocation);
    expect(observed.routes['/API/OAUTH/REVOKE/']).toBe(ROUTE.revocation);
    expect(canonicalPath('/API/OAUTH/REVOKE/')).toBe(canonicalPath(PROVIDER_ROUTES.revocation));
    expect(observed.routes['/.well-known/oauth-authorization-server']).toBe(ROUTE.discovery);
  });

  test('the refresh grant calls find → consume → save(successor) → save(access token)', () => {
    expect(observed.refreshCalls).toEqual([...REFRESH_GRANT_CALLS]);
  });

  test('package.json pins the version the seam was checked against', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(pkg.dependencies['oidc-provider']).toBe(ENGINE_VERSION);
  });
});

describe('engine contract: broken copies of the seam fail', () => {
  test('a renamed route name', () => {
    const broken = { ...FACTS, routeNames: FACTS.routeNames.map((n) => (n === 'revocation' ? 'revoke' : n)) };
    expect(contractProblems(broken, observed)).toEqual(['route name revoke is not one oidc-provider uses']);
  });

  test('a refresh grant order the wrapper assumes but the provider does not follow', () => {
    const broken = {
      ...FACTS,
      refreshCalls: ['RefreshToken.find', 'RefreshToken.upsert', 'RefreshToken.consume', 'AccessToken.upsert'],
    };
    expect(contractProblems(broken, observed)).toEqual([
      expect.stringMatching(/^refresh grant calls RefreshToken.find → RefreshToken.consume/),
    ]);
  });

  test('an upgraded provider: another version, a patched method gone, ctx.oidc no longer a getter', () => {
    const upgraded: Observed = {
      ...observed,
      version: '10.0.0',
      methods: { ...observed.methods, idTokenIssue: false },
      oidcIsOwnGetter: false,
    };
    expect(contractProblems(FACTS, upgraded)).toEqual([
      `installed oidc-provider 10.0.0, the seam was checked against ${ENGINE_VERSION}`,
      expect.stringMatching(/ctx.oidc is no longer an own getter/),
      'patched method idTokenIssue is gone or changed shape',
    ]);
  });

  test('a route-table row named after a route the provider does not serve there', () => {
    const broken = { ...FACTS, rowNames: { ...FACTS.rowNames, [PROVIDER_ROUTES.token]: 'token_endpoint' } };
    expect(contractProblems(broken, observed)).toEqual([expect.stringMatching(/row token_endpoint .* is served as/)]);
  });
});
