/**
 * Path matching with oidc-provider's router semantics (`lib/helpers/router.js`): case-insensitive,
 * one trailing slash ignored. Middleware placed in front of a provider route must match the same
 * requests the provider does, or a request spelled `/API/OAUTH/REGISTER/` would slip past it.
 */

/** True when `path` reaches the provider route `route`. */
export function matchesProviderRoute(path: string, route: string): boolean {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.toUpperCase() === route.toUpperCase();
}
