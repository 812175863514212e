/**
 * Budgets of the e-mails the server sends (DESIGN D5, D7): a password reset, an invitation and a
 * join link each spend one point of three budgets, taken **before** the link is stored or the
 * message written:
 *
 * | budget    | keyed by                                       | setting                  |
 * |-----------|------------------------------------------------|--------------------------|
 * | `ip`      | the client address asking (IPv6 per /64)      | `RATE_LIMIT_MAIL_IP`      |
 * | `address` | the recipient (lower case)                     | `RATE_LIMIT_MAIL_ADDRESS` |
 * | `global`  | the whole server                               | `RATE_LIMIT_MAIL_GLOBAL`  |
 *
 * So nobody fires mail at strangers through "Forgot your password?" or an invitation page: one
 * client address causes at most its budget of messages, one recipient receives at most its budget
 * whoever asks, and the server as a whole sends at most the global budget. The recipient's budget
 * is spent the same way whether or not the address has an account, so a refusal tells nothing
 * about it (DESIGN D5). The budgets are not the failed sign-in limit (`RATE_LIMIT_LOGIN_FAILURES`):
 * asking for mail never locks anyone's sign-in.
 *
 * Counters live in Redis when Redis holds the OIDC state (every process shares them), else in
 * process memory, as the other limits of src/http/rate-limits.ts.
 */
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { MailLimits } from '../config.js';
import type { RedisClient } from '../../adapters/redis.js';
import { addressKey, limiter } from './rate-limits.js';

/** Which budget a refused message ran out of. */
export type MailBudgetName = 'ip' | 'address' | 'global';

/** The outcome of {@link MailBudget.spend}: a point of each budget taken, or the one that refused and when to retry. */
export type MailSpend = { ok: true } | { ok: false; budget: MailBudgetName; retryAfterSeconds: number };

/** What a mail budget is built from. */
export interface MailBudgetDeps {
  limits: MailLimits;
  /** Shared counters; undefined = process memory. */
  redis?: RedisClient;
  /** Key prefix of the counters in Redis. */
  prefix?: string;
  /** Called on each refusal (metrics). */
  onRefused?: (budget: MailBudgetName) => void;
}

/** The three mail budgets of the server. */
export class MailBudget {
  private readonly counters: Record<MailBudgetName, RateLimiterAbstract>;

  constructor(private readonly deps: MailBudgetDeps) {
    this.counters = {
      ip: limiter('mail-ip', deps.limits.ip, deps),
      address: limiter('mail-address', deps.limits.address, deps),
      global: limiter('mail-global', deps.limits.global, deps),
    };
  }

  /**
   * Takes one point of each budget for a message to `to`: the client address's first (so one
   * client cannot spend a recipient's or the server's budget beyond its own), then the
   * recipient's, then the server's. A refusal gives back the points this call took.
   * @param to the recipient's e-mail address (compared in lower case)
   * @param from the client address that asked (`ctx.ip`); undefined for an operator's action,
   *   which is counted per recipient and server-wide only
   * @returns `{ ok: true }`, or the budget that refused and the seconds until it has a point again (≥ 1)
   * @throws what the counter store throws when neither it nor its in-memory insurance can count
   */
  async spend(to: string, from?: string): Promise<MailSpend> {
    const steps: Array<[MailBudgetName, string]> = [
      ...(from === undefined ? [] : ([['ip', addressKey(from)]] as Array<[MailBudgetName, string]>)),
      ['address', to.trim().toLowerCase()],
      ['global', 'all'],
    ];
    const taken: Array<[MailBudgetName, string]> = [];
    for (const [budget, key] of steps) {
      try {
        await this.counters[budget].consume(key);
        taken.push([budget, key]);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        await Promise.all(taken.map(([b, k]) => this.counters[b].reward(k).catch(() => undefined)));
        this.deps.onRefused?.(budget);
        return { ok: false, budget, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      }
    }
    return { ok: true };
  }
}

/** "Try again in N minutes." for a refusal's `retryAfterSeconds`. */
export function mailRetryText(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many e-mails were asked for just now. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
