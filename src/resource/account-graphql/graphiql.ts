/**
 * GraphiQL for the Account API at `GET /account/graphql` (outside production): yoga's own GraphiQL
 * page from `@graphql-yoga/render-graphiql`, which inlines its script, styles and editor workers,
 * so nothing loads from a CDN (this page must work offline). A browser's GET (`Accept: text/html`,
 * no `Authorization`, no `query`) gets the page; everything else goes on to the bearer step and the
 * API. The page's headers editor opens with an `Authorization: Bearer …` line for the member
 * access token (docs/account-api.md "GraphiQL"); introspection then works for it (SPEC §2.4).
 *
 * CSP of this one page: its single inline script by hash, inline styles (the editor injects them),
 * workers from blob: URLs, requests to this origin only, no framing.
 */
import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';

const GRAPHIQL_OPTIONS = {
  title: 'coursegate Account API',
  endpoint: '/account/graphql',
  headers: JSON.stringify({ Authorization: 'Bearer <member access token>' }, null, 2),
  defaultEditorToolsVisibility: 'headers',
  defaultQuery: '{\n  viewer {\n    email\n    name\n    enrolledCourses(first: 5) {\n      nodes { slug expireDate }\n    }\n  }\n}\n',
  inputValueDeprecation: true,
  schemaDescription: true,
  directiveIsRepeatable: true,
};

interface Page {
  html: string;
  csp: string;
}

let page: Promise<Page> | undefined;

/** Renders the page once (≈ 9 MB: the editor is inlined) and derives its CSP. Development-only
 * dependency, imported on first use so production never loads it. */
async function render(): Promise<Page> {
  const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
  const html = renderGraphiQL(GRAPHIQL_OPTIONS as Parameters<typeof renderGraphiQL>[0]);
  const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
  const csp = [
    "default-src 'none'",
    `script-src ${hashes.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self' data:",
    "img-src 'self' data:",
    'worker-src blob:',
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, csp };
}

/** True for a browser opening the URL: GET, wants HTML, no token and no GraphQL query. */
function wantsPage(ctx: Parameters<Middleware>[0]): boolean {
  return ctx.method === 'GET' && !ctx.get('authorization') && !ctx.query['query'] && ctx.accepts(['application/json', 'application/graphql-response+json', 'text/html']) === 'text/html';
}

/** The middleware, mounted before the bearer step on `GET /account/graphql` when not in production. */
export const graphiqlPage: Middleware = async (ctx, next) => {
  if (!wantsPage(ctx)) return next();
  page ??= render();
  const { html, csp } = await page;
  ctx.set('Content-Security-Policy', csp);
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = html;
};
