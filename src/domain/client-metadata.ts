/**
 * A client's registered metadata (RFC 7591 §2 names, snake_case, plus our extra properties such as
 * `x_client_kind`), read once per oidc-provider `Client` instance.
 *
 * Why not `client.metadata()` at every read: oidc-provider 9 (`lib/models/client.js`) rebuilds a
 * snake_case copy of every property of the client on each call (`mapKeys` + `snakeCase` over ~50
 * keys, ~8 µs), and the refresh grant read it three times per request through our resource
 * indicator callbacks and audit events (issue #15). A `Client` instance never changes once the
 * provider hands it out: oidc-provider builds a new instance whenever the stored properties
 * change (dynamic clients are cached under a hash of their properties, CIMD clients per fetched
 * document, static clients once), so one snapshot per instance answers every later read.
 */

/** Anything with oidc-provider's `Client#metadata()`. */
export interface MetadataSource<M extends object> {
  metadata(): M;
}

const snapshots = new WeakMap<object, Readonly<Record<string, unknown>>>();

/**
 * The metadata of an oidc-provider client, as `client.metadata()` returns it, computed on the
 * first read of this instance and shared afterwards (a shallow-frozen object: do not mutate it;
 * nested arrays are the client's own, as with `metadata()`).
 * @param client an oidc-provider `Client` (or anything with the same `metadata()`)
 * @returns the snake_case metadata, e.g. `redirect_uris`, `x_client_kind`, `x_org_id`
 */
export function clientMetadata<M extends object>(client: MetadataSource<M>): Readonly<M> {
  let snapshot = snapshots.get(client);
  if (!snapshot) {
    snapshot = Object.freeze(client.metadata() as Record<string, unknown>);
    snapshots.set(client, snapshot);
  }
  return snapshot as Readonly<M>;
}
