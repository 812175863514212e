/**
 * The member's orders at one site (SPEC §1 "Member data covers … orders"). Every query is scoped
 * by (site id, user id). Amounts are integer minor units of an ISO 4217 currency (e.g. 4900 EUR =
 * €49.00), never floats.
 */
import type { Kysely } from 'kysely';
import type { PlatformDatabase } from './schema.js';
import type { MemberRef } from './accounts.js';
import { checkPageSize, pairKey, parsePairKey, type Page, type PageRequest } from './paging.js';

/** An amount of money: integer minor units + ISO 4217 code. */
export interface Money {
  amountMinor: number;
  currency: string;
}

export interface OrderItem {
  id: string;
  title: string;
  /** Slug of the course the item grants, when it is a course at this site; else null. */
  courseSlug: string | null;
  quantity: number;
  unitPrice: Money;
  /** quantity × unitPrice. */
  total: Money;
}

export interface Order {
  id: string;
  /** Human-facing order number, e.g. `DA-1001`. */
  number: string;
  /** `pending`, `paid`, `refunded` or `cancelled`. */
  status: string;
  total: Money;
  /** ISO 8601 UTC. */
  createdAt: string;
  items: OrderItem[];
}

/** A member's orders at one site (SPEC §1), newest first, with items; money as integer minor units + ISO 4217. */
export class Orders {
  constructor(private readonly db: Kysely<PlatformDatabase>) {}

  /**
   * The member's orders, newest first (`createdAt` desc, then id desc), with their items.
   * @param page `after` is a row key from an earlier page of this list
   * @throws InvalidPageRequestError for a page size outside 0…100 or a foreign key
   */
  async list(member: MemberRef, page: PageRequest): Promise<Page<Order>> {
    const first = checkPageSize(page.first);
    let q = this.db
      .selectFrom('orders')
      .select(['id', 'number', 'status', 'total_minor', 'currency', 'created_at'])
      .where('site_id', '=', member.siteId)
      .where('user_id', '=', member.userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(first + 1);
    if (page.after !== undefined) {
      const [createdAt, id] = parsePairKey(page.after);
      q = q.where((eb) =>
        eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])]),
      );
    }
    const [rows, count] = await Promise.all([
      q.execute(),
      this.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('site_id', '=', member.siteId)
        .where('user_id', '=', member.userId)
        .executeTakeFirstOrThrow(),
    ]);
    const pageRows = rows.slice(0, first);
    const items = await this.itemsOf(
      member,
      pageRows.map((r) => r.id),
    );
    return {
      items: pageRows.map((r) => ({
        cursor: pairKey(r.created_at, r.id),
        node: {
          id: r.id,
          number: r.number,
          status: r.status,
          total: { amountMinor: r.total_minor, currency: r.currency },
          createdAt: r.created_at,
          items: items.get(r.id) ?? [],
        },
      })),
      hasNextPage: rows.length > first,
      totalCount: Number(count.n),
    };
  }

  /** Items of the given orders (already scoped to the member), in item id order, one query. */
  private async itemsOf(member: MemberRef, orderIds: string[]): Promise<Map<string, OrderItem[]>> {
    const result = new Map<string, OrderItem[]>();
    if (orderIds.length === 0) return result;
    const rows = await this.db
      .selectFrom('order_items')
      .innerJoin('orders', 'orders.id', 'order_items.order_id')
      // A course of another site is never named (SPEC §1): the join is restricted to this site.
      .leftJoin('courses', (j) =>
        j.onRef('courses.id', '=', 'order_items.course_id').on('courses.site_id', '=', member.siteId),
      )
      .select([
        'order_items.id as id',
        'order_items.order_id as order_id',
        'order_items.title as title',
        'order_items.quantity as quantity',
        'order_items.unit_price_minor as unit_price_minor',
        'orders.currency as currency',
        'courses.slug as course_slug',
      ])
      .where('order_items.order_id', 'in', orderIds)
      .where('orders.site_id', '=', member.siteId)
      .where('orders.user_id', '=', member.userId)
      .orderBy('order_items.id')
      .execute();
    for (const r of rows) {
      const list = result.get(r.order_id) ?? [];
      list.push({
        id: r.id,
        title: r.title,
        courseSlug: r.course_slug ?? null,
        quantity: r.quantity,
        unitPrice: { amountMinor: r.unit_price_minor, currency: r.currency },
        total: { amountMinor: r.quantity * r.unit_price_minor, currency: r.currency },
      });
      result.set(r.order_id, list);
    }
    return result;
  }
}
