/**
 * One declaration per admin operation (DESIGN D9). An operation names its method, path, scope,
 * zod schemas of path parameters, query, body and response, a summary, and whether it is also an
 * MCP operator tool. From the list of operations (`operations/index.ts`) the code generates:
 *   - the `/api/v1` Koa router (`router.ts`),
 *   - the admin part of `/openapi.json` (`openapi.ts`, OpenAPI 3.1 via `z.toJSONSchema`),
 *   - the MCP operator tools (`mcp-tools.ts`), and through both the published scope map.
 * There is no second implementation: an MCP tool runs the operation's `run`.
 */
import type { z } from 'zod';
import type { Accounts } from '../platform/accounts.js';
import type { SiteSettings } from '../platform/sites.js';
import type { OperatorServices } from '../platform/operator/index.js';
import type { ConnectionService, MemberClientService } from '../domain/applications.js';
import type { Invitations } from '../platform/invitations.js';
import type { SiteContent } from '../platform/content.js';
import type { Lecturers } from '../platform/lecturers.js';
import type { Comments } from '../platform/comments.js';
import type { Forms } from '../platform/forms.js';
import type { AuditTrail } from '../platform/audit.js';
import type { SiteFiles } from '../platform/files.js';
import type { Memberships } from '../platform/memberships.js';
import type { DigitalProducts } from '../platform/digital-products.js';
import type { ResourceVersions } from '../platform/versions.js';

/** One file part of a multipart/form-data upload, as the surface read it (bytes in memory). */
export interface UploadedPart {
  bytes: Buffer;
  /** The part's filename parameter ('' when none). */
  filename: string;
  /** The part's declared Content-Type. */
  declaredType: string;
}

/** MCP tool annotations (MCP 2025-11-25 `ToolAnnotations`), all four hints stated explicitly. */
export interface Hints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export const READ: Hints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const WRITE: Hints = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
export const WRITE_IDEMPOTENT: Hints = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
export const DESTRUCTIVE: Hints = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};

/** The platform services operations run against (one set per process). */
export interface AdminServices {
  accounts: Accounts;
  operator: OperatorServices;
  siteSettings: SiteSettings;
  memberClients: MemberClientService;
  invitations: Invitations;
  content: SiteContent;
  lecturers: Lecturers;
  comments: Comments;
  forms: Forms;
  /** Connected apps: the grants given at a site, and their revocation (issue 11). */
  connections: ConnectionService;
  /** The audit trail (DESIGN D10). */
  audit: AuditTrail;
  /** Uploaded files (`storage:write`). */
  files: SiteFiles;
  memberships: Memberships;
  digitalProducts: DigitalProducts;
  /** Versions of the representations updates guard with If-Match (issue #25 finding 9). */
  versions: ResourceVersions;
  /** BASE_URL, for links handed out (invitation acceptUrl). */
  baseUrl: string;
}

/** Who runs an operation: the token's user at the token's site (DESIGN D5), already authorized. */
export interface OperationContext {
  siteId: string;
  userId: string;
  services: AdminServices;
}

export type HttpMethod = 'get' | 'post' | 'patch' | 'put' | 'delete';

type Shape = z.ZodRawShape;
type Obj<S extends Shape> = z.infer<z.ZodObject<S>>;

/** The parsed input of a call: path parameters, query and body, each validated by its schema. */
export interface OperationInput<P extends Shape, Q extends Shape, B extends Shape> {
  params: Obj<P>;
  query: Obj<Q>;
  body: Obj<B>;
  /** The file part of an upload operation (`upload` declared). */
  file?: UploadedPart;
}

/** How an operation is also offered as an MCP tool (DESIGN D4: names, titles, hints). */
export interface McpView<R> {
  /** Tool name, snake_case, e.g. `list_courses`. */
  name: string;
  title: string;
  /** Defaults to the operation's `description ?? summary`. */
  description?: string;
  annotations: Hints;
  /**
   * The structured result of the tool when it differs from the REST body (e.g. a 204 delete that
   * answers `{ removed: id }`). `output` is its zod shape.
   */
  output?: Shape;
  present?: (result: R, args: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Input fields the tool does not take, each with why (e.g. the redirect URIs of an application:
   * a change only a surface that can show the operator what changes may make). The tool's input
   * lists each as a field that refuses any value, with that reason, so a call naming it fails
   * instead of being quietly cut; the field never reaches `run` from MCP.
   */
  withheld?: Readonly<Record<string, string>>;
}

/** One admin operation. `P`/`Q`/`B` are zod raw shapes; `R` is the response body. */
export interface OperationDefinition<P extends Shape, Q extends Shape, B extends Shape, R> {
  /** OpenAPI `operationId`, camelCase, e.g. `listCourses`. */
  id: string;
  method: HttpMethod;
  /** OpenAPI path template under `/api/v1`, e.g. `/api/v1/courses/{slug}`. */
  path: string;
  /** The operator scope it needs (SPEC §2.5). */
  scope: string;
  summary: string;
  description?: string;
  /** OpenAPI tag (the scope family), e.g. `courses`. */
  tag: string;
  params?: P;
  query?: Q;
  body?: B;
  /** The response body schema; undefined with status 204. */
  response?: z.ZodType<R>;
  /** Success status: 200 (default), 201 (created: `Location` + `Idempotency-Key`), 204 (no body). */
  status?: 200 | 201 | 204;
  /** For 201: the URL path of the created resource. */
  location?: (result: R) => string;
  /**
   * For updates where lost updates matter (RFC 9110 §13.1.1): the operation id of the GET whose
   * representation the `If-Match` ETag must match (412 otherwise).
   */
  ifMatch?: string;
  mcp?: McpView<R>;
  /**
   * A list that can also be exported as CSV (`Accept: text/csv`, src/resource/admin-api/csv-export.ts):
   * `rows` names the response field holding the page's items (an array of objects whose keys are
   * the columns). The export walks every page; the query needs a bounded `limit` and `cursor`.
   */
  csv?: { rows: string };
  /**
   * An upload: the body is multipart/form-data with one file part named `field` (instead of
   * `body`), read under `UPLOAD_MAX_BYTES` and handed to `run` as `input.file`.
   */
  upload?: { field: string; description: string };
  /**
   * What a write acts on, for its audit record (`<type>:<id>`, src/platform/audit.ts
   * `auditTarget`). Defaults to the operation's tag and its path parameters (or the created
   * row's `id`/`slug`); actions on an OAuth application name `application:<client_id>`.
   */
  target?: (input: OperationInput<P, Q, B>, result: R | undefined) => string;
  /** Runs the operation. Throws `PlatformError` for refusals the caller can fix. */
  run(input: OperationInput<P, Q, B>, ctx: OperationContext): Promise<R>;
}

/** The validated input of a call with its types erased. */
export interface OperationValues {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  file?: UploadedPart;
}

/** An operation with its types erased, as stored in the list. */
export interface Operation {
  id: string;
  method: HttpMethod;
  path: string;
  scope: string;
  summary: string;
  description?: string;
  tag: string;
  params?: Shape;
  query?: Shape;
  body?: Shape;
  response?: z.ZodType;
  status?: 200 | 201 | 204;
  location?: (result: unknown) => string;
  ifMatch?: string;
  mcp?: McpView<unknown>;
  csv?: { rows: string };
  upload?: { field: string; description: string };
  target?: (input: OperationValues, result: unknown) => string;
  run(
    input: {
      params: Record<string, unknown>;
      query: Record<string, unknown>;
      body: Record<string, unknown>;
      file?: UploadedPart;
    },
    ctx: OperationContext,
  ): Promise<unknown>;
}

/** Type-checks a declaration and erases its types for the operation list. */
export function defineOperation<P extends Shape = {}, Q extends Shape = {}, B extends Shape = {}, R = unknown>(
  def: OperationDefinition<P, Q, B, R>,
): Operation {
  return def as unknown as Operation;
}
