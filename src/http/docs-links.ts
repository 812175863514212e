/**
 * Links from error descriptions into the developer docs (issue #12: descriptions are written for
 * integrators, who cannot read SPEC.md section numbers).
 *
 * `DOCS_URL` (config `docs_url`) is where the developer docs live; by default
 * `<BASE_URL>/docs`, where this server publishes the Markdown pages of `docs/` itself
 * (`docsPagesRouter`), so every link works on every installation. Anchors follow GitHub's heading
 * slugs, so a DOCS_URL pointing at the repository's `docs/` folder works the same.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Router from '@koa/router';

/** Topic → page (and anchor) under DOCS_URL. */
export const DOC_TOPICS = {
  /** Open registration rules, CIMD, vendor platforms. */
  registration: 'client-registration.md',
  /** Client ID Metadata Documents. */
  cimd: 'client-registration.md#4-client-id-metadata-document-cimd',
  /** Which client kind may request which scope; step-up. */
  scopes: 'client-registration.md#scopes-your-client-may-request',
  /** Member data (`account:*`) needs the site's member client. */
  memberAccess: 'mcp.md#member-access-needs-the-sites-member-client',
  /** `resource` (RFC 8707) and token binding. */
  resource: 'client-developer-guide.md#3-authorize-code--pkce-s256',
  /** The Account API's scopes and 401/403. */
  accountApi: 'account-api.md#scopes-and-http-errors',
  /** 401/403 challenges and what to do next. */
  challenges: 'mcp.md#authorization-and-step-up',
} as const;

export type DocTopic = keyof typeof DOC_TOPICS;

/** The absolute URL of a docs topic, e.g. `https://auth.example.com/docs/mcp.md#…`. */
export function docsLink(docsUrl: string, topic: DocTopic): string {
  return `${docsUrl.replace(/\/+$/, '')}/${DOC_TOPICS[topic]}`;
}

/** `description` followed by " (see <link>)": the form every integrator-facing description takes. */
export function withDocs(description: string, docsUrl: string, topic: DocTopic): string {
  return `${description} (see ${docsLink(docsUrl, topic)})`;
}

/** The Markdown pages published under `/docs/` (the developer docs error descriptions link to). */
const PAGES = new Set(['admin-api.md', 'client-developer-guide.md', 'client-registration.md', 'mcp.md', 'account-api.md', 'security.md', 'operator-guide.md', 'operator-integrations.md']);

/** The repo's `docs/`, from `src/http/` (tsx) or `dist/src/http/` (built image). */
function defaultDocsDir(): string {
  const here = path.dirname(new URL(import.meta.url).pathname);
  const candidates = [path.resolve(here, '../../docs'), path.resolve(here, '../../../docs')];
  return candidates.find((dir) => existsSync(path.join(dir, 'mcp.md'))) ?? candidates[0]!;
}

/**
 * `GET /docs/<page>.md`: the developer docs as `text/markdown`, read from `docsDir` (the repo's
 * `docs/`). Only the pages of `PAGES`; anything else falls through (404).
 */
export function docsPagesRouter(docsDir = defaultDocsDir()): Router {
  const router = new Router();
  router.get('/docs/:page', async (ctx, next) => {
    const page = ctx.params.page ?? '';
    if (!PAGES.has(page)) return next();
    const text = await readFile(path.join(docsDir, page), 'utf8').catch(() => undefined);
    if (text === undefined) return next();
    ctx.type = 'text/markdown; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.body = text;
  });
  router.get('/docs', (ctx) => {
    ctx.redirect('/docs/client-developer-guide.md');
  });
  return router;
}
