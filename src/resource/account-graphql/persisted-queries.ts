/**
 * Automatic persisted queries (APQ) of the Account API: the protocol Apollo Client
 * (`PersistedQueryLink`) and urql (`@urql/exchange-persisted`) speak, as Apollo Server and
 * graphql-yoga's APQ plugin answer it
 * (https://github.com/apollographql/apollo-link-persisted-queries#apollo-engine, "Protocol").
 *
 * A request carries `extensions.persistedQuery = { version: 1, sha256Hash }` (POST body, or GET
 * `extensions` parameter):
 * - hash only, hash known here: the stored document is run, exactly as if it had been sent;
 * - hash only, hash unknown: GraphQL request error `PersistedQueryNotFound`
 *   (`extensions.code: PERSISTED_QUERY_NOT_FOUND`), HTTP 404, `Cache-Control: private, no-cache,
 *   must-revalidate` (a shared cache must not keep the miss of a GET); the client resends the
 *   same request with the full `query`;
 * - hash and `query`: the hash must be the lowercase hex SHA-256 of the query's UTF-8 text, else
 *   `PersistedQueryMismatch` (`PERSISTED_QUERY_MISMATCH`, 400); the document is remembered and run;
 * - `version` other than 1, or a hash that is not 64 hex digits: 400 `BAD_REQUEST`.
 *
 * The stored text is a request's own `query`, so a document reached by its hash is parsed and
 * validated by yoga on every use like any other: every limit of limits.ts (depth, cost, rows,
 * aliases, tokens, …) and the write-scope rule apply to it. A hash names a document, not data, so
 * the store is shared by every caller of the process. It is bounded (least recently used entries
 * are dropped beyond `maxEntries` documents or `maxChars` characters in all): a miss only costs
 * the client one resend. Each process has its own store; behind a load balancer a client may get
 * one `PersistedQueryNotFound` per process.
 */
import { createHash } from 'node:crypto';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** What a request's `extensions.persistedQuery` must look like (APQ version 1). */
const SHA256_HEX = /^[0-9a-f]{64}$/;

const requestError = (message: string, code: string, status: number, headers?: Record<string, string>) =>
  new GraphQLError(message, { extensions: { code, http: { status, ...(headers ? { headers } : {}) } } });

/** A bounded least-recently-used map from SHA-256 (hex) to query text. */
export class PersistedQueryStore {
  private readonly documents = new Map<string, string>();
  private chars = 0;

  /**
   * @param maxEntries most documents kept (default 1 000)
   * @param maxChars most query characters kept in all (default 4 000 000: with the route's 64 KiB
   *   body limit, at least 60 of the largest documents)
   */
  constructor(
    private readonly maxEntries = 1_000,
    private readonly maxChars = 4_000_000,
  ) {}

  /** The query stored under `hash`, marked as just used; undefined when unknown. */
  get(hash: string): string | undefined {
    const query = this.documents.get(hash);
    if (query === undefined) return undefined;
    this.documents.delete(hash);
    this.documents.set(hash, query);
    return query;
  }

  /** Stores `query` under `hash`, dropping the least recently used documents beyond the bounds. */
  set(hash: string, query: string): void {
    const old = this.documents.get(hash);
    if (old !== undefined) {
      this.documents.delete(hash);
      this.chars -= old.length;
    }
    if (query.length > this.maxChars) return;
    this.documents.set(hash, query);
    this.chars += query.length;
    for (const [key, value] of this.documents) {
      if (this.documents.size <= this.maxEntries && this.chars <= this.maxChars) break;
      this.documents.delete(key);
      this.chars -= value.length;
    }
  }

  get size(): number {
    return this.documents.size;
  }
}

/** Lowercase hex SHA-256 of the UTF-8 text, as APQ clients compute it. */
export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The `sha256Hash` of a request's `extensions.persistedQuery`, or undefined when it has none.
 * @throws GraphQLError 400 `BAD_REQUEST` for an unsupported `version` or a malformed hash
 */
export function persistedQueryHash(extensions: unknown): string | undefined {
  const pq = (extensions as { persistedQuery?: unknown } | null | undefined)?.persistedQuery;
  if (pq === undefined || pq === null) return undefined;
  const { version, sha256Hash } = pq as { version?: unknown; sha256Hash?: unknown };
  if (version !== 1) throw requestError('persistedQuery.version must be 1', 'BAD_REQUEST', 400);
  if (typeof sha256Hash !== 'string' || !SHA256_HEX.test(sha256Hash))
    throw requestError('persistedQuery.sha256Hash must be 64 lowercase hex digits', 'BAD_REQUEST', 400);
  return sha256Hash;
}

/**
 * The yoga plugin: resolves or remembers a persisted query before yoga checks the parameters
 * (its "Must provide query string" check runs after user plugins' `onParams`).
 */
export function persistedQueriesPlugin(store: PersistedQueryStore): Plugin {
  return {
    onParams({ params, setParams }) {
      const hash = persistedQueryHash(params.extensions);
      if (hash === undefined) return;
      if (params.query === undefined || params.query === null || params.query === '') {
        const query = store.get(hash);
        if (query === undefined)
          throw requestError('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND', 404, {
            'Cache-Control': 'private, no-cache, must-revalidate',
          });
        setParams({ ...params, query });
        return;
      }
      if (typeof params.query !== 'string') return; // yoga's own check answers
      if (sha256Hex(params.query) !== hash)
        throw requestError('PersistedQueryMismatch', 'PERSISTED_QUERY_MISMATCH', 400);
      store.set(hash, params.query);
    },
  };
}
