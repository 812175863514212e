/**
 * `/openapi.json` (SPEC §4.1): an OpenAPI 3.1 description of the HTTP surface that exists. It grows
 * with the admin API. Built as data so tests can compare it with the live routes.
 */
import type { Config } from '../config.js';
import { ALL_SCOPES, SCOPES } from '../domain/scopes.js';
import { adminPaths, PROBLEM_SCHEMA } from './admin-api/index.js';

const oauthError = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string' }, error_description: { type: 'string' } },
};

/** Builds the OpenAPI document for this deployment's BASE_URL. */
export function openApiDocument(config: Config): Record<string, unknown> {
  const json = (schema: unknown) => ({ 'application/json': { schema } });
  const form = (properties: Record<string, unknown>, required: string[]) => ({
    'application/x-www-form-urlencoded': { schema: { type: 'object', properties, required } },
  });
  const errors = {
    '400': { description: 'RFC 6749 §5.2 error', content: json({ $ref: '#/components/schemas/OAuthError' }) },
    '401': { description: 'invalid_client', content: json({ $ref: '#/components/schemas/OAuthError' }) },
  };
  const bearerErrors = {
    '401': { description: 'invalid_token (WWW-Authenticate carries resource_metadata)' },
    '403': { description: 'insufficient_scope (WWW-Authenticate carries scope)' },
  };
  // The admin API, generated from its operation declarations (DESIGN D9).
  const admin = adminPaths();
  return {
    openapi: '3.1.0',
    info: {
      title: 'coursegate',
      version: '1',
      description: 'OAuth 2.1 / OpenID Connect authorization server and protected APIs of the course platform.',
    },
    externalDocs: { url: config.docsUrl },
    servers: [{ url: config.baseUrl }],
    components: {
      schemas: { OAuthError: oauthError, Problem: PROBLEM_SCHEMA },
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            authorizationCode: {
              authorizationUrl: `${config.baseUrl}/oauth/authorize`,
              tokenUrl: `${config.baseUrl}/api/oauth/token`,
              refreshUrl: `${config.baseUrl}/api/oauth/token`,
              scopes: Object.fromEntries(ALL_SCOPES.map((s) => [s, SCOPES[s]])),
            },
          },
        },
      },
    },
    paths: {
      '/.well-known/openid-configuration': { get: { summary: 'OpenID Connect Discovery', responses: { '200': { description: 'metadata' } } } },
      '/.well-known/oauth-authorization-server': { get: { summary: 'RFC 8414 metadata', responses: { '200': { description: 'metadata' } } } },
      '/.well-known/oauth-protected-resource': { get: { summary: 'RFC 9728 metadata', responses: { '200': { description: 'metadata' } } } },
      '/.well-known/jwks.json': { get: { summary: 'JWKS (ES256 id_token keys)', responses: { '200': { description: 'JWK Set' } } } },
      '/oauth/authorize': {
        get: {
          summary: 'Authorization endpoint (browser redirect); authorization code + PKCE S256',
          parameters: ['response_type', 'client_id', 'redirect_uri', 'scope', 'resource', 'code_challenge', 'code_challenge_method', 'state', 'nonce'].map(
            (name) => ({ name, in: 'query', schema: { type: 'string' } }),
          ),
          responses: { '303': { description: 'redirect to the login page or to redirect_uri with code, state and iss' } },
        },
      },
      '/api/oauth/token': {
        post: {
          summary: 'Token endpoint (authorization_code, refresh_token)',
          requestBody: {
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
              },
              ['grant_type'],
            ),
          },
          responses: { '200': { description: 'token response' }, ...errors },
        },
      },
      '/api/oauth/revoke': {
        post: {
          summary: 'RFC 7009 revocation',
          requestBody: { content: form({ token: { type: 'string' }, client_id: { type: 'string' }, token_type_hint: { type: 'string' } }, ['token']) },
          responses: { '200': { description: 'revoked (or unknown token)' }, ...errors },
        },
      },
      '/api/oauth/introspect': {
        post: {
          summary: 'RFC 7662 introspection',
          requestBody: { content: form({ token: { type: 'string' }, client_id: { type: 'string' } }, ['token']) },
          responses: { '200': { description: 'introspection response (aud shows the resource binding)' }, ...errors },
        },
      },
      '/api/oauth/register': {
        post: {
          summary: 'RFC 7591 client registration',
          requestBody: { content: json({ type: 'object' }) },
          responses: { '201': { description: 'client information' }, '400': errors['400'] },
        },
      },
      '/api/oauth/userinfo': {
        get: { summary: 'UserInfo (SPEC §2.3)', security: [{ oauth2: ['openid'] }], responses: { '200': { description: 'claims' }, ...bearerErrors } },
      },
      '/account/graphql': {
        post: {
          summary: 'Member Account API (GraphQL)',
          security: [{ oauth2: ['account:read'] }],
          requestBody: { content: json({ type: 'object', properties: { query: { type: 'string' }, variables: { type: 'object' } }, required: ['query'] }) },
          responses: { '200': { description: 'GraphQL result' }, ...bearerErrors },
        },
      },
      '/mcp': {
        post: {
          summary: 'MCP tool endpoint (Streamable HTTP, stateless, JSON-RPC 2.0). Anonymous callers get the public tools; a protected tool without its scope answers 401/403 with WWW-Authenticate',
          requestBody: { content: json({ type: 'object', properties: { jsonrpc: { const: '2.0' }, method: { type: 'string' } } }) },
          responses: { '200': { description: 'JSON-RPC response' }, '202': { description: 'notification accepted' }, ...bearerErrors },
        },
      },
      '/.well-known/coursegate-scope-map.json': {
        get: { summary: 'Which scope unlocks which MCP tool, GraphQL field and admin operation (generated from the code)', responses: { '200': { description: 'scope map' } } },
      },
      ...admin,
    },
  };
}
