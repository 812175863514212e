/**
 * Links from error descriptions into the developer docs (issue #12: descriptions are written for
 * integrators, who cannot read SPEC.md section numbers).
 *
 * `DOCS_URL` (config `docs_url`) is where the developer docs live; by default
 * `<BASE_URL>/docs`, where this server publishes the pages of `docs/` itself, rendered as HTML
 * (`docsPagesRouter`, src/interaction/docs-pages.ts), so every link works on every installation. Anchors follow GitHub's heading
 * slugs, so a DOCS_URL pointing at the repository's `docs/` folder works the same.
 */

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
  /** Errors of the token endpoint and the resource servers (UserInfo's challenges among them). */
  errors: 'client-developer-guide.md#7-errors',
  /** The admin API's authentication, scopes and 401/403. */
  adminApi: 'admin-api.md#authentication',
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
