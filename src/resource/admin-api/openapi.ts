/**
 * The admin part of `/openapi.json` (OpenAPI 3.1), generated from the operation list (DESIGN D9):
 * one path item per operation with its `operationId`, per-operation `security` (the oauth2 scheme
 * with the operation's scope), parameters and bodies from the zod schemas (`z.toJSONSchema`,
 * JSON Schema 2020-12 = OpenAPI 3.1's dialect) and problem+json error responses (RFC 9457).
 */
import { z } from 'zod';
import type { Operation } from '../../operations/operation.js';
import { OPERATIONS } from '../../operations/index.js';

type Json = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  delete out.$schema;
  return out;
}

function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

function parameters(op: Operation): Json[] {
  const out: Json[] = [];
  for (const [name, schema] of Object.entries(op.params ?? {}))
    out.push({ name, in: 'path', required: true, schema: jsonSchema(schema as z.ZodType, 'input') });
  for (const [name, schema] of Object.entries(op.query ?? {})) {
    const s = jsonSchema(schema as z.ZodType, 'input');
    const description = s.description;
    delete s.description;
    out.push({
      name,
      in: 'query',
      required: !isOptional(schema as z.ZodType),
      schema: s,
      ...(description ? { description } : {}),
    });
  }
  if (op.ifMatch)
    out.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      schema: { type: 'string' },
      description: 'ETag of the GET representation; 412 when the resource changed since.',
    });
  if (op.status === 201) {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', maxLength: 255 },
      description:
        'Repeat the request with the same key to get the same answer (24 h); another request with the key is refused.',
    });
  }
  return out;
}

const problemRef = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

function responses(op: Operation): Json {
  const status = String(op.status ?? 200);
  const success: Json =
    op.status === 204
      ? { description: 'Done (no content)' }
      : {
          description: op.status === 201 ? 'Created' : 'OK',
          ...(op.status === 201
            ? { headers: { Location: { schema: { type: 'string' }, description: 'URL path of the created resource' } } }
            : {}),
          ...(op.method === 'get' || op.ifMatch ? { headers: { ETag: { schema: { type: 'string' } } } } : {}),
          content: {
            'application/json': { schema: op.response ? jsonSchema(op.response, 'output') : {} },
            ...(op.csv
              ? {
                  'text/csv': {
                    schema: {
                      type: 'string',
                      description:
                        'With `Accept: text/csv`: the whole filtered list (every page; `limit` and `cursor` ignored) as RFC 4180 CSV with a header row of the item fields; cells that start with `=`, `+`, `-`, `@` are prefixed with an apostrophe.',
                    },
                  },
                }
              : {}),
          },
        };
  const out: Json = {
    [status]: success,
    '400': problemRef('invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it)'),
    '401': problemRef('invalid_token (WWW-Authenticate carries resource_metadata)'),
    '403': problemRef(
      'insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site)',
    ),
    '404': problemRef('not_found: no such row at your site (rows of other sites are never revealed)'),
    '503': problemRef('temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry)'),
  };
  if (op.method !== 'get')
    out['409'] = problemRef('conflict with the current state (e.g. a slug or code already taken)');
  if (op.upload) {
    out['413'] = problemRef('the file is larger than UPLOAD_MAX_BYTES');
    out['415'] = problemRef('unsupported_media_type: not multipart/form-data, or the bytes are not an accepted type');
  }
  if (op.ifMatch) out['412'] = problemRef('precondition_failed: If-Match does not match the current ETag');
  return out;
}

/** The `/api/v1` paths of the OpenAPI document. */
export function adminPaths(operations: readonly Operation[] = OPERATIONS): Record<string, Json> {
  const paths: Record<string, Json> = {};
  for (const op of operations) {
    const params = parameters(op);
    paths[op.path] ??= {};
    paths[op.path]![op.method] = {
      operationId: op.id,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: [op.tag],
      security: [{ oauth2: [op.scope] }],
      ...(params.length ? { parameters: params } : {}),
      ...(op.upload
        ? {
            requestBody: {
              required: true,
              content: {
                'multipart/form-data': {
                  schema: {
                    type: 'object',
                    required: [op.upload.field],
                    properties: {
                      [op.upload.field]: { type: 'string', format: 'binary', description: op.upload.description },
                    },
                  },
                },
              },
            },
          }
        : {}),
      ...(op.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: jsonSchema(z.object(op.body).strict(), 'input') } },
            },
          }
        : {}),
      responses: responses(op),
      ...(op.mcp ? { 'x-mcp-tool': op.mcp.name } : {}),
    };
  }
  return paths;
}

/** `components.schemas.Problem`: RFC 9457 members plus the RFC 6749 `error` vocabulary. */
export const PROBLEM_SCHEMA: Json = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'error'],
  properties: {
    type: { type: 'string', format: 'uri' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    error: { type: 'string', description: 'Stable error code, e.g. not_found, conflict, insufficient_scope' },
    error_description: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['in', 'pointer', 'detail'],
        properties: {
          in: { enum: ['body', 'query', 'path', 'header'] },
          pointer: { type: 'string', description: 'RFC 6901 JSON pointer' },
          detail: { type: 'string' },
        },
      },
    },
  },
};
