/**
 * Protection of the Account API against expensive documents, with `@escape.tech/graphql-armor`
 * (envelop plugins, graphql 16 / yoga 5) and graphql-js's own introspection rule:
 *
 * | limit | value | code |
 * |---|---|---|
 * | depth (fields nested under the operation) | 8 | `QUERY_TOO_DEEP` |
 * | cost (armor's model: objects 2, scalars 1, ×1.5 per level, × literal `first`) | 30 000 | `QUERY_TOO_COSTLY` |
 * | connection rows (sum of page sizes; a variable `first` counts 100, page-budget.ts) | 300 | `QUERY_TOO_COSTLY` |
 * | aliases | 15 | `TOO_MANY_ALIASES` |
 * | directives | 10 | `TOO_MANY_DIRECTIVES` |
 * | lexical tokens | 1 000 | `TOO_MANY_TOKENS` |
 * | field comparisons of graphql-js's field-merging rule (repeated response names, fragment spreads side by side; overlap-budget.ts) | 2 000 | `QUERY_TOO_COSTLY` |
 * | introspection (`__schema`): exempt from depth and cost, bounded by introspection-bound.ts (depth 20, 3 nested lists, an answer of 3 500 estimated list entries) | open to every authenticated caller, every mode | `QUERY_TOO_DEEP` / `QUERY_TOO_COSTLY` |
 *
 * Every limit follows fragment spreads (a fragment counts at each spread) and each rule measures a
 * fragment once per document (armor's rules and ours memoise per fragment name), so validation is
 * linear in the document (issue #25); the token limit bounds the document itself. Execution is
 * bounded by the cost and rows limits.
 *
 * A rejected document is a GraphQL request error (no `data`): HTTP 200 with
 * `application/json` and 400 with `application/graphql-response+json` (GraphQL over HTTP), never 500.
 * Field suggestions ("Did you mean …") are removed in production. The deepest document the schema
 * allows is 6 levels, and the full viewer document (every field) with `first: 100` on its three
 * connections costs ~29 200 and asks for 300 rows: it passes; twice that (aliases) does not.
 */
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { GraphQLError, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { pageBudgetRule } from './page-budget.js';
import { introspectionBoundRule } from './introspection-bound.js';
import { overlapBudgetPlugin } from './overlap-budget.js';

export const LIMITS = { depth: 8, cost: 30_000, rows: 300, aliases: 15, directives: 10, tokens: 1_000 } as const;

/** An armor rejection, re-reported as a validation error with a stable code and no "Syntax Error:" prefix. */
function reportAs(code: string) {
  return [
    (ctx: ValidationContext | null, error: GraphQLError) => {
      ctx?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, ''), { extensions: { code } }));
    },
  ];
}

/** graphql-armor with the limits above; rejections are reported, not thrown. */
function armor(production: boolean): Plugin {
  return EnvelopArmorPlugin({
    maxDepth: { n: LIMITS.depth, ignoreIntrospection: true, propagateOnRejection: false, onReject: reportAs('QUERY_TOO_DEEP') },
    costLimit: { maxCost: LIMITS.cost, ignoreIntrospection: true, propagateOnRejection: false, onReject: reportAs('QUERY_TOO_COSTLY') },
    maxAliases: { n: LIMITS.aliases, propagateOnRejection: false, onReject: reportAs('TOO_MANY_ALIASES') },
    maxDirectives: { n: LIMITS.directives, propagateOnRejection: false, onReject: reportAs('TOO_MANY_DIRECTIVES') },
    // Thrown from the parser (there is no validation context yet); coded by `tokenLimitCode`.
    maxTokens: { n: LIMITS.tokens },
    blockFieldSuggestion: { enabled: production },
  }) as Plugin;
}

/** Gives the token-limit parse error its own code (yoga has already marked it GRAPHQL_PARSE_FAILED, 400). */
const tokenLimitCode: Plugin = {
  onParse() {
    return ({ result }) => {
      if (result instanceof GraphQLError && /Token limit of \d+ exceeded/.test(result.message)) {
        (result.extensions as Record<string, unknown>)['code'] = 'TOO_MANY_TOKENS';
      }
    };
  },
};

/** The bound on `__schema` documents, which armor's depth and cost limits skip. */
const introspectionBound: Plugin = {
  onValidate({ addValidationRule }) {
    addValidationRule(introspectionBoundRule());
  },
};

/** The connection-rows budget (page-budget.ts). */
const pageBudget: Plugin = {
  onValidate({ addValidationRule }) {
    addValidationRule(pageBudgetRule(LIMITS.rows));
  },
};

/** The protection plugins, in order. */
export function limitPlugins(production: boolean): Plugin[] {
  return [overlapBudgetPlugin(), armor(production), pageBudget, introspectionBound, tokenLimitCode];
}
