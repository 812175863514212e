/**
 * Tables added by migration `0002_operator` (coupons), as Kysely types, and the database type the
 * operator services query. Kept beside the services so `schema.ts` stays the platform core.
 */
import type { PlatformDatabase } from '../schema.js';

export interface CouponsTable {
  id: string;
  site_id: string;
  /** Upper-case code the buyer types, unique per site. */
  code: string;
  /** 1…100. */
  percent_off: number;
  /** Null = unlimited. */
  max_redemptions: number | null;
  redemptions: number;
  /** ISO 8601 UTC; null = never expires. */
  expires_at: string | null;
  /** 0/1; a deactivated coupon is kept for the order history. */
  active: number;
  created_at: string;
}

/**
 * Migration `0026_site_tallies` (issue #29): a site's maintained counters, kept by triggers on the
 * counted tables. Metrics: `courses` (`total`, `public`), `people` (`''`: distinct members),
 * `role` (per role), `enrollments` (`total`, `open`: lifetime access or no expiry),
 * `order_status` (per status), `paid_minor` (per currency: minor units of paid orders),
 * `registration_status` (per status), `client_grants` (connected grants per client id).
 */
export interface SiteTalliesTable {
  site_id: string;
  metric: string;
  key: string;
  /** A count, or minor units for `paid_minor` (bigint on PostgreSQL: read with `Number()`). */
  n: number | string;
}

/** Migration `0026_site_tallies` (issue #29): each learner's last progress at a site (ISO 8601 UTC). */
export interface LearnerActivityTable {
  site_id: string;
  user_id: string;
  last_at: string;
}

export interface OperatorDatabase extends PlatformDatabase {
  coupons: CouponsTable;
  site_tallies: SiteTalliesTable;
  learner_activity: LearnerActivityTable;
}
