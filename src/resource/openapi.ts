/**
 * `/openapi.json` (SPEC §4.1): an OpenAPI 3.1 description of the HTTP surface that exists. It grows
 * with the admin API. Built as data so tests can compare it with the live routes.
 *
 * Every operation carries an `operationId`, declared `tags`, a `description`, at least one 4XX
 * response and `security` (issue #26): the `oauth2` scheme (authorization code + PKCE S256, SPEC
 * §2.1) with the scopes it needs (SPEC §2.5), `[]` where no token is involved, and `/mcp` lists
 * the empty requirement first because anonymous callers are served (SPEC §4.3). Redocly and
 * Spectral (their recommended rulesets, `redocly.yaml`, `.spectral.yaml`) lint the served document
 * in test/unit/openapi-lint.test.ts.
 */
import type { Config } from '../config.js';
import { ALL_SCOPES, SCOPES } from '../domain/scopes.js';
import { adminPaths, PROBLEM_SCHEMA } from './admin-api/index.js';
import { TOOLS } from './mcp/tools/registry.js';

type Json = Record<string, unknown>;

/** The name of the OAuth 2 security scheme in `components.securitySchemes`. */
export const OAUTH2_SCHEME = 'oauth2';

const oauthError = {
  type: 'object',
  description:
    'Error response of RFC 6749 §5.2 (also RFC 6750 §3 for bearer errors and RFC 7591 §3.2.2 for registration).',
  required: ['error'],
  properties: { error: { type: 'string' }, error_description: { type: 'string' } },
};

/** Tags of the operations outside the admin API, with their descriptions (declared in `tags`). */
const FIXED_TAGS: Record<string, string> = {
  discovery:
    'Metadata documents: OpenID Connect Discovery 1.0, RFC 8414 authorization server metadata, RFC 9728 protected resource metadata, the JWK Set and the scope map.',
  oauth:
    'OAuth 2.1 / OpenID Connect endpoints: authorization (code + PKCE S256), token, revocation (RFC 7009), introspection (RFC 7662), dynamic client registration (RFC 7591), UserInfo and RP-initiated logout.',
  account:
    "Member Account API (GraphQL): the signed-in member's own enrollments, progress, orders and event registrations.",
  mcp: 'Model Context Protocol tool endpoint (Streamable HTTP, stateless). Public tools need no token; each protected tool needs its scope.',
};

/**
 * Description of an admin tag (the scope family, e.g. `courses`): the scopes of that family with
 * their consent-page wording, so the tag tells which token reaches it.
 */
function adminTagDescription(tag: string): string {
  const scopes = ALL_SCOPES.filter((s) => s.startsWith(`${tag}:`));
  if (scopes.length === 0) return `Admin API operations on ${tag.replace(/_/g, ' ')} of your site.`;
  return `Admin API operations on ${tag.replace(/_/g, ' ')} of your site. Scopes: ${scopes.map((s) => `\`${s}\` (${SCOPES[s]})`).join(', ')}.`;
}

/**
 * Completes the generated admin operations for the document: a `description` where the declaration
 * has none (its summary, the scope and operator role it needs and its MCP tool). The declarations
 * (src/operations) stay the single source; this only adds prose.
 */
function describeAdminOperations(paths: Record<string, Json>): Record<string, Json> {
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item) as Json[]) {
      if (typeof op.description === 'string' && op.description.trim()) continue;
      const scopes = ((op.security as Array<Record<string, string[]>> | undefined) ?? []).flatMap(
        (r) => r[OAUTH2_SCHEME] ?? [],
      );
      const summary = String(op.summary ?? '').replace(/\.?$/, '.');
      const needs = scopes.length
        ? ` Needs an access token of an operator of the site (owner or admin role) with ${scopes.map((s) => `\`${s}\``).join(' and ')}.`
        : '';
      const tool = typeof op['x-mcp-tool'] === 'string' ? ` Also offered as the MCP tool \`${op['x-mcp-tool']}\`.` : '';
      op.description = `${summary}${needs}${tool}`;
    }
  }
  return paths;
}

/** `/mcp` security: anonymous (public tools) or a token with the scope of any protected tool (SPEC §4.3). */
function mcpSecurity(): Array<Record<string, string[]>> {
  const seen = new Set<string>();
  const out: Array<Record<string, string[]>> = [{}];
  for (const tool of TOOLS) {
    const scopes = [...tool.scopes].sort();
    const key = scopes.join(' ');
    if (!scopes.length || seen.has(key)) continue;
    seen.add(key);
    out.push({ [OAUTH2_SCHEME]: scopes });
  }
  return out;
}

/** Every tag an operation of `paths` uses, declared with its description (fixed tags first). */
function declaredTags(paths: Record<string, Json>): Array<{ name: string; description: string }> {
  const used = new Set<string>();
  for (const item of Object.values(paths))
    for (const op of Object.values(item) as Json[])
      for (const t of (op.tags as string[] | undefined) ?? []) used.add(t);
  const fixed = Object.keys(FIXED_TAGS).filter((t) => used.has(t));
  const admin = [...used].filter((t) => !(t in FIXED_TAGS));
  return [
    ...fixed.map((name) => ({ name, description: FIXED_TAGS[name]! })),
    ...admin.map((name) => ({ name, description: adminTagDescription(name) })),
  ];
}

/**
 * Builds the OpenAPI document for this deployment's BASE_URL (`servers[0]`, the OAuth URLs of the
 * security scheme) and DOCS_URL (`externalDocs`, `info.contact`).
 */
export function openApiDocument(config: Config): Record<string, unknown> {
  const base = config.baseUrl;
  const json = (schema: unknown) => ({ 'application/json': { schema } });
  const form = (properties: Record<string, unknown>, required: string[]) => ({
    'application/x-www-form-urlencoded': { schema: { type: 'object', properties, required } },
  });
  const oauthErrorBody = json({ $ref: '#/components/schemas/OAuthError' });
  const tooMany = {
    description: 'too_many_requests: rate limit reached (Retry-After says when to retry)',
    content: oauthErrorBody,
  };
  const clientErrors = {
    '400': {
      description:
        'RFC 6749 §5.2 error (invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, invalid_target…)',
      content: oauthErrorBody,
    },
    '401': { description: 'invalid_client: client authentication failed', content: oauthErrorBody },
    '429': tooMany,
  };
  const bearerErrors = {
    '401': {
      description: 'invalid_token (WWW-Authenticate carries resource_metadata and the scope to ask for)',
      content: oauthErrorBody,
    },
    '403': {
      description: 'insufficient_scope (WWW-Authenticate carries the scope to step up to)',
      content: oauthErrorBody,
    },
  };
  const unavailable = {
    '503': {
      description: 'temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry)',
      content: oauthErrorBody,
    },
  };
  const metadata = (schemaDescription: string) => ({
    description: schemaDescription,
    content: json({ type: 'object' }),
  });
  /** Client authentication at the token, revocation and introspection endpoints (SPEC §2.1). */
  const clientAuthNote =
    ' Clients authenticate in the form body (RFC 6749 §2.3.1): a confidential client sends `client_id` and `client_secret` (`client_secret_post`), a public client sends `client_id` alone; no HTTP security scheme applies.';

  const admin = describeAdminOperations(adminPaths());
  const paths: Record<string, Json> = {
    '/.well-known/openid-configuration': {
      get: {
        operationId: 'getOpenIdConfiguration',
        tags: ['discovery'],
        summary: 'OpenID Connect Discovery',
        description:
          'OpenID Provider metadata (OpenID Connect Discovery 1.0 §4): endpoints, supported scopes, grant types and algorithms.',
        security: [],
        responses: { '200': metadata('OpenID Provider metadata') },
      },
    },
    '/.well-known/oauth-authorization-server': {
      get: {
        operationId: 'getAuthorizationServerMetadata',
        tags: ['discovery'],
        summary: 'RFC 8414 metadata',
        description: 'OAuth 2.0 authorization server metadata (RFC 8414 §3); lists every scope the server knows.',
        security: [],
        responses: { '200': metadata('authorization server metadata') },
      },
    },
    '/.well-known/oauth-protected-resource': {
      get: {
        operationId: 'getProtectedResourceMetadata',
        tags: ['discovery'],
        summary: 'RFC 9728 metadata',
        description:
          'OAuth 2.0 protected resource metadata (RFC 9728 §3) of this resource (`/mcp`, `/account/graphql`, `/api/v1`): its authorization server and the scopes a client may ask for.',
        security: [],
        responses: { '200': metadata('protected resource metadata') },
      },
    },
    '/.well-known/jwks.json': {
      get: {
        operationId: 'getJwks',
        tags: ['discovery'],
        summary: 'JWKS (ES256 id_token keys)',
        description:
          'The public keys that sign ID tokens and JWT responses (RFC 7517 JWK Set), including the next key during a rotation.',
        security: [],
        responses: {
          '200': {
            description: 'JWK Set',
            content: {
              'application/jwk-set+json': { schema: { type: 'object' } },
              'application/json': { schema: { type: 'object' } },
            },
          },
        },
      },
    },
    '/.well-known/coursegate-scope-map.json': {
      get: {
        operationId: 'getScopeMap',
        tags: ['discovery'],
        summary: 'Which scope unlocks which MCP tool, GraphQL field and admin operation (generated from the code)',
        description:
          'The scope map: for every scope, its audience, the scopes it implies (`X:write` implies `X:read`) and the MCP tools, Account API fields and admin operations it unlocks (see the MCP guide).',
        security: [],
        responses: { '200': metadata('scope map') },
      },
    },
    '/oauth/authorize': {
      get: {
        operationId: 'authorize',
        tags: ['oauth'],
        summary: 'Authorization endpoint (browser redirect); authorization code + PKCE S256',
        description:
          'Starts sign-in and consent in the browser (RFC 6749 §4.1, OAuth 2.1). `code_challenge` with `code_challenge_method=S256` is required (RFC 7636); `resource` names this server (RFC 8707). The answer is a redirect; errors about the client or redirect URI are shown as a page, others are sent to the redirect URI.',
        security: [],
        parameters: (
          [
            ['response_type', true, 'Always `code`.'],
            ['client_id', true, 'The client identifier (a registered id or a client ID metadata document URL).'],
            ['redirect_uri', false, 'One of the client’s registered redirect URIs.'],
            ['scope', false, 'Space-delimited scopes (RFC 6749 §3.3); defaults to the client’s default scope set.'],
            ['resource', false, 'The protected resource the token is for (RFC 8707).'],
            ['code_challenge', true, 'PKCE code challenge (RFC 7636 §4.2).'],
            ['code_challenge_method', true, 'Always `S256`.'],
            ['state', false, 'Opaque value returned to the client.'],
            ['nonce', false, 'OpenID Connect nonce, copied into the ID token.'],
          ] as const
        ).map(([name, required, description]) => ({
          name,
          in: 'query',
          required,
          description,
          schema: { type: 'string' },
        })),
        responses: {
          '200': {
            description: 'response_mode=form_post: a page that posts code, state and iss to redirect_uri',
            content: { 'text/html': { schema: { type: 'string' } } },
          },
          '303': {
            description:
              'redirect to the sign-in page or to redirect_uri with code, state and iss (RFC 9207), or with error',
          },
          '400': {
            description: 'invalid client_id or redirect_uri: an error page, no redirect (RFC 6749 §4.1.2.1)',
            content: { 'text/html': { schema: { type: 'string' } } },
          },
        },
      },
    },
    '/api/oauth/token': {
      post: {
        operationId: 'token',
        tags: ['oauth'],
        summary: 'Token endpoint (authorization_code, refresh_token)',
        description: `Exchanges an authorization code (with its PKCE \`code_verifier\`) or a refresh token for tokens (RFC 6749 §4.1.3, §6). Refresh tokens rotate on use.${clientAuthNote}`,
        security: [],
        requestBody: {
          required: true,
          content: form(
            {
              grant_type: { enum: ['authorization_code', 'refresh_token'] },
              code: { type: 'string' },
              redirect_uri: { type: 'string' },
              client_id: { type: 'string' },
              client_secret: { type: 'string' },
              code_verifier: { type: 'string' },
              refresh_token: { type: 'string' },
              resource: { type: 'string' },
              scope: { type: 'string' },
            },
            ['grant_type'],
          ),
        },
        responses: {
          '200': { description: 'token response (RFC 6749 §5.1)', content: json({ type: 'object' }) },
          ...clientErrors,
          ...unavailable,
        },
      },
    },
    '/api/oauth/revoke': {
      post: {
        operationId: 'revokeToken',
        tags: ['oauth'],
        summary: 'RFC 7009 revocation',
        description: `Revokes an access or refresh token issued to the calling client (RFC 7009 §2); an unknown token is not an error.${clientAuthNote}`,
        security: [],
        requestBody: {
          required: true,
          content: form(
            {
              token: { type: 'string' },
              client_id: { type: 'string' },
              client_secret: { type: 'string' },
              token_type_hint: { type: 'string' },
            },
            ['token'],
          ),
        },
        responses: { '200': { description: 'revoked (or unknown token)' }, ...clientErrors, ...unavailable },
      },
    },
    '/api/oauth/introspect': {
      post: {
        operationId: 'introspectToken',
        tags: ['oauth'],
        summary: 'RFC 7662 introspection',
        description: `Tells whether a token issued to the calling client is active, with its scope, audience and expiry (RFC 7662 §2).${clientAuthNote}`,
        security: [],
        requestBody: {
          required: true,
          content: form(
            {
              token: { type: 'string' },
              client_id: { type: 'string' },
              client_secret: { type: 'string' },
              token_type_hint: { type: 'string' },
            },
            ['token'],
          ),
        },
        responses: {
          '200': {
            description: 'introspection response (aud shows the resource binding)',
            content: json({ type: 'object' }),
          },
          ...clientErrors,
          ...unavailable,
        },
      },
    },
    '/api/oauth/register': {
      post: {
        operationId: 'registerClient',
        tags: ['oauth'],
        summary: 'RFC 7591 client registration',
        description:
          'Open dynamic client registration (RFC 7591 §3): no initial access token. An absent `token_endpoint_auth_method` registers a public client (`none`); each client kind may ask for its own scopes only (see the client registration guide).',
        security: [],
        requestBody: {
          required: true,
          content: json({ type: 'object', description: 'client metadata (RFC 7591 §2)' }),
        },
        responses: {
          '201': { description: 'client information (RFC 7591 §3.2.1)', content: json({ type: 'object' }) },
          '400': {
            description: 'invalid_client_metadata or invalid_redirect_uri (RFC 7591 §3.2.2)',
            content: oauthErrorBody,
          },
          '429': tooMany,
          ...unavailable,
        },
      },
    },
    '/api/oauth/userinfo': {
      get: {
        operationId: 'getUserInfo',
        tags: ['oauth'],
        summary: 'UserInfo (OpenID Connect Core §5.3)',
        description:
          'Claims about the signed-in person (OpenID Connect Core §5.3): `sub`, plus `name` with `profile` and `email` with `email`. Accepts the same resource-bound access token as the APIs.',
        security: [{ [OAUTH2_SCHEME]: ['openid'] }],
        responses: {
          '200': { description: 'claims', content: json({ type: 'object' }) },
          ...bearerErrors,
          ...unavailable,
        },
      },
    },
    '/api/oauth/logout': {
      get: {
        operationId: 'endSession',
        tags: ['oauth'],
        summary: 'RP-initiated logout (end_session_endpoint)',
        description:
          'Signs the person out in the browser (OpenID Connect RP-Initiated Logout 1.0) after a confirmation page; `post_logout_redirect_uri` must be registered by the client.',
        security: [],
        parameters: ['id_token_hint', 'client_id', 'post_logout_redirect_uri', 'state'].map((name) => ({
          name,
          in: 'query',
          required: false,
          schema: { type: 'string' },
        })),
        responses: {
          '200': {
            description: 'the logout confirmation page',
            content: { 'text/html': { schema: { type: 'string' } } },
          },
          '400': {
            description:
              'invalid_request or invalid_client (e.g. an unregistered post_logout_redirect_uri): JSON, or an error page for a browser',
            content: { ...oauthErrorBody, 'text/html': { schema: { type: 'string' } } },
          },
        },
      },
    },
    '/account/graphql': {
      post: {
        operationId: 'accountGraphql',
        tags: ['account'],
        summary: 'Member Account API (GraphQL)',
        description:
          'GraphQL over HTTP for the member’s own data: queries need `account:read`, mutations `account:write` (see the Account API guide and `/account/graphql/schema.graphql`).',
        security: [{ [OAUTH2_SCHEME]: ['account:read'] }],
        requestBody: {
          required: true,
          content: json({
            type: 'object',
            properties: { query: { type: 'string' }, variables: { type: 'object' }, operationName: { type: 'string' } },
            required: ['query'],
          }),
        },
        responses: {
          '200': { description: 'GraphQL result', content: json({ type: 'object' }) },
          '400': {
            description: 'not a GraphQL-over-HTTP request (e.g. no `query`)',
            content: json({ type: 'object' }),
          },
          ...bearerErrors,
          ...unavailable,
        },
      },
    },
    '/mcp': {
      post: {
        operationId: 'mcp',
        tags: ['mcp'],
        summary: 'MCP tool endpoint (Streamable HTTP, stateless, JSON-RPC 2.0)',
        description:
          'Anonymous callers are served: no token is fine for `initialize`, `tools/list` and the public tools. A protected tool called without its scope answers 401 `invalid_token` or 403 `insufficient_scope` with `WWW-Authenticate` naming `resource_metadata` and the scope. `security` lists the anonymous requirement and the scope of each protected tool (any one of them). GET and DELETE answer 405 (no sessions, no server-initiated stream).',
        security: mcpSecurity(),
        requestBody: {
          required: true,
          content: json({ type: 'object', properties: { jsonrpc: { const: '2.0' }, method: { type: 'string' } } }),
        },
        responses: {
          '200': { description: 'JSON-RPC response', content: json({ type: 'object' }) },
          '202': { description: 'notification accepted' },
          '400': {
            description: 'not a valid JSON-RPC request (a JSON-RPC error object)',
            content: json({ type: 'object' }),
          },
          ...bearerErrors,
          ...unavailable,
        },
      },
    },
    ...admin,
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'coursegate',
      version: '1',
      description: 'OAuth 2.1 / OpenID Connect authorization server and protected APIs of the course platform.',
      contact: { name: 'coursegate documentation', url: config.docsUrl },
    },
    externalDocs: { description: 'Guides for client developers and operators', url: config.docsUrl },
    servers: [{ url: base, description: 'This deployment (BASE_URL)' }],
    tags: declaredTags(paths),
    components: {
      schemas: { OAuthError: oauthError, Problem: PROBLEM_SCHEMA },
      securitySchemes: {
        [OAUTH2_SCHEME]: {
          type: 'oauth2',
          description:
            'OAuth 2.1 authorization code flow. PKCE with `S256` is required (RFC 7636); send `resource` with this server’s URL (RFC 8707). Clients register dynamically (RFC 7591) or use a client ID metadata document. Access tokens are sent as `Authorization: Bearer` (RFC 6750).',
          flows: {
            authorizationCode: {
              authorizationUrl: `${base}/oauth/authorize`,
              tokenUrl: `${base}/api/oauth/token`,
              refreshUrl: `${base}/api/oauth/token`,
              scopes: Object.fromEntries(ALL_SCOPES.map((s) => [s, SCOPES[s]])),
            },
          },
        },
      },
    },
    paths,
  };
}
