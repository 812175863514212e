/**
 * A Node.js the project supports (package.json `engines`: 22 or 24 LTS), for the npm scripts.
 *
 * better-sqlite3 ≥ 13 is built on Node-API and crashes (SIGSEGV) when loaded by Node 20, which
 * reached end of life in April 2026 but is still the system Node of some machines. When the Node
 * running an npm script is older than 22, the script runs on the current LTS taken from the npm
 * registry's `node-<platform>-<arch>@24` package, unpacked once into `.cache/node-v24/` (≈ 50 MB,
 * ~25 s the first time; only the npm registry is needed). `COURSEGATE_NODE=/path/to/node` (or
 * the older `COURSEGATE_TEST_NODE`) forces a binary.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MIN_MAJOR = 22;
const LTS_MAJOR = 24;

/**
 * Absolute path of a Node.js binary ≥ 22: the forced one, this process's own, or the registry's
 * LTS (fetched on first use). Throws when `npm pack` or `tar` fails.
 */
export function chooseNode() {
  const forced = process.env.COURSEGATE_NODE ?? process.env.COURSEGATE_TEST_NODE;
  if (forced) return forced;
  if (Number(process.versions.node.split('.')[0]) >= MIN_MAJOR) return process.execPath;
  const dir = path.join(ROOT, '.cache', `node-v${LTS_MAJOR}`);
  const bin = path.join(dir, 'bin', 'node');
  if (existsSync(bin)) return bin;
  const pkg = `node-${process.platform}-${process.arch}@${LTS_MAJOR}`;
  console.error(
    `coursegate: Node.js ${process.versions.node} is older than ${MIN_MAJOR}; fetching ${pkg} from the npm registry into .cache/`,
  );
  const tmp = path.join(ROOT, '.cache', `tmp-${process.pid}`);
  mkdirSync(tmp, { recursive: true });
  try {
    const packed = spawnSync('npm', ['pack', pkg, '--silent', '--pack-destination', tmp], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
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

/**
 * The environment for child processes that must run on `node`: its bin/ first on PATH (so
 * `node`, `tsx` and `process.execPath` of every child are that binary), and native builds aimed
 * at it.
 */
export function envFor(node, base = process.env) {
  const env = { ...base, PATH: `${path.dirname(node)}${path.delimiter}${base.PATH ?? ''}` };
  if (node !== process.execPath) env.npm_config_nodedir = path.dirname(path.dirname(node));
  return env;
}
