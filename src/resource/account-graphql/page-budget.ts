/**
 * A validation rule bounding the rows one document can ask for: the sum, over every connection
 * field reached (through aliases and fragments), of its page size must stay within `maxRows`.
 * A literal `first` counts its value, a variable counts the largest page (100: its value is not
 * known at validation), an absent `first` counts the schema default (20). This complements
 * armor's cost limit, which only sees literal `first` values.
 */
import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { MAX_PAGE_SIZE } from '../../platform/paging.js';

/** Fields whose `first` argument sizes a page, and the schema default of that argument. */
const CONNECTION_FIELDS: ReadonlyMap<string, number> = new Map([
  ['enrolledCourses', 20],
  ['orders', 20],
  ['eventRegistrations', 20],
]);

function pageSizeOf(field: FieldNode): number {
  const first = field.arguments?.find((a) => a.name.value === 'first');
  if (!first) return CONNECTION_FIELDS.get(field.name.value) ?? 0;
  if (first.value.kind === Kind.INT) return Math.max(0, Number.parseInt(first.value.value, 10));
  return MAX_PAGE_SIZE; // a variable (or anything else): assume the largest page
}

/**
 * The rows one selection set asks for. Linear in the document (issue #25): a fragment's rows do not
 * depend on where it is spread, so each fragment is counted once per validation and `counted`
 * answers every further spread (a chain of fragments each spreading the next eight times would
 * otherwise be expanded 8^depth times). Fragments being counted are in `visiting`: a cycle counts
 * 0 at its back edge (graphql-js's NoFragmentCyclesRule rejects that document anyway).
 */
function rowsIn(
  set: SelectionSetNode,
  ctx: ValidationContext,
  counted: Map<string, number>,
  visiting: Set<string>,
): number {
  let rows = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (CONNECTION_FIELDS.has(sel.name.value)) rows += pageSizeOf(sel);
      if (sel.selectionSet) rows += rowsIn(sel.selectionSet, ctx, counted, visiting);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      rows += rowsIn(sel.selectionSet, ctx, counted, visiting);
    } else {
      rows += fragmentRows(sel.name.value, ctx, counted, visiting);
    }
  }
  return rows;
}

/** The rows of the fragment `name`, counted once per validation (0: unknown or cyclic, other rules report it). */
function fragmentRows(
  name: string,
  ctx: ValidationContext,
  counted: Map<string, number>,
  visiting: Set<string>,
): number {
  const known = counted.get(name);
  if (known !== undefined) return known;
  const fragment: FragmentDefinitionNode | null | undefined = ctx.getFragment(name);
  if (!fragment || visiting.has(name)) return 0;
  visiting.add(name);
  const rows = rowsIn(fragment.selectionSet, ctx, counted, visiting);
  visiting.delete(name);
  counted.set(name, rows);
  return rows;
}

/** The rule; errors carry `extensions.code = QUERY_TOO_COSTLY`. Linear in the document. */
export function pageBudgetRule(maxRows: number): ValidationRule {
  return (ctx: ValidationContext): ASTVisitor => {
    /** Rows per fragment name, shared by the operations of this document. */
    const counted = new Map<string, number>();
    return {
      OperationDefinition(op) {
        const rows = rowsIn(op.selectionSet, ctx, counted, new Set());
        if (rows > maxRows) {
          ctx.reportError(
            new GraphQLError(
              `Query asks for up to ${rows} connection rows; the limit is ${maxRows} (a variable \`first\` counts ${MAX_PAGE_SIZE}).`,
              {
                nodes: [op],
                extensions: { code: 'QUERY_TOO_COSTLY' },
              },
            ),
          );
        }
      },
    };
  };
}
