/**
 * The Account API's short path for a query it has already checked (issue #15). GraphQL Yoga's
 * request pipeline (Fetch API `Request`/`Response`, envelop hooks, parameter checks, content
 * negotiation, result processing) cost about three times the execution of the SPEC §2.4 viewer
 * query itself. Most clients send the same few documents again and again, so once **yoga** has
 * parsed, validated (every rule: graphql-armor's limits, the page budget, the introspection
 * bound) and executed a query document without error, a later request with the same text is
 * executed directly (graphql-jit, compiled once per document) against the same schema and context.
 *
 * Only the plain case takes the short path; everything else goes through yoga, so behaviour is
 * yoga's by construction:
 * - `POST` with `Content-Type: application/json` (no parameters but `charset=utf-8`), no `Origin`
 *   (yoga's CORS answer), and an `Accept` value yoga has already answered (`acceptedTypes`: the
 *   `Content-Type` yoga chose for it is replayed);
 * - a JSON object body with `query` (a string) and optionally `variables` (object),
 *   `operationName` (string), `extensions` (object without `persistedQuery`: yoga's
 *   persisted-queries plugin checks and remembers the hash), nothing else;
 * - a document yoga has run without error whose operation is a `query` (mutations keep yoga:
 *   the write-scope rule of write-scope.ts runs there) and that names no `__schema` / `__type`;
 * - an execution result without errors (graphql-jit's compiled form of the document, or graphql-js
 *   `execute` where jit declines one). A result with errors is dropped and the request is
 *   answered by yoga instead (a query reads only, so running it twice changes nothing): error
 *   masking, codes, HTTP status and the store-outage 503 stay yoga's and its plugins'.
 */
import { execute, getOperationAST, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

/** The request parameters of the short path (GraphQL over HTTP, POST JSON body). */
export interface KnownRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

/** A document that names an introspection root field (`__typename` is not one). */
const INTROSPECTION = /__(schema|type)\b/;

const PARAMETERS = new Set(['query', 'variables', 'operationName', 'extensions']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The parameters of a POST JSON body when they are of the plain shape above, else undefined
 * (yoga answers: its own checks and error messages).
 */
export function plainParameters(text: string): KnownRequest | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(body)) return undefined;
  for (const key of Object.keys(body)) if (!PARAMETERS.has(key)) return undefined;
  const { query, variables, operationName, extensions } = body;
  if (typeof query !== 'string') return undefined;
  if (variables !== undefined && variables !== null && !isPlainObject(variables)) return undefined;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return undefined;
  if (extensions !== undefined && extensions !== null && !isPlainObject(extensions)) return undefined;
  if (isPlainObject(extensions) && extensions.persistedQuery !== undefined) return undefined;
  return { query, variables: variables ?? undefined, operationName: operationName ?? undefined };
}

/**
 * Documents yoga has executed without error, by query text and operation name, at most `max` of
 * them (the oldest is forgotten first, and learnt again the next time yoga runs it).
 */
export class KnownDocuments {
  private readonly documents = new Map<string, DocumentNode>();

  /** @param max most documents kept */
  constructor(private readonly max = 200) {}

  private static key(query: string, operationName: string | undefined): string {
    return operationName === undefined ? query : `${operationName}\u0000${query}`;
  }

  /** The checked document of a query operation, or undefined when the request must go through yoga. */
  documentOf(query: string, operationName: string | undefined): DocumentNode | undefined {
    return this.documents.get(KnownDocuments.key(query, operationName));
  }

  /**
   * The yoga plugin that learns documents: after an execution without errors of a `query`
   * operation, its parsed and validated document is kept under the request's query text.
   */
  plugin(): Plugin<{ params?: { query?: unknown; operationName?: unknown } }> {
    return {
      onExecute: ({ args }) => ({
        onExecuteDone: ({ result }) => {
          const params = args.contextValue.params;
          if (typeof params?.query !== 'string' || ('errors' in result && result.errors?.length)) return;
          // Introspection stays yoga's (graphql-js resolves it; the codegen contract reads it).
          if (INTROSPECTION.test(params.query)) return;
          const operationName = typeof params.operationName === 'string' ? params.operationName : undefined;
          if (getOperationAST(args.document, operationName)?.operation !== 'query') return;
          const key = KnownDocuments.key(params.query, operationName);
          if (this.documents.has(key)) return;
          if (this.documents.size >= this.max) this.documents.delete(this.documents.keys().next().value!);
          this.documents.set(key, args.document);
        },
      }),
    };
  }

  /**
   * Runs a checked document; the JSON text of its result, or undefined when the result carries
   * errors (the caller then lets yoga answer).
   */
  async run(
    schema: GraphQLSchema,
    document: DocumentNode,
    request: KnownRequest,
    contextValue: unknown,
  ): Promise<string | undefined> {
    const compiled = this.compiledOf(schema, document, request.operationName);
    const result = compiled
      ? await compiled.query(undefined, contextValue, request.variables ?? {})
      : await execute({
          schema,
          document,
          contextValue,
          variableValues: request.variables,
          operationName: request.operationName,
        });
    if (result.errors?.length || result.extensions !== undefined) return undefined;
    return JSON.stringify(result);
  }

  /**
   * graphql-jit's compiled form of a checked document and operation, built once (null: jit declined
   * it, graphql-js runs it). Yoga's parser cache gives one document object per query text.
   */
  private readonly compiled = new WeakMap<DocumentNode, Map<string | undefined, CompiledQuery | null>>();

  private compiledOf(
    schema: GraphQLSchema,
    document: DocumentNode,
    operationName: string | undefined,
  ): CompiledQuery | null {
    let byOperation = this.compiled.get(document);
    if (!byOperation) this.compiled.set(document, (byOperation = new Map()));
    let compiled = byOperation.get(operationName);
    if (compiled === undefined) {
      const result = compileQuery(schema, document, operationName);
      compiled = isCompiledQuery(result) ? result : null;
      byOperation.set(operationName, compiled);
    }
    return compiled;
  }
}
