/**
 * What a resolver of the Account API sees: the principal of the bearer middleware, the member it
 * acts for (SPEC §1: the token's user at the token's site) and the platform services.
 */
import type { Accounts } from '../../platform/accounts.js';
import type { Enrollments } from '../../platform/enrollments.js';
import type { MemberRef } from '../../platform/accounts.js';
import type { Orders } from '../../platform/orders.js';
import type { EventRegistrations } from '../../platform/events.js';
import type { Progress } from '../../platform/progress.js';
import type { Profiles } from '../../platform/profiles.js';
import type { Principal } from '../bearer.js';

/** The platform services behind the Account API. */
export interface AccountServices {
  accounts: Accounts;
  enrollments: Enrollments;
  orders: Orders;
  eventRegistrations: EventRegistrations;
  progress: Progress;
  profiles: Profiles;
}

/** Per-request GraphQL context. */
export interface AccountContext {
  principal: Principal;
  /** Always `{ siteId: principal.siteId, userId: principal.userId }`: no argument can widen it. */
  member: MemberRef;
  services: AccountServices;
}
