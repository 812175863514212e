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

export interface OperatorDatabase extends PlatformDatabase {
  coupons: CouponsTable;
}
