/**
 * Loopback redirect URIs (RFC 8252 §7.3, §8.3; SPEC §5.4 "Loopback client", DESIGN D1 row 2).
 */

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * True for `http://127.0.0.1[:port]/…`, `http://[::1][:port]/…` and `http://localhost[:port]/…`
 * without fragment or credentials. Any port: the port is ignored at authorization (RFC 8252 §7.3,
 * enforced by oidc-provider for `application_type: native`).
 */
export function isLoopbackRedirectUri(uri: string): boolean {
  const url = URL.parse(uri);
  return (
    !!url && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname.toLowerCase()) &&
    !url.hash && !uri.includes('#') && !url.username && !url.password
  );
}
