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
 *
 * Issue 30 item 11: the page (≈ 9 MB) is compressed once at first use (Node's zlib: brotli and
 * gzip, chosen by `Accept-Encoding`, ≈ 2 MB / 2.4 MB), sent with a strong ETag and
 * `Cache-Control: no-cache` (revalidated: a 304 when unchanged), has a viewport meta, and its
 * opening query starts with comments that say where a member access token comes from (without
 * one the API answers 401 and the editor shows no schema).
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { Middleware } from 'koa';

/** The comment lines above the opening query: where a token comes from (docs/account-api.md). */
export const GRAPHIQL_HINT =
  '# coursegate Account API. No schema in the explorer yet? It needs a member access token:\n' +
  '# 1. get one with any OAuth 2.1 client (authorization code + PKCE, scope account:read,\n' +
  '#    resource = this server), e.g. `npx tsx examples/cli-login.ts` (docs: /docs/account-api.md);\n' +
  '# 2. open the Headers tab below and replace <member access token> with it, then run this query.\n';

const GRAPHIQL_OPTIONS = {
  title: 'coursegate Account API',
  endpoint: '/account/graphql',
  headers: JSON.stringify({ Authorization: 'Bearer <member access token>' }, null, 2),
  defaultEditorToolsVisibility: 'headers',
  defaultQuery:
    GRAPHIQL_HINT +
    '{\n  viewer {\n    email\n    name\n    enrolledCourses(first: 5) {\n      nodes { slug expireDate }\n    }\n  }\n}\n',
  inputValueDeprecation: true,
  schemaDescription: true,
  directiveIsRepeatable: true,
};

interface Page {
  html: string;
  csp: string;
  /** Strong validator of the uncompressed page (RFC 9110 §8.8.3), quoted. */
  etag: string;
  br: Buffer;
  gzip: Buffer;
}

let page: Promise<Page> | undefined;

/** Renders the page once (≈ 9 MB: the editor is inlined) and derives its CSP. Development-only
 * dependency, imported on first use so production never loads it. */
async function render(): Promise<Page> {
  const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
  const html = renderGraphiQL(GRAPHIQL_OPTIONS as Parameters<typeof renderGraphiQL>[0]).replace(
    '<meta charset="utf-8" />',
    '<meta charset="utf-8" />\n      <meta name="viewport" content="width=device-width, initial-scale=1" />',
  );
  const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`,
  );
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
  const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
  const [br, gz] = await Promise.all([
    promisify(brotliCompress)(html, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: html.length },
    }),
    promisify(gzip)(html, { level: 9 }),
  ]);
  return { html, csp, etag, br, gzip: gz };
}

/** True for a browser opening the URL: GET, wants HTML, no token and no GraphQL query. */
function wantsPage(ctx: Parameters<Middleware>[0]): boolean {
  return (
    ctx.method === 'GET' &&
    !ctx.get('authorization') &&
    !ctx.query.query &&
    ctx.accepts(['application/json', 'application/graphql-response+json', 'text/html']) === 'text/html'
  );
}

/** The middleware, mounted before the bearer step on `GET /account/graphql` when not in production. */
export const graphiqlPage: Middleware = async (ctx, next) => {
  if (!wantsPage(ctx)) return next();
  page ??= render();
  const { html, csp, etag, br, gzip: gz } = await page;
  ctx.set('Content-Security-Policy', csp);
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('ETag', etag);
  ctx.vary('Accept-Encoding');
  ctx.type = 'text/html; charset=utf-8';
  ctx.status = 200; // ctx.fresh compares validators only for a 2xx answer
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  // Brotli whenever accepted (browsers list it after gzip at the same weight), else gzip.
  const encoding = ctx.acceptsEncodings('br') === 'br' ? 'br' : ctx.acceptsEncodings('gzip', 'identity');
  if (encoding === 'br' || encoding === 'gzip') {
    ctx.set('Content-Encoding', encoding);
    ctx.body = encoding === 'br' ? br : gz;
  } else {
    ctx.body = html;
  }
};
