/**
 * A headless `OAuthClientProvider` for the MCP SDK client (research §2): the "browser" is
 * `completeAuthorization`, which logs in, picks the site, approves consent and returns the
 * redirect URL; nothing listens on the redirect URI. It checks `state` and RFC 9207 `iss`, which
 * the SDK does not.
 */
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { randomUUID } from 'node:crypto';
import { completeAuthorization, type UserAgentOptions } from './user-agent.js';

export interface HeadlessProviderOptions {
  /** The person who signs in. */
  user: UserAgentOptions;
  /** The issuer the callback's `iss` must equal. */
  issuer: string;
  redirectUrl?: string;
  /** Pre-registered client (no DCR), e.g. `{ client_id: 'demo-member-cli' }`. */
  clientInformation?: OAuthClientInformationMixed;
  clientName?: string;
  /** A Client ID Metadata Document URL: the SDK uses it as `client_id` when the server supports CIMD. */
  clientMetadataUrl?: string;
  /**
   * Step up by re-authorizing, as the MCP authorization spec intends and mcp-remote 0.15 (SDK 2's
   * `_stepUpAuthorize`) does: after a 403 `insufficient_scope` (seen through `fetch`), `tokens()`
   * hides the refresh token until new tokens are saved, so the SDK 1.32 `auth()` starts an
   * authorization with the challenge's scope instead of refreshing the old one (docs/mcp.md).
   */
  stepUpByReauthorization?: boolean;
}

export class HeadlessOAuthProvider implements OAuthClientProvider {
  private client: OAuthClientInformationMixed | undefined;
  private savedTokens: OAuthTokens | undefined;
  private verifier = '';
  private expectedState = '';
  /** The last callback URL (code, state, iss), set by `redirectToAuthorization`. */
  callback: URL | undefined;
  /** Every authorization URL the SDK sent the "browser" to. */
  readonly authorizationUrls: URL[] = [];
  /** How many times the SDK registered a client (DCR) through this provider. */
  registrations = 0;
  /** Set by `fetch` on a 403 insufficient_scope, cleared when new tokens are saved. */
  private stepUpPending = false;
  /** The `WWW-Authenticate` headers of every 401/403 the transport saw through `fetch`. */
  readonly challenges: string[] = [];

  /** A fetch for the transport (`{ fetch: provider.fetch }`) that watches for 401/403 challenges. */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const res = await fetch(input, init);
    const header = res.headers.get('www-authenticate');
    if ((res.status === 401 || res.status === 403) && header) {
      this.challenges.push(header);
      if (res.status === 403 && header.includes('insufficient_scope') && this.options.stepUpByReauthorization)
        this.stepUpPending = true;
    }
    return res;
  };

  constructor(private readonly options: HeadlessProviderOptions) {
    this.client = options.clientInformation;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.options.redirectUrl ?? 'http://127.0.0.1:53682/callback';
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.options.clientName ?? 'MCP SDK headless test client',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    } as OAuthClientMetadata;
  }

  state(): string {
    this.expectedState = randomUUID();
    return this.expectedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    if (!this.client || this.client.client_id !== info.client_id) this.registrations++;
    this.client = info;
  }

  tokens(): OAuthTokens | undefined {
    if (this.stepUpPending && this.savedTokens) return { ...this.savedTokens, refresh_token: undefined };
    return this.savedTokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.savedTokens = tokens;
    this.stepUpPending = false;
  }

  /** Called by the SDK's `auth()` after `invalid_grant` (tokens) or `invalid_client` (all). */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.savedTokens = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
  }

  /**
   * Forgets the refresh token. The SDK (1.32) answers a 403 `insufficient_scope` by refreshing
   * when it holds a refresh token (same scopes, so the step-up fails); without one it re-authorizes
   * with the challenge's scopes, as the MCP authorization spec intends.
   */
  dropRefreshToken(): void {
    if (this.savedTokens) this.savedTokens = { ...this.savedTokens, refresh_token: undefined };
  }

  private discovery: OAuthDiscoveryState | undefined;

  /**
   * Keeps the discovery result (authorization server, metadata) across the redirect, so the SDK 2
   * client can check that the callback leg talks to the same authorization server (SEP-2352).
   */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  saveCodeVerifier(v: string): void {
    this.verifier = v;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizationUrls.push(url);
    const { callback } = await completeAuthorization(url, this.options.user);
    if (callback.searchParams.get('state') !== this.expectedState)
      throw new Error('state mismatch in the authorization response');
    if (callback.searchParams.get('iss') !== this.options.issuer)
      throw new Error(`iss ${callback.searchParams.get('iss')} is not ${this.options.issuer}`);
    const error = callback.searchParams.get('error');
    if (error)
      throw new Error(`authorization failed: ${error} ${callback.searchParams.get('error_description') ?? ''}`);
    this.callback = callback;
  }

  /** The code of the last callback. */
  get code(): string {
    const code = this.callback?.searchParams.get('code');
    if (!code) throw new Error('no authorization code yet');
    return code;
  }
}
