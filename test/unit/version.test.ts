/**
 * Issue #30 item 12: one version everywhere. package.json, both root entries of package-lock.json,
 * the MCP `serverInfo.version` and the newest release of CHANGELOG.md (Keep a Changelog: the first
 * `## [x.y.z] - YYYY-MM-DD` heading after `## [Unreleased]`) agree, and that release says how to
 * upgrade to it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SERVER_INFO } from '../../src/resource/mcp/server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (f: string) => readFileSync(path.join(ROOT, f), 'utf8');

test('package.json, package-lock.json, MCP serverInfo and the newest CHANGELOG release name one version', () => {
  const { version } = JSON.parse(read('package.json')) as { version: string };
  const lock = JSON.parse(read('package-lock.json')) as {
    version: string;
    packages: Record<string, { version?: string }>;
  };
  const changelog = read('CHANGELOG.md');
  const headings = [...changelog.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)].map((m) => ({
    version: m[1],
    date: m[2],
  }));
  expect(headings[0]).toEqual({ version: 'Unreleased', date: undefined });
  expect(headings[1]?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect({
    lock: lock.version,
    lockRoot: lock.packages['']!.version,
    mcp: SERVER_INFO.version,
    changelog: headings[1]!.version,
  }).toEqual({
    lock: version,
    lockRoot: version,
    mcp: version,
    changelog: version,
  });
  const release = changelog.slice(
    changelog.indexOf(`## [${version}]`),
    changelog.indexOf('\n## [', changelog.indexOf(`## [${version}]`) + 1),
  );
  expect(release).toMatch(/^### Upgrading/m);
});
