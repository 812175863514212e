/**
 * Clients stored by coursegate itself (not by dynamic registration): member clients created by an
 * operator (SPEC §5.4 "Member client"). They live in the oidc-provider adapter's `Client` model
 * with `x_client_kind: member` and `x_org_id`.
 */
import type { Adapter } from 'oidc-provider';
import { CLIENT_KIND_PROPERTY, CLIENT_ORG_PROPERTY } from '../domain/client-kinds.js';
import { isLoopbackRedirectUri } from '../http/loopback.js';

/** What an operator picks for a member client. */
export interface MemberClientInput {
  client_id: string;
  client_name: string;
  /** The site (`org_id`) the client belongs to. */
  site: string;
  redirect_uris: string[];
  /** Space-delimited; identity scopes and `account:read` / `account:write` only (DESIGN D2). */
  scope: string;
  /**
   * A confidential client's secret (authenticates with `client_secret_post`; oidc-provider compares
   * it in constant time). Absent: a public client (`none`). PKCE is required either way.
   */
  client_secret?: string;
  /** RFC 9449 §5.2: true when an operator requires DPoP of this app (DESIGN D15); absent = not required. */
  dpop_bound_access_tokens?: boolean;
}

/** The stored client metadata of a member client: public (`none`) or confidential (`client_secret_post`); native when every redirect is loopback (RFC 8252). */
export function memberClientMetadata(input: MemberClientInput): Record<string, unknown> {
  const loopback = input.redirect_uris.every(isLoopbackRedirectUri);
  return {
    client_id: input.client_id,
    client_name: input.client_name,
    redirect_uris: input.redirect_uris,
    application_type: loopback ? 'native' : 'web',
    token_endpoint_auth_method: input.client_secret ? 'client_secret_post' : 'none',
    ...(input.client_secret ? { client_secret: input.client_secret } : {}),
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    scope: input.scope,
    [CLIENT_KIND_PROPERTY]: 'member',
    [CLIENT_ORG_PROPERTY]: input.site,
    ...(input.dpop_bound_access_tokens ? { dpop_bound_access_tokens: true } : {}),
  };
}

/** Stores (creates or replaces) a member client through the provider's adapter. */
export async function saveMemberClient(
  AdapterClass: new (name: string) => Adapter,
  input: MemberClientInput,
): Promise<void> {
  const metadata = memberClientMetadata(input);
  await new AdapterClass('Client').upsert(input.client_id, metadata as never);
}
