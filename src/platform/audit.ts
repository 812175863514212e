/**
 * The audit trail (DESIGN D10): one small module through which registrations, consents, token
 * issuance and refreshes, revocations, refused requests and operator actions are recorded per
 * site, in the platform store (SQLite or PostgreSQL), kept for a configurable number of days.
 *
 * Rule of the module: an event names *who* (user id, client id), *what* (kind) and a short
 * human-readable `detail` (grant type, scopes, error code); it never carries a token, code,
 * secret or password. `record` enforces it by refusing details that look like credentials.
 * Knows nothing of HTTP or OAuth.
 */
import { v7 as uuidv7 } from 'uuid';
import { sql, type Insertable, type Kysely, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import { clampPageSize, MAX_PAGE_SIZE } from './paging.js';
import { PreparedQuery } from './prepared.js';

/** Kinds of audit events, with the label people read in the operator area. */
export const AUDIT_KINDS = {
  registration: 'Client registered',
  consent: 'Consent given',
  token_issued: 'Tokens issued',
  refresh: 'Tokens refreshed',
  revocation: 'Revoked',
  refused: 'Request refused',
  operator_action: 'Operator action',
} as const;

export type AuditKind = keyof typeof AUDIT_KINDS;

/** One event to record. */
export interface AuditInput {
  kind: AuditKind;
  /** The site it happened at; null when it belongs to no site (e.g. a loopback registration). */
  siteId: string | null;
  /** The client that acted (the token's client); null for the operator area and clientless events. */
  clientId?: string | null;
  userId?: string | null;
  /** Short text for people: never a token, code, secret or password. */
  detail?: string;
  /** Operator actions: what was acted on, `<type>:<id>`, e.g. `application:<client_id>` (see {@link auditTarget}). */
  target?: string | null;
  /** Operator actions: the surface the action came through. */
  surface?: AuditSurface | null;
}

/** The surfaces operator actions come through (DESIGN D10): `/api/v1`, MCP tools, `/admin`. */
export type AuditSurface = 'api' | 'mcp' | 'admin';

/**
 * The `target` of an operator action: `<type>:<id>`. An action on an OAuth application names
 * `application:<client_id>`, so that filtering the trail by a client id finds the actions of every
 * surface on that application as well as the client's own requests (see `AuditFilter.clientId`).
 */
export const auditTarget = (type: string, id: string): string => `${type}:${id}`;

/** One stored event. */
export interface AuditEvent {
  id: string;
  /** ISO 8601 UTC. */
  at: string;
  kind: AuditKind;
  siteId: string | null;
  clientId: string | null;
  userId: string | null;
  detail: string;
  /** Operator actions: what was acted on (`<type>:<id>`); null otherwise. */
  target: string | null;
  /** Operator actions: `api`, `mcp` or `admin`; null otherwise. */
  surface: AuditSurface | null;
}

/** Filters of `list`; times are ISO 8601, `from` inclusive, `to` exclusive. */
export interface AuditFilter {
  /**
   * Events of one OAuth client: those the client made (`clientId`) and the operator actions on it
   * (`target` = `application:<clientId>`), whatever surface they came through.
   */
  clientId?: string;
  userId?: string;
  kind?: AuditKind;
  from?: string;
  to?: string;
  /** Rows to return: 1…MAX_PAGE_SIZE (paging.ts), default MAX_PAGE_SIZE. */
  limit?: number;
  /** Keyset cursor: only events strictly after this one in list order (newest first: `at` desc, `id` desc). */
  after?: { at: string; id: string };
}

/**
 * The id of a new event: a time-ordered UUID (RFC 9562 §5.7, version 7; the `uuid` package, which
 * keeps ids of one millisecond in order too). Issue #15: ids in recording order land next to each
 * other in the primary-key index, so each INSERT touches the index's last page instead of a random
 * one per row (a random v4 id cost ~16 µs of CPU per event on SQLite with 100,000 events stored, a
 * v7 id ~7.5 µs).
 */
const newEventId: () => string = uuidv7;

/** Anything that looks like a bearer credential (long base64url run) is cut out of `detail`. */
const CREDENTIAL_LIKE = /[A-Za-z0-9_-]{32,}/g;

/**
 * How long a recorded event waits for others to be written with it, in milliseconds (issue #15):
 * under load the events of this window share one INSERT and one commit (a refresh grant's event
 * costs ~45 µs of CPU written alone, ~20 µs in a batch of ten).
 */
export const AUDIT_BATCH_MS = 10;
/** Pending events that are written at once, without waiting for the window to end. */
const AUDIT_BATCH_ROWS = 200;
/**
 * Batches of up to this many events are written by an INSERT compiled once per batch size
 * (issue #15: building and compiling a new Kysely INSERT per batch cost ~2–4 µs of CPU per event);
 * larger batches, rare bursts, are built per batch.
 */
const PREPARED_BATCH_ROWS = 64;

type AuditRow = Insertable<PlatformDatabase['audit_events']>;
/** The columns of an event row, in the order a prepared INSERT binds them. */
const AUDIT_COLUMNS = ['id', 'site_id', 'at', 'kind', 'client_id', 'user_id', 'detail', 'target', 'surface'] as const;

/** Records and reads audit events; purges those older than the retention. */
export class AuditTrail {
  /**
   * @param retentionDays events older than this are deleted by `purge` (DESIGN D10)
   */
  constructor(
    private readonly db: Kysely<PlatformDatabase>,
    readonly retentionDays: number,
  ) {}

  /** Events waiting for the next write (see `record`). */
  private pending: Array<{ row: AuditRow; resolve: () => void; reject: (err: unknown) => void }> = [];
  /** The INSERT of a batch of n ≤ {@link PREPARED_BATCH_ROWS} events, compiled once, by n. */
  private readonly inserts = new Map<number, PreparedQuery<unknown[], unknown>>();
  /** The write scheduled for the pending events. */
  private timer: NodeJS.Timeout | undefined;

  /**
   * Records one event. `detail` is cut to 300 characters and stripped of credential-like strings.
   *
   * Events recorded within {@link AUDIT_BATCH_MS} of each other are written together, in one
   * multi-row INSERT (issue #15: every refresh grant records one; on SQLite each INSERT was a commit
   * of its own). The promise settles once the event is stored.
   * @throws what the platform store throws when the batch's INSERT fails (every event of that batch)
   */
  record(input: AuditInput, now = new Date()): Promise<void> {
    const row = {
      id: newEventId(),
      site_id: input.siteId,
      at: now.toISOString(),
      kind: input.kind,
      client_id: input.clientId ?? null,
      user_id: input.userId ?? null,
      detail: (input.detail ?? '').replace(CREDENTIAL_LIKE, '[redacted]').slice(0, 300),
      // Ids of the platform (never credentials): kept whole, since filters match them exactly.
      target: input.target ? input.target.slice(0, 300) : null,
      surface: input.surface ?? null,
    };
    return new Promise((resolve, reject) => {
      this.pending.push({ row, resolve, reject });
      if (this.pending.length >= AUDIT_BATCH_ROWS) void this.flush();
      else if (!this.timer) this.timer = setTimeout(() => void this.flush(), AUDIT_BATCH_MS);
    });
  }

  /** Writes the events recorded so far (called on its own {@link AUDIT_BATCH_MS} after an event; and before the store closes). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.pending.length > 0) {
      // 9 parameters a row: 1,000 rows stay far below PostgreSQL's 65,535 bind parameters.
      const batch = this.pending.splice(0, 1000);
      try {
        await this.insert(batch.map((b) => b.row));
        for (const b of batch) b.resolve();
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
  }

  /** One multi-row INSERT of `rows` (the same SQL on SQLite and PostgreSQL, values bound). */
  private async insert(rows: AuditRow[]): Promise<void> {
    const n = rows.length;
    if (n > PREPARED_BATCH_ROWS) {
      await this.db.insertInto('audit_events').values(rows).execute();
      return;
    }
    let prepared = this.inserts.get(n);
    if (!prepared) {
      const width = AUDIT_COLUMNS.length;
      const build = (...values: unknown[]) =>
        this.db
          .insertInto('audit_events')
          .values(
            Array.from(
              { length: n },
              (_, r) => Object.fromEntries(AUDIT_COLUMNS.map((c, i) => [c, values[r * width + i]])) as AuditRow,
            ),
          );
      this.inserts.set(n, (prepared = new PreparedQuery(n * width, build)));
    }
    const values: unknown[] = [];
    for (const row of rows) for (const c of AUDIT_COLUMNS) values.push(row[c] ?? null);
    await this.db.executeQuery(prepared.bind(...values));
  }

  /**
   * A site's events, newest first (`at` desc, then `id` desc), filtered; at most `filter.limit`
   * (≤ MAX_PAGE_SIZE). Every filter is an index range read in page order (issue #29): the client
   * filter is two of them, the client's own events (`audit_events_site_client_at`) and the
   * operator actions on it (`audit_events_site_target`), each cut at the page size and merged, so
   * a rare client in a big site costs a page, not a walk of the site's trail.
   */
  async list(siteId: string, filter: AuditFilter = {}): Promise<AuditEvent[]> {
    const limit = clampPageSize(filter.limit, MAX_PAGE_SIZE);
    const after = filter.after;
    const narrowed = (
      q: SelectQueryBuilder<PlatformDatabase, 'audit_events', Selectable<PlatformDatabase['audit_events']>>,
    ) => {
      if (filter.userId) q = q.where('user_id', '=', filter.userId);
      if (filter.kind) q = q.where('kind', '=', filter.kind);
      if (filter.from) q = q.where('at', '>=', filter.from);
      if (filter.to) q = q.where('at', '<', filter.to);
      // A row-value comparison: the store seeks straight to the cursor in the index.
      if (after) q = q.where((eb) => eb(eb.refTuple('at', 'id'), '<', eb.tuple(after.at, after.id)));
      return q.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit);
    };
    const base = () => this.db.selectFrom('audit_events').selectAll().where('site_id', '=', siteId);
    const clientId = filter.clientId;
    let rows: Array<Selectable<PlatformDatabase['audit_events']>>;
    if (!clientId) {
      rows = await narrowed(base()).execute();
    } else {
      const target = auditTarget('application', clientId);
      const own = narrowed(base().where('client_id', '=', clientId));
      // An action on the application that the client itself made is already among `own`.
      const onIt = narrowed(
        base()
          .where('target', '=', target)
          .where((eb) => eb.or([eb('client_id', 'is', null), eb('client_id', '!=', clientId)])),
      );
      rows = await this.db
        .selectFrom(own.as('own'))
        .selectAll()
        .unionAll(this.db.selectFrom(onIt.as('on_it')).selectAll())
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    }
    return rows.map((r) => ({
      id: r.id,
      at: r.at,
      kind: r.kind as AuditKind,
      siteId: r.site_id,
      clientId: r.client_id,
      userId: r.user_id,
      detail: r.detail,
      target: r.target ?? null,
      surface: (r.surface ?? null) as AuditSurface | null,
    }));
  }

  /**
   * Token issuance and refresh events (kinds `token_issued`, `refresh`) of a site per client per
   * UTC day, for the last `days` days including today (the operator overview's usage chart).
   * @param days 1…retention; days before the retention window simply have no rows
   * @returns `{ day: 'YYYY-MM-DD', clientId, count }` rows with count ≥ 1, by day then client
   */
  async tokenUsage(
    siteId: string,
    days: number,
    now = new Date(),
  ): Promise<Array<{ day: string; clientId: string; count: number }>> {
    const from = usageDays(days, now)[0]!;
    const day = sql<string>`substr(at, 1, 10)`;
    const rows = await this.db
      .selectFrom('audit_events')
      .select((eb) => [day.as('day'), 'client_id', eb.fn.countAll().as('n')])
      .where('site_id', '=', siteId)
      .where('kind', 'in', ['token_issued', 'refresh'])
      .where('client_id', 'is not', null)
      .where('at', '>=', `${from}T00:00:00.000Z`)
      .groupBy([day, 'client_id'])
      .execute();
    return rows
      .map((r) => ({ day: String(r.day), clientId: String(r.client_id), count: Number(r.n) }))
      .sort((a, b) => a.day.localeCompare(b.day) || a.clientId.localeCompare(b.clientId));
  }

  /**
   * Deletes events older than the retention, in batches of `batchRows` oldest events (issue #29):
   * each batch is one DELETE that finds its rows by a range scan of `audit_events_at`, so a purge
   * with nothing due reads one index entry, and no statement holds the store (or, on the embedded
   * store, the event loop) for more than one batch. Between batches it yields to the event loop
   * (`setImmediate`), so requests are served while a day of events is purged.
   * @param batchRows events deleted per statement, ≥ 1 (default {@link AUDIT_PURGE_BATCH_ROWS})
   * @returns how many were deleted
   * @throws what the platform store throws (events deleted by earlier batches stay deleted)
   */
  async purge(now = new Date(), batchRows = AUDIT_PURGE_BATCH_ROWS): Promise<number> {
    const cutoff = new Date(now.getTime() - this.retentionDays * 86_400_000).toISOString();
    const batch = Math.max(1, Math.trunc(batchRows));
    let deleted = 0;
    for (;;) {
      const result = await this.db
        .deleteFrom('audit_events')
        .where('id', 'in', (eb) =>
          eb.selectFrom('audit_events').select('id').where('at', '<', cutoff).orderBy('at').limit(batch),
        )
        .executeTakeFirst();
      const n = Number(result.numDeletedRows);
      deleted += n;
      if (n < batch) return deleted;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}

/** Events the retention purge deletes per statement (issue #29: ~5–10 ms of store work each). */
export const AUDIT_PURGE_BATCH_ROWS = 1000;

/** The last `days` UTC days including today's, oldest first, as `YYYY-MM-DD`. */
export function usageDays(days: number, now = new Date()): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) =>
    new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}
