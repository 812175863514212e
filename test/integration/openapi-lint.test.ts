/**
 * Issue #26 item 7 (SPEC §4.1 `/openapi.json`): the document the server serves passes Redocly CLI
 * (`recommended`, redocly.yaml) and Spectral (`spectral:oas` recommended, .spectral.yaml) with 0
 * errors and 0 warnings, and every operation carries an `operationId`, declared tags, a
 * description and `security`: the oauth2 scheme with its scopes, `[]` on the public endpoints and,
 * on `/mcp`, the anonymous requirement `{}` first (SPEC §4.3 serves anonymous callers).
 *
 * The document is fetched from a real server on a real port, written to a temporary file and
 * linted by both CLIs (devDependencies, run as child processes on this Node). A last test breaks
 * a copy of the document on purpose and checks that both linters report it, so a green run
 * cannot come from a linter that checks nothing.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
const root = process.cwd();

/** The JS entry of a package's CLI (`bin`), run with this Node. */
function cli(pkg: string, name: string): string {
  const dir = path.join(root, 'node_modules', pkg);
  const bin = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin[
    name
  ]!;
  return path.join(dir, bin);
}

interface Finding {
  linter: 'redocly' | 'spectral';
  rule: string;
  severity: 'error' | 'warning' | 'info';
  where: string;
  message: string;
}

/** Runs `redocly lint` (JSON output) with the committed redocly.yaml. */
async function redocly(file: string): Promise<Finding[]> {
  const out = await run(
    process.execPath,
    [cli('@redocly/cli', 'redocly'), 'lint', file, '--config', path.join(root, 'redocly.yaml'), '--format=json'],
    {
      // No telemetry and no update check (the registry is the only network here, and tests stay offline).
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
      maxBuffer: 64 * 1024 * 1024,
    },
  ).catch((err: { stdout?: string; stderr?: string }) => ({ stdout: err.stdout ?? '', stderr: err.stderr ?? '' }));
  const json = out.stdout.slice(out.stdout.indexOf('{'));
  if (!json.startsWith('{')) throw new Error(`redocly printed no report: ${out.stderr}`);
  const report = JSON.parse(json) as {
    problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }>;
  };
  return report.problems.map((p) => ({
    linter: 'redocly',
    rule: p.ruleId,
    severity: p.severity === 'error' ? 'error' : p.severity === 'warn' ? 'warning' : 'info',
    where: p.location[0]?.pointer ?? '',
    message: p.message,
  }));
}

/** Runs `spectral lint` (JSON output to a file) with the committed .spectral.yaml. */
async function spectral(file: string, dir: string): Promise<Finding[]> {
  const output = path.join(dir, `spectral-${path.basename(file)}.json`);
  await run(
    process.execPath,
    [
      cli('@stoplight/spectral-cli', 'spectral'),
      'lint',
      file,
      '--ruleset',
      path.join(root, '.spectral.yaml'),
      '--format',
      'json',
      '--output',
      output,
      '--fail-severity',
      'error',
    ],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  ).catch(() => undefined); // exit 1 when an error is found: the report file says which
  const results = JSON.parse(readFileSync(output, 'utf8')) as Array<{
    code: string;
    severity: number;
    message: string;
    path: Array<string | number>;
  }>;
  const severity = ['error', 'warning', 'info', 'info'] as const;
  return results.map((r) => ({
    linter: 'spectral',
    rule: r.code,
    severity: severity[r.severity] ?? 'info',
    where: r.path.join('/'),
    message: r.message,
  }));
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
type Operation = {
  operationId?: string;
  tags?: string[];
  description?: string;
  security?: Array<Record<string, string[]>>;
  responses?: Record<string, unknown>;
};
type Doc = {
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<
      string,
      {
        type: string;
        flows?: Record<string, { authorizationUrl?: string; tokenUrl?: string; scopes: Record<string, string> }>;
      }
    >;
  };
};

function operations(doc: Doc): Array<[string, Operation]> {
  return Object.entries(doc.paths).flatMap(([p, item]) =>
    Object.entries(item)
      .filter(([m]) => METHODS.includes(m))
      .map(([m, op]) => [`${m.toUpperCase()} ${p}`, op] as [string, Operation]),
  );
}

let server: TestServer;
let dir: string;
let doc: Doc;
let file: string;

beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(path.join(os.tmpdir(), 'coursegate-openapi-lint-'));
  const res = await fetch(`${server.baseUrl}/openapi.json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as Doc;
  file = path.join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(doc, null, 2));
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('/openapi.json passes the linters (issue #26 item 7)', () => {
  test('redocly (recommended): 0 errors, 0 warnings', async () => {
    const findings = await redocly(file);
    console.info(
      `redocly: ${findings.filter((f) => f.severity === 'error').length} errors, ${findings.filter((f) => f.severity === 'warning').length} warnings`,
    );
    expect(findings).toEqual([]);
  }, 120_000);

  test('spectral (spectral:oas recommended): 0 errors, 0 warnings', async () => {
    const findings = await spectral(file, dir);
    console.info(
      `spectral: ${findings.filter((f) => f.severity === 'error').length} errors, ${findings.filter((f) => f.severity === 'warning').length} warnings`,
    );
    expect(findings).toEqual([]);
  }, 120_000);

  test('a broken copy is reported by both linters (the check can fail)', async () => {
    const broken = structuredClone(doc);
    const token = broken.paths['/api/oauth/token']!.post!;
    delete token.security;
    delete token.operationId;
    token.tags = ['undeclared'];
    const brokenFile = path.join(dir, 'broken.json');
    writeFileSync(brokenFile, JSON.stringify(broken));
    const rules = (await redocly(brokenFile)).map((f) => `${f.severity} ${f.rule} ${f.where}`);
    expect(rules).toEqual(
      expect.arrayContaining([
        'error security-defined #/paths/~1api~1oauth~1token/post',
        'warning operation-operationId #/paths/~1api~1oauth~1token/post/operationId',
      ]),
    );
    const found = (await spectral(brokenFile, dir)).map((f) => `${f.rule} ${f.where}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'operation-operationId paths//api/oauth/token/post',
        'operation-tag-defined paths//api/oauth/token/post/tags/0',
      ]),
    );
  }, 120_000);
});

describe('/openapi.json operations (issue #26 item 7)', () => {
  test('every operation has a unique operationId, declared tags, a description, security and a 4XX response', () => {
    const declared = new Set((doc.tags ?? []).map((t) => t.name));
    for (const t of doc.tags ?? []) expect(t.description?.trim()).toBeTruthy();
    const ids = new Set<string>();
    // redocly.yaml turns operation-4xx-response off for these alone: metadata documents answer 200 to every GET.
    const no4xx = new Set([
      'getOpenIdConfiguration',
      'getAuthorizationServerMetadata',
      'getProtectedResourceMetadata',
      'getJwks',
      'getScopeMap',
    ]);
    const problems: string[] = [];
    for (const [name, op] of operations(doc)) {
      if (!op.operationId) problems.push(`${name}: no operationId`);
      else if (ids.has(op.operationId)) problems.push(`${name}: operationId ${op.operationId} used twice`);
      else ids.add(op.operationId);
      if (!op.tags?.length || op.tags.some((t) => !declared.has(t)))
        problems.push(`${name}: tags ${JSON.stringify(op.tags)} not declared`);
      if (!op.description?.trim()) problems.push(`${name}: no description`);
      if (!Array.isArray(op.security)) problems.push(`${name}: no security`);
      for (const requirement of op.security ?? []) {
        for (const [scheme, scopes] of Object.entries(requirement)) {
          const flows = doc.components.securitySchemes[scheme]?.flows;
          if (!flows) problems.push(`${name}: unknown security scheme ${scheme}`);
          for (const scope of scopes)
            if (!flows?.authorizationCode?.scopes[scope]) problems.push(`${name}: scope ${scope} not in the scheme`);
        }
      }
      const has4xx = Object.keys(op.responses ?? {}).some((code) => /^4(\d\d|XX)$/.test(code));
      if (!has4xx && !no4xx.has(op.operationId ?? '')) problems.push(`${name}: no 4XX response`);
    }
    expect(problems).toEqual([]);
  });

  test('security: scopes where a token is needed, [] on public endpoints, optional auth on /mcp', () => {
    const op = (p: string, m = 'get') => doc.paths[p]![m]!;
    expect(op('/api/oauth/userinfo').security).toEqual([{ oauth2: ['openid'] }]);
    expect(op('/account/graphql', 'post').security).toEqual([{ oauth2: ['account:read'] }]);
    for (const p of [
      '/.well-known/openid-configuration',
      '/.well-known/oauth-protected-resource',
      '/.well-known/jwks.json',
      '/oauth/authorize',
    ])
      expect(op(p).security).toEqual([]);
    for (const p of ['/api/oauth/token', '/api/oauth/revoke', '/api/oauth/introspect', '/api/oauth/register'])
      expect(op(p, 'post').security).toEqual([]);
    // SPEC §4.3: anonymous callers are served public tools; each protected tool needs its scope.
    const mcp = op('/mcp', 'post').security!;
    expect(mcp[0]).toEqual({});
    const scopes = mcp.slice(1).flatMap((r) => r.oauth2 ?? []);
    expect(scopes).toEqual(expect.arrayContaining(['account:read', 'courses:read', 'analytics:read']));
    expect(scopes).not.toContain('openid');
    // Every admin operation names exactly its scope.
    expect(op('/api/v1/site', 'patch').security).toEqual([{ oauth2: ['school:write'] }]);
  });

  test('the oauth2 scheme is the authorization code flow at this server’s URLs, with every scope', () => {
    const scheme = doc.components.securitySchemes.oauth2!;
    expect(scheme.type).toBe('oauth2');
    expect((scheme as unknown as { description: string }).description).toMatch(/PKCE/);
    const flow = scheme.flows!.authorizationCode!;
    expect(flow.authorizationUrl).toBe(`${server.baseUrl}/oauth/authorize`);
    expect(flow.tokenUrl).toBe(`${server.baseUrl}/api/oauth/token`);
    expect(Object.keys(flow.scopes)).toEqual(expect.arrayContaining(['openid', 'account:read', 'courses:write']));
    // The flow URLs are the ones discovery names (RFC 8414).
    return fetch(`${server.baseUrl}/.well-known/oauth-authorization-server`)
      .then((r) => r.json())
      .then((meta: { authorization_endpoint: string; token_endpoint: string }) => {
        expect(meta.authorization_endpoint).toBe(flow.authorizationUrl);
        expect(meta.token_endpoint).toBe(flow.tokenUrl);
      });
  });
});
