/**
 * Parses the three parts of an admin request against an operation's zod shapes: path parameters,
 * query (strings turned into the numbers and booleans the schema declares) and the JSON body
 * (an object; unknown fields refused). Every failing field is reported (`InputError`).
 */
import { z } from 'zod';
import type { Operation } from '../../operations/operation.js';
import { InputError, type FieldIssue } from './problem.js';

/** The innermost type name of a schema (through optional / default / nullable). */
function baseType(schema: z.ZodType): string {
  let s = schema as unknown as { def: { type: string; innerType?: unknown } };
  while (s.def.innerType && ['optional', 'default', 'nullable', 'prefault'].includes(s.def.type))
    s = s.def.innerType as typeof s;
  return s.def.type;
}

/** Query strings → the declared scalar types; other values pass unchanged for zod to judge. */
function typedQuery(shape: z.ZodRawShape, raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(shape)) {
    let value = raw[key];
    if (Array.isArray(value)) value = value[value.length - 1];
    if (value === undefined || value === '') continue;
    const type = baseType(schema as z.ZodType);
    if (type === 'number' && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) value = Number(value);
    else if (type === 'boolean' && (value === 'true' || value === 'false')) value = value === 'true';
    out[key] = value;
  }
  return out;
}

function issuesOf(part: FieldIssue['in'], error: z.ZodError): FieldIssue[] {
  return error.issues.map((i) => ({
    in: part,
    pointer: i.path.length
      ? `/${i.path.map((p) => String(p).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`
      : '',
    detail:
      i.code === 'unrecognized_keys' ? `unknown field(s): ${(i as { keys: string[] }).keys.join(', ')}` : i.message,
  }));
}

/** Compiled schemas of one operation. */
export interface InputSchemas {
  params: z.ZodObject;
  query: z.ZodObject;
  body: z.ZodObject;
}

export function inputSchemas(op: Operation): InputSchemas {
  return {
    params: z.object(op.params ?? {}),
    query: z.object(op.query ?? {}),
    body: z.object(op.body ?? {}).strict(),
  };
}

/**
 * Validates a request.
 * @throws InputError listing every failing field of every part
 */
export function parseInput(
  op: Operation,
  schemas: InputSchemas,
  raw: { params: Record<string, unknown>; query: Record<string, unknown>; body: unknown },
): { params: Record<string, unknown>; query: Record<string, unknown>; body: Record<string, unknown> } {
  const params = schemas.params.safeParse(raw.params);
  const query = schemas.query.safeParse(typedQuery(op.query ?? {}, raw.query));
  const bodyValue = op.body ? raw.body : {};
  const body =
    op.body && (typeof bodyValue !== 'object' || bodyValue === null || Array.isArray(bodyValue))
      ? undefined
      : schemas.body.safeParse(bodyValue ?? {});
  const issues: FieldIssue[] = [
    ...(params.success ? [] : issuesOf('path', params.error)),
    ...(query.success ? [] : issuesOf('query', query.error)),
    ...(body === undefined
      ? [{ in: 'body' as const, pointer: '', detail: 'the body must be a JSON object' }]
      : body.success
        ? []
        : issuesOf('body', body.error)),
  ];
  if (issues.length > 0 || !params.success || !query.success || !body?.success) throw new InputError(issues);
  return {
    params: params.data as Record<string, unknown>,
    query: query.data as Record<string, unknown>,
    body: body.data as Record<string, unknown>,
  };
}
