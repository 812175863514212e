/**
 * A bound on the work of graphql-js's OverlappingFieldsCanBeMergedRule (GraphQL spec §5.3.2
 * "Field Selection Merging"), checked before validation runs (issue #25).
 *
 * That rule compares, in every selection set, each pair of fields with the same response name
 * (and their sub-selections with each other), and each pair of fragment spreads: its work grows
 * with the square of the repeats. Within the 1 000-token limit, `{ viewer { site { id } site { id }
 * … } }` (240 copies) held the event loop about 150 ms, 125 fragments spread side by side about
 * 50 ms. This pass estimates those comparisons in one linear walk of the document (each
 * selection set once, inline fragments folded into the set they belong to, named fragments not
 * expanded: the rule caches them the same way) and refuses the document before any rule runs
 * when the estimate is over the limit. Documents written for an application (each response name
 * once per selection set, a few fragment spreads) estimate at a few dozen.
 *
 * Per selection set: for each response name with `c` fields, `c·(c−1)/2` pairs plus, for every
 * pair, the product of the two sub-selections' sizes; for `f` fragment spreads among `n` fields,
 * `f·(f−1)/2 + f·n`. The document's estimate is the sum over its selection sets.
 * Error: `QUERY_TOO_COSTLY` (docs/account-api.md "Limits").
 */
import { GraphQLError, Kind, type DocumentNode, type FieldNode, type SelectionSetNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** The default bound on the estimated work of a document, in comparison units (below). */
export const MAX_OVERLAP_WORK = 100_000;

/**
 * Comparison units, measured on graphql-js 16 (Node 24): one unit is about 50 ns, the cost of
 * comparing two leaf fields of the same response name. Comparing two object fields costs about
 * 80 (the rule collects and compares their sub-selections), plus 2 per pair of fields in their
 * two subtrees; comparing two different named fragments about 40, a fragment with a field about 10.
 */
const UNITS = { leafPair: 1, objectPair: 80, subtreePair: 2, fragmentPair: 40, fragmentField: 10 } as const;

/** The fields (inline fragments folded in) and the names of the fragments spread in one selection set. */
function flatten(set: SelectionSetNode, fields: FieldNode[], spreads: Set<string>): void {
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) fields.push(sel);
    else if (sel.kind === Kind.INLINE_FRAGMENT) flatten(sel.selectionSet, fields, spreads);
    else spreads.add(sel.name.value);
  }
}

/** The estimated work of one selection set (not of the sets nested in it); `sizeOf` gives a field's subtree size. */
function workIn(set: SelectionSetNode, sizeOf: (field: FieldNode) => number): number {
  const fields: FieldNode[] = [];
  const spreads = new Set<string>();
  flatten(set, fields, spreads);
  const groups = new Map<string, { leaves: number; objects: number; size: number; sizeSquares: number }>();
  for (const field of fields) {
    const key = field.alias?.value ?? field.name.value;
    const group = groups.get(key) ?? { leaves: 0, objects: 0, size: 0, sizeSquares: 0 };
    if (field.selectionSet) {
      const size = sizeOf(field);
      group.objects += 1;
      group.size += size;
      group.sizeSquares += size * size;
    } else group.leaves += 1;
    groups.set(key, group);
  }
  let work = 0;
  for (const g of groups.values()) {
    const count = g.leaves + g.objects;
    work += UNITS.leafPair * ((count * (count - 1)) / 2);
    work +=
      UNITS.objectPair * ((g.objects * (g.objects - 1)) / 2) +
      UNITS.subtreePair * ((g.size * g.size - g.sizeSquares) / 2);
  }
  const f = spreads.size;
  return work + UNITS.fragmentPair * ((f * (f - 1)) / 2) + UNITS.fragmentField * f * fields.length;
}

/**
 * The estimated work of graphql-js's field-merging rule on a document, in comparison units, in
 * time linear in the document: every selection set that belongs to an operation, a fragment
 * definition or a field is estimated once (inline fragments are part of the set they sit in),
 * and each field's subtree size (fields below it, fragments not expanded) is computed once.
 */
export function overlapWork(document: DocumentNode): number {
  const sizes = new Map<FieldNode, number>();
  const sizeOfSet = (set: SelectionSetNode): number => {
    let size = 0;
    for (const sel of set.selections)
      size +=
        sel.kind === Kind.FIELD ? 1 + sizeOf(sel) : sel.kind === Kind.INLINE_FRAGMENT ? sizeOfSet(sel.selectionSet) : 1;
    return size;
  };
  const sizeOf = (field: FieldNode): number => {
    if (!field.selectionSet) return 0;
    let size = sizes.get(field);
    if (size === undefined) sizes.set(field, (size = sizeOfSet(field.selectionSet)));
    return size;
  };
  let total = 0;
  const visit = (set: SelectionSetNode): void => {
    total += workIn(set, sizeOf);
    const walk = (s: SelectionSetNode): void => {
      for (const sel of s.selections) {
        if (sel.kind === Kind.FIELD) {
          if (sel.selectionSet) visit(sel.selectionSet);
        } else if (sel.kind === Kind.INLINE_FRAGMENT) walk(sel.selectionSet);
      }
    };
    walk(set);
  };
  for (const def of document.definitions) {
    if (def.kind === Kind.OPERATION_DEFINITION || def.kind === Kind.FRAGMENT_DEFINITION) visit(def.selectionSet);
  }
  return total;
}

/**
 * The yoga plugin: a document over `max` estimated units gets one `QUERY_TOO_COSTLY` error
 * instead of validation (envelop's `setResult` skips the validation rules).
 */
export function overlapBudgetPlugin(max = MAX_OVERLAP_WORK): Plugin {
  return {
    onValidate({ params, setResult }) {
      const work = overlapWork(params.documentAST);
      if (work > max) {
        setResult([
          new GraphQLError(
            `Query repeats fields or fragment spreads too often: checking it would take about ${Math.round(work)} comparison units; the limit is ${max}. Ask for each field once per selection.`,
            {
              extensions: { code: 'QUERY_TOO_COSTLY' },
            },
          ),
        ]);
      }
    },
  };
}
