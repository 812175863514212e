/**
 * RFC 9728 Protected Resource Metadata (SPEC §4.1, DESIGN D4), served at
 * `/.well-known/oauth-protected-resource` and at the path-suffixed form for `/mcp`
 * (`/.well-known/oauth-protected-resource/mcp`, RFC 9728 §3.1) with the same `resource`:
 * both surfaces share one resource identifier, BASE_URL.
 */
import type { Config } from '../config.js';
import { RESOURCE_SCOPES, IDENTITY_SCOPES } from '../domain/scopes.js';

/** The metadata document (RFC 9728 §2). */
export function protectedResourceMetadata(config: Config): Record<string, unknown> {
  return {
    resource: config.baseUrl,
    authorization_servers: [config.baseUrl],
    scopes_supported: [...IDENTITY_SCOPES, ...RESOURCE_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'coursegate',
    resource_documentation: config.docsUrl,
  };
}
