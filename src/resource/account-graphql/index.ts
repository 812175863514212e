/**
 * `/account/graphql`: the member Account API (SPEC §2.4, §4.3) on graphql-yoga.
 *
 * Authentication and the `account:read` requirement are the shared bearer middleware's job
 * (mounted in front of this handler); resolvers only ever see the principal's (site, user).
 */
import { readFileSync } from 'node:fs';
import type { Context, Middleware } from 'koa';
import { createSchema, createYoga } from 'graphql-yoga';
import { GraphQLError } from 'graphql';
import type { Accounts } from '../../platform/accounts.js';
import type { Learning, MemberRef, Page } from '../../platform/learning.js';
import type { Principal } from '../bearer.js';

const typeDefs = readFileSync(new URL('./schema.graphql', import.meta.url), 'utf8');

/** Per-request GraphQL context. */
export interface AccountContext {
  principal: Principal;
  member: MemberRef;
  accounts: Accounts;
  learning: Learning;
}

function connection<T>(page: Page<T>) {
  return {
    nodes: page.items.map((i) => i.node),
    edges: page.items,
    pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.items.at(-1)?.cursor ?? null },
    totalCount: page.totalCount,
  };
}

function pageSize(first: number): number {
  if (!Number.isInteger(first) || first < 0 || first > 100) {
    throw new GraphQLError('`first` must be between 0 and 100', { extensions: { code: 'BAD_USER_INPUT' } });
  }
  return first;
}

const resolvers = {
  Query: {
    viewer: async (_: unknown, __: unknown, ctx: AccountContext) => {
      const user = await ctx.accounts.findUser(ctx.member.userId);
      if (!user) throw new GraphQLError('member not found', { extensions: { code: 'NOT_FOUND' } });
      return { id: user.id, email: user.email, name: user.name };
    },
  },
  Viewer: {
    site: async (_: unknown, __: unknown, ctx: AccountContext) => {
      const site = await ctx.accounts.findSite(ctx.member.siteId);
      return { id: ctx.member.siteId, name: site?.name ?? ctx.member.siteId };
    },
    roles: (_: unknown, __: unknown, ctx: AccountContext) => ctx.accounts.rolesAt(ctx.member.userId, ctx.member.siteId),
    enrolledCourses: async (_: unknown, args: { first: number; after?: string | null }, ctx: AccountContext) =>
      connection(await ctx.learning.enrollments(ctx.member, pageSize(args.first), args.after ?? undefined)),
  },
};

export interface AccountApiDeps {
  accounts: Accounts;
  learning: Learning;
  production: boolean;
}

/** Koa handler of `/account/graphql`; expects `ctx.state.principal` from the bearer middleware. */
export function accountGraphqlHandler(deps: AccountApiDeps): Middleware {
  const yoga = createYoga<{ koa: Context }, AccountContext>({
    schema: createSchema<{ koa: Context } & AccountContext>({ typeDefs, resolvers }),
    graphqlEndpoint: '/account/graphql',
    graphiql: false,
    landingPage: false,
    logging: false,
    maskedErrors: true,
    context: ({ koa }) => {
      const principal = koa.state.principal as Principal;
      return { principal, member: { siteId: principal.siteId, userId: principal.userId }, accounts: deps.accounts, learning: deps.learning };
    },
  });
  return async (ctx) => {
    const response = await yoga.handleNodeRequestAndResponse(ctx.req, ctx.res, { koa: ctx });
    ctx.status = response.status;
    response.headers.forEach((value, key) => ctx.set(key, value));
    ctx.body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  };
}
