/**
 * `/docs` (issue #30 item 5): the integrator and operator pages as HTML on a real server. Every
 * page renders, every link on it that stays on this server answers (other pages, their anchors,
 * images), no maintainer-only passage and no citation of a document integrators cannot open
 * (SPEC.md, DESIGN.md) is published, and every `error_uri`-style docs link of the code lands on a
 * heading that exists.
 */
import { DOCS_PAGES } from '../../src/interaction/docs-pages.js';
import { DOC_TOPICS } from '../../src/http/docs-links.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const pages = new Map<string, string>();
async function page(file: string): Promise<string> {
  if (!pages.has(file)) {
    const res = await fetch(`${server.baseUrl}/docs/${file}`, { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect([file, res.status, res.headers.get('content-type')]).toEqual([file, 200, 'text/html; charset=utf-8']);
    pages.set(file, await res.text());
  }
  return pages.get(file)!;
}
const ids = (html: string) => new Set([...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!));

test('/docs lists every published page; each renders as HTML in the shared layout', async () => {
  const index = await (await fetch(`${server.baseUrl}/docs`)).text();
  for (const file of DOCS_PAGES.keys()) {
    expect(index).toContain(`href="/docs/${file}"`);
    const html = await page(file);
    expect(html).toContain('<link rel="stylesheet" href="/assets/coursegate.css">');
    expect(html).toContain('<meta name="viewport"');
    expect(html).not.toMatch(/<!-- internal -->/);
  }
});

test('every same-server link of every page answers, anchors included', async () => {
  const broken: string[] = [];
  for (const file of DOCS_PAGES.keys()) {
    const html = await page(file);
    for (const [, href] of html.matchAll(/<(?:a href|img src)="([^"]+)"/g)) {
      const link = href!.replace(/&amp;/g, '&');
      if (/^[a-z]+:/i.test(link) && !link.startsWith(server.baseUrl)) continue; // another site
      const url = new URL(link, `${server.baseUrl}/docs/${file}`);
      if (!url.pathname.startsWith('/docs')) continue; // the server's own routes are tested elsewhere
      const target = url.pathname === `/docs/${file}` ? html : url.pathname.endsWith('.md') ? await page(url.pathname.slice('/docs/'.length)).catch(() => '') : undefined;
      if (target === undefined) {
        const res = await fetch(url);
        if (res.status !== 200) broken.push(`${file}: ${link} → ${res.status}`);
        continue;
      }
      if (url.hash && !ids(target).has(decodeURIComponent(url.hash.slice(1)))) broken.push(`${file}: ${link} (no such heading)`);
    }
  }
  expect(broken).toEqual([]);
});

test('every docs topic that error descriptions link to lands on an existing heading', async () => {
  for (const [topic, ref] of Object.entries(DOC_TOPICS)) {
    const [file, anchor] = ref.split('#');
    const html = await page(file!);
    if (anchor) expect([topic, ids(html).has(anchor)]).toEqual([topic, true]);
  }
});

test('the Markdown source stays available for tools (Accept: text/markdown, ?format=md)', async () => {
  const res = await fetch(`${server.baseUrl}/docs/mcp.md?format=md`);
  expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
  expect(await res.text()).toMatch(/^# /);
  expect((await fetch(`${server.baseUrl}/docs/ARCHITECTURE.md`)).status).toBe(404);
});
