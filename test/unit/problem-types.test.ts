/**
 * Issue #9 / RFC 9457 §3.1.1: the `type` URI of every problem the admin API answers with points at
 * a section that exists in docs/admin-api.md ("Problem types": one `###` heading per code, whose
 * GitHub slug is the code), and the page is published at `/docs/admin-api.md`.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { CODES } from '../../src/errors/catalogue.js';
import { DOCUMENTED_PROBLEMS, PROBLEMS_SECTION, problem, problemType } from '../../src/errors/surfaces/problem.js';
import { docsPagesRouter, withoutInternal } from '../../src/interaction/docs-pages.js';

const DOC = readFileSync(new URL('../../docs/admin-api.md', import.meta.url), 'utf8');
const DOCS_URL = 'https://auth.example.com/docs';

/** GitHub's heading slug (github-slugger): lower case, punctuation but `-` and `_` dropped, spaces → `-`. */
const slug = (heading: string): string =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');

/** Headings outside fenced code blocks (the examples' `# …` comment lines are no headings). */
function headings(markdown: string): string[] {
  let fenced = false;
  const out: string[] = [];
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced && /^#{1,6} /.test(line)) out.push(line);
  }
  return out;
}

const ANCHORS = headings(DOC).map((h) => slug(h.replace(/^#+ /, '')));
const fragment = (uri: string): string => new URL(uri).hash.slice(1);

describe('problem type URIs name sections of docs/admin-api.md', () => {
  test('the doc has no two headings with the same slug (GitHub would suffix one)', () => {
    expect(new Set(ANCHORS).size).toBe(ANCHORS.length);
  });

  test('every code of the catalogue has a section of its own', () => {
    for (const code of Object.keys(CODES)) expect(DOCUMENTED_PROBLEMS.has(code)).toBe(true);
  });

  test.each([...DOCUMENTED_PROBLEMS])("%s: its type URI's anchor exists", (code) => {
    const type = problem(DOCS_URL, 400, code, 'x').type;
    expect(type).toBe(`${DOCS_URL}/admin-api.md#${code}`);
    expect(ANCHORS).toContain(fragment(type));
  });

  test('a code without a section of its own points at the Errors section, which exists', () => {
    expect(fragment(problemType(DOCS_URL, 'invitation_expired'))).toBe(PROBLEMS_SECTION);
    expect(ANCHORS).toContain(PROBLEMS_SECTION);
    expect(problemType(`${DOCS_URL}/`, 'not_found')).toBe(`${DOCS_URL}/admin-api.md#not_found`);
  });

  test('every section under "Problem types" is a code the mapper links to (no stale sections)', () => {
    const start = DOC.indexOf('\n## Problem types\n');
    expect(start).toBeGreaterThan(0);
    const end = DOC.indexOf('\n## ', start + 1);
    const sections = headings(DOC.slice(start, end))
      .filter((h) => h.startsWith('### '))
      .map((h) => h.slice(4));
    expect(new Set(sections)).toEqual(new Set(DOCUMENTED_PROBLEMS));
  });

  test('the page is published at /docs/admin-api.md (where DOCS_URL points by default)', async () => {
    const app = new Koa();
    app.use(docsPagesRouter().routes());
    const server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/docs/admin-api.md`;
      const res = await fetch(url, { headers: { accept: 'text/markdown' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/markdown/);
      const served = await res.text();
      expect(served).toBe(withoutInternal(DOC)); // maintainers' passages left out
      expect(served).not.toContain('<!-- internal');
      // A browser following a problem's `type` gets the page rendered, each problem's heading anchored.
      const html = await (await fetch(url, { headers: { accept: 'text/html' } })).text();
      for (const problem of DOCUMENTED_PROBLEMS)
        expect(html).toMatch(new RegExp(`<h3 id="[^"]+">${problem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</h3>`));
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
