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
 * `registration_status` (per status), `client_grants` (connected grants per client id),
 * `usage` (`<YYYY-MM-DD> <client_id>`: tokens issued and refreshed). Migration `0029_item_tallies`
 * (issue #29, "cost at volume") adds per-item counts keyed by the item's id: see {@link ITEM_METRICS}.
 */
export interface SiteTalliesTable {
  site_id: string;
  metric: string;
  key: string;
  /** A count, or minor units for `paid_minor` (bigint on PostgreSQL: read with `Number()`). */
  n: number | string;
}

/**
 * The per-item metrics of `site_tallies` (migration `0029_item_tallies`, issue #29 "cost at
 * volume"): the counts beside each row of the courses, events and forms lists, one row per item
 * (`key` = the item's id, `site_id` = the item's site), kept by triggers in the same transaction as
 * the counted rows, so a list reads one primary-key entry per row whatever the item's number of
 * children. A missing row counts 0.
 */
export const ITEM_METRICS = {
  /** Enrollments of a course (at the course's site). */
  courseEnrollments: 'course_enrollments',
  /** Lectures of a course. */
  courseLectures: 'course_lectures',
  /** Registrations of an event that are not cancelled. */
  eventRegistrations: 'event_registrations',
  /** Submissions of a form. */
  formSubmissions: 'form_submissions',
} as const;

/**
 * The site-wide metrics of `site_tallies` the analytics overview reads (migration 0026), so the
 * overview's read stays a handful of primary-key ranges beside the per-item rows.
 */
export const OVERVIEW_METRICS = [
  'courses',
  'people',
  'role',
  'enrollments',
  'order_status',
  'paid_minor',
  'registration_status',
] as const;

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
