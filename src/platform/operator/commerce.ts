/**
 * Operator view of a site's orders and coupons (SPEC §2.5 `orders:read`, `coupons:*`).
 * Amounts are integer minor units of the order's currency (ISO 4217).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { OperatorDatabase } from './schema.js';
import { PlatformError, notFound } from '../errors.js';
import {
  clampPageSize,
  decodeCursor,
  keysetPage,
  MAX_ADMIN_LIST_ROWS,
  MAX_ADMIN_PAGE_SIZE,
  type KeysetPage,
  type KeysetRequest,
} from '../paging.js';

export interface AdminOrder {
  number: string;
  email: string;
  status: string;
  totalMinor: number;
  currency: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  itemCount: number;
}

export interface Coupon {
  code: string;
  percentOff: number;
  maxRedemptions: number | null;
  redemptions: number;
  /** ISO 8601 UTC; null = never. */
  expiresAt: string | null;
  active: boolean;
}

/** Input of `createCoupon`. Codes: 3–32 of A–Z, 0–9, `-`, `_` (stored upper-case). */
export interface CouponInput {
  code: string;
  percentOff: number;
  maxRedemptions?: number;
  expiresAt?: string;
}

const COUPON_CODE = /^[A-Z0-9_-]{3,32}$/;

/** Orders and coupons of a site for operators (orders:read, coupons:read/write). */
export class CommerceAdmin {
  constructor(private readonly db: Kysely<OperatorDatabase>) {}

  /**
   * Orders of the site, newest first, optionally of one status, `limit` at most (default and
   * ceiling MAX_ADMIN_LIST_ROWS). The admin API pages with {@link ordersPage} instead.
   */
  async orders(siteId: string, options: { status?: string; limit?: number } = {}): Promise<AdminOrder[]> {
    let q = this.orderQuery(siteId).limit(clampPageSize(options.limit, MAX_ADMIN_LIST_ROWS));
    if (options.status) q = q.where('orders.status', '=', options.status);
    return (await q.execute()).map(adminOrder);
  }

  /**
   * One page of the site's orders, newest first (`createdAt` desc, then id desc), optionally of
   * one status (issue #29: keyset in SQL on `orders_site_created` / `orders_site_status_created`;
   * a page reads ≤ limit + 1 index entries, every order is reachable whatever the site's size).
   * @throws PlatformError `invalid` (field `cursor`) for a cursor of another list
   */
  async ordersPage(siteId: string, options: KeysetRequest & { status?: string }): Promise<KeysetPage<AdminOrder>> {
    const limit = clampPageSize(options.limit, MAX_ADMIN_PAGE_SIZE);
    let q = this.orderQuery(siteId).limit(limit + 1);
    if (options.status) q = q.where('orders.status', '=', options.status);
    if (options.cursor !== undefined) {
      const [createdAt, id] = decodeCursor(options.cursor, 2) as [string, string];
      q = q.where((eb) => eb(eb.refTuple('orders.created_at', 'orders.id'), '<', eb.tuple(createdAt, id)));
    }
    return keysetPage(await q.execute(), limit, (r) => [r.created_at, r.id], adminOrder);
  }

  /** The site's orders in list order (newest first, then id desc) with their item counts. */
  private orderQuery(siteId: string) {
    return this.db
      .selectFrom('orders')
      .innerJoin('users', 'users.id', 'orders.user_id')
      .select((eb) => [
        'orders.id as id',
        'orders.number as number',
        'users.email as email',
        'orders.status as status',
        'orders.total_minor as total',
        'orders.currency as currency',
        'orders.created_at as created_at',
        eb
          .selectFrom('order_items')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('order_items.order_id', '=', 'orders.id')
          .as('items'),
      ])
      .where('orders.site_id', '=', siteId)
      .orderBy('orders.created_at', 'desc')
      .orderBy('orders.id', 'desc');
  }

  /**
   * One page of the site's coupons by code, optionally only active (true) or inactive (false)
   * (issue #29: "Keyset pagination in SQL for every list (no in-memory paging, no row cap: every
   * row reachable by cursor)"; keyset on `coupons_site_code` / `coupons_site_active`, migration 0028).
   * @param options `limit` 1…MAX_ADMIN_PAGE_SIZE (clamped), `cursor` of an earlier page, `active`
   * @throws PlatformError `invalid` (field `cursor`) for a cursor of another list
   */
  async couponsPage(siteId: string, options: KeysetRequest & { active?: boolean }): Promise<KeysetPage<Coupon>> {
    const limit = clampPageSize(options.limit, MAX_ADMIN_PAGE_SIZE);
    let q = this.db
      .selectFrom('coupons')
      .selectAll()
      .where('site_id', '=', siteId)
      .orderBy('code')
      .limit(limit + 1);
    if (options.active !== undefined) q = q.where('active', '=', options.active ? 1 : 0);
    if (options.cursor !== undefined) {
      const [code] = decodeCursor(options.cursor, 1) as [string];
      q = q.where('code', '>', code);
    }
    return keysetPage(await q.execute(), limit, (r) => [r.code], toCoupon);
  }

  /** One coupon of the site by code (any letter case). @throws PlatformError `not_found` */
  async coupon(siteId: string, code: string): Promise<Coupon> {
    const row = await this.db
      .selectFrom('coupons')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('code', '=', code.toUpperCase())
      .executeTakeFirst();
    if (!row) throw notFound('coupon', code);
    return toCoupon(row);
  }

  /**
   * Creates a coupon.
   * @throws PlatformError `invalid` (code shape, percent outside 1…100, bad limit or date), `conflict` (code taken)
   */
  async createCoupon(siteId: string, input: CouponInput, now = new Date()): Promise<Coupon> {
    const code = input.code.trim().toUpperCase();
    if (!COUPON_CODE.test(code))
      throw new PlatformError('invalid', 'code must be 3–32 letters, digits, dashes or underscores', { field: 'code' });
    if (!Number.isInteger(input.percentOff) || input.percentOff < 1 || input.percentOff > 100)
      throw new PlatformError('invalid', 'percentOff must be a whole number between 1 and 100', {
        field: 'percentOff',
      });
    if (input.maxRedemptions !== undefined && (!Number.isInteger(input.maxRedemptions) || input.maxRedemptions < 1)) {
      throw new PlatformError('invalid', 'maxRedemptions must be a positive whole number', { field: 'maxRedemptions' });
    }
    let expiresAt: string | null = null;
    if (input.expiresAt !== undefined) {
      const t = Date.parse(input.expiresAt);
      if (Number.isNaN(t) || t <= now.getTime())
        throw new PlatformError('invalid', 'expiresAt must be an ISO 8601 date-time in the future', {
          field: 'expiresAt',
        });
      expiresAt = new Date(t).toISOString();
    }
    const taken = await this.db
      .selectFrom('coupons')
      .select('id')
      .where('site_id', '=', siteId)
      .where('code', '=', code)
      .executeTakeFirst();
    if (taken) throw new PlatformError('conflict', `a coupon with code ${code} already exists`);
    const row = {
      id: `cpn_${randomUUID()}`,
      site_id: siteId,
      code,
      percent_off: input.percentOff,
      max_redemptions: input.maxRedemptions ?? null,
      redemptions: 0,
      expires_at: expiresAt,
      active: 1,
      created_at: now.toISOString(),
    };
    await this.db.insertInto('coupons').values(row).execute();
    return toCoupon(row);
  }

  /** Deactivates a coupon (kept for the order history; idempotent). @throws PlatformError `not_found` */
  async deactivateCoupon(siteId: string, code: string): Promise<Coupon> {
    const normalized = code.trim().toUpperCase();
    const result = await this.db
      .updateTable('coupons')
      .set({ active: 0 })
      .where('site_id', '=', siteId)
      .where('code', '=', normalized)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw notFound('coupon', normalized);
    const row = await this.db
      .selectFrom('coupons')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('code', '=', normalized)
      .executeTakeFirstOrThrow();
    return toCoupon(row);
  }
}

/** An order row as operators see it. */
function adminOrder(r: {
  number: string;
  email: string;
  status: string;
  total: number;
  currency: string;
  created_at: string;
  items: number | string | null;
}): AdminOrder {
  return {
    number: r.number,
    email: r.email,
    status: r.status,
    totalMinor: r.total,
    currency: r.currency,
    createdAt: r.created_at,
    itemCount: Number(r.items ?? 0),
  };
}

function toCoupon(r: OperatorDatabase['coupons']): Coupon {
  return {
    code: r.code,
    percentOff: r.percent_off,
    maxRedemptions: r.max_redemptions,
    redemptions: r.redemptions,
    expiresAt: r.expires_at,
    active: r.active === 1,
  };
}
