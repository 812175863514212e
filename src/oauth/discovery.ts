/**
 * RFC 9728 Protected Resource Metadata (SPEC §4.1, DESIGN D4), served at
 * `/.well-known/oauth-protected-resource` and at the path-suffixed form for `/mcp`
 * (`/.well-known/oauth-protected-resource/mcp`, RFC 9728 §3.1) with the same `resource`:
 * both surfaces share one resource identifier, BASE_URL.
 *
 * `scopes_supported` is the minimal set every client kind may request, the identity scopes
 * (DESIGN D2, D4; issue #26): an MCP client that has no challenge `scope` asks for exactly these
 * (MCP 2025-11-25 authorization, "scope selection": "the minimal set of scopes necessary for basic
 * functionality"), which cannot fail with `invalid_scope`, and steps up per tool from the 401/403
 * challenges. The authorization server metadata lists every scope (SPEC §4.1).
 */
import type { Config } from '../config.js';
import { IDENTITY_SCOPES } from '../domain/scopes.js';

/** The metadata document (RFC 9728 §2). */
export function protectedResourceMetadata(config: Config): Record<string, unknown> {
  return {
    resource: config.baseUrl,
    authorization_servers: [config.baseUrl],
    scopes_supported: [...IDENTITY_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'coursegate',
    resource_documentation: config.docsUrl,
  };
}
