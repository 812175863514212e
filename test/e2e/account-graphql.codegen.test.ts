/**
 * The Account API for developers (SPEC §2.4, issue #16): a client generated from the introspected
 * schema with graphql-codegen (`npm run codegen` → examples/generated/account-api.ts) is the
 * committed file, type-checks (and rejects a field the schema lacks), and runs the viewer query
 * against a started server with a member token.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { print } from 'graphql';
import { generateAccountClient, introspectAccountApi } from '../../scripts/account-codegen.js';
import { ViewerDocument, type ViewerQuery } from '../../examples/generated/account-api.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { memberToken } from '../helpers/member-token.js';

const ROOT = process.cwd();
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  token = await memberToken({ baseUrl: server.baseUrl, email: 'student@demo.test', scope: 'openid account:read' });
});
afterAll(() => server?.close());

test('the committed client equals a fresh generation from the live introspection (`npm run codegen`)', async () => {
  const fresh = await generateAccountClient(await introspectAccountApi(server.baseUrl, token));
  expect(fresh).toContain('export const ViewerDocument');
  expect(readFileSync('examples/generated/account-api.ts', 'utf8')).toBe(fresh);
});

test('tsc accepts a client using the generated types and rejects a field the schema does not have', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'coursegate-codegen-'));
  try {
    const generated = path.join(ROOT, 'examples/generated/account-api.js');
    writeFileSync(
      path.join(dir, 'client.ts'),
      `import type { ViewerQuery } from ${JSON.stringify(generated)};
export const emails = (q: ViewerQuery): string => q.viewer.email;
export const slugs = (q: ViewerQuery): string[] => q.viewer.enrolledCourses.nodes.map((n) => n.slug);
export const wrong = (q: ViewerQuery): unknown => q.viewer.passwordHash;
`,
    );
    const tsc = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'node_modules/typescript/bin/tsc'),
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--module',
        'NodeNext',
        '--moduleResolution',
        'NodeNext',
        '--target',
        'ES2022',
        '--types',
        'node',
        '--typeRoots',
        path.join(ROOT, 'node_modules/@types'),
        path.join(dir, 'client.ts'),
        path.join(ROOT, 'examples/member-graphql.ts'),
      ],
      { encoding: 'utf8', cwd: ROOT },
    );
    const errors = tsc.stdout.split('\n').filter((l) => /error TS\d+/.test(l));
    // Exactly one error: the made-up field; the generated file, the example and the typed uses are clean.
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/client\.ts\(4,.*Property 'passwordHash' does not exist/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

test('the typed ViewerDocument runs against the server with a member token; fields have their generated types', async () => {
  const res = await fetch(`${server.baseUrl}/account/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: print(ViewerDocument), operationName: 'Viewer' }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data?: ViewerQuery; errors?: unknown };
  expect(body.errors).toBeUndefined();
  const viewer = body.data!.viewer;
  const email: string = viewer.email;
  expect(email).toBe('student@demo.test');
  expect(viewer.enrolledCourses.nodes.length).toBeGreaterThan(0);
  for (const course of viewer.enrolledCourses.nodes) {
    const slug: string = course.slug;
    expect(typeof slug).toBe('string');
    expect(typeof course.title).toBe('string');
    expect(typeof course.progress).toBe('number');
    expect(course.expireDate === null || typeof course.expireDate === 'string').toBe(true);
  }
});
