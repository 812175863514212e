/**
 * Membership plans, subscriptions and digital products (SPEC §2.5 `membership_plans:read|write`,
 * `subscriptions:read|write`, `digital_products:read|write`). Prices are integer minor units of an
 * ISO 4217 currency. Subscriptions are only for people who have a role at the site (DESIGN D5).
 */
import { z } from 'zod';
import { BILLING_INTERVALS, SUBSCRIPTION_STATUSES } from '../platform/memberships.js';
import { defineOperation, READ, WRITE, WRITE_IDEMPOTENT, DESTRUCTIVE } from './operation.js';
import { nextCursor, pageQuery } from './paging.js';

const id = z.string().min(1).max(64);
const priceMinor = z.number().int().min(0).max(100_000_000).describe('Integer minor units (cents) of the currency.');
const currency = z.string().length(3).describe('ISO 4217 code, e.g. EUR.');
const plan = z.object({
  id: z.string(),
  name: z.string(),
  priceMinor: z.number().int(),
  currency: z.string(),
  interval: z.enum(BILLING_INTERVALS),
  courseSlugs: z.array(z.string()),
  status: z.enum(['active', 'archived']),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const subscription = z.object({
  id: z.string(),
  planId: z.string(),
  email: z.string(),
  name: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  currentPeriodStart: z.string(),
  currentPeriodEnd: z.string(),
  cancelledAt: z.string().nullable(),
  createdAt: z.string(),
});
const product = z.object({
  id: z.string(),
  name: z.string(),
  priceMinor: z.number().int(),
  currency: z.string(),
  file: z.string(),
  published: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const courseSlugs = z
  .array(z.string().min(1).max(64))
  .max(200)
  .describe('Slugs of courses of your site included in the plan.');
const file = z
  .string()
  .min(1)
  .max(2048)
  .describe('An https:// URL or storage:<fileId> of a file uploaded with POST /api/v1/files.');

export const listMembershipPlans = defineOperation({
  id: 'listMembershipPlans',
  method: 'get',
  path: '/api/v1/membership-plans',
  scope: 'membership_plans:read',
  tag: 'membership_plans',
  summary: 'Membership plans of your site, oldest first, optionally of one status (active, archived)',
  query: { ...pageQuery, status: z.enum(['active', 'archived']).optional() },
  response: z.object({ plans: z.array(plan), nextCursor }),
  mcp: { name: 'list_membership_plans', title: 'List membership plans', annotations: READ },
  async run({ query }, ctx) {
    const { items, nextCursor: next } = await ctx.services.memberships.plansPage(ctx.siteId, query);
    return { plans: items, nextCursor: next };
  },
});

export const getMembershipPlan = defineOperation({
  id: 'getMembershipPlan',
  method: 'get',
  path: '/api/v1/membership-plans/{planId}',
  scope: 'membership_plans:read',
  tag: 'membership_plans',
  summary: 'One membership plan of your site',
  params: { planId: id },
  response: plan,
  async run({ params }, ctx) {
    return ctx.services.memberships.plan(ctx.siteId, params.planId);
  },
});

export const createMembershipPlan = defineOperation({
  id: 'createMembershipPlan',
  method: 'post',
  path: '/api/v1/membership-plans',
  scope: 'membership_plans:write',
  tag: 'membership_plans',
  summary: 'Create a membership plan: a monthly or yearly price that includes some of your courses',
  body: {
    name: z.string().min(1).max(120),
    priceMinor,
    currency,
    interval: z.enum(BILLING_INTERVALS),
    courseSlugs: courseSlugs.optional(),
  },
  response: plan,
  status: 201,
  location: (p) => `/api/v1/membership-plans/${encodeURIComponent((p as { id: string }).id)}`,
  mcp: {
    name: 'create_membership_plan',
    title: 'Create a membership plan',
    annotations: WRITE,
    output: { plan },
    present: (p) => ({ plan: p }),
  },
  async run({ body }, ctx) {
    return ctx.services.memberships.createPlan(ctx.siteId, body);
  },
});

export const updateMembershipPlan = defineOperation({
  id: 'updateMembershipPlan',
  method: 'patch',
  path: '/api/v1/membership-plans/{planId}',
  scope: 'membership_plans:write',
  tag: 'membership_plans',
  summary: "Change a plan's name, price or included courses (send If-Match to avoid lost updates)",
  params: { planId: id },
  body: {
    name: z.string().min(1).max(120).optional(),
    priceMinor: priceMinor.optional(),
    currency: currency.optional(),
    courseSlugs: courseSlugs.optional(),
  },
  response: plan,
  ifMatch: 'getMembershipPlan',
  async run({ params, body }, ctx) {
    return ctx.services.memberships.updatePlan(ctx.siteId, params.planId, body);
  },
});

export const archiveMembershipPlan = defineOperation({
  id: 'archiveMembershipPlan',
  method: 'post',
  path: '/api/v1/membership-plans/{planId}/archive',
  scope: 'membership_plans:write',
  tag: 'membership_plans',
  summary: 'Archive a plan: nobody new can subscribe, current subscriptions go on (idempotent)',
  params: { planId: id },
  response: plan,
  mcp: {
    name: 'archive_membership_plan',
    title: 'Archive a membership plan',
    annotations: WRITE_IDEMPOTENT,
    output: { plan },
    present: (p) => ({ plan: p }),
  },
  async run({ params }, ctx) {
    return ctx.services.memberships.archivePlan(ctx.siteId, params.planId);
  },
});

export const listSubscriptions = defineOperation({
  id: 'listSubscriptions',
  method: 'get',
  path: '/api/v1/subscriptions',
  scope: 'subscriptions:read',
  tag: 'subscriptions',
  summary:
    'Subscriptions at your site, newest first, optionally of one plan and/or status (active, past_due, cancelled)',
  query: { ...pageQuery, planId: id.optional(), status: z.enum(SUBSCRIPTION_STATUSES).optional() },
  response: z.object({ subscriptions: z.array(subscription), nextCursor }),
  mcp: { name: 'list_subscriptions', title: 'List subscriptions', annotations: READ },
  async run({ query }, ctx) {
    const { items, nextCursor: next } = await ctx.services.memberships.subscriptionsPage(ctx.siteId, query);
    return { subscriptions: items, nextCursor: next };
  },
});

export const getSubscription = defineOperation({
  id: 'getSubscription',
  method: 'get',
  path: '/api/v1/subscriptions/{subscriptionId}',
  scope: 'subscriptions:read',
  tag: 'subscriptions',
  summary: 'One subscription at your site',
  params: { subscriptionId: id },
  response: subscription,
  async run({ params }, ctx) {
    return ctx.services.memberships.getSubscription(ctx.siteId, params.subscriptionId);
  },
});

export const createSubscription = defineOperation({
  id: 'createSubscription',
  method: 'post',
  path: '/api/v1/subscriptions',
  scope: 'subscriptions:write',
  tag: 'subscriptions',
  summary: 'Put a member of your site on an active plan; the first period starts now',
  description:
    'Subscribes a person who already has a role at your site (invite others first) to an active membership plan. 404 naming `email` when nobody with that e-mail has a role here; 409 when the plan is archived or the person already has a live subscription to it.',
  body: { email: z.string().email().max(254), planId: id },
  response: subscription,
  status: 201,
  location: (s) => `/api/v1/subscriptions/${encodeURIComponent((s as { id: string }).id)}`,
  mcp: {
    name: 'create_subscription',
    title: 'Subscribe a member to a plan',
    annotations: WRITE,
    output: { subscription },
    present: (s) => ({ subscription: s }),
  },
  async run({ body }, ctx) {
    return ctx.services.memberships.subscribe(ctx.siteId, body);
  },
});

export const cancelSubscription = defineOperation({
  id: 'cancelSubscription',
  method: 'post',
  path: '/api/v1/subscriptions/{subscriptionId}/cancel',
  scope: 'subscriptions:write',
  tag: 'subscriptions',
  summary: 'Cancel a subscription now (idempotent)',
  params: { subscriptionId: id },
  response: subscription,
  mcp: {
    name: 'cancel_subscription',
    title: 'Cancel a subscription',
    annotations: DESTRUCTIVE,
    output: { subscription },
    present: (s) => ({ subscription: s }),
  },
  async run({ params }, ctx) {
    return ctx.services.memberships.cancel(ctx.siteId, params.subscriptionId);
  },
});

export const listDigitalProducts = defineOperation({
  id: 'listDigitalProducts',
  method: 'get',
  path: '/api/v1/digital-products',
  scope: 'digital_products:read',
  tag: 'digital_products',
  summary: 'Digital products of your site, oldest first, optionally only published (true) or unpublished (false)',
  query: { ...pageQuery, published: z.boolean().optional() },
  response: z.object({ products: z.array(product), nextCursor }),
  mcp: { name: 'list_digital_products', title: 'List digital products', annotations: READ },
  async run({ query }, ctx) {
    const { items, nextCursor: next } = await ctx.services.digitalProducts.page(ctx.siteId, query);
    return { products: items, nextCursor: next };
  },
});

export const getDigitalProduct = defineOperation({
  id: 'getDigitalProduct',
  method: 'get',
  path: '/api/v1/digital-products/{productId}',
  scope: 'digital_products:read',
  tag: 'digital_products',
  summary: 'One digital product of your site',
  params: { productId: id },
  response: product,
  async run({ params }, ctx) {
    return ctx.services.digitalProducts.get(ctx.siteId, params.productId);
  },
});

export const createDigitalProduct = defineOperation({
  id: 'createDigitalProduct',
  method: 'post',
  path: '/api/v1/digital-products',
  scope: 'digital_products:write',
  tag: 'digital_products',
  summary: 'Create a digital product (unpublished until published)',
  body: { name: z.string().min(1).max(120), priceMinor, currency, file },
  response: product,
  status: 201,
  location: (p) => `/api/v1/digital-products/${encodeURIComponent((p as { id: string }).id)}`,
  mcp: {
    name: 'create_digital_product',
    title: 'Create a digital product',
    annotations: WRITE,
    output: { product },
    present: (p) => ({ product: p }),
  },
  async run({ body }, ctx) {
    return ctx.services.digitalProducts.create(ctx.siteId, body);
  },
});

export const updateDigitalProduct = defineOperation({
  id: 'updateDigitalProduct',
  method: 'patch',
  path: '/api/v1/digital-products/{productId}',
  scope: 'digital_products:write',
  tag: 'digital_products',
  summary: "Change a product's name, price or file (send If-Match to avoid lost updates)",
  params: { productId: id },
  body: {
    name: z.string().min(1).max(120).optional(),
    priceMinor: priceMinor.optional(),
    currency: currency.optional(),
    file: file.optional(),
  },
  response: product,
  ifMatch: 'getDigitalProduct',
  async run({ params, body }, ctx) {
    return ctx.services.digitalProducts.update(ctx.siteId, params.productId, body);
  },
});

/** `publishDigitalProduct` / `unpublishDigitalProduct`. */
function publication(publish: boolean) {
  const verb = publish ? 'publish' : 'unpublish';
  return defineOperation({
    id: `${verb}DigitalProduct`,
    method: 'post',
    path: `/api/v1/digital-products/{productId}/${verb}`,
    scope: 'digital_products:write',
    tag: 'digital_products',
    summary: publish ? 'Put a digital product on sale (idempotent)' : 'Take a digital product off sale (idempotent)',
    params: { productId: id },
    response: product,
    mcp: {
      name: `${verb}_digital_product`,
      title: publish ? 'Publish a digital product' : 'Unpublish a digital product',
      annotations: WRITE_IDEMPOTENT,
      output: { product },
      present: (p) => ({ product: p }),
    },
    async run({ params }, ctx) {
      return ctx.services.digitalProducts.setPublished(ctx.siteId, params.productId, publish);
    },
  });
}

export const publishDigitalProduct = publication(true);
export const unpublishDigitalProduct = publication(false);
