/**
 * Resolvers of the Account API (schema.graphql). Every resolver reads `ctx.member` (the token's
 * user at the token's site, SPEC §1) and nothing from the arguments can widen it.
 */
import type { Enrollment, LastWatched } from '../../platform/enrollments.js';
import type { Page } from '../../platform/paging.js';
import { checkPageSize } from '../../platform/paging.js';
import type { User } from '../../platform/accounts.js';
import type { CourseProgress } from '../../platform/progress.js';
import type { AccountContext } from './context.js';
import { decodeCursor, encodeCursor, type CursorList } from './cursors.js';
import { DateTimeScalar } from './scalars.js';
import { badUserInput, guarded } from './errors.js';
import { PlatformError } from '../../platform/errors.js';

interface PageArgs {
  first: number;
  after?: string | null;
}

/** A Relay connection of a platform page, with opaque cursors. */
function connection<T>(list: CursorList, page: Page<T>) {
  const edges = page.items.map((i) => ({ cursor: encodeCursor(list, i.cursor), node: i.node }));
  return {
    nodes: edges.map((e) => e.node),
    edges,
    pageInfo: { hasNextPage: page.hasNextPage, endCursor: edges.at(-1)?.cursor ?? null },
    totalCount: page.totalCount,
  };
}

const NO_PROGRESS: CourseProgress = { completedLectures: 0, totalLectures: 0, fraction: 0 };

/**
 * The reads an enrollments page shares among its nodes (issue #15: one query per connection page,
 * not one per node): completion and last-watched lecture, each read at most once for the whole
 * page, and only when a selected field needs it (a document without `progress` reads no progress).
 */
class EnrollmentPageReads {
  private progress?: Promise<Map<string, CourseProgress>>;
  private last?: Promise<Map<string, LastWatched>>;

  constructor(
    private readonly ctx: AccountContext,
    private readonly courseIds: string[],
  ) {}

  /** Completion of one course of the page (zero for a course without lectures). */
  async progressOf(courseId: string): Promise<CourseProgress> {
    this.progress ??= this.ctx.services.progress.ofCourses(this.ctx.member, this.courseIds);
    return (await guarded(() => this.progress!)).get(courseId) ?? NO_PROGRESS;
  }

  /** The member's last watched lecture of one course of the page, or null. */
  async lastWatchedOf(courseId: string): Promise<LastWatched | null> {
    this.last ??= this.ctx.services.enrollments.lastWatched(this.ctx.member, this.courseIds);
    return (await guarded(() => this.last!)).get(courseId) ?? null;
  }
}

type EnrolledCourseNode = Enrollment & { reads: EnrollmentPageReads };

async function enrolledCourses(args: PageArgs, ctx: AccountContext) {
  const after = decodeCursor('enrollments', args.after);
  const page = await ctx.services.enrollments.list(ctx.member, checkPageSize(args.first), after, {
    lastWatched: false,
  });
  const reads = new EnrollmentPageReads(
    ctx,
    page.items.map((i) => i.node.courseId),
  );
  const withReads: Page<EnrolledCourseNode> = {
    ...page,
    items: page.items.map((i) => ({ cursor: i.cursor, node: { ...i.node, reads } })),
  };
  return connection('enrollments', withReads);
}

function viewerOf(user: User) {
  return { id: user.id, email: user.email, name: user.name };
}

export const resolvers = {
  DateTime: DateTimeScalar,
  OrderStatus: { PENDING: 'pending', PAID: 'paid', REFUNDED: 'refunded', CANCELLED: 'cancelled' },
  EventRegistrationStatus: {
    REGISTERED: 'registered',
    WAITLISTED: 'waitlisted',
    CANCELLED: 'cancelled',
    ATTENDED: 'attended',
  },
  Query: {
    viewer: (_: unknown, __: unknown, ctx: AccountContext) =>
      guarded(async () => {
        // The bearer step read the user with the live role check (one query, issue #15).
        const user = ctx.principal.user ?? (await ctx.services.accounts.findUser(ctx.member.userId));
        if (!user) throw new PlatformError('not_found', 'member not found'); // the token outlived its user
        return viewerOf(user);
      }),
  },
  Viewer: {
    site: async (_: unknown, __: unknown, ctx: AccountContext) => {
      const site = ctx.principal.site ?? (await ctx.services.accounts.findSite(ctx.member.siteId));
      return { id: ctx.member.siteId, name: site?.name ?? ctx.member.siteId };
    },
    roles: (_: unknown, __: unknown, ctx: AccountContext) =>
      ctx.principal.roles ?? ctx.services.accounts.rolesAt(ctx.member.userId, ctx.member.siteId),
    enrolledCourses: (_: unknown, args: PageArgs, ctx: AccountContext) => guarded(() => enrolledCourses(args, ctx)),
    orders: (_: unknown, args: PageArgs, ctx: AccountContext) =>
      guarded(async () =>
        connection(
          'orders',
          await ctx.services.orders.list(ctx.member, { first: args.first, after: decodeCursor('orders', args.after) }),
        ),
      ),
    eventRegistrations: (_: unknown, args: PageArgs, ctx: AccountContext) =>
      guarded(async () =>
        connection(
          'eventRegistrations',
          await ctx.services.eventRegistrations.list(ctx.member, {
            first: args.first,
            after: decodeCursor('eventRegistrations', args.after),
          }),
        ),
      ),
  },
  EnrolledCourse: {
    progress: async (c: EnrolledCourseNode) => (await c.reads.progressOf(c.courseId)).fraction,
    completedLectureCount: async (c: EnrolledCourseNode) => (await c.reads.progressOf(c.courseId)).completedLectures,
    lectureCount: async (c: EnrolledCourseNode) => (await c.reads.progressOf(c.courseId)).totalLectures,
    lastWatchedLecture: (c: EnrolledCourseNode) => c.reads.lastWatchedOf(c.courseId),
  },
  Mutation: {
    recordLectureProgress: (
      _: unknown,
      args: { input: { lectureId: string; positionSeconds: number; recordedAt: string } },
      ctx: AccountContext,
    ) =>
      guarded(async () => {
        const { lectureId, positionSeconds, recordedAt } = args.input;
        if (lectureId.length === 0 || lectureId.length > 128)
          throw badUserInput('lectureId must be 1–128 characters', 'lectureId');
        // Position range and the clock-skew bound on recordedAt are Progress.record's rules (shared with MCP).
        const result = await ctx.services.progress.record(ctx.member, { lectureId, positionSeconds, recordedAt });
        return { applied: result.applied, lectureProgress: result.lecture };
      }),
    updateDisplayName: (_: unknown, args: { input: { name: string } }, ctx: AccountContext) =>
      guarded(async () => ({
        viewer: viewerOf(await ctx.services.profiles.setDisplayName(ctx.member.userId, args.input.name)),
      })),
  },
};
