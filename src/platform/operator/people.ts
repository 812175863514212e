/**
 * Operator view of a site's students (enrollments) and members (roles) (SPEC §2.5
 * `students:*`, `members:*`; DESIGN D5 roles `owner`, `admin`, `instructor`, `student`).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { OperatorDatabase } from './schema.js';
import { PlatformError, notFound } from '../errors.js';
import { CourseAdmin } from './courses.js';
import { rowAccessActive } from '../enrollments.js';
import {
  clampPageSize,
  decodeCursor,
  keysetPage,
  MAX_ADMIN_LIST_ROWS,
  MAX_ADMIN_PAGE_SIZE,
  type KeysetPage,
  type KeysetRequest,
} from '../paging.js';
import { lockSite } from '../locks.js';

export const ROLES = ['owner', 'admin', 'instructor', 'student'] as const;
export type SiteRole = (typeof ROLES)[number];

/** One enrollment at the site. `status` is computed at `now`. */
export interface StudentEnrollment {
  email: string;
  name: string;
  courseSlug: string;
  /** ISO 8601 UTC; null with lifetime access. */
  expireDate: string | null;
  hasLifetimeAccess: boolean;
  status: 'active' | 'expired';
  enrolledAt: string;
}

export interface SiteMember {
  email: string;
  name: string;
  roles: string[];
}

/** Input of `enroll`: either `expiresAt` (ISO 8601, in the future) or `lifetimeAccess`. */
export interface EnrollInput {
  email: string;
  courseSlug: string;
  expiresAt?: string;
  lifetimeAccess?: boolean;
}

/** Students and members (roles) of a site for operators (students:*, members:*). */
export class PeopleAdmin {
  private readonly courses: CourseAdmin;
  constructor(private readonly db: Kysely<OperatorDatabase>) {
    this.courses = new CourseAdmin(db);
  }

  /**
   * Enrollments at the site, optionally of one course and/or one user id, by e-mail then course,
   * `limit` at most (default and ceiling MAX_ADMIN_LIST_ROWS). `status` is `accessActive` at `now`.
   * The admin API pages with {@link studentsPage} instead.
   */
  async students(
    siteId: string,
    options: { courseSlug?: string; userId?: string; limit?: number } = {},
    now = new Date(),
  ): Promise<StudentEnrollment[]> {
    let q = this.studentQuery(siteId).limit(clampPageSize(options.limit, MAX_ADMIN_LIST_ROWS));
    if (options.courseSlug) q = q.where('enrollments.course_slug', '=', options.courseSlug);
    if (options.userId) q = q.where('enrollments.user_id', '=', options.userId);
    return (await q.execute()).map((r) => student(r, now));
  }

  /**
   * One page of the site's enrollments by e-mail then course slug (issue #29: keyset in SQL on
   * `enrollments_site_email` / `enrollments_site_course_email`; a page reads ≤ limit + 1 index
   * entries, and every row is reachable whatever the site's size). `status` filters on
   * `accessActive` at `now` (expiries are stored as `Date.toISOString()`, so ISO strings compare
   * as instants).
   * @throws PlatformError `invalid` (field `cursor`) for a cursor of another list
   */
  async studentsPage(
    siteId: string,
    options: KeysetRequest & { courseSlug?: string; status?: 'active' | 'expired' },
    now = new Date(),
  ): Promise<KeysetPage<StudentEnrollment>> {
    const limit = clampPageSize(options.limit, MAX_ADMIN_PAGE_SIZE);
    let q = this.studentQuery(siteId).limit(limit + 1);
    if (options.courseSlug) q = q.where('enrollments.course_slug', '=', options.courseSlug);
    const nowIso = now.toISOString();
    if (options.status === 'active')
      q = q.where((eb) =>
        eb.or([
          eb('enrollments.lifetime_access', '=', 1),
          eb('enrollments.expires_at', 'is', null),
          eb('enrollments.expires_at', '>', nowIso),
        ]),
      );
    if (options.status === 'expired')
      q = q
        .where('enrollments.lifetime_access', '<>', 1)
        .where('enrollments.expires_at', 'is not', null)
        .where('enrollments.expires_at', '<=', nowIso);
    if (options.cursor !== undefined) {
      const [email, slug] = decodeCursor(options.cursor, 2) as [string, string];
      q = q.where((eb) => eb(eb.refTuple('enrollments.email', 'enrollments.course_slug'), '>', eb.tuple(email, slug)));
    }
    return keysetPage(
      await q.execute(),
      limit,
      (r) => [r.email, r.slug],
      (r) => student(r, now),
    );
  }

  /** The enrollments of the site in list order (e-mail, course slug), on the copied sort keys. */
  private studentQuery(siteId: string) {
    return this.db
      .selectFrom('enrollments')
      .innerJoin('users', 'users.id', 'enrollments.user_id')
      .select([
        'enrollments.email as email',
        'users.name as name',
        'enrollments.course_slug as slug',
        'enrollments.expires_at as expires_at',
        'enrollments.lifetime_access as lifetime',
        'enrollments.created_at as created_at',
      ])
      .where('enrollments.site_id', '=', siteId)
      .orderBy('enrollments.email')
      .orderBy('enrollments.course_slug')
      .$narrowType<{ email: string; slug: string }>();
  }

  /**
   * Enrolls a person who has a role at the site (DESIGN D5: others are invited first) or changes
   * the expiry of an existing enrollment.
   * @throws PlatformError `not_found` (user or course), `invalid` (neither or both of expiresAt /
   *   lifetimeAccess, or a date in the past)
   */
  async enroll(siteId: string, input: EnrollInput, now = new Date()): Promise<StudentEnrollment> {
    const lifetime = input.lifetimeAccess === true;
    if (lifetime === (input.expiresAt !== undefined))
      throw new PlatformError('invalid', 'give either expiresAt or lifetimeAccess: true');
    let expiresAt: string | null = null;
    if (input.expiresAt !== undefined) {
      const t = Date.parse(input.expiresAt);
      if (Number.isNaN(t))
        throw new PlatformError('invalid', 'expiresAt must be an ISO 8601 date-time', { field: 'expiresAt' });
      if (t <= now.getTime())
        throw new PlatformError('invalid', 'expiresAt must be in the future', { field: 'expiresAt' });
      expiresAt = new Date(t).toISOString();
    }
    const courseId = await this.courses.courseId(siteId, input.courseSlug);
    const user = await this.memberByEmail(siteId, input.email);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('enrollments')
        .values({
          id: `enr_${randomUUID()}`,
          site_id: siteId,
          user_id: user.id,
          course_id: courseId,
          expires_at: expiresAt,
          lifetime_access: lifetime ? 1 : 0,
          created_at: now.toISOString(),
        })
        .onConflict((oc) =>
          oc
            .columns(['site_id', 'user_id', 'course_id'])
            .doUpdateSet({ expires_at: expiresAt, lifetime_access: lifetime ? 1 : 0 }),
        )
        .execute();
    });
    const [row] = await this.students(siteId, { courseSlug: input.courseSlug, userId: user.id, limit: 1 }, now);
    return row!;
  }

  /** Removes an enrollment and the member's progress in that course. @throws PlatformError `not_found` */
  async unenroll(siteId: string, email: string, courseSlug: string): Promise<void> {
    const courseId = await this.courses.courseId(siteId, courseSlug);
    const user = await this.memberByEmail(siteId, email);
    const result = await this.db
      .deleteFrom('enrollments')
      .where('site_id', '=', siteId)
      .where('user_id', '=', user.id)
      .where('course_id', '=', courseId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound('enrollment', `${email} in ${courseSlug}`);
    await this.db
      .deleteFrom('lecture_progress')
      .where('user_id', '=', user.id)
      .where('course_id', '=', courseId)
      .execute();
  }

  /** Users with a role at the site, by e-mail (the whole site: the admin API pages with {@link membersPage}). */
  async members(siteId: string): Promise<SiteMember[]> {
    const rows = await this.db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['users.email as email', 'users.name as name', 'memberships.role as role'])
      .where('memberships.site_id', '=', siteId)
      .orderBy('memberships.email')
      .orderBy('memberships.role')
      .execute();
    return groupRoles(rows);
  }

  /**
   * One page of the people with a role at the site, by e-mail, optionally of one role (issue #29:
   * keyset in SQL, no grouping and no sort; checked by test/platform/query-plans.test.ts).
   *
   * Without a role filter the page walks `memberships_site_email` (site, e-mail, user, role) in
   * order, where each person's roles are adjacent: it reads (limit + 1) × {@link ROLES}.length
   * entries (more, in further bounded reads, only if people held more roles than ROLES names) and
   * groups them as they come, so a page reads about as many index entries as it shows roles
   * whatever the site's size (a `GROUP BY` made the store aggregate ahead of the LIMIT). With a
   * role filter, that role's people come from `memberships_site_role_email`, then their roles by
   * primary key.
   * @throws PlatformError `invalid` (field `cursor`) for a cursor of another list
   */
  async membersPage(siteId: string, options: KeysetRequest & { role?: string }): Promise<KeysetPage<SiteMember>> {
    const limit = clampPageSize(options.limit, MAX_ADMIN_PAGE_SIZE);
    const after = options.cursor === undefined ? undefined : (decodeCursor(options.cursor, 1) as [string])[0];
    const people: Array<SiteMember & { userId: string }> = [];
    if (options.role) {
      let q = this.db
        .selectFrom('memberships')
        .innerJoin('users', 'users.id', 'memberships.user_id')
        .select(['memberships.email as email', 'memberships.user_id as user_id', 'users.name as name'])
        .where('memberships.site_id', '=', siteId)
        .where('memberships.role', '=', options.role)
        .orderBy('memberships.email')
        .orderBy('memberships.user_id')
        .limit(limit + 1)
        .$narrowType<{ email: string }>();
      if (after !== undefined) q = q.where('memberships.email', '>', after);
      for (const r of await q.execute()) people.push({ email: r.email, name: r.name, roles: [], userId: r.user_id });
      const shown = people.slice(0, limit);
      if (shown.length > 0) {
        const roles = await this.db
          .selectFrom('memberships')
          .select(['user_id', 'role'])
          .where('site_id', '=', siteId)
          .where(
            'user_id',
            'in',
            shown.map((p) => p.userId),
          )
          .execute();
        const byUser = new Map(shown.map((p) => [p.userId, p]));
        for (const r of roles) byUser.get(r.user_id)?.roles.push(r.role);
        for (const p of shown) p.roles.sort();
      }
    } else {
      const batch = (limit + 1) * ROLES.length;
      let from: { email: string; userId: string; role: string } | undefined;
      for (;;) {
        let q = this.db
          .selectFrom('memberships')
          .innerJoin('users', 'users.id', 'memberships.user_id')
          .select([
            'memberships.email as email',
            'memberships.user_id as user_id',
            'memberships.role as role',
            'users.name as name',
          ])
          .where('memberships.site_id', '=', siteId)
          .orderBy('memberships.email')
          .orderBy('memberships.user_id')
          .orderBy('memberships.role')
          .limit(batch)
          .$narrowType<{ email: string }>();
        if (from) {
          const f = from;
          q = q.where((eb) =>
            eb(
              eb.refTuple('memberships.email', 'memberships.user_id', 'memberships.role'),
              '>',
              eb.tuple(f.email, f.userId, f.role),
            ),
          );
        } else if (after !== undefined) q = q.where('memberships.email', '>', after);
        const rows = await q.execute();
        for (const r of rows) {
          const last = people[people.length - 1];
          if (last?.userId === r.user_id) last.roles.push(r.role);
          else people.push({ email: r.email, name: r.name, roles: [r.role], userId: r.user_id });
        }
        // Enough people (the first `limit` are complete: the next person's first role was read
        // after theirs), or the end of the site.
        if (people.length > limit || rows.length < batch) break;
        const r = rows[rows.length - 1]!;
        from = { email: r.email, userId: r.user_id, role: r.role };
      }
    }
    return keysetPage(
      people,
      limit,
      (p) => [p.email],
      (p) => ({ email: p.email, name: p.name, roles: p.roles }),
    );
  }

  /** One member of the site with their roles. @throws PlatformError `not_found` */
  private async member(siteId: string, userId: string): Promise<SiteMember> {
    const rows = await this.db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['users.email as email', 'users.name as name', 'memberships.role as role'])
      .where('memberships.site_id', '=', siteId)
      .where('memberships.user_id', '=', userId)
      .orderBy('memberships.role')
      .execute();
    const [m] = groupRoles(rows);
    if (!m) throw notFound('member', userId);
    return m;
  }

  /**
   * Gives a member of the site another role (idempotent). DESIGN D5 role hierarchy: only an owner
   * grants `owner`; nobody grants themselves a role. Someone without a role at the site is not
   * found here (invite them instead): no lookup of platform users by e-mail.
   * @param actorId the user acting (the token's `sub`)
   * @throws PlatformError `not_found` (no member with that e-mail), `forbidden` (hierarchy), `invalid`
   */
  async grantRole(siteId: string, email: string, role: string, actorId: string): Promise<SiteMember> {
    if (!(ROLES as readonly string[]).includes(role))
      throw new PlatformError('invalid', `role must be one of ${ROLES.join(', ')}`, { field: 'role' });
    // Issue #25 finding 6: the hierarchy is read and the role written with the site locked
    // (src/platform/locks.ts), so a concurrent removal of the actor's own role cannot slip between.
    const user = await this.db.transaction().execute(async (trx) => {
      await lockSite(trx, siteId);
      const target = await this.memberByEmail(siteId, email, trx);
      await this.checkHierarchy(siteId, actorId, target.id, role, 'grant', trx);
      await trx
        .insertInto('memberships')
        .values({ site_id: siteId, user_id: target.id, role })
        .onConflict((oc) => oc.doNothing())
        .execute();
      return target;
    });
    return this.member(siteId, user.id);
  }

  /**
   * Takes a role away. Only an owner removes `owner`; the last owner of a site keeps it, under
   * concurrency too (DESIGN D5): the owners are counted and the role removed in one transaction
   * holding the site's lock (src/platform/locks.ts), so two owners removing each other at the same
   * moment leave one owner.
   * @throws PlatformError `not_found` (member or role), `forbidden` (hierarchy), `conflict` (last owner)
   */
  async revokeRole(siteId: string, email: string, role: string, actorId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await lockSite(trx, siteId);
      const user = await this.memberByEmail(siteId, email, trx);
      await this.checkHierarchy(siteId, actorId, user.id, role, 'revoke', trx);
      if (role === 'owner') {
        const owners = await trx
          .selectFrom('memberships')
          .select('user_id')
          .where('site_id', '=', siteId)
          .where('role', '=', 'owner')
          .execute();
        if (owners.length === 1 && owners[0]!.user_id === user.id)
          throw new PlatformError('conflict', 'the last owner of a site keeps the owner role', {
            reason: 'last_owner',
          });
      }
      const result = await trx
        .deleteFrom('memberships')
        .where('site_id', '=', siteId)
        .where('user_id', '=', user.id)
        .where('role', '=', role)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw notFound('role', `${role} of ${email}`);
    });
  }

  /** The roles of `userId` at the site. */
  async rolesOf(siteId: string, userId: string, db: Kysely<OperatorDatabase> = this.db): Promise<string[]> {
    const rows = await db
      .selectFrom('memberships')
      .select('role')
      .where('site_id', '=', siteId)
      .where('user_id', '=', userId)
      .execute();
    return rows.map((r) => r.role);
  }

  /** DESIGN D5: owner is granted and removed by owners only; nobody raises their own roles. */
  private async checkHierarchy(
    siteId: string,
    actorId: string,
    targetId: string,
    role: string,
    change: 'grant' | 'revoke',
    db: Kysely<OperatorDatabase>,
  ): Promise<void> {
    const actorRoles = await this.rolesOf(siteId, actorId, db);
    // The actor must still run the site when the write happens (their role may have been removed).
    if (!actorRoles.includes('owner') && !actorRoles.includes('admin'))
      throw new PlatformError('forbidden', 'you no longer hold an owner or admin role at this site', {
        reason: 'role_hierarchy',
      });
    if (role === 'owner' && !actorRoles.includes('owner'))
      throw new PlatformError('forbidden', `only an owner can ${change} the owner role`, {
        reason: 'role_hierarchy',
        field: 'role',
      });
    if (change === 'grant' && targetId === actorId && !actorRoles.includes(role)) {
      throw new PlatformError('forbidden', 'you cannot give yourself a role; ask another operator', {
        reason: 'role_hierarchy',
        field: 'email',
      });
    }
  }

  /**
   * A user with a role at this site, by e-mail.
   * @throws PlatformError `not_found` when nobody with that e-mail has a role here (whether or not
   *   they exist elsewhere on the platform: other sites' people are never revealed)
   */
  private async memberByEmail(
    siteId: string,
    email: string,
    db: Kysely<OperatorDatabase> = this.db,
  ): Promise<{ id: string; email: string }> {
    const user = await db
      .selectFrom('users')
      .innerJoin('memberships', 'memberships.user_id', 'users.id')
      .select(['users.id as id', 'users.email as email'])
      .where('users.email', '=', email.trim().toLowerCase())
      .where('memberships.site_id', '=', siteId)
      .executeTakeFirst();
    if (!user)
      throw new PlatformError(
        'not_found',
        `nobody with the e-mail "${email}" has a role at this site; invite them first`,
        { field: 'email' },
      );
    return user;
  }
}

/** Rows of (email, name, role) in e-mail order → one member per e-mail with their roles. */
function groupRoles(rows: ReadonlyArray<{ email: string; name: string; role: string }>): SiteMember[] {
  const byEmail = new Map<string, SiteMember>();
  for (const r of rows) {
    const m = byEmail.get(r.email) ?? { email: r.email, name: r.name, roles: [] };
    m.roles.push(r.role);
    byEmail.set(r.email, m);
  }
  return [...byEmail.values()];
}

/** A student row as operators see it; `status` is `accessActive` at `now`. */
function student(
  r: { email: string; name: string; slug: string; expires_at: string | null; lifetime: number; created_at: string },
  now: Date,
): StudentEnrollment {
  return {
    email: r.email,
    name: r.name,
    courseSlug: r.slug,
    expireDate: r.expires_at,
    hasLifetimeAccess: r.lifetime === 1,
    status: rowAccessActive({ expires_at: r.expires_at, lifetime_access: r.lifetime }, now) ? 'active' : 'expired',
    enrolledAt: r.created_at,
  };
}
