/**
 * Platform data tables (DESIGN.md D5), as Kysely types. Timestamps are ISO 8601 strings in UTC;
 * booleans are 0/1 integers so the same rows work on SQLite and PostgreSQL.
 */
import type { ColumnType, Generated } from 'kysely';

export interface SitesTable {
  id: string;
  name: string;
  /** 1 when the operator enabled the "MCP connections" beta (SPEC §5.4 member clients). */
  mcp_connections_enabled: number;
  created_at: string;
}

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  /** `scrypt$N$r$p$saltB64$hashB64` (node:crypto scrypt). */
  password_hash: string;
  created_at: string;
  /**
   * DESIGN D5 (issue #25 finding 2c): epoch milliseconds of the last password set or reset; every
   * session, web session, code and refresh token of the user begun before it is refused
   * (migration `0022_verified_accounts`). Null: never changed.
   */
  sessions_valid_after?: number | null;
}

export interface MembershipsTable {
  site_id: string;
  user_id: string;
  /** One of `owner`, `admin`, `instructor`, `student` (one row per role). */
  role: string;
  /** Copy of `users.email` (members list sort key, issue #29); filled by an insert trigger. */
  email: Generated<string | null>;
}

export interface CoursesTable {
  id: string;
  site_id: string;
  slug: string;
  title: string;
  description: string;
  /** 1 = listed in the public catalogue (anonymous MCP tools). */
  is_public: number;
  created_at: string;
}

export interface LecturesTable {
  id: string;
  course_id: string;
  title: string;
  position: number;
  duration_seconds: number;
}

export interface EnrollmentsTable {
  id: string;
  site_id: string;
  user_id: string;
  course_id: string;
  /** Access expiry; null with `lifetime_access = 1`. */
  expires_at: string | null;
  lifetime_access: number;
  created_at: string;
  /** Copy of `users.email` (students list sort key, issue #29); filled by an insert trigger. */
  email: Generated<string | null>;
  /** Copy of `courses.slug` (students list sort key, issue #29); filled by an insert trigger. */
  course_slug: Generated<string | null>;
}

export interface LectureProgressTable {
  user_id: string;
  site_id: string;
  course_id: string;
  lecture_id: string;
  position_seconds: number;
  /** When the client observed the position (monotonic guard: an older write never wins). */
  recorded_at: string;
  updated_at: string;
}

export interface OrdersTable {
  id: string;
  site_id: string;
  user_id: string;
  number: string;
  /** `pending`, `paid`, `refunded`, `cancelled`. */
  status: string;
  /** Integer minor units of `currency` (ISO 4217). */
  total_minor: number;
  currency: string;
  created_at: string;
}

export interface OrderItemsTable {
  id: string;
  order_id: string;
  title: string;
  course_id: string | null;
  quantity: number;
  unit_price_minor: number;
}

export interface EventsTable {
  id: string;
  site_id: string;
  title: string;
  starts_at: string;
  ends_at: string;
  location: string;
}

export interface EventRegistrationsTable {
  id: string;
  site_id: string;
  user_id: string;
  event_id: string;
  /** `registered`, `waitlisted`, `cancelled`, `attended`. */
  status: string;
  created_at: string;
}

export interface SigningKeysTable {
  kid: string;
  /** DESIGN D6: `published` (JWKS only), `active` (signs), `retired`. */
  state: string;
  private_jwk: string;
  created_at: string;
  /** Rotation schedule (src/oauth/key-rotation.ts); NULL for keys stored before it = `created_at`. */
  published_at: string | null;
  activated_at: string | null;
  /** Set on retirement: no process signs with the key after this instant. */
  signed_until: string | null;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface OauthApplicationsTable {
  client_id: string;
  site_id: string;
  client_name: string;
  /** JSON array of strings. */
  redirect_uris: string;
  /** Space-delimited scopes the operator picked. */
  scope: string;
  created_by: string | null;
  created_at: string;
}

/**
 * Issue #28 (DESIGN D12): every client registration, durable in the platform store
 * (src/store/durable-clients.ts): the oidc-provider client metadata as JSON.
 */
export interface OauthClientsTable {
  client_id: string;
  /** The adapter payload (client metadata), JSON. */
  metadata: string;
  /** Epoch seconds when the registration lapses (a loopback client unused for 24 h); null = never. */
  expires_at: number | null;
  updated_at: string;
}

/** DESIGN D11: a one-time link (first password, password reset); only the SHA-256 of its token is stored. */
export interface OneTimeLinksTable {
  /** base64url SHA-256 of the token given out in the link. */
  token_hash: string;
  user_id: string;
  /** `set_password`. */
  purpose: string;
  expires_at: string;
  /** Set when the link was used (a link works once). */
  used_at: string | null;
  created_at: string;
}

/** DESIGN D10: one audit trail row. `detail` is plain text for people, never a token, code or password. */
/**
 * The audit webhook's queue (src/ops/audit-webhook.ts): one row per write of an audit event to
 * deliver to `AUDIT_WEBHOOK_URL`; deleted once delivered, kept with `dead_at` after the last try.
 */
export interface AuditDeliveriesTable {
  /** The delivery's id (RFC 9562 v7 UUID), sent as `Coursegate-Delivery`. */
  id: string;
  /** The audit event's id (`audit_events.id`), the receiver's de-duplication key. */
  event_id: string;
  /** The JSON body to POST, signed as it is stored. */
  body: string;
  /** Tries made so far. */
  attempts: number;
  /** ISO 8601 UTC: not tried before this time. */
  next_attempt_at: string;
  /** ISO 8601 UTC: a process is delivering it until then (a crashed process's claim lapses). */
  claimed_until: string | null;
  /** ISO 8601 UTC of the last try when the delivery gave up (a dead letter); null while pending. */
  dead_at: string | null;
  /** The last try's failure (status or network error), never the body. */
  last_error: string | null;
  /** ISO 8601 UTC. */
  created_at: string;
}

export interface AuditEventsTable {
  id: string;
  /** Null for events that belong to no site (e.g. a registration of a loopback client). */
  site_id: string | null;
  /** ISO 8601 UTC. */
  at: string;
  /** See `AUDIT_KINDS` in src/platform/audit.ts. */
  kind: string;
  /**
   * The client that acted: the token's client for requests that carry one (every kind); null for
   * the operator area (a web session) and events of no client.
   */
  client_id: string | null;
  user_id: string | null;
  detail: string;
  /**
   * What an operator action acted on, `<type>:<id>` (e.g. `application:<client_id>`,
   * `invitation:<id>`, `member:<email>`); null for other kinds (migration `0021_operations_layer`).
   */
  target: string | null;
  /** Where an operator action came from: `api`, `mcp` or `admin`; null for other kinds. */
  surface: string | null;
  /**
   * Events the row stands for (migration `0024_refresh_counters`, DESIGN D10): 1, or the refreshes
   * of one grant in one UTC hour, whose counter row this is.
   */
  count: ColumnType<number, number | undefined, number>;
  /** ISO 8601 UTC of the last event counted (`at` is the first); null on rows older than 0024. */
  last_at: string | null;
  /** The grant of a token event, when known; the key (with the hour) of a refresh counter. */
  grant_id: string | null;
}

/**
 * Table `resource_versions` (migration `0021_operations_layer`): a version per representation that
 * updates guard with If-Match (RFC 9110 §13.1.1). An update claims the version it read with
 * `UPDATE … SET version = version + 1 WHERE version = ?`, so of parallel updates sent with one
 * ETag exactly one proceeds (src/platform/versions.ts).
 */
export interface ResourceVersionsTable {
  site_id: string;
  /** `<reading operation id> <JSON of its path parameters>`. */
  resource: string;
  version: number;
}

/** Connected apps: one row per grant given at a site (the grant itself lives in the OIDC store). */
export interface ConnectedGrantsTable {
  grant_id: string;
  site_id: string;
  client_id: string;
  user_id: string;
  /** Space-delimited scopes consented. */
  scope: string;
  created_at: string;
  /** Last token issuance or refresh of the grant; null before the first. */
  last_used_at: string | null;
  /**
   * RFC 7638 thumbprint of the key the grant's latest tokens are DPoP-bound to (RFC 9449 `cnf.jkt`);
   * null when they are bearer tokens. Migration 0030.
   */
  dpop_jkt: string | null;
}

export interface PlatformDatabase {
  sites: SitesTable;
  users: UsersTable;
  memberships: MembershipsTable;
  courses: CoursesTable;
  lectures: LecturesTable;
  enrollments: EnrollmentsTable;
  lecture_progress: LectureProgressTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  events: EventsTable;
  event_registrations: EventRegistrationsTable;
  signing_keys: SigningKeysTable;
  settings: SettingsTable;
  oauth_applications: OauthApplicationsTable;
  oauth_clients: OauthClientsTable;
  one_time_links: OneTimeLinksTable;
  audit_events: AuditEventsTable;
  audit_deliveries: AuditDeliveriesTable;
  connected_grants: ConnectedGrantsTable;
  resource_versions: ResourceVersionsTable;
}
