/**
 * Connected apps and the audit trail as admin operations (issue 11: "every admin action is also an
 * admin API operation"). The same services as the operator area (/admin/{site}/connections and
 * /admin/{site}/audit) run them: `Connections` (src/oauth/connections.ts) and `AuditTrail`
 * (src/platform/audit.ts, DESIGN D10).
 *
 * Scopes (SPEC §2.5): `school:read` to list, `school:write` to revoke. Grants and the audit trail
 * describe the site's OAuth applications and who uses them, the same family as the site settings
 * and the OAuth applications themselves (operations/site.ts); docs/admin-api.md says why.
 */
import { z } from 'zod';
import { AUDIT_KINDS, type AuditKind } from '../platform/audit.js';
import { MAX_PAGE_SIZE } from '../platform/paging.js';
import { PlatformError, notFound } from '../platform/errors.js';
import { defineOperation, DESTRUCTIVE } from './operation.js';
import { auditTarget } from '../platform/audit.js';
import { nextCursor, pageQuery } from './paging.js';

const grant = z.object({
  grantId: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  kind: z
    .string()
    .describe(
      'Kind of client, as people read it (vendor, application on a computer, metadata document, site application).',
    ),
  userId: z.string(),
  userEmail: z.string(),
  scope: z.string().describe('Space-separated scopes granted.'),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  dpopJkt: z
    .string()
    .nullable()
    .describe(
      'Key-bound grant (DPoP, RFC 9449): the RFC 7638 thumbprint of the key its latest tokens are bound to (their cnf.jkt); null for bearer tokens.',
    ),
});

const clientId = z.string().min(1).max(200);

export const listConnectedGrants = defineOperation({
  id: 'listConnectedGrants',
  method: 'get',
  path: '/api/v1/connected-grants',
  scope: 'school:read',
  tag: 'school',
  summary: 'Connected apps: every live grant at your site, newest first',
  description:
    'Every grant members gave at your site (client, kind, user, scopes, created, last used), optionally of one client or one user, page by page.',
  query: { ...pageQuery, clientId: clientId.optional(), userId: z.string().max(128).optional() },
  response: z.object({ grants: z.array(grant), nextCursor }),
  async run({ query }, ctx) {
    const page = await ctx.services.connections.pageOfSite(ctx.siteId, query);
    const grants = page.items.map((g) => ({
      grantId: g.grantId,
      clientId: g.clientId,
      clientName: g.clientName,
      kind: g.kindLabel,
      userId: g.userId,
      userEmail: g.userEmail,
      scope: g.scope,
      createdAt: g.createdAt,
      lastUsedAt: g.lastUsedAt,
      dpopJkt: g.dpopJkt,
    }));
    return { grants, nextCursor: page.nextCursor };
  },
});

export const revokeConnectedGrant = defineOperation({
  id: 'revokeConnectedGrant',
  method: 'delete',
  path: '/api/v1/connected-grants/{grantId}',
  scope: 'school:write',
  tag: 'school',
  summary: 'Revoke one grant: its access and refresh tokens are refused at once on every surface',
  params: { grantId: z.string().min(1).max(200) },
  status: 204,
  target: ({ params }) => auditTarget('grant', params.grantId),
  mcp: {
    name: 'revoke_connected_grant',
    title: 'Revoke one connected app grant',
    annotations: DESTRUCTIVE,
    output: { revoked: z.string() },
    present: (_r, args) => ({ revoked: args.grantId }),
  },
  async run({ params }, ctx) {
    const n = await ctx.services.connections.revoke(
      { siteId: ctx.siteId },
      { grantId: params.grantId },
      { userId: ctx.userId },
    );
    if (n === 0) throw notFound('grant', params.grantId);
  },
});

export const revokeClientGrants = defineOperation({
  id: 'revokeClientGrants',
  method: 'delete',
  path: '/api/v1/connected-grants/by-client/{clientId}',
  scope: 'school:write',
  tag: 'school',
  summary: 'Revoke every grant of one client at your site (404 when it has none here)',
  params: { clientId },
  status: 204,
  target: ({ params }) => auditTarget('application', params.clientId),
  mcp: {
    name: 'revoke_client_grants',
    title: 'Revoke every grant of an application',
    annotations: DESTRUCTIVE,
    output: { revoked: z.string() },
    present: (_r, args) => ({ revoked: args.clientId }),
  },
  async run({ params }, ctx) {
    const n = await ctx.services.connections.revoke(
      { siteId: ctx.siteId },
      { clientId: params.clientId },
      { userId: ctx.userId },
    );
    if (n === 0) throw notFound('grant of client', params.clientId);
  },
});

const auditEvent = z.object({
  id: z.string(),
  at: z.string().describe('ISO 8601 UTC.'),
  kind: z.enum(Object.keys(AUDIT_KINDS) as [AuditKind, ...AuditKind[]]),
  clientId: z.string().nullable().describe("The client that acted (the token's client); null for the operator area."),
  userId: z.string().nullable(),
  detail: z.string().describe('Short text for people; never a token, code, secret or password.'),
  target: z
    .string()
    .nullable()
    .describe(
      'Operator actions: what was acted on, `<type>:<id>` (e.g. `application:<client_id>`, `invitation:<id>`, `member:<email>`).',
    ),
  surface: z
    .enum(['api', 'mcp', 'admin'])
    .nullable()
    .describe(
      'Operator actions: where the action came from (`api`: /api/v1, `mcp`: an MCP tool, `admin`: the operator area).',
    ),
  count: z
    .number()
    .int()
    .min(1)
    .describe(
      'How many events the row stands for: refreshes are counted, one row per grant and UTC hour (`at` the first refresh, `lastAt` the last); every other event is a row of its own (1).',
    ),
  lastAt: z.string().describe('ISO 8601 UTC of the last event the row counts; equals `at` when `count` is 1.'),
  grantId: z.string().nullable().describe('The grant of a token event (issuance, refresh), when known.'),
});

/** Opaque audit cursor: base64url of `[at, id]` of the last row of the page. */
function readAuditCursor(cursor: string): { at: string; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && typeof id === 'string') return { at, id };
  } catch {
    // falls through to the error below
  }
  throw new PlatformError('invalid', 'cursor: not a cursor of this list; start again without one', { field: 'cursor' });
}

const isoTime = z.string().datetime({ offset: true });

export const listAuditEvents = defineOperation({
  id: 'listAuditEvents',
  method: 'get',
  path: '/api/v1/audit-events',
  scope: 'school:read',
  tag: 'school',
  summary: 'The audit trail of your site, newest first, filtered by client, user, kind and time',
  description: `Registrations, consents, token issuance and refreshes, revocations, refused requests and operator actions at your site, kept for the configured retention. \`from\` is inclusive, \`to\` exclusive. Pages hold at most ${MAX_PAGE_SIZE} events.`,
  query: {
    limit: z.number().int().min(1).max(MAX_PAGE_SIZE).default(50).describe(`Rows per page, 1–${MAX_PAGE_SIZE}.`),
    cursor: pageQuery.cursor,
    clientId: clientId
      .optional()
      .describe(
        'Events of one client: those it made and the operator actions on it (target `application:<clientId>`), from every surface.',
      ),
    userId: z.string().max(128).optional(),
    kind: z.enum(Object.keys(AUDIT_KINDS) as [AuditKind, ...AuditKind[]]).optional(),
    from: isoTime.optional(),
    to: isoTime.optional(),
  },
  response: z.object({ events: z.array(auditEvent), nextCursor }),
  csv: { rows: 'events' },
  async run({ query }, ctx) {
    const rows = await ctx.services.audit.list(ctx.siteId, {
      clientId: query.clientId,
      userId: query.userId,
      kind: query.kind,
      from: query.from ? new Date(query.from).toISOString() : undefined,
      to: query.to ? new Date(query.to).toISOString() : undefined,
      after: query.cursor === undefined ? undefined : readAuditCursor(query.cursor),
      limit: Math.min(query.limit + 1, MAX_PAGE_SIZE),
    });
    const items = rows.slice(0, query.limit);
    const last = items[items.length - 1];
    // One extra row asked for tells whether a next page exists (when limit < MAX_PAGE_SIZE); at the
    // largest page size a full page gets a cursor, and the next page may be empty.
    const more = rows.length > query.limit || (query.limit === MAX_PAGE_SIZE && rows.length === MAX_PAGE_SIZE);
    return {
      events: items.map((e) => ({
        id: e.id,
        at: e.at,
        kind: e.kind,
        clientId: e.clientId,
        userId: e.userId,
        detail: e.detail,
        target: e.target,
        surface: e.surface,
        count: e.count,
        lastAt: e.lastAt,
        grantId: e.grantId,
      })),
      nextCursor: more && last ? Buffer.from(JSON.stringify([last.at, last.id]), 'utf8').toString('base64url') : null,
    };
  },
});
