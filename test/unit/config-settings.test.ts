/**
 * Issue #9: one catalogue of settings (src/config-settings.ts, zod ENV_SCHEMA, each entry
 * described) covers every environment variable the configuration reads; the operator guide's
 * settings table is generated from it; no module but src/config.ts reads `process.env`.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ENV_SCHEMA, SETTINGS, TABLE_MARKERS, settingsTable } from '../../src/config-settings.js';
import { loadConfig } from '../../src/config.js';

const root = process.cwd();
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    return statSync(path.join(root, rel)).isDirectory() ? sources(rel) : rel.endsWith('.ts') ? [rel] : [];
  });
}

describe('configuration catalogue (issue #9)', () => {
  test('every environment variable src/config.ts reads has a described entry', () => {
    const text = read('src/config.ts');
    const direct = [...text.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!);
    const rateLimits = [...text.matchAll(/readRateLimit\(env, '([A-Z_]+)'/g)].map((m) => `RATE_LIMIT_${m[1]}`);
    const used = new Set([...direct, ...rateLimits]);
    const catalogued = new Set(SETTINGS.map((s) => s.env));
    const missing = [...used].filter((name) => !catalogued.has(name));
    // To fix: add an entry to SETTINGS in src/config-settings.ts, then `npx tsx scripts/settings-table.ts --write`.
    expect(missing).toEqual([]);
    for (const s of SETTINGS) expect(s.description.length).toBeGreaterThan(5);
    expect(Object.keys(ENV_SCHEMA.shape).sort()).toEqual([...catalogued].sort());
  });

  test('DESIGN §3: the documented names are catalogued', () => {
    const names = SETTINGS.map((s) => s.env);
    for (const name of ['PORT', 'BASE_URL', 'DATA_DIR', 'REDIS_URL', 'DEMO_PASSWORD', 'RATE_LIMIT_TOKEN', 'RATE_LIMIT_REGISTRATION', 'RATE_LIMIT_LOGIN_FAILURES', 'TRUST_PROXY', 'NODE_ENV']) {
      expect(names).toContain(name);
    }
  });

  test('docs/operator-guide.md holds the table generated from the catalogue', () => {
    const doc = read('docs/operator-guide.md');
    const [begin, end] = TABLE_MARKERS;
    const inDoc = doc.slice(doc.indexOf(begin) + begin.length, doc.indexOf(end)).trim();
    // To fix: `npx tsx scripts/settings-table.ts --write`.
    expect(inDoc).toBe(settingsTable());
  });

  test('no module but src/config.ts reads process.env', () => {
    const offenders = [...sources('src'), ...sources('adapters')].filter((f) => f !== path.join('src', 'config.ts') && /process\.env\b/.test(read(f)));
    expect(offenders).toEqual([]);
  });

  test('SQLITE_SYNCHRONOUS is read through the configuration', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).sqliteSynchronous).toBe('NORMAL');
    expect(loadConfig({ NODE_ENV: 'test', SQLITE_SYNCHRONOUS: 'FULL' }).sqliteSynchronous).toBe('FULL');
  });
});
