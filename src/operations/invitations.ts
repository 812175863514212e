/**
 * Invitations (SPEC §2.5 `members:read|write`; DESIGN D5): the only way an operator adds someone to
 * their site. The answer of a create carries the one-time `acceptUrl` (shown once); the invited
 * person opens it, signs in or creates their account for that address, and accepts.
 */
import { z } from 'zod';
import { INVITABLE_ROLES } from '../platform/invitations.js';

/** Roles an invitation may carry, for surfaces that offer them (the /admin forms). */
export { INVITABLE_ROLES };
import { defineOperation, READ, WRITE, DESTRUCTIVE } from './operation.js';
import { auditTarget } from '../platform/audit.js';
import { nextCursor, pageQuery } from './paging.js';

const invitation = z.object({
  id: z.string(),
  email: z.string(),
  role: z.string(),
  status: z.enum(['pending', 'accepted', 'revoked', 'expired']),
  createdAt: z.string(),
  expiresAt: z.string(),
  acceptedAt: z.string().nullable(),
});
const created = invitation.extend({
  acceptUrl: z.string().describe('One-time link for the invited person (shown only here).'),
});
const invitationId = z.string().min(1).max(128);

export const listInvitations = defineOperation({
  id: 'listInvitations',
  method: 'get',
  path: '/api/v1/invitations',
  scope: 'members:read',
  tag: 'members',
  summary: 'Invitations of your site, newest first, optionally of one status',
  query: { ...pageQuery, status: z.enum(['pending', 'accepted', 'revoked', 'expired']).optional() },
  response: z.object({ invitations: z.array(invitation), nextCursor }),
  mcp: { name: 'list_invitations', title: 'List invitations', annotations: READ },
  async run({ query }, ctx) {
    const { items, nextCursor: next } = await ctx.services.invitations.page(ctx.siteId, query);
    return { invitations: items, nextCursor: next };
  },
});

export const getInvitation = defineOperation({
  id: 'getInvitation',
  method: 'get',
  path: '/api/v1/invitations/{invitationId}',
  scope: 'members:read',
  tag: 'members',
  summary: 'One invitation of your site',
  params: { invitationId },
  response: invitation,
  async run({ params }, ctx) {
    return ctx.services.invitations.get(ctx.siteId, params.invitationId);
  },
});

export const createInvitation = defineOperation({
  id: 'createInvitation',
  method: 'post',
  path: '/api/v1/invitations',
  scope: 'members:write',
  tag: 'members',
  summary: 'Invite someone to your site with a role',
  description:
    'Invites an e-mail address with a role (only an owner invites an owner). Answers the one-time acceptUrl (valid 7 days) to hand to the invited person: they sign in, or create their account for that address, and accept. Nothing is revealed about whether the address has an account.',
  body: { email: z.string().email().max(254), role: z.enum(INVITABLE_ROLES) },
  response: created,
  status: 201,
  location: (i) => `/api/v1/invitations/${encodeURIComponent(i.id)}`,
  target: (_input, i) => auditTarget('invitation', i?.id ?? ''),
  mcp: {
    name: 'invite_member',
    title: 'Invite someone',
    annotations: WRITE,
    output: { invitation: created },
    present: (i) => ({ invitation: i }),
  },
  async run({ body }, ctx) {
    const { invitation: inv, token } = await ctx.services.invitations.create(ctx.siteId, {
      email: body.email,
      role: body.role,
      invitedBy: ctx.userId,
    });
    return { ...inv, acceptUrl: `${ctx.services.baseUrl}/invitations/${token}` };
  },
});

export const revokeInvitation = defineOperation({
  id: 'revokeInvitation',
  method: 'delete',
  path: '/api/v1/invitations/{invitationId}',
  scope: 'members:write',
  tag: 'members',
  summary: 'Withdraw a pending invitation (its link stops working)',
  params: { invitationId },
  status: 204,
  target: ({ params }) => auditTarget('invitation', params.invitationId),
  mcp: {
    name: 'revoke_invitation',
    title: 'Withdraw an invitation',
    annotations: DESTRUCTIVE,
    output: { revoked: z.string() },
    present: (_r, args) => ({ revoked: args.invitationId }),
  },
  async run({ params }, ctx) {
    await ctx.services.invitations.revoke(ctx.siteId, params.invitationId);
  },
});
