/**
 * The audit trail (DESIGN D10): one small module through which registrations, consents, token
 * issuance and refreshes, revocations, refused requests and operator actions are recorded per
 * site, in the platform store (SQLite or PostgreSQL), kept for a configurable number of days.
 *
 * Refreshes are audited as counters, not rows (DESIGN D10, issue #29): a refresh of a known grant
 * adds to one row per grant and UTC hour (`count`, `at` = the first refresh of the hour, `lastAt` =
 * the last, client, site, user); code exchanges, reuse detection, revocations, refusals and
 * operator actions stay one row each. The counter row's id is derived from the grant and the hour
 * (see {@link refreshCounterId}), so adding to it is an upsert on the primary key: no extra index.
 *
 * Rule of the module: an event names *who* (user id, client id), *what* (kind) and a short
 * human-readable `detail` (grant type, scopes, error code); it never carries a token, code,
 * secret or password. `record` enforces it by refusing details that look like credentials.
 * Knows nothing of HTTP or OAuth.
 */
import { hash } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import {
  PostgresAdapter,
  sql,
  type Insertable,
  type InsertQueryBuilder,
  type InsertResult,
  type Kysely,
  type Selectable,
} from 'kysely';
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
  sign_in: 'Signed in',
  sign_in_failed: 'Sign-in failed',
  sign_in_locked: 'Sign-in locked',
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
  /**
   * The grant the event belongs to. A `refresh` with a grant id is counted on its grant's row of
   * the hour (DESIGN D10) instead of getting a row of its own; other kinds just keep it.
   */
  grantId?: string | null;
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
  /** How many events the row stands for: ≥ 1; refreshes of one grant in one UTC hour share a row. */
  count: number;
  /** ISO 8601 UTC of the last event the row counts (`at` is the first); equals `at` for a single event. */
  lastAt: string;
  /** The grant of a refresh counter (and of other token events that name one); null otherwise. */
  grantId: string | null;
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

/** One UTC hour, in milliseconds: the span of a refresh counter row. */
const HOUR_MS = 3_600_000;

/**
 * The id of the refresh counter row of `grantId` in the UTC hour holding `at` (DESIGN D10): an
 * RFC 9562 version 7 UUID whose time is the hour's start and whose other bits come from
 * SHA-256 of the grant id, so every refresh of the grant in that hour names the same row, and the
 * rows of one hour stay next to each other in the primary-key index.
 * @param at the refresh's time
 */
export function refreshCounterId(grantId: string, at: Date): string {
  const hour = Math.floor(at.getTime() / HOUR_MS) * HOUR_MS;
  const random = new Uint8Array(hash('sha256', grantId, 'buffer').subarray(0, 16));
  return uuidv7({ msecs: hour, random });
}

/** Anything that looks like a bearer credential (long base64url run) is cut out of `detail`. */
const CREDENTIAL_LIKE = /[A-Za-z0-9_-]{32,}/g;
/**
 * Identifiers that `CREDENTIAL_LIKE` would cut and that the trail must show: a UUID (RFC 9562
 * §4, hex in 8-4-4-4-12 groups), alone or after a short type prefix such as the user ids
 * `usr_<uuid>`. Its fixed shape is not what a random base64url secret looks like.
 */
const IDENTIFIER = /^(?:[a-z]{1,8}_)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `detail` with every credential-like run cut out, identifiers kept (at most 300 characters). */
export const redactDetail = (detail: string): string =>
  detail.replace(CREDENTIAL_LIKE, (run) => (IDENTIFIER.test(run) ? run : '[redacted]')).slice(0, 300);

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

/** An `audit_events` row as it is inserted (bulk seeds write the same shape: bench/volume.ts). */
export type AuditRow = Insertable<PlatformDatabase['audit_events']>;
/** The columns of an event row, in the order a prepared INSERT binds them. */
export const AUDIT_COLUMNS = [
  'id',
  'site_id',
  'at',
  'kind',
  'client_id',
  'user_id',
  'detail',
  'target',
  'surface',
  'count',
  'last_at',
  'grant_id',
] as const;

/** A stored row as an {@link AuditEvent} (the list's items, the webhook's body). */
export function eventOf(r: Selectable<PlatformDatabase['audit_events']>): AuditEvent {
  return {
    id: r.id,
    at: r.at,
    kind: r.kind as AuditKind,
    siteId: r.site_id,
    clientId: r.client_id,
    userId: r.user_id,
    detail: r.detail,
    target: r.target ?? null,
    surface: (r.surface ?? null) as AuditSurface | null,
    count: Number(r.count ?? 1),
    lastAt: r.last_at ?? r.at,
    grantId: r.grant_id ?? null,
  };
}

/** Records and reads audit events; purges those older than the retention. */
export class AuditTrail {
  /**
   * @param retentionDays events older than this are deleted by `purge` (DESIGN D10)
   */
  constructor(
    private readonly db: Kysely<PlatformDatabase>,
    readonly retentionDays: number,
  ) {}

  /**
   * Set by {@link queueDeliveries}: every write of events also queues their webhook deliveries, in
   * the same transaction, then calls this (the deliverer's wake-up).
   */
  private delivered: (() => void) | undefined;

  /**
   * Turns on the audit webhook's queue (src/ops/audit-webhook.ts): from now on every batch of
   * events is written in one transaction with one `audit_deliveries` row per stored event (its
   * state after the write: a refresh counter's row carries its new `count`), so an event is never
   * stored without its delivery, nor queued without being stored (at-least-once delivery).
   * @param wake called after each committed batch
   */
  queueDeliveries(wake: () => void): void {
    this.delivered = wake;
  }

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
    const at = now.toISOString();
    const grantId = input.grantId ? input.grantId.slice(0, 300) : null;
    const row = {
      id: input.kind === 'refresh' && grantId ? refreshCounterId(grantId, now) : newEventId(),
      site_id: input.siteId,
      at,
      kind: input.kind,
      client_id: input.clientId ?? null,
      user_id: input.userId ?? null,
      detail: redactDetail(input.detail ?? ''),
      // Ids of the platform (never credentials): kept whole, since filters match them exactly.
      target: input.target ? input.target.slice(0, 300) : null,
      surface: input.surface ?? null,
      count: 1,
      last_at: at,
      grant_id: grantId,
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

  /**
   * One multi-row INSERT of `rows` (the same SQL on SQLite and PostgreSQL, values bound). Refresh
   * counters of one grant and hour in the batch are merged first (one statement may not update a
   * row twice on PostgreSQL); a counter row already stored gets the batch's count added and its
   * last time and detail replaced (`ON CONFLICT (id) DO UPDATE`; other ids never collide).
   */
  private async insert(batch: AuditRow[]): Promise<void> {
    const merged = new Map<string, AuditRow>();
    for (const row of batch) {
      const seen = merged.get(row.id);
      if (seen)
        merged.set(row.id, {
          ...seen,
          count: Number(seen.count) + Number(row.count),
          last_at: row.last_at,
          detail: row.detail,
        });
      else merged.set(row.id, row);
    }
    const rows = [...merged.values()];
    if (this.delivered) return this.insertQueued(rows, this.delivered);
    const n = rows.length;
    if (n > PREPARED_BATCH_ROWS) {
      await this.upsert(this.db.insertInto('audit_events').values(rows)).execute();
      return;
    }
    let prepared = this.inserts.get(n);
    if (!prepared) {
      const width = AUDIT_COLUMNS.length;
      const build = (...values: unknown[]) =>
        this.upsert(
          this.db
            .insertInto('audit_events')
            .values(
              Array.from(
                { length: n },
                (_, r) => Object.fromEntries(AUDIT_COLUMNS.map((c, i) => [c, values[r * width + i]])) as AuditRow,
              ),
            ),
        );
      this.inserts.set(n, (prepared = new PreparedQuery(n * width, build)));
    }
    const values: unknown[] = [];
    for (const row of rows) for (const c of AUDIT_COLUMNS) values.push(row[c] ?? null);
    await this.db.executeQuery(prepared.bind(...values));
  }

  /**
   * The write of {@link insert} when the webhook is on: the events and their deliveries in one
   * transaction. `RETURNING` gives each row as stored (a refresh counter after its update), which
   * is what the receiver gets.
   */
  private async insertQueued(rows: AuditRow[], wake: () => void): Promise<void> {
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      const stored = await this.upsert(trx.insertInto('audit_events').values(rows)).returningAll().execute();
      if (stored.length === 0) return;
      await trx
        .insertInto('audit_deliveries')
        .values(
          stored.map((row) => ({
            id: newEventId(),
            event_id: row.id,
            body: JSON.stringify(eventOf(row)),
            attempts: 0,
            next_attempt_at: now,
            claimed_until: null,
            dead_at: null,
            last_error: null,
            created_at: now,
          })),
        )
        .execute();
    });
    wake();
  }

  /** Every column of a site's events (the start of each `list` read). */
  private siteEvents(siteId: string) {
    return this.db.selectFrom('audit_events').selectAll().where('site_id', '=', siteId);
  }

  /** Adds the refresh counter's `ON CONFLICT (id) DO UPDATE` to an INSERT of event rows. */
  private upsert(insert: InsertQueryBuilder<PlatformDatabase, 'audit_events', InsertResult>) {
    return insert.onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        count: eb(eb.ref('audit_events.count'), '+', eb.ref('excluded.count')),
        last_at: eb.ref('excluded.last_at'),
        detail: eb.ref('excluded.detail'),
      })),
    );
  }

  /**
   * A site's events, newest first, filtered.
   *
   * Filtered by a client (issue #29), the events it made and the operator actions on it are two
   * keyset reads merged in SQL (`UNION ALL … ORDER BY at DESC, id DESC LIMIT n`): one seeks
   * `audit_events_site_client_at`, the other `audit_events_site_target_at`, each already in list
   * order, so the store merges them lazily (SQLite `MERGE (UNION ALL)`, PostgreSQL Merge Append) and reads about `limit` rows however many events the
   * site holds (an `OR` of the two columns walked the site's whole `(site_id, at)` range instead).
   */
  async list(siteId: string, filter: AuditFilter = {}): Promise<AuditEvent[]> {
    type Query = ReturnType<typeof this.siteEvents>;
    const narrow = (q: Query): Query => {
      if (filter.userId) q = q.where('user_id', '=', filter.userId);
      if (filter.kind) q = q.where('kind', '=', filter.kind);
      if (filter.from) q = q.where('at', '>=', filter.from);
      if (filter.to) q = q.where('at', '<', filter.to);
      const after = filter.after;
      // A row-value comparison (issue #29): the store seeks straight to the cursor in
      // `audit_events_site_at_id` / `…_site_client_at` / `…_site_user_at` instead of walking every
      // newer event of the site.
      if (after) q = q.where((eb) => eb(eb.refTuple('at', 'id'), '<', eb.tuple(after.at, after.id)));
      return q;
    };
    const limit = clampPageSize(filter.limit, MAX_PAGE_SIZE);
    const clientId = filter.clientId;
    // On PostgreSQL each half is its own ordered, limited read (a subquery), merged by the page: a
    // Merge Append of two limited index scans. PostgreSQL 15 plans an ORDER BY over a plain UNION
    // ALL by appending both halves whole and sorting them (a full scan for a common client's
    // events). SQLite merges the plain halves on their index order (`MERGE (UNION ALL)`), but sorts
    // the rows of limited subqueries again (their order is not carried out of a co-routine).
    const postgres = this.db.getExecutor().adapter instanceof PostgresAdapter;
    const half = (q: Query): Query =>
      postgres
        ? (this.db
            .selectFrom(narrow(q).orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).as('half'))
            .selectAll() as unknown as Query)
        : narrow(q);
    const rows = clientId
      ? await this.db
          .selectFrom(
            half(this.siteEvents(siteId).where('client_id', '=', clientId))
              .unionAll(
                half(
                  this.siteEvents(siteId)
                    .where('target', '=', auditTarget('application', clientId))
                    .where((eb) => eb.or([eb('client_id', 'is', null), eb('client_id', '!=', clientId)])),
                ),
              )
              .as('e'),
          )
          .selectAll()
          .orderBy('at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .execute()
      : await narrow(this.siteEvents(siteId)).orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map(eventOf);
  }

  /**
   * Token issuance and refresh events (kinds `token_issued`, `refresh`) of a site per client per
   * UTC day, for the last `days` days including today (the operator overview's usage chart).
   * @param days 1…retention; days before the retention window simply have no rows
   * @returns `{ day: 'YYYY-MM-DD', clientId, count }` rows with count ≥ 1, by day then client;
   *   a refresh counter row adds its `count` to the day of its first refresh; a day the retention
   *   purge passed has no rows
   */
  async tokenUsage(
    siteId: string,
    days: number,
    now = new Date(),
  ): Promise<Array<{ day: string; clientId: string; count: number }>> {
    const from = usageDays(days, now)[0]!;
    // The site's maintained tallies (migration 0026: `usage/<day> <client_id>`, kept by triggers on
    // audit_events), one primary-key range from the first day: the cost does not grow with the
    // trail, however many refreshes the site's members make (issue #29).
    const { rows } = await sql<{ key: string; n: number | string }>`
      SELECT "key", n FROM "site_tallies"
      WHERE site_id = ${siteId} AND metric = 'usage' AND "key" >= ${from} AND n > 0`.execute(this.db);
    return rows
      .map((r) => {
        const space = r.key.indexOf(' ');
        return { day: r.key.slice(0, space), clientId: r.key.slice(space + 1), count: Number(r.n) };
      })
      .sort((a, b) => a.day.localeCompare(b.day) || a.clientId.localeCompare(b.clientId));
  }

  /**
   * Deletes events older than the retention, in batches of the oldest due events (issue #29):
   * each batch is one DELETE whose rows are the first entries of a range scan of `audit_events_at`
   * (`at < cutoff`, oldest first), deleted by their physical address — SQLite's `rowid`,
   * PostgreSQL's `ctid` (a TID scan; `id IN (…)` was planned there as a hash join over a full scan
   * of the table) — so a purge with nothing due reads one index entry and each statement's work is
   * bounded by its batch, whatever the table holds. A batch holds at most `batchRows` events and
   * shrinks when a statement takes longer than `targetMs` (in proportion; it grows back, doubling,
   * up to `batchRows` while statements take under half of it): deleting a row costs one entry in
   * each of the table's indexes, more when they no longer fit in memory (~90 µs a row on SQLite at
   * 2 M events), and on the embedded store every statement holds the event loop. Between batches it
   * yields to the event loop (`setImmediate`), so requests are served while a day of events is purged.
   * @param batchRows most events deleted per statement, ≥ 1 (default {@link AUDIT_PURGE_BATCH_ROWS})
   * @param targetMs the statement time batches are fitted to, in milliseconds (default
   *   {@link AUDIT_PURGE_STATEMENT_MS}); a batch never shrinks below one event
   * @returns how many were deleted
   * @throws what the platform store throws (events deleted by earlier batches stay deleted)
   */
  async purge(
    now = new Date(),
    batchRows = AUDIT_PURGE_BATCH_ROWS,
    targetMs = AUDIT_PURGE_STATEMENT_MS,
  ): Promise<number> {
    const cutoff = new Date(now.getTime() - this.retentionDays * 86_400_000).toISOString();
    const most = Math.max(1, Math.trunc(batchRows));
    let batch = most;
    const postgres = this.db.getExecutor().adapter instanceof PostgresAdapter;
    const oldest = (column: 'rowid' | 'ctid') =>
      this.db
        .selectFrom('audit_events')
        .select(sql.ref(column).as('address'))
        .where('at', '<', cutoff)
        .orderBy('at')
        .limit(batch);
    let deleted = 0;
    for (;;) {
      const started = performance.now();
      const result = await (postgres
        ? // `= ANY(ARRAY(…))`: the batch's addresses are read first (an InitPlan), then fetched by TID.
          this.db
            .deleteFrom('audit_events')
            .where(sql.ref('ctid'), '=', sql`any(array(${oldest('ctid')}))`)
            .executeTakeFirst()
        : this.db.deleteFrom('audit_events').where(sql.ref('rowid'), 'in', oldest('rowid')).executeTakeFirst());
      const ms = performance.now() - started;
      const n = Number(result.numDeletedRows);
      deleted += n;
      if (n < batch) {
        // The usage tallies of the days the purge passed (their events are gone), one primary-key
        // range per site (the day of the cutoff itself stays: it still holds events).
        await sql`DELETE FROM "site_tallies" WHERE site_id IN (SELECT id FROM sites) AND metric = 'usage' AND "key" < ${cutoff.slice(0, 10)}`.execute(
          this.db,
        );
        return deleted;
      }
      if (ms > targetMs) batch = Math.max(1, Math.floor((batch * targetMs) / ms));
      else if (ms < targetMs / 2) batch = Math.min(most, batch * 2);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}

/** Most events the retention purge deletes per statement (issue #29). */
export const AUDIT_PURGE_BATCH_ROWS = 1000;
/**
 * The time, in milliseconds, the retention purge fits each statement to (issue #29: far under the
 * 1 s a statement may hold the store; on the embedded store it is also a pause of the event loop).
 */
export const AUDIT_PURGE_STATEMENT_MS = 50;

/** The last `days` UTC days including today's, oldest first, as `YYYY-MM-DD`. */
export function usageDays(days: number, now = new Date()): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) =>
    new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}
