/**
 * Students (enrollments) and members (roles) (SPEC §2.5 `students:read|write`,
 * `members:read|write`; DESIGN D5). Operators act only on people who have a role at their site:
 * someone new is invited (`invitations.ts`), never looked up by e-mail across the platform.
 */
import { z } from 'zod';
import { auditTarget } from '../platform/audit.js';
import { ROLES } from '../platform/operator/people.js';

/** The roles of a site (DESIGN D5), for surfaces that offer them (the /admin forms). */
export { ROLES };
import { defineOperation, READ, WRITE_IDEMPOTENT, DESTRUCTIVE } from './operation.js';
import { nextCursor, pageQuery } from './paging.js';

const email = z.string().email().max(254);
const courseSlug = z.string().min(1).max(64);
const enrollment = z.object({
  email: z.string(),
  name: z.string(),
  courseSlug: z.string(),
  expireDate: z.string().nullable(),
  hasLifetimeAccess: z.boolean(),
  status: z.enum(['active', 'expired']),
  enrolledAt: z.string(),
});
const member = z.object({ email: z.string(), name: z.string(), roles: z.array(z.string()) });

export const listStudents = defineOperation({
  id: 'listStudents',
  method: 'get',
  path: '/api/v1/students',
  scope: 'students:read',
  tag: 'students',
  summary:
    'Enrollments at your site (student e-mail, course slug, expiry, active or expired), optionally of one course',
  query: { ...pageQuery, courseSlug: z.string().max(64).optional(), status: z.enum(['active', 'expired']).optional() },
  response: z.object({ students: z.array(enrollment), nextCursor }),
  mcp: { name: 'list_students', title: 'List students', annotations: READ },
  async run({ query }, ctx) {
    const { items, nextCursor: next } = await ctx.services.operator.people.studentsPage(ctx.siteId, query);
    return { students: items, nextCursor: next };
  },
});

export const enrollStudent = defineOperation({
  id: 'enrollStudent',
  method: 'put',
  path: '/api/v1/courses/{courseSlug}/students/{email}',
  scope: 'students:write',
  tag: 'students',
  summary: 'Enroll a member of your site in a course (or change the expiry of the enrollment)',
  description:
    'Enrolls a person who already has a role at your site (invite others first) in a course, or changes the expiry of an enrollment. Give expiresAt or lifetimeAccess: true.',
  params: { courseSlug, email },
  body: { expiresAt: z.string().datetime({ offset: true }).optional(), lifetimeAccess: z.boolean().optional() },
  response: enrollment,
  mcp: {
    name: 'enroll_student',
    title: 'Enroll a student',
    annotations: WRITE_IDEMPOTENT,
    output: { enrollment },
    present: (e) => ({ enrollment: e }),
  },
  async run({ params, body }, ctx) {
    return ctx.services.operator.people.enroll(ctx.siteId, {
      email: params.email,
      courseSlug: params.courseSlug,
      ...body,
    });
  },
});

export const unenrollStudent = defineOperation({
  id: 'unenrollStudent',
  method: 'delete',
  path: '/api/v1/courses/{courseSlug}/students/{email}',
  scope: 'students:write',
  tag: 'students',
  summary: "Remove a student's enrollment in a course and their progress in it (cannot be undone)",
  params: { courseSlug, email },
  status: 204,
  mcp: {
    name: 'unenroll_student',
    title: 'Remove an enrollment',
    annotations: DESTRUCTIVE,
    output: { removed: z.object({ email: z.string(), courseSlug: z.string() }) },
    present: (_r, args) => ({ removed: { email: args.email, courseSlug: args.courseSlug } }),
  },
  async run({ params }, ctx) {
    await ctx.services.operator.people.unenroll(ctx.siteId, params.email, params.courseSlug);
  },
});

export const listMembers = defineOperation({
  id: 'listMembers',
  method: 'get',
  path: '/api/v1/members',
  scope: 'members:read',
  tag: 'members',
  summary: 'People with a role at your site (owner, admin, instructor, student), by e-mail',
  query: { ...pageQuery, role: z.enum(ROLES).optional() },
  response: z.object({ members: z.array(member), nextCursor }),
  mcp: { name: 'list_members', title: 'List members', annotations: READ },
  csv: { rows: 'members' },
  async run({ query }, ctx) {
    const { items, nextCursor: next } = await ctx.services.operator.people.membersPage(ctx.siteId, query);
    return { members: items, nextCursor: next };
  },
});

export const grantMemberRole = defineOperation({
  id: 'grantMemberRole',
  method: 'put',
  path: '/api/v1/members/{email}/roles/{role}',
  scope: 'members:write',
  tag: 'members',
  summary: 'Give a member of your site a role',
  description:
    'Gives a person who already has a role at your site another role (invite others). Only an owner grants owner; nobody raises their own roles.',
  params: { email, role: z.enum(ROLES) },
  response: member,
  target: ({ params }) => auditTarget('member', `${params.email.toLowerCase()}/${params.role}`),
  mcp: {
    name: 'grant_member_role',
    title: 'Give a role',
    annotations: WRITE_IDEMPOTENT,
    output: { member },
    present: (m) => ({ member: m }),
  },
  async run({ params }, ctx) {
    return ctx.services.operator.people.grantRole(ctx.siteId, params.email, params.role, ctx.userId);
  },
});

export const revokeMemberRole = defineOperation({
  id: 'revokeMemberRole',
  method: 'delete',
  path: '/api/v1/members/{email}/roles/{role}',
  scope: 'members:write',
  tag: 'members',
  summary: 'Take a role away from a member of your site',
  description: 'Takes a role away. Only an owner removes owner; the last owner keeps it (409).',
  params: { email, role: z.enum(ROLES) },
  status: 204,
  target: ({ params }) => auditTarget('member', `${params.email.toLowerCase()}/${params.role}`),
  mcp: {
    name: 'revoke_member_role',
    title: 'Take a role away',
    annotations: DESTRUCTIVE,
    output: { revoked: z.object({ email: z.string(), role: z.string() }) },
    present: (_r, args) => ({ revoked: { email: args.email, role: args.role } }),
  },
  async run({ params }, ctx) {
    await ctx.services.operator.people.revokeRole(ctx.siteId, params.email, params.role, ctx.userId);
  },
});
