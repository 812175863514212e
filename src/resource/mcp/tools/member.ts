/**
 * Member tools (SPEC §1 member data; DESIGN §3 "a tool about their enrollments whose result names
 * the course slugs"): the token's user at the token's site only. `account:read` reads,
 * `account:write` records playback progress.
 */
import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../../platform/paging.js';
import { accessActive } from '../../../platform/enrollments.js';
import { defineTool, memberOf, READ, WRITE_IDEMPOTENT } from './types.js';

const iso = z.string().describe('ISO 8601 date-time, UTC');

export const myEnrollments = defineTool({
  name: 'my_enrollments',
  title: 'My enrolled courses',
  description:
    'Courses you are enrolled in at this site, by course slug, with access expiry (null = lifetime access), whether access is still active, and the last watched lecture.',
  audience: 'member',
  scopes: ['account:read'],
  input: {
    first: z.number().int().min(1).max(MAX_PAGE_SIZE).default(20).describe(`Page size (1–${MAX_PAGE_SIZE}).`),
    after: z.string().max(128).optional().describe('`nextCursor` of the previous page.'),
  },
  output: {
    enrollments: z.array(
      z.object({
        slug: z.string(),
        title: z.string(),
        expireDate: iso.nullable(),
        hasLifetimeAccess: z.boolean(),
        accessActive: z.boolean(),
        lastWatchedLecture: z
          .object({ lectureId: z.string(), positionSeconds: z.number().int(), updatedAt: iso })
          .nullable(),
      }),
    ),
    totalCount: z.number().int(),
    nextCursor: z.string().nullable(),
  },
  annotations: READ,
  async run(args, ctx) {
    const page = await ctx.services.enrollments.list(memberOf(ctx), args.first, args.after);
    const now = new Date();
    return {
      enrollments: page.items.map(({ node }) => ({
        slug: node.slug,
        title: node.title,
        expireDate: node.expireDate,
        hasLifetimeAccess: node.hasLifetimeAccess,
        accessActive: accessActive(node, now),
        lastWatchedLecture: node.lastWatchedLecture,
      })),
      totalCount: page.totalCount,
      nextCursor: page.hasNextPage ? (page.items.at(-1)?.cursor ?? null) : null,
    };
  },
});

export const continueWatching = defineTool({
  name: 'continue_watching',
  title: 'Continue watching',
  description:
    'Where to pick up each of your courses: the last watched lecture and the playback position in seconds, most recent first.',
  audience: 'member',
  scopes: ['account:read'],
  input: {},
  output: {
    items: z.array(
      z.object({
        courseSlug: z.string(),
        courseTitle: z.string(),
        lectureId: z.string(),
        lectureTitle: z.string(),
        positionSeconds: z.number().int(),
        durationSeconds: z.number().int(),
        watchedAt: iso,
        expireDate: iso.nullable(),
      }),
    ),
  },
  annotations: READ,
  async run(_args, ctx) {
    return { items: await ctx.services.records.continueWatching(memberOf(ctx)) };
  },
});

export const myOrders = defineTool({
  name: 'my_orders',
  title: 'My orders',
  description: 'Your orders at this site, newest first. Amounts are integer minor units of the currency (e.g. cents).',
  audience: 'member',
  scopes: ['account:read'],
  input: { limit: z.number().int().min(1).max(100).default(20) },
  output: {
    orders: z.array(
      z.object({
        number: z.string(),
        status: z.string(),
        totalMinor: z.number().int(),
        currency: z.string(),
        createdAt: iso,
        items: z.array(
          z.object({
            title: z.string(),
            courseSlug: z.string().nullable(),
            quantity: z.number().int(),
            unitPriceMinor: z.number().int(),
          }),
        ),
      }),
    ),
  },
  annotations: READ,
  async run(args, ctx) {
    const page = await ctx.services.orders.list(memberOf(ctx), { first: args.limit });
    return {
      orders: page.items.map(({ node: o }) => ({
        number: o.number,
        status: o.status,
        totalMinor: o.total.amountMinor,
        currency: o.total.currency,
        createdAt: o.createdAt,
        items: o.items.map((i) => ({
          title: i.title,
          courseSlug: i.courseSlug,
          quantity: i.quantity,
          unitPriceMinor: i.unitPrice.amountMinor,
        })),
      })),
    };
  },
});

export const myEventRegistrations = defineTool({
  name: 'my_event_registrations',
  title: 'My event registrations',
  description: 'Events of this site you registered for, by start time, with your registration status.',
  audience: 'member',
  scopes: ['account:read'],
  input: {},
  output: {
    registrations: z.array(
      z.object({
        eventId: z.string(),
        title: z.string(),
        startsAt: iso,
        endsAt: iso,
        location: z.string(),
        status: z.string(),
      }),
    ),
  },
  annotations: READ,
  async run(_args, ctx) {
    const page = await ctx.services.eventRegistrations.list(memberOf(ctx), { first: MAX_PAGE_SIZE });
    return {
      registrations: page.items.map(({ node: r }) => ({
        eventId: r.event.id,
        title: r.event.title,
        startsAt: r.event.startsAt,
        endsAt: r.event.endsAt,
        location: r.event.location,
        status: r.status,
      })),
    };
  },
});

export const recordProgress = defineTool({
  name: 'record_progress',
  title: 'Record playback progress',
  description:
    'Stores your playback position in a lecture of a course you are enrolled in (access not expired). An older observation never overwrites a newer one.',
  audience: 'member',
  scopes: ['account:write'],
  input: {
    lectureId: z.string().min(1).max(128).describe('Lecture id, e.g. from continue_watching or my_enrollments.'),
    positionSeconds: z.number().int().min(0).max(86_400).describe('Playback position in seconds.'),
    recordedAt: z
      .string()
      .datetime({ offset: true })
      .optional()
      .describe('When the position was observed (ISO 8601); default now.'),
  },
  output: { applied: z.boolean(), courseSlug: z.string(), lectureId: z.string(), positionSeconds: z.number().int() },
  annotations: WRITE_IDEMPOTENT,
  async run(args, ctx) {
    // The Account API's rule (monotonic by recordedAt, enrolled + not expired), not a second copy.
    const recordedAt = new Date(args.recordedAt ?? Date.now()).toISOString();
    const result = await ctx.services.progress.record(memberOf(ctx), {
      lectureId: args.lectureId,
      positionSeconds: args.positionSeconds,
      recordedAt,
    });
    return {
      applied: result.applied,
      courseSlug: result.courseSlug,
      lectureId: args.lectureId,
      positionSeconds: result.lecture.positionSeconds,
    };
  },
});
