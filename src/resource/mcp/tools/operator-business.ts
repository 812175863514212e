/**
 * Operator tools for orders, analytics, events and coupons (SPEC §2.5 `orders:read`,
 * `analytics:read`, `events:read|write`, `coupons:read|write`). They act on the token's site and
 * need an owner or admin role there. Amounts are integer minor units of the currency.
 */
import { z } from 'zod';
import { defineTool, siteOf, READ, WRITE, WRITE_IDEMPOTENT, DESTRUCTIVE } from './types.js';

const counts = z.record(z.string(), z.number().int());
const event = z.object({ id: z.string(), title: z.string(), startsAt: z.string(), endsAt: z.string(), location: z.string(), registrations: z.number().int() });
const coupon = z.object({
  code: z.string(),
  percentOff: z.number().int(),
  maxRedemptions: z.number().int().nullable(),
  redemptions: z.number().int(),
  expiresAt: z.string().nullable(),
  active: z.boolean(),
});

export const listOrders = defineTool({
  name: 'list_orders',
  title: 'List orders',
  description: 'Orders at your site, newest first, optionally of one status (pending, paid, refunded, cancelled).',
  audience: 'operator',
  scopes: ['orders:read'],
  input: { status: z.enum(['pending', 'paid', 'refunded', 'cancelled']).optional(), limit: z.number().int().min(1).max(200).default(50) },
  output: {
    orders: z.array(
      z.object({ number: z.string(), email: z.string(), status: z.string(), totalMinor: z.number().int(), currency: z.string(), createdAt: z.string(), itemCount: z.number().int() }),
    ),
  },
  annotations: READ,
  async run(args, ctx) {
    return { orders: await ctx.services.operator.commerce.orders(siteOf(ctx), args) };
  },
});

export const siteAnalytics = defineTool({
  name: 'site_analytics',
  title: 'Site analytics',
  description: 'Counts of courses, members, enrollments (active / expired / lifetime), orders, paid revenue per currency, event registrations and active learners (30 days).',
  audience: 'operator',
  scopes: ['analytics:read'],
  input: {},
  output: {
    asOf: z.string(),
    courses: z.object({ total: z.number().int(), public: z.number().int() }),
    members: z.object({ total: z.number().int(), byRole: counts }),
    enrollments: z.object({ total: z.number().int(), active: z.number().int(), expired: z.number().int(), lifetime: z.number().int() }),
    orders: z.object({ total: z.number().int(), byStatus: counts }),
    revenue: z.array(z.object({ currency: z.string(), paidMinor: z.number().int() })),
    eventRegistrations: z.object({ total: z.number().int(), byStatus: counts }),
    activeLearners30d: z.number().int(),
  },
  annotations: READ,
  async run(_args, ctx) {
    return { ...(await ctx.services.operator.analytics.summary(siteOf(ctx))) };
  },
});

export const listEvents = defineTool({
  name: 'list_events',
  title: 'List events',
  description: 'Events of your site by start time with the number of (not cancelled) registrations.',
  audience: 'operator',
  scopes: ['events:read'],
  input: { upcomingOnly: z.boolean().default(false) },
  output: { events: z.array(event) },
  annotations: READ,
  async run(args, ctx) {
    return { events: await ctx.services.operator.events.list(siteOf(ctx), args) };
  },
});

export const createEvent = defineTool({
  name: 'create_event',
  title: 'Create an event',
  description: 'Creates an event at your site. Times are ISO 8601 date-times; endsAt after startsAt.',
  audience: 'operator',
  scopes: ['events:write'],
  input: {
    title: z.string().min(1).max(200),
    startsAt: z.string().datetime({ offset: true }),
    endsAt: z.string().datetime({ offset: true }),
    location: z.string().min(1).max(200),
  },
  output: { event },
  annotations: WRITE,
  async run(args, ctx) {
    return { event: await ctx.services.operator.events.create(siteOf(ctx), args) };
  },
});

export const cancelEvent = defineTool({
  name: 'cancel_event',
  title: 'Cancel an event',
  description: 'Cancels (deletes) an event of your site with its registrations. Cannot be undone.',
  audience: 'operator',
  scopes: ['events:write'],
  input: { eventId: z.string().min(1).max(128) },
  output: { cancelled: z.string() },
  annotations: DESTRUCTIVE,
  async run(args, ctx) {
    await ctx.services.operator.events.cancel(siteOf(ctx), args.eventId);
    return { cancelled: args.eventId };
  },
});

export const listCoupons = defineTool({
  name: 'list_coupons',
  title: 'List coupons',
  description: 'Coupons of your site with their discount, redemptions, expiry and whether they are active.',
  audience: 'operator',
  scopes: ['coupons:read'],
  input: {},
  output: { coupons: z.array(coupon) },
  annotations: READ,
  async run(_args, ctx) {
    return { coupons: await ctx.services.operator.commerce.coupons(siteOf(ctx)) };
  },
});

export const createCoupon = defineTool({
  name: 'create_coupon',
  title: 'Create a coupon',
  description: 'Creates a percentage coupon. Codes are 3–32 letters, digits, dashes or underscores (stored upper-case), unique per site.',
  audience: 'operator',
  scopes: ['coupons:write'],
  input: {
    code: z.string().min(3).max(32),
    percentOff: z.number().int().min(1).max(100),
    maxRedemptions: z.number().int().min(1).optional(),
    expiresAt: z.string().datetime({ offset: true }).optional(),
  },
  output: { coupon },
  annotations: WRITE,
  async run(args, ctx) {
    return { coupon: await ctx.services.operator.commerce.createCoupon(siteOf(ctx), args) };
  },
});

export const deactivateCoupon = defineTool({
  name: 'deactivate_coupon',
  title: 'Deactivate a coupon',
  description: 'Stops a coupon from being redeemed (it stays in the order history).',
  audience: 'operator',
  scopes: ['coupons:write'],
  input: { code: z.string().min(3).max(32) },
  output: { coupon },
  annotations: WRITE_IDEMPOTENT,
  async run(args, ctx) {
    return { coupon: await ctx.services.operator.commerce.deactivateCoupon(siteOf(ctx), args.code) };
  },
});
