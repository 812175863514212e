/**
 * Orders, analytics, events and coupons (SPEC §2.5 `orders:read`, `analytics:read`,
 * `events:read|write`, `coupons:read|write`). Amounts are integer minor units of the currency.
 */
import { z } from 'zod';
import { defineOperation, READ, WRITE, WRITE_IDEMPOTENT, DESTRUCTIVE } from './operation.js';
import { nextCursor, pageQuery } from './paging.js';

const counts = z.record(z.string(), z.number().int());
const order = z.object({
  number: z.string(),
  email: z.string(),
  status: z.string(),
  totalMinor: z.number().int(),
  currency: z.string(),
  createdAt: z.string(),
  itemCount: z.number().int(),
});
const event = z.object({
  id: z.string(),
  title: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  location: z.string(),
  registrations: z.number().int(),
});
const coupon = z.object({
  code: z.string(),
  percentOff: z.number().int(),
  maxRedemptions: z.number().int().nullable(),
  redemptions: z.number().int(),
  expiresAt: z.string().nullable(),
  active: z.boolean(),
});
const couponCode = z.string().min(3).max(32);

export const listOrders = defineOperation({
  id: 'listOrders',
  method: 'get',
  path: '/api/v1/orders',
  scope: 'orders:read',
  tag: 'orders',
  summary: 'Orders at your site, newest first, optionally of one status (pending, paid, refunded, cancelled)',
  query: { ...pageQuery, status: z.enum(['pending', 'paid', 'refunded', 'cancelled']).optional() },
  response: z.object({ orders: z.array(order), nextCursor }),
  mcp: { name: 'list_orders', title: 'List orders', annotations: READ },
  csv: { rows: 'orders' },
  async run({ query }, ctx) {
    const { items, nextCursor: next } = await ctx.services.operator.commerce.ordersPage(ctx.siteId, query);
    return { orders: items, nextCursor: next };
  },
});

export const siteAnalytics = defineOperation({
  id: 'siteAnalytics',
  method: 'get',
  path: '/api/v1/analytics',
  scope: 'analytics:read',
  tag: 'analytics',
  summary:
    'Counts of courses, members, enrollments, orders, paid revenue per currency, event registrations and active learners (30 days)',
  response: z.object({
    asOf: z.string(),
    courses: z.object({ total: z.number().int(), public: z.number().int() }),
    members: z.object({ total: z.number().int(), byRole: counts }),
    enrollments: z.object({
      total: z.number().int(),
      active: z.number().int(),
      expired: z.number().int(),
      lifetime: z.number().int(),
    }),
    orders: z.object({ total: z.number().int(), byStatus: counts }),
    revenue: z.array(z.object({ currency: z.string(), paidMinor: z.number().int() })),
    eventRegistrations: z.object({ total: z.number().int(), byStatus: counts }),
    activeLearners30d: z.number().int(),
  }),
  mcp: { name: 'site_analytics', title: 'Site analytics', annotations: READ },
  async run(_input, ctx) {
    return ctx.services.operator.analytics.summary(ctx.siteId);
  },
});

export const listEvents = defineOperation({
  id: 'listEvents',
  method: 'get',
  path: '/api/v1/events',
  scope: 'events:read',
  tag: 'events',
  summary: 'Events of your site by start time with the number of (not cancelled) registrations',
  query: { ...pageQuery, upcomingOnly: z.boolean().default(false) },
  response: z.object({ events: z.array(event), nextCursor }),
  mcp: { name: 'list_events', title: 'List events', annotations: READ },
  async run({ query }, ctx) {
    const { items, nextCursor: next } = await ctx.services.operator.events.page(ctx.siteId, query);
    return { events: items, nextCursor: next };
  },
});

export const getEvent = defineOperation({
  id: 'getEvent',
  method: 'get',
  path: '/api/v1/events/{eventId}',
  scope: 'events:read',
  tag: 'events',
  summary: 'One event of your site',
  params: { eventId: z.string().min(1).max(128) },
  response: event,
  async run({ params }, ctx) {
    return ctx.services.operator.events.get(ctx.siteId, params.eventId);
  },
});

export const createEvent = defineOperation({
  id: 'createEvent',
  method: 'post',
  path: '/api/v1/events',
  scope: 'events:write',
  tag: 'events',
  summary: 'Create an event (ISO 8601 times; endsAt after startsAt)',
  body: {
    title: z.string().min(1).max(200),
    startsAt: z.string().datetime({ offset: true }),
    endsAt: z.string().datetime({ offset: true }),
    location: z.string().min(1).max(200),
  },
  response: event,
  status: 201,
  location: (e) => `/api/v1/events/${encodeURIComponent(e.id)}`,
  mcp: {
    name: 'create_event',
    title: 'Create an event',
    annotations: WRITE,
    output: { event },
    present: (e) => ({ event: e }),
  },
  async run({ body }, ctx) {
    return ctx.services.operator.events.create(ctx.siteId, body);
  },
});

export const cancelEvent = defineOperation({
  id: 'cancelEvent',
  method: 'delete',
  path: '/api/v1/events/{eventId}',
  scope: 'events:write',
  tag: 'events',
  summary: 'Cancel (delete) an event with its registrations (cannot be undone)',
  params: { eventId: z.string().min(1).max(128) },
  status: 204,
  mcp: {
    name: 'cancel_event',
    title: 'Cancel an event',
    annotations: DESTRUCTIVE,
    output: { cancelled: z.string() },
    present: (_r, args) => ({ cancelled: args.eventId }),
  },
  async run({ params }, ctx) {
    await ctx.services.operator.events.cancel(ctx.siteId, params.eventId);
  },
});

export const listCoupons = defineOperation({
  id: 'listCoupons',
  method: 'get',
  path: '/api/v1/coupons',
  scope: 'coupons:read',
  tag: 'coupons',
  summary: 'Coupons of your site with their discount, redemptions, expiry and whether they are active',
  query: { ...pageQuery, active: z.boolean().optional() },
  response: z.object({ coupons: z.array(coupon), nextCursor }),
  mcp: { name: 'list_coupons', title: 'List coupons', annotations: READ },
  async run({ query }, ctx) {
    const { items, nextCursor: next } = await ctx.services.operator.commerce.couponsPage(ctx.siteId, query);
    return { coupons: items, nextCursor: next };
  },
});

export const getCoupon = defineOperation({
  id: 'getCoupon',
  method: 'get',
  path: '/api/v1/coupons/{code}',
  scope: 'coupons:read',
  tag: 'coupons',
  summary: 'One coupon of your site',
  params: { code: couponCode },
  response: coupon,
  async run({ params }, ctx) {
    return ctx.services.operator.commerce.coupon(ctx.siteId, params.code);
  },
});

export const createCoupon = defineOperation({
  id: 'createCoupon',
  method: 'post',
  path: '/api/v1/coupons',
  scope: 'coupons:write',
  tag: 'coupons',
  summary: 'Create a percentage coupon',
  description:
    'Creates a percentage coupon. Codes are 3–32 letters, digits, dashes or underscores (stored upper-case), unique per site (409 when taken).',
  body: {
    code: couponCode,
    percentOff: z.number().int().min(1).max(100),
    maxRedemptions: z.number().int().min(1).optional(),
    expiresAt: z.string().datetime({ offset: true }).optional(),
  },
  response: coupon,
  status: 201,
  location: (c) => `/api/v1/coupons/${encodeURIComponent(c.code)}`,
  mcp: {
    name: 'create_coupon',
    title: 'Create a coupon',
    annotations: WRITE,
    output: { coupon },
    present: (c) => ({ coupon: c }),
  },
  async run({ body }, ctx) {
    return ctx.services.operator.commerce.createCoupon(ctx.siteId, body);
  },
});

export const deactivateCoupon = defineOperation({
  id: 'deactivateCoupon',
  method: 'post',
  path: '/api/v1/coupons/{code}/deactivate',
  scope: 'coupons:write',
  tag: 'coupons',
  summary: 'Stop a coupon from being redeemed (it stays in the order history)',
  params: { code: couponCode },
  response: coupon,
  mcp: {
    name: 'deactivate_coupon',
    title: 'Deactivate a coupon',
    annotations: WRITE_IDEMPOTENT,
    output: { coupon },
    present: (c) => ({ coupon: c }),
  },
  async run({ params }, ctx) {
    return ctx.services.operator.commerce.deactivateCoupon(ctx.siteId, params.code);
  },
});
