/**
 * The bound on introspection documents. Introspection is open to every authenticated caller in
 * every mode (the schema is the contract clients build against: GraphiQL, graphql-codegen, IDE
 * plugins read it), and armor's depth and cost limits skip the `__schema` subtree
 * (`ignoreIntrospection`), because the standard introspection query
 * (graphql-js `getIntrospectionQuery()`) is 15 fields deep through its `ofType` chain.
 *
 * Instead, inside `__schema` this rule bounds what makes an introspection answer large:
 * - depth (fields nested under the operation, fragments followed): at most 20;
 * - list-valued introspection fields nested in one another (`types`, `fields`, `args`, …): at most
 *   3 on any path. The answer grows with the product of those lists
 *   (`types { fields { type { fields { type { fields …` is exponential); the standard query nests 3
 *   (`types → fields → args`);
 * - the size of the answer: its list entries, estimated as if every list held 10 entries (nested
 *   lists multiply), summed over every `__schema` field of the document: at most 3 500. The
 *   standard query is estimated at 1 620, so two copies pass; fifteen aliased `__schema { types
 *   { …every field… } }` (about 470 kB of answer, a few hundred ms of work) are refused.
 * Every measure follows fragments, each fragment measured once per document, so the rule is
 * linear in the document (issue #25).
 * Aliases, directives and tokens stay under armor's limits; `__type` stays under all of them.
 * Errors: `QUERY_TOO_DEEP` / `QUERY_TOO_COSTLY` (docs/account-api.md "GraphQL errors").
 */
import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

export const INTROSPECTION_LIMITS = { depth: 20, nestedLists: 3, size: 3_500 } as const;

/** Entries assumed per introspection list when estimating the size of an answer. */
const LIST_GUESS = 10;

/** Introspection fields whose value is a list of types, fields, arguments or values. */
const LIST_FIELDS = new Set([
  'types',
  'directives',
  'fields',
  'args',
  'inputFields',
  'interfaces',
  'possibleTypes',
  'enumValues',
]);

interface Extent {
  /** Fields nested on the deepest path. */
  depth: number;
  /** List fields nested on the path with most of them. */
  lists: number;
  /** Estimated list entries in the answer (LIST_GUESS entries per list, nested lists multiply). */
  size: number;
}

const NONE: Extent = { depth: 0, lists: 0, size: 0 };

/**
 * The extent of a selection set. Linear in the document (issue #25): a fragment's extent does not
 * depend on where it is spread, so each fragment is measured once per validation and `measured`
 * answers every further spread. Fragments being measured are in `visiting`: a cycle counts
 * nothing at its back edge (graphql-js's NoFragmentCyclesRule rejects that document anyway).
 */
function extentOf(
  set: SelectionSetNode,
  ctx: ValidationContext,
  measured: Map<string, Extent>,
  visiting: Set<string>,
): Extent {
  let depth = 0;
  let lists = 0;
  let size = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      const list = LIST_FIELDS.has(sel.name.value);
      const inner = sel.selectionSet ? extentOf(sel.selectionSet, ctx, measured, visiting) : NONE;
      depth = Math.max(depth, 1 + inner.depth);
      lists = Math.max(lists, (list ? 1 : 0) + inner.lists);
      size += list ? LIST_GUESS * (1 + inner.size) : inner.size;
    } else {
      const inner =
        sel.kind === Kind.INLINE_FRAGMENT
          ? extentOf(sel.selectionSet, ctx, measured, visiting)
          : fragmentExtent(sel.name.value, ctx, measured, visiting);
      depth = Math.max(depth, inner.depth);
      lists = Math.max(lists, inner.lists);
      size += inner.size;
    }
  }
  return { depth, lists, size };
}

/** The extent of the fragment `name`, measured once per validation (none: unknown or cyclic, other rules report it). */
function fragmentExtent(
  name: string,
  ctx: ValidationContext,
  measured: Map<string, Extent>,
  visiting: Set<string>,
): Extent {
  const known = measured.get(name);
  if (known) return known;
  const fragment = ctx.getFragment(name);
  if (!fragment || visiting.has(name)) return NONE;
  visiting.add(name);
  const extent = extentOf(fragment.selectionSet, ctx, measured, visiting);
  visiting.delete(name);
  measured.set(name, extent);
  return extent;
}

/** The rule, run on every `__schema` field of the document (aliases included). */
export function introspectionBoundRule(limits = INTROSPECTION_LIMITS): ValidationRule {
  return (ctx: ValidationContext): ASTVisitor => {
    /** Extent per fragment name, shared by every `__schema` field of this document. */
    const measured = new Map<string, Extent>();
    /** Estimated answer size of the `__schema` fields seen so far (each field node once: see below). */
    let total = 0;
    return {
      Field(node) {
        if (node.name.value !== '__schema' || !node.selectionSet) return;
        const { depth, lists, size } = extentOf(node.selectionSet, ctx, measured, new Set());
        // +1: `__schema` sits under the operation (so the standard query is 15 deep).
        if (depth + 1 > limits.depth) {
          ctx.reportError(
            new GraphQLError(`Introspection depth limit of ${limits.depth} exceeded, found ${depth + 1}.`, {
              nodes: [node],
              extensions: { code: 'QUERY_TOO_DEEP' },
            }),
          );
        }
        if (lists > limits.nestedLists) {
          ctx.reportError(
            new GraphQLError(
              `Introspection nests ${lists} lists (types, fields, args, …); the limit is ${limits.nestedLists}.`,
              { nodes: [node], extensions: { code: 'QUERY_TOO_COSTLY' } },
            ),
          );
        }
        // `__schema` is a field of Query: the same field node reached twice (a fragment on Query
        // spread twice) has one response key and is executed once, so each node counts once;
        // aliased copies are distinct nodes and each counts.
        const before = total;
        total += size;
        if (before <= limits.size && total > limits.size) {
          ctx.reportError(
            new GraphQLError(
              `Introspection answer estimated at ${total} list entries (${LIST_GUESS} per list); the limit is ${limits.size}.`,
              { nodes: [node], extensions: { code: 'QUERY_TOO_COSTLY' } },
            ),
          );
        }
      },
    };
  };
}
