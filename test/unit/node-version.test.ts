/**
 * The entry points refuse an unsupported Node.js with a clear message (package.json `engines`),
 * instead of crashing while better-sqlite3 loads (exit 139, no message, on Node 20), and
 * production refuses a plain-http public `BASE_URL`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { SUPPORTED_NODE, satisfiesRange } from '../../src/node-version.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A Node.js binary older than 22 on this machine (the distribution's), or undefined. */
function oldNode(): string | undefined {
  for (const candidate of [process.env.COURSEGATE_OLD_NODE, '/usr/bin/node', '/usr/local/bin/node']) {
    if (!candidate || !existsSync(candidate)) continue;
    const version = spawnSync(candidate, ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (Number(/^v(\d+)/.exec(version)?.[1]) < 22) return candidate;
  }
  return undefined;
}

describe('the supported Node.js range', () => {
  test('is package.json "engines"', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(SUPPORTED_NODE).toBe(pkg.engines.node);
  });

  test.each([
    ['20.20.2', false],
    ['22.11.0', false],
    ['22.12.0', true],
    ['22.20.1', true],
    ['23.5.0', false],
    ['24.0.0', true],
    ['v24.22.3', true],
    ['25.0.0', false],
  ])('%s → %s', (version, ok) => {
    expect(satisfiesRange(version, SUPPORTED_NODE)).toBe(ok);
  });

  const old = oldNode();
  (old ? test : test.skip)(
    `an older Node.js (${old ?? 'none found'}) gets a refusal naming the range, exit 1`,
    () => {
      for (const entry of ['src/main.ts', 'src/cli/migrate.ts']) {
        const run = spawnSync(old!, ['--import', 'tsx', entry], {
          cwd: ROOT,
          encoding: 'utf8',
          env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', LOG_LEVEL: 'silent' },
          timeout: 60_000,
        });
        expect({ entry, status: run.status, stderr: run.stderr }).toEqual({
          entry,
          status: 1,
          stderr: expect.stringContaining(`needs Node.js ${SUPPORTED_NODE}`),
        });
        expect(run.stderr).toContain('npm run start:prod');
      }
    },
    120_000,
  );
});

describe('production BASE_URL', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cg-baseurl-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const production = (baseUrl: string) => () =>
    loadConfig({
      NODE_ENV: 'production',
      BASE_URL: baseUrl,
      COOKIE_SECRETS: 'c'.repeat(48),
      SIGNING_KEYS: 'store',
      DATA_DIR: dir,
    });

  test('a plain-http public origin is refused, naming the setting', () => {
    expect(production('http://auth.example.com')).toThrow(/BASE_URL: must be https:\/\/ in production/);
  });

  test.each(['https://auth.example.com', 'http://127.0.0.1:3000', 'http://localhost:8080', 'http://[::1]:3000'])(
    '%s is accepted',
    (baseUrl) => {
      expect(production(baseUrl)().baseUrl).toBe(baseUrl);
    },
  );
});
