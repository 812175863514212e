/**
 * Issue #9: the layers of docs/ARCHITECTURE.md mean what they say. dependency-cruiser parses every
 * import under src/ (type-only imports too) and checks them against the committed rules in
 * `.dependency-cruiser.cjs`: no `src/oauth` in `src/resource` or `src/interaction`, no server in
 * `src/http`, `src/platform` free of protocol code, `src/domain` neutral.
 *
 * The second test proves the check can fail: the same rules, run on a small tree with a forbidden
 * edge of each kind, report every one of them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = process.cwd();
const PACKAGE = path.join(root, 'node_modules', 'dependency-cruiser');
if (!existsSync(PACKAGE))
  throw new Error('dependency-cruiser (devDependency) is not installed here: run `npm install`');
const CLI = path.join(
  PACKAGE,
  (JSON.parse(readFileSync(path.join(PACKAGE, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin
    .depcruise!,
);
const RULES = path.join(root, '.dependency-cruiser.cjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** Runs dependency-cruiser over `src` of `cwd` with the committed rules; answers its violations. */
function cruise(cwd: string): Violation[] {
  const run = spawnSync(process.execPath, [CLI, '--config', RULES, '--output-type', 'json', '--no-progress', 'src'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0 && !run.stdout.startsWith('{'))
    throw new Error(`dependency-cruiser failed (${run.status}): ${run.stderr}`);
  const result = JSON.parse(run.stdout) as { summary: { violations: Violation[]; totalCruised: number } };
  expect(result.summary.totalCruised).toBeGreaterThan(0);
  return result.summary.violations;
}

describe('layers (docs/ARCHITECTURE.md "Layers", .dependency-cruiser.cjs)', () => {
  test('no import in src/ crosses a forbidden layer edge', () => {
    const edges = cruise(root).map((v) => `${v.from} -> ${v.to} (${v.rule.name})`);
    // To fix: move what both sides need to src/domain (vocabulary, contracts) or src/http (HTTP helpers).
    expect(edges).toEqual([]);
  }, 60_000);

  test('the rules catch a forbidden edge of each kind, type-only imports included', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'coursegate-layers-'));
    try {
      const put = (file: string, text: string) => {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), text);
      };
      put(
        'tsconfig.json',
        JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }),
      );
      put('package.json', JSON.stringify({ type: 'module' }));
      put('src/oauth/scopes.ts', 'export const S = 1;\nexport type T = number;\n');
      put('src/resource/bearer.ts', "import { S } from '../oauth/scopes.js';\nexport const B = S;\n");
      put('src/interaction/routes.ts', "import type { T } from '../oauth/scopes.js';\nexport const R: T = 1;\n");
      put('src/http/openapi.ts', "import { B } from '../resource/bearer.js';\nexport const O = B;\n");
      put('src/http/route.ts', "import { S } from '../oauth/scopes.js';\nexport const P = S;\n");
      put('src/platform/accounts.ts', "import { P } from '../http/route.js';\nexport const A = P;\n");
      put('src/domain/claims.ts', "import { S } from '../oauth/scopes.js';\nexport const C = S;\n");
      put('src/oauth/userinfo.ts', "import { B } from '../resource/bearer.js';\nexport const U = B;\n");
      put('src/app.ts', 'export const APP = 1;\n');
      put('src/ops/health.ts', "import { APP } from '../app.js';\nexport const H = APP;\n");
      // Issue #27: the operations layer imports no server (ours or a library's); /admin pages write only through it.
      put(
        'src/operations/runner.ts',
        "import { B } from '../resource/bearer.js';\nimport type { Context } from 'koa';\nexport const RUN = B;\nexport type K = Context;\n",
      );
      put('src/platform/invitations.ts', 'export const INVITE = 1;\n');
      put(
        'src/operator/admin-people.ts',
        "import { INVITE } from '../platform/invitations.js';\nexport const PAGE = INVITE;\n",
      );
      const found = cruise(dir)
        .map((v) => `${v.from} -> ${v.to}`)
        .sort();
      expect(found).toEqual(
        [
          'src/domain/claims.ts -> src/oauth/scopes.ts',
          'src/http/openapi.ts -> src/resource/bearer.ts',
          'src/http/route.ts -> src/oauth/scopes.ts',
          'src/interaction/routes.ts -> src/oauth/scopes.ts',
          'src/oauth/userinfo.ts -> src/resource/bearer.ts',
          'src/ops/health.ts -> src/app.ts',
          'src/operations/runner.ts -> src/resource/bearer.ts',
          'src/operations/runner.ts -> koa',
          'src/operator/admin-people.ts -> src/platform/invitations.ts',
          'src/platform/accounts.ts -> src/http/route.ts',
          'src/resource/bearer.ts -> src/oauth/scopes.ts',
        ].sort(),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
