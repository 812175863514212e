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
 *   (`types → fields → args`).
 * Aliases, directives and tokens stay under armor's limits; `__type` stays under all of them.
 * Errors: `QUERY_TOO_DEEP` / `QUERY_TOO_COSTLY` (docs/account-api.md "GraphQL errors").
 */
import { GraphQLError, Kind, type ASTVisitor, type SelectionSetNode, type ValidationContext, type ValidationRule } from 'graphql';

export const INTROSPECTION_LIMITS = { depth: 20, nestedLists: 3 } as const;

/** Introspection fields whose value is a list of types, fields, arguments or values. */
const LIST_FIELDS = new Set(['types', 'directives', 'fields', 'args', 'inputFields', 'interfaces', 'possibleTypes', 'enumValues']);

interface Extent {
  depth: number;
  lists: number;
}

const NONE: Extent = { depth: 0, lists: 0 };

/**
 * The extent of a selection set. Linear in the document (issue #25): a fragment's extent does not
 * depend on where it is spread, so each fragment is measured once per validation and `measured`
 * answers every further spread. Fragments being measured are in `visiting`: a cycle counts
 * nothing at its back edge (graphql-js's NoFragmentCyclesRule rejects that document anyway).
 */
function extentOf(set: SelectionSetNode, ctx: ValidationContext, measured: Map<string, Extent>, visiting: Set<string>): Extent {
  let depth = 0;
  let lists = 0;
  for (const sel of set.selections) {
    let inner = NONE;
    let own = NONE;
    if (sel.kind === Kind.FIELD) {
      own = { depth: 1, lists: LIST_FIELDS.has(sel.name.value) ? 1 : 0 };
      if (sel.selectionSet) inner = extentOf(sel.selectionSet, ctx, measured, visiting);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      inner = extentOf(sel.selectionSet, ctx, measured, visiting);
    } else {
      inner = fragmentExtent(sel.name.value, ctx, measured, visiting);
    }
    depth = Math.max(depth, own.depth + inner.depth);
    lists = Math.max(lists, own.lists + inner.lists);
  }
  return { depth, lists };
}

/** The extent of the fragment `name`, measured once per validation (none: unknown or cyclic, other rules report it). */
function fragmentExtent(name: string, ctx: ValidationContext, measured: Map<string, Extent>, visiting: Set<string>): Extent {
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
    return {
      Field(node) {
        if (node.name.value !== '__schema' || !node.selectionSet) return;
        const { depth, lists } = extentOf(node.selectionSet, ctx, measured, new Set());
        // +1: `__schema` sits under the operation (so the standard query is 15 deep).
        if (depth + 1 > limits.depth) {
          ctx.reportError(new GraphQLError(`Introspection depth limit of ${limits.depth} exceeded, found ${depth + 1}.`, { nodes: [node], extensions: { code: 'QUERY_TOO_DEEP' } }));
        }
        if (lists > limits.nestedLists) {
          ctx.reportError(
            new GraphQLError(`Introspection nests ${lists} lists (types, fields, args, …); the limit is ${limits.nestedLists}.`, { nodes: [node], extensions: { code: 'QUERY_TOO_COSTLY' } }),
          );
        }
      },
    };
  };
}
