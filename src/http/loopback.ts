/**
 * The one home of loopback detection (issue #9): loopback hosts and loopback redirect URIs
 * (RFC 8252 §7.3, §8.3; SPEC §5.4 "Loopback client"; DESIGN D1 row 2). Used by open registration
 * (`src/oauth/registration-policy.ts`), CIMD documents (`src/oauth/cimd.ts`), member clients
 * (`src/oauth/clients.ts`), the admin API's application operations and `/mcp`'s Host check.
 * Imports nothing, so every layer may use it.
 */

/** Host names (as `URL.hostname` spells them) that name this machine. */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** True for `127.0.0.1`, `[::1]` and `localhost` (any case), as `URL.hostname` gives them. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

/**
 * True for `http://127.0.0.1[:port]/…`, `http://[::1][:port]/…` and `http://localhost[:port]/…`
 * without fragment or credentials. Any port: the port is ignored at authorization (RFC 8252 §7.3,
 * enforced by oidc-provider for `application_type: native`). False for anything unparseable.
 */
export function isLoopbackRedirectUri(uri: string): boolean {
  const url = URL.parse(uri);
  return (
    !!url &&
    url.protocol === 'http:' &&
    isLoopbackHost(url.hostname) &&
    !url.hash &&
    !uri.includes('#') &&
    !url.username &&
    !url.password
  );
}
