/**
 * The developer and operator docs as web pages (issue #30 item 5): `docs/*.md` rendered to HTML in
 * the shared layout, at `/docs` (the default `DOCS_URL`, src/http/docs-links.ts, which every
 * `error_uri` and "see …" link of an error description points into).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Router from '@koa/router';
import escapeHtml from 'escape-html';
import { Marked } from 'marked';
import { gfmHeadingId } from 'marked-gfm-heading-id';
import { layout } from './templates.js';

/**
 * The pages published under `/docs/` (issue #30 item 5): the ones written for integrators and
 * operators. Maintainers' pages (ARCHITECTURE.md, performance-log.md) stay in the repository; a
 * link to one of them is published as its text only.
 */
export const DOCS_PAGES: ReadonlyMap<string, string> = new Map([
  ['client-developer-guide.md', 'Client developer guide'],
  ['client-registration.md', 'Client registration'],
  ['account-api.md', 'Account API (GraphQL)'],
  ['mcp.md', 'MCP tool endpoint'],
  ['admin-api.md', 'Admin API'],
  ['security.md', 'Security'],
  ['operator-guide.md', 'Operator guide'],
  ['operator-integrations.md', 'Vendor integrations'],
  ['deployment.md', 'Deployment'],
]);

/** Images the pages show (`docs/img/*.png`). */
const IMAGE = /^[a-z0-9][a-z0-9-]*\.png$/;

/**
 * Passages of a page that are for maintainers only (how CI runs, which test proves what): written
 * between `<!-- internal -->` and `<!-- /internal -->`, kept in the repository, left out of `/docs`.
 * A passage on lines of its own goes with its last line break; one inside a paragraph keeps the line
 * break after it, so a blank line that ends the paragraph stays blank.
 */
const INTERNAL = /(^|\n)<!-- internal -->[\s\S]*?<!-- \/internal -->\n?|<!-- internal -->[\s\S]*?<!-- \/internal -->/g;

/**
 * The page without its maintainers' passages ({@link INTERNAL}).
 * @param markdown a page of `docs/`
 * @returns the Markdown published at `/docs` (rendered, or as is for `Accept: text/markdown`)
 */
export function withoutInternal(markdown: string): string {
  return markdown.replace(INTERNAL, (_passage, lineStart: string | undefined) => lineStart ?? '');
}

/** The repo's `docs/`, from `src/http/` (tsx) or `dist/src/http/` (built image). */
function defaultDocsDir(): string {
  const here = path.dirname(new URL(import.meta.url).pathname);
  const candidates = [path.resolve(here, '../../docs'), path.resolve(here, '../../../docs')];
  return candidates.find((dir) => existsSync(path.join(dir, 'mcp.md'))) ?? candidates[0]!;
}

/**
 * Renders one page: GitHub-flavoured Markdown (marked) with GitHub's heading ids, so every
 * `page.md#anchor` link of an error description lands on its heading; links to other published
 * pages stay links, the schema file links to where it is served, links to unpublished files
 * (maintainers' pages, sources) become their text.
 * @param markdown the page's Markdown (our own, trusted: raw HTML in it is kept)
 * @returns the HTML page, in the shared layout and stylesheet
 */
export function renderDocsPage(page: string, markdown: string): string {
  const md = new Marked(gfmHeadingId(), {
    gfm: true,
    renderer: {
      link({ href, tokens }) {
        const inner = this.parser.parseInline(tokens);
        const external = /^[a-z]+:|^#|^\//i.test(href);
        const file = /^(?:\.\/)?([^/#?]+)(#.*)?$/.exec(href)?.[1];
        const served = external
          ? href
          : file === 'account-api.graphql'
            ? '/account/graphql/schema.graphql'
            : file && DOCS_PAGES.has(file)
              ? href
              : undefined;
        return served === undefined ? inner : `<a href="${escapeHtml(served)}">${inner}</a>`;
      },
    },
  });
  // Code blocks and tables scroll sideways inside the page on a phone: keyboard users reach them (tabindex, WCAG 2.1.1).
  const body = md
    .parse(withoutInternal(markdown), { async: false })
    .replaceAll('<pre>', '<pre tabindex="0">')
    .replaceAll('<table>', '<table tabindex="0">');
  const nav = [...DOCS_PAGES]
    .map(([file, title]) =>
      file === page ? `<strong>${escapeHtml(title)}</strong>` : `<a href="/docs/${file}">${escapeHtml(title)}</a>`,
    )
    .join(' · ');
  const title = DOCS_PAGES.get(page) ?? 'Documentation';
  return docsLayout(
    title,
    `<nav class="docs-nav" aria-label="Documentation">${nav}</nav>\n<article class="docs">${body}</article>`,
  );
}

/** The page around the docs: the shared layout's head, a wide card. */
function docsLayout(title: string, body: string): string {
  return layout(title, body).replace('<main class="card">', '<main class="card docs-card">');
}

/** `/docs`: the list of published pages. */
function indexPage(): string {
  const items = [...DOCS_PAGES]
    .map(([file, title]) => `<li><a href="/docs/${file}">${escapeHtml(title)}</a></li>`)
    .join('\n');
  return docsLayout(
    'Documentation',
    `<h1>Documentation</h1>\n<p class="lead">For developers of client applications and for operators of this server.</p>\n<ul>\n${items}\n</ul>`,
  );
}

/**
 * The developer and operator docs (issue #30 item 5), read from `docsDir` (the repo's `docs/`):
 * - `GET /docs`: the list of pages;
 * - `GET /docs/<page>.md`: the page as HTML (what a browser following an `error_uri` gets), or
 *   its Markdown source for `Accept: text/markdown` or `?format=md`;
 * - `GET /docs/img/<name>.png`: the pages' images.
 * Anything else falls through (404). Rendered pages are kept per process.
 */
export function docsPagesRouter(docsDir = defaultDocsDir()): Router {
  const router = new Router();
  const rendered = new Map<string, string>();
  router.get('/docs/img/:file', async (ctx, next) => {
    // Routes match case-insensitively (oidc-provider's rules, route-table.ts); the files are lower case.
    const file = (ctx.params.file ?? '').toLowerCase();
    if (!IMAGE.test(file)) return next();
    const data = await readFile(path.join(docsDir, 'img', file)).catch(() => undefined);
    if (data === undefined) return next();
    ctx.type = 'image/png';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = data;
  });
  router.get('/docs/:page', async (ctx, next) => {
    const page = (ctx.params.page ?? '').toLowerCase();
    if (!DOCS_PAGES.has(page)) return next();
    const text = await readFile(path.join(docsDir, page), 'utf8').catch(() => undefined);
    if (text === undefined) return next();
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.vary('Accept');
    if (ctx.query.format === 'md' || ctx.accepts('text/html', 'text/markdown') === 'text/markdown') {
      ctx.type = 'text/markdown; charset=utf-8';
      ctx.body = withoutInternal(text);
      return;
    }
    let html = rendered.get(page);
    if (html === undefined) rendered.set(page, (html = renderDocsPage(page, text)));
    ctx.type = 'html';
    ctx.body = html;
  });
  router.get('/docs', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.type = 'html';
    ctx.body = indexPage();
  });
  return router;
}
