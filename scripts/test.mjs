#!/usr/bin/env node
/**
 * `npm test` step 2: runs jest (native ESM, one process at a time) on a supported Node.js.
 *
 * Supported and tested: Node.js 22 and 24 LTS (package.json `engines`). better-sqlite3 ≥ 13 ships
 * Node-API prebuilt binaries (one binary for every Node version, nothing compiled) and crashes
 * when loaded by Node 20. So when the Node running this script is older than 22, the suite runs on
 * the current LTS from the npm registry (scripts/lts-node.mjs, shared with `npm start`). Its bin/ goes first on PATH, so every child
 * process the tests spawn (`node`, `process.execPath`, npm scripts) runs on it too.
 *
 * Without arguments it first runs the gates: `biome ci` (format + lint) and `tsc --noEmit`.
 * Arguments are passed to jest (`npm test -- test/unit/foo.test.ts`). With `CI` set,
 * COURSEGATE_REQUIRE_SERVICES=1 is implied: the storage suites fail instead of skipping when Redis
 * or PostgreSQL cannot be brought up. `COURSEGATE_TEST_NODE=/path/to/node` forces a binary.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { chooseNode, envFor, ROOT } from './lts-node.mjs';

const node = chooseNode();
const env = envFor(node);
if (process.env.CI && !env.COURSEGATE_REQUIRE_SERVICES) env.COURSEGATE_REQUIRE_SERVICES = '1';

const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();

// The gates (issue #27) before the whole suite (not before a chosen file): formatting and lint
// (Biome, biome.jsonc), then the type check of src, adapters, tests, benches and examples.
if (process.argv.length === 2) {
  for (const [what, args] of [
    ['biome ci (format + lint)', [path.join(ROOT, 'node_modules/@biomejs/biome/bin/biome'), 'ci', '--colors=off']],
    [
      'tsc --noEmit (src and tests)',
      [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.json'), '--noEmit'],
    ],
  ]) {
    console.error(`npm test: ${what}`);
    const gate = spawnSync(node, args, { cwd: ROOT, env, stdio: 'inherit' });
    if (gate.status !== 0) {
      console.error(`npm test: ${what} failed; \`npx biome check --write\` formats and applies the safe fixes`);
      process.exit(gate.status ?? 1);
    }
  }
}
console.error(`npm test: jest on Node.js ${version} (${node})`);
const jest = spawn(
  node,
  [
    '--experimental-vm-modules',
    // One jest process runs every suite in band (ports, Redis and timing tests stay serial); each
    // suite's module registry is kept until the run ends, so the whole suite (~160 files) needs more
    // than V8's default ~4 GB old space (the run stopped "heap out of memory" at the 128th file).
    '--max-old-space-size=12288',
    path.join(ROOT, 'node_modules/jest/bin/jest.js'),
    '--runInBand',
    // A suite that leaves a handle open (a socket of a killed Redis, a timer of a library) must not
    // hold the whole run past its last test: jest reports the failures, then the process ends.
    '--forceExit',
    ...process.argv.slice(2),
  ],
  { cwd: ROOT, env, stdio: 'inherit' },
);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => jest.kill(sig));
jest.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
