/**
 * Operator tools for students (enrollments) and members (roles) (SPEC §2.5 `students:read|write`,
 * `members:read|write`). They act on the token's site and need an owner or admin role there.
 */
import { z } from 'zod';
import { ROLES } from '../../../platform/operator/people.js';
import { defineTool, siteOf, READ, WRITE_IDEMPOTENT, DESTRUCTIVE } from './types.js';

const email = z.string().email().max(254);
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

export const listStudents = defineTool({
  name: 'list_students',
  title: 'List students',
  description: 'Enrollments at your site (student e-mail, course slug, expiry, active or expired), optionally of one course.',
  audience: 'operator',
  scopes: ['students:read'],
  input: { courseSlug: z.string().max(64).optional(), limit: z.number().int().min(1).max(200).default(50) },
  output: { students: z.array(enrollment) },
  annotations: READ,
  async run(args, ctx) {
    return { students: await ctx.services.operator.people.students(siteOf(ctx), args) };
  },
});

export const enrollStudent = defineTool({
  name: 'enroll_student',
  title: 'Enroll a student',
  description: 'Enrolls an existing user in a course (or changes the expiry of an enrollment). Give expiresAt or lifetimeAccess: true.',
  audience: 'operator',
  scopes: ['students:write'],
  input: {
    email,
    courseSlug: z.string().min(1).max(64),
    expiresAt: z.string().datetime({ offset: true }).optional(),
    lifetimeAccess: z.boolean().optional(),
  },
  output: { enrollment },
  annotations: WRITE_IDEMPOTENT,
  async run(args, ctx) {
    return { enrollment: await ctx.services.operator.people.enroll(siteOf(ctx), args) };
  },
});

export const unenrollStudent = defineTool({
  name: 'unenroll_student',
  title: 'Remove an enrollment',
  description: "Removes a student's enrollment in a course and their progress in it. Cannot be undone.",
  audience: 'operator',
  scopes: ['students:write'],
  input: { email, courseSlug: z.string().min(1).max(64) },
  output: { removed: z.object({ email: z.string(), courseSlug: z.string() }) },
  annotations: DESTRUCTIVE,
  async run(args, ctx) {
    await ctx.services.operator.people.unenroll(siteOf(ctx), args.email, args.courseSlug);
    return { removed: { email: args.email, courseSlug: args.courseSlug } };
  },
});

export const listMembers = defineTool({
  name: 'list_members',
  title: 'List members',
  description: 'People with a role at your site (owner, admin, instructor, student).',
  audience: 'operator',
  scopes: ['members:read'],
  input: {},
  output: { members: z.array(member) },
  annotations: READ,
  async run(_args, ctx) {
    return { members: await ctx.services.operator.people.members(siteOf(ctx)) };
  },
});

export const grantMemberRole = defineTool({
  name: 'grant_member_role',
  title: 'Give a role',
  description: 'Gives an existing user a role at your site.',
  audience: 'operator',
  scopes: ['members:write'],
  input: { email, role: z.enum(ROLES) },
  output: { member },
  annotations: WRITE_IDEMPOTENT,
  async run(args, ctx) {
    return { member: await ctx.services.operator.people.grantRole(siteOf(ctx), args.email, args.role) };
  },
});

export const revokeMemberRole = defineTool({
  name: 'revoke_member_role',
  title: 'Take a role away',
  description: 'Takes a role away from a member of your site. The last owner keeps the owner role.',
  audience: 'operator',
  scopes: ['members:write'],
  input: { email, role: z.enum(ROLES) },
  output: { revoked: z.object({ email: z.string(), role: z.string() }) },
  annotations: DESTRUCTIVE,
  async run(args, ctx) {
    await ctx.services.operator.people.revokeRole(siteOf(ctx), args.email, args.role);
    return { revoked: { email: args.email, role: args.role } };
  },
});
