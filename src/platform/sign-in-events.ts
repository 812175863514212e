/**
 * Sign-in events in the audit trail (DESIGN D10, D14: "Sign-in events are audited without
 * secrets"): a successful sign-in, a failed one (a wrong password for an existing account) and a
 * lock-out (the failed sign-in limit reached, DESIGN D7) are recorded in the trail of every site
 * where the person holds a role, so an operator sees attacks on their people's accounts.
 *
 * An event names the user (id), the client whose authorization the sign-in was for (none on the
 * people's own sign-in page), the factor (`password`), the page and the client address; never the
 * password nor the address typed in. An address without an account belongs to no site's trail and
 * is not recorded (nothing anywhere tells whether an address has an account, DESIGN D5). A
 * lock-out is recorded once per person and client address while it lasts (per process), however
 * many attempts meet it, so a flood of refused attempts cannot flood the trail.
 */
import type { Accounts } from './accounts.js';
import type { AuditKind, AuditTrail } from './audit.js';

/** What happened. */
export type SignInOutcome = 'success' | 'failure' | 'lockout';

/** Where the person signed in. */
export type SignInPage = 'sign-in page' | 'authorization';

/** One sign-in attempt to record. */
export interface SignInAttempt {
  /** The address as typed (to find the account of a failed attempt); never recorded. */
  email: string;
  /** The account, when known (a success). */
  userId?: string;
  /** The OAuth client of an authorization's sign-in. */
  clientId?: string;
  page: SignInPage;
  /** The client's IP address as the server sees it (`TRUST_PROXY`). */
  address: string;
  /** For a lock-out: seconds until the next attempt is allowed. */
  retryAfterSeconds?: number;
}

const KIND: Record<SignInOutcome, AuditKind> = {
  success: 'sign_in',
  failure: 'sign_in_failed',
  lockout: 'sign_in_locked',
};

const WHAT: Record<SignInOutcome, string> = {
  success: 'signed in with a password',
  failure: 'wrong password',
  lockout: 'too many failed sign-ins: locked',
};

/** Most lock-outs remembered per process (oldest forgotten first). */
const REMEMBERED_LOCKOUTS = 10_000;

/** Records sign-in attempts in the trails of the person's sites. */
export class SignInEvents {
  /** `userId address` → epoch ms until which its lock-out is already recorded. */
  private readonly locked = new Map<string, number>();

  constructor(
    private readonly accounts: Pick<Accounts, 'userIdByEmail' | 'membershipsOf'>,
    private readonly audit: Pick<AuditTrail, 'record'>,
  ) {}

  /**
   * Records `attempt` once per site of its account (none for an address without one).
   * @throws what the platform store throws (the caller logs it; a sign-in never fails on it)
   */
  async record(outcome: SignInOutcome, attempt: SignInAttempt, now = Date.now()): Promise<void> {
    const userId = attempt.userId ?? (await this.accounts.userIdByEmail(attempt.email.trim()));
    if (!userId) return;
    if (outcome === 'lockout' && !this.firstOfLockout(`${userId} ${attempt.address}`, attempt, now)) return;
    const sites = await this.accounts.membershipsOf(userId);
    const detail = `${WHAT[outcome]} (${attempt.page}, from ${attempt.address})`;
    await Promise.all(
      sites.map((m) =>
        this.audit.record({
          kind: KIND[outcome],
          siteId: m.site.id,
          userId,
          clientId: attempt.clientId ?? null,
          detail,
        }),
      ),
    );
  }

  /** Whether this lock-out is not recorded yet (and remembers it until it ends). */
  private firstOfLockout(key: string, attempt: SignInAttempt, now: number): boolean {
    const until = this.locked.get(key);
    if (until !== undefined && until > now) return false;
    this.locked.delete(key);
    if (this.locked.size >= REMEMBERED_LOCKOUTS) this.locked.delete(this.locked.keys().next().value as string);
    this.locked.set(key, now + Math.max(1, attempt.retryAfterSeconds ?? 60) * 1000);
    return true;
  }
}

/**
 * Records an attempt without holding up the sign-in it belongs to: the answer does not wait for
 * the trail, and a failure to record is logged (`sign_in_event_not_recorded`, no address typed in,
 * no password), never answered to the person.
 */
export function recordSignIn(
  events: Pick<SignInEvents, 'record'> | undefined,
  logger: { warn(obj: object, msg: string): void },
  outcome: SignInOutcome,
  attempt: SignInAttempt,
): void {
  events
    ?.record(outcome, attempt)
    .catch((err: unknown) =>
      logger.warn(
        { event: 'sign_in_event_not_recorded', outcome, err: { message: (err as Error)?.message } },
        'sign-in event not recorded in the audit trail',
      ),
    );
}
