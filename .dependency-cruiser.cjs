/**
 * The layer rules of docs/ARCHITECTURE.md "Layers", checked by test/unit/layers.test.ts
 * (`npm run layers` prints the same verdict).
 *
 * Every import counts, type-only ones too (`tsPreCompilationDeps`): a layer that names another
 * layer's types depends on it. Add a rule here before relaxing one in the docs.
 */
const layer = (name) => `^src/${name}/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'the-composition-root-is-on-top',
      comment: 'src/app.ts, src/compose.ts and src/pipelines/ assemble the layers; no layer below imports them.',
      severity: 'error',
      from: { path: '^src/(platform|domain|http|errors|oauth|resource|interaction|operator|ops|store)/' },
      to: { path: '^src/pipelines/|^src/(app|compose|server|main)\\.ts$' },
    },
    {
      name: 'platform-knows-no-protocol',
      comment: 'src/platform is the course domain: no HTTP, no OAuth, no pages, no resource servers.',
      severity: 'error',
      from: { path: layer('platform') },
      to: { path: '^src/', pathNot: layer('platform') },
    },
    {
      name: 'domain-is-neutral',
      comment: 'src/domain is the vocabulary both sides speak (scopes, client kinds, claims, service contracts): it may use src/platform, nothing else.',
      severity: 'error',
      from: { path: layer('domain') },
      to: { path: '^src/(http|oauth|resource|interaction|operator|ops|store|cli)/|^src/(app|server|main|config)\\.ts$' },
    },
    {
      name: 'http-is-below-the-servers',
      comment: 'src/http is the HTTP toolkit every surface uses (route table, errors, challenge(), limits): it imports no server.',
      severity: 'error',
      from: { path: layer('http') },
      to: { path: '^src/(oauth|resource|interaction|operator)/' },
    },
    {
      name: 'errors-are-below-the-servers',
      comment: 'src/errors is the error catalogue and the surface mappers every server uses: it imports no server (the HTML page layout of src/interaction/templates.ts aside).',
      severity: 'error',
      from: { path: layer('errors') },
      to: { path: '^src/(oauth|resource|operator)/|^src/interaction/(?!templates\\.ts$)' },
    },
    {
      name: 'resource-servers-do-not-import-the-authorization-server',
      comment: 'src/resource talks to the authorization server only through tokens and the contracts of src/domain.',
      severity: 'error',
      from: { path: layer('resource') },
      to: { path: '^src/(oauth|interaction|operator)/' },
    },
    {
      name: 'authorization-server-does-not-import-resource-servers',
      comment: 'src/oauth does not depend on the protected resources (UserInfo is one: src/resource/userinfo.ts).',
      severity: 'error',
      from: { path: layer('oauth') },
      to: { path: '^src/(resource|operator)/' },
    },
    {
      name: 'interaction-pages-do-not-import-the-authorization-server',
      comment: 'src/interaction gets what it needs from the provider object and the contracts it declares (e.g. SiteChoiceRecorder).',
      severity: 'error',
      from: { path: layer('interaction') },
      to: { path: '^src/(oauth|resource|operator)/' },
    },
    {
      name: 'operations-import-no-server',
      comment: 'src/operations is the application layer of the operator side (issue #27): declarations, the runner, paging. It uses src/platform and src/domain and imports no server: no Koa, no MCP SDK, no oidc-provider, no surface of src/.',
      severity: 'error',
      from: { path: layer('operations') },
      to: {
        path: '^src/(oauth|resource|interaction|operator|pipelines|ops|store|cli)/|^src/(app|compose|server|main)\\.ts$|(^|/)node_modules/(koa|@koa/|koa-|@modelcontextprotocol/|oidc-provider|graphql-yoga)|^(koa|@koa/|koa-|@modelcontextprotocol/|oidc-provider|graphql-yoga)',
      },
    },
    {
      name: 'the-engine-seam-stands-alone',
      comment: 'src/engine/oidc-provider.ts is the one place that relies on oidc-provider internals (issue #27): it imports nothing of src/, so every layer above src/domain may use it.',
      severity: 'error',
      from: { path: layer('engine') },
      to: { path: '^src/', pathNot: layer('engine') },
    },
    {
      name: 'operator-area-writes-through-operations',
      comment: 'src/operator (the /admin pages) changes nothing through a platform service directly: every operator action runs through src/operations/runner.ts (issue #27). Pages may read through the services object the operations layer hands them.',
      severity: 'error',
      from: { path: '^src/operator/admin-' },
      to: {
        path: '^src/platform/(sites|invitations|memberships|digital-products|content|lecturers|files|comments|forms|idempotency|versions|connected-grants)\\.ts$|^src/platform/operator/(?!analytics\\.ts$)|^src/oauth/(member-clients|connections)\\.ts$',
      },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    reporterOptions: { text: { highlightFocused: false } },
  },
};
