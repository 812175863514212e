/**
 * Lecturers (SPEC §2.5 `lecturers:read|write`): instructor profiles of your site and the courses
 * they teach. A profile may name a person with the instructor role at your site by user id; no
 * operation looks people up by e-mail (issue 10).
 */
import { z } from 'zod';
import { defineOperation, READ, WRITE, WRITE_IDEMPOTENT, DESTRUCTIVE } from './operation.js';
import { nextCursor, pageQuery } from './paging.js';

const lecturer = z.object({
  id: z.string(),
  name: z.string(),
  bio: z.string(),
  photoUrl: z.string().nullable(),
  userId: z.string().nullable().describe('A person with the instructor role at your site, or null.'),
  courses: z.array(z.string()).describe('Slugs of the courses this lecturer teaches.'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const lecturerId = z.string().min(1).max(64).describe('Lecturer id, e.g. "lct_…".');
const courseSlug = z.string().min(1).max(64).describe('Course slug, e.g. "sql-basics".');
const fields = {
  name: z.string().min(1).max(200),
  bio: z.string().max(10_000).describe('Markdown.'),
  photoUrl: z.string().url().max(2048).nullable().describe('https:// URL of a portrait, or null.'),
  userId: z
    .string()
    .min(1)
    .max(64)
    .nullable()
    .describe('User id of a person with the instructor role at your site, or null.'),
};

export const listLecturers = defineOperation({
  id: 'listLecturers',
  method: 'get',
  path: '/api/v1/lecturers',
  scope: 'lecturers:read',
  tag: 'lecturers',
  summary: 'Lecturers of your site by name, optionally only those teaching one course',
  query: { ...pageQuery, courseSlug: courseSlug.optional() },
  response: z.object({ lecturers: z.array(lecturer), nextCursor }),
  mcp: { name: 'list_lecturers', title: 'List lecturers', annotations: READ },
  async run({ query }, ctx) {
    const { items, nextCursor: next } = await ctx.services.lecturers.page(ctx.siteId, query);
    return { lecturers: items, nextCursor: next };
  },
});

export const getLecturer = defineOperation({
  id: 'getLecturer',
  method: 'get',
  path: '/api/v1/lecturers/{lecturerId}',
  scope: 'lecturers:read',
  tag: 'lecturers',
  summary: 'One lecturer with the courses they teach',
  params: { lecturerId },
  response: lecturer,
  mcp: { name: 'get_lecturer', title: 'Get a lecturer', annotations: READ },
  async run({ params }, ctx) {
    return ctx.services.lecturers.get(ctx.siteId, params.lecturerId);
  },
});

export const createLecturer = defineOperation({
  id: 'createLecturer',
  method: 'post',
  path: '/api/v1/lecturers',
  scope: 'lecturers:write',
  tag: 'lecturers',
  summary: 'Create a lecturer profile (name, bio, photo URL, optionally an instructor of your site)',
  body: {
    name: fields.name,
    bio: fields.bio.optional(),
    photoUrl: fields.photoUrl.optional(),
    userId: fields.userId.optional(),
  },
  response: lecturer,
  status: 201,
  location: (l) => `/api/v1/lecturers/${encodeURIComponent(l.id)}`,
  mcp: { name: 'create_lecturer', title: 'Create a lecturer', annotations: WRITE },
  async run({ body }, ctx) {
    return ctx.services.lecturers.create(ctx.siteId, body);
  },
});

export const updateLecturer = defineOperation({
  id: 'updateLecturer',
  method: 'patch',
  path: '/api/v1/lecturers/{lecturerId}',
  scope: 'lecturers:write',
  tag: 'lecturers',
  summary: "Change a lecturer's name, bio, photo or linked instructor (send If-Match to avoid lost updates)",
  params: { lecturerId },
  body: {
    name: fields.name.optional(),
    bio: fields.bio.optional(),
    photoUrl: fields.photoUrl.optional(),
    userId: fields.userId.optional(),
  },
  response: lecturer,
  ifMatch: 'getLecturer',
  async run({ params, body }, ctx) {
    return ctx.services.lecturers.update(ctx.siteId, params.lecturerId, body);
  },
});

export const deleteLecturer = defineOperation({
  id: 'deleteLecturer',
  method: 'delete',
  path: '/api/v1/lecturers/{lecturerId}',
  scope: 'lecturers:write',
  tag: 'lecturers',
  summary: 'Delete a lecturer profile and its course assignments (the courses stay)',
  params: { lecturerId },
  status: 204,
  async run({ params }, ctx) {
    await ctx.services.lecturers.delete(ctx.siteId, params.lecturerId);
  },
});

export const assignLecturer = defineOperation({
  id: 'assignLecturer',
  method: 'put',
  path: '/api/v1/lecturers/{lecturerId}/courses/{courseSlug}',
  scope: 'lecturers:write',
  tag: 'lecturers',
  summary: 'Assign a lecturer to a course of your site (idempotent)',
  params: { lecturerId, courseSlug },
  response: lecturer,
  mcp: { name: 'assign_lecturer', title: 'Assign a lecturer to a course', annotations: WRITE_IDEMPOTENT },
  async run({ params }, ctx) {
    return ctx.services.lecturers.assign(ctx.siteId, params.lecturerId, params.courseSlug);
  },
});

export const unassignLecturer = defineOperation({
  id: 'unassignLecturer',
  method: 'delete',
  path: '/api/v1/lecturers/{lecturerId}/courses/{courseSlug}',
  scope: 'lecturers:write',
  tag: 'lecturers',
  summary: 'Remove a lecturer from a course (idempotent); answers the lecturer',
  params: { lecturerId, courseSlug },
  response: lecturer,
  mcp: { name: 'unassign_lecturer', title: 'Remove a lecturer from a course', annotations: DESTRUCTIVE },
  async run({ params }, ctx) {
    return ctx.services.lecturers.unassign(ctx.siteId, params.lecturerId, params.courseSlug);
  },
});

export const LECTURER_OPERATIONS = [
  listLecturers,
  getLecturer,
  createLecturer,
  updateLecturer,
  assignLecturer,
  unassignLecturer,
  deleteLecturer,
];
