/**
 * What members and visitors wrote: comments on lectures and posts (SPEC §2.5 `comments:read`) and
 * form submissions (`forms:read`). Read only: the scopes name no moderation or editing (issue 10).
 */
import { z } from 'zod';
import { FIELD_TYPES } from '../platform/forms.js';
import { defineOperation, READ } from './operation.js';
import { nextCursor, pageQuery } from './paging.js';

const comment = z.object({
  id: z.string(),
  on: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('lecture'), lectureId: z.string(), courseSlug: z.string() }),
    z.object({ kind: z.literal('post'), postSlug: z.string() }),
  ]),
  author: z
    .object({ userId: z.string().nullable(), name: z.string() })
    .describe('userId null and name "Deleted account" once the account is gone.'),
  body: z.string(),
  createdAt: z.string(),
});
const formSummary = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  fieldCount: z.number().int(),
  submissionCount: z.number().int(),
  createdAt: z.string(),
});
const field = z.object({
  name: z.string(),
  label: z.string(),
  type: z.enum(FIELD_TYPES),
  required: z.boolean(),
  options: z.array(z.string()).optional(),
});
const submission = z.object({
  id: z.string(),
  submittedAt: z.string(),
  values: z.record(z.string(), z.union([z.string(), z.boolean()])),
});
const formId = z.string().min(1).max(64).describe('Form id, e.g. "frm_contact".');

export const listComments = defineOperation({
  id: 'listComments',
  method: 'get',
  path: '/api/v1/comments',
  scope: 'comments:read',
  tag: 'comments',
  summary: 'Comments on lectures and posts of your site, newest first, optionally of one course, lecture or post',
  query: {
    ...pageQuery,
    courseSlug: z.string().min(1).max(64).optional().describe('Only comments on lectures of this course.'),
    lectureId: z.string().min(1).max(64).optional().describe('Only comments on this lecture.'),
    postSlug: z.string().min(1).max(64).optional().describe('Only comments on this post.'),
  },
  response: z.object({ comments: z.array(comment), nextCursor }),
  mcp: { name: 'list_comments', title: 'List comments', annotations: READ },
  async run({ query }, ctx) {
    const { items, nextCursor: next } = await ctx.services.comments.page(ctx.siteId, query);
    return { comments: items, nextCursor: next };
  },
});

export const getComment = defineOperation({
  id: 'getComment',
  method: 'get',
  path: '/api/v1/comments/{commentId}',
  scope: 'comments:read',
  tag: 'comments',
  summary: 'One comment with where it was written and by whom',
  params: { commentId: z.string().min(1).max(64) },
  response: comment,
  async run({ params }, ctx) {
    return ctx.services.comments.get(ctx.siteId, params.commentId);
  },
});

export const listForms = defineOperation({
  id: 'listForms',
  method: 'get',
  path: '/api/v1/forms',
  scope: 'forms:read',
  tag: 'forms',
  summary: 'Forms of your site by title, with field and submission counts',
  query: { ...pageQuery },
  response: z.object({ forms: z.array(formSummary), nextCursor }),
  mcp: { name: 'list_forms', title: 'List forms', annotations: READ },
  async run({ query }, ctx) {
    const { items, nextCursor: next } = await ctx.services.forms.page(ctx.siteId, query);
    return { forms: items, nextCursor: next };
  },
});

export const getForm = defineOperation({
  id: 'getForm',
  method: 'get',
  path: '/api/v1/forms/{formId}',
  scope: 'forms:read',
  tag: 'forms',
  summary: 'One form with its fields',
  params: { formId },
  response: formSummary.extend({ fields: z.array(field) }),
  mcp: { name: 'get_form', title: 'Get a form', annotations: READ },
  async run({ params }, ctx) {
    return ctx.services.forms.get(ctx.siteId, params.formId);
  },
});

export const listFormSubmissions = defineOperation({
  id: 'listFormSubmissions',
  method: 'get',
  path: '/api/v1/forms/{formId}/submissions',
  scope: 'forms:read',
  tag: 'forms',
  summary: 'Submissions of a form, newest first, optionally only those since a time',
  params: { formId },
  query: {
    ...pageQuery,
    since: z.string().datetime().optional().describe('ISO 8601 UTC; only submissions at or after it.'),
  },
  response: z.object({ formId: z.string(), submissions: z.array(submission), nextCursor }),
  mcp: { name: 'list_form_submissions', title: 'List form submissions', annotations: READ },
  async run({ params, query }, ctx) {
    const { items, nextCursor: next } = await ctx.services.forms.submissionsPage(ctx.siteId, params.formId, query);
    return { formId: params.formId, submissions: items, nextCursor: next };
  },
});

export const FEEDBACK_OPERATIONS = [listComments, getComment, listForms, getForm, listFormSubmissions];
