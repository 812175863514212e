#!/usr/bin/env node
/**
 * `npm test` step 2: runs jest (native ESM, one process at a time) on a supported Node.js.
 *
 * Supported and tested: Node.js 22 and 24 LTS (package.json `engines`). better-sqlite3 ≥ 13 ships
 * Node-API prebuilt binaries (one binary for every Node version, nothing compiled), and refuses
 * to load on Node 20. So when the Node running this script is older than 22, the suite runs on the
 * current LTS taken from the npm registry's `node-<platform>-<arch>@24` package, unpacked once into
 * `.cache/node-v24/` (≈ 50 MB, ~25 s the first time). Its bin/ goes first on PATH, so every child
 * process the tests spawn (`node`, `process.execPath`, npm scripts) runs on it too.
 *
 * Arguments are passed to jest (`npm test -- test/unit/foo.test.ts`). With `CI` set,
 * COURSEGATE_REQUIRE_SERVICES=1 is implied: the storage suites fail instead of skipping when Redis
 * or PostgreSQL cannot be brought up. `COURSEGATE_TEST_NODE=/path/to/node` forces a binary.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MIN_MAJOR = 22;
const LTS_MAJOR = 24;

/** Path of a Node.js ≥ MIN_MAJOR binary: this one, $COURSEGATE_TEST_NODE, or the registry's LTS. */
function chooseNode() {
  if (process.env.COURSEGATE_TEST_NODE) return process.env.COURSEGATE_TEST_NODE;
  if (Number(process.versions.node.split('.')[0]) >= MIN_MAJOR) return process.execPath;
  const dir = path.join(ROOT, '.cache', `node-v${LTS_MAJOR}`);
  const bin = path.join(dir, 'bin', 'node');
  if (existsSync(bin)) return bin;
  const pkg = `node-${process.platform}-${process.arch}@${LTS_MAJOR}`;
  console.error(`npm test: Node.js ${process.versions.node} is older than ${MIN_MAJOR}; fetching ${pkg} from the npm registry into .cache/`);
  const tmp = path.join(ROOT, '.cache', `tmp-${process.pid}`);
  mkdirSync(tmp, { recursive: true });
  try {
    const packed = spawnSync('npm', ['pack', pkg, '--silent', '--pack-destination', tmp], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const file = packed.stdout.trim().split('\n').pop();
    if (packed.status !== 0 || !file) throw new Error(`npm pack ${pkg} failed`);
    const untar = spawnSync('tar', ['xzf', path.join(tmp, file), '-C', tmp], { stdio: 'inherit' });
    if (untar.status !== 0) throw new Error(`unpacking ${file} failed`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(path.join(tmp, 'package'), dir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return bin;
}

const node = chooseNode();
const env = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}` };
if (process.env.CI && !env.COURSEGATE_REQUIRE_SERVICES) env.COURSEGATE_REQUIRE_SERVICES = '1';
// Native builds (none today: every native dependency ships Node-API prebuilds) would target it.
if (node !== process.execPath) env.npm_config_nodedir = path.dirname(path.dirname(node));

const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
console.error(`npm test: jest on Node.js ${version} (${node})`);
const jest = spawn(node, ['--experimental-vm-modules', path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--runInBand', ...process.argv.slice(2)], { cwd: ROOT, env, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => jest.kill(sig));
jest.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
