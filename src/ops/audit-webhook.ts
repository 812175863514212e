/**
 * The audit webhook: every audit event (DESIGN D10) is POSTed as JSON to `AUDIT_WEBHOOK_URL`, so
 * an operator's SIEM or log pipeline receives the trail as it is written (docs/operator-guide.md
 * "Audit webhook").
 *
 * Delivery is at-least-once. Each write of an event queues a row in `audit_deliveries` in the same
 * transaction as the event (src/platform/audit.ts `queueDeliveries`); this module claims due rows
 * (a lease, so two processes do not send the same row at once and a crashed process's claim
 * lapses), POSTs them, deletes a row on a 2xx answer and otherwise retries it with exponential
 * backoff (1 s, 2 s, 4 s… capped at 15 minutes, ±20 % jitter) up to `AUDIT_WEBHOOK_MAX_ATTEMPTS`
 * tries, after which the row stays as a dead letter (`dead_at`, `last_error`), is logged
 * (`audit_webhook_dead_letter`, the event id only) and counted, and is purged with the trail's
 * retention. Redirects are not followed (a 3xx is a failed try). A receiver de-duplicates by the
 * event id (`Coursegate-Event-Id`, also the body's `id`): a retried delivery carries the same one.
 * A refresh counter row (refreshes are counted per grant and hour) is delivered again each time
 * its count grows, with the same id and the new `count`/`lastAt`: keep the one with the highest
 * `count`.
 *
 * Signature (same scheme as Stripe's and Standard Webhooks' "timestamp.body"): the header
 * `Coursegate-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. A receiver
 * recomputes it over the raw body, compares in constant time and refuses a `t` older than a few
 * minutes (replay).
 */
import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { PlatformDatabase } from '../platform/schema.js';

/** Settings of the webhook (`AUDIT_WEBHOOK_*`, src/config-settings.ts). */
export interface AuditWebhookSettings {
  /** Where events are POSTed (https in production, loopback aside). */
  url: string;
  /** The HMAC-SHA256 key of `Coursegate-Signature` (≥ 32 characters). */
  secret: string;
  /** Tries before a delivery becomes a dead letter, ≥ 1. */
  maxAttempts: number;
}

/** Outcomes counted per try (metrics label `outcome`). */
export type DeliveryOutcome = 'delivered' | 'retry' | 'dead';

/** First retry delay in milliseconds; doubled per try. */
const FIRST_RETRY_MS = 1000;
/** Longest retry delay in milliseconds. */
const LONGEST_RETRY_MS = 15 * 60_000;
/** One try's time limit in milliseconds (connect, send, answer). */
const TRY_TIMEOUT_MS = 10_000;
/** How long a claim holds, in milliseconds: longer than a try, so only a dead process's lapses. */
const CLAIM_MS = 3 * TRY_TIMEOUT_MS;
/** Rows claimed per round. */
const CLAIM_ROWS = 20;
/** Rounds between wake-ups, in milliseconds: retries come due without an event to wake them. */
const POLL_MS = 1000;

/** `Coursegate-Signature` of `body` at `unixSeconds` (see the module docstring). */
export function signWebhookBody(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** The delay before try `attempt + 1` after `attempt` failed tries (≥ 1), in milliseconds, with jitter. */
export function retryDelayMs(attempt: number, random = Math.random): number {
  const base = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * Delivers queued audit events (see the module docstring). `start()` begins the rounds, `wake()`
 * starts one now (called after each committed batch of events), `stop()` ends them and waits for
 * the round in flight.
 */
export class AuditWebhook {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  /** @param count called once per try with its outcome (metrics) */
  constructor(
    private readonly db: Kysely<PlatformDatabase>,
    private readonly settings: AuditWebhookSettings,
    private readonly logger: Logger,
    private readonly count: (outcome: DeliveryOutcome) => void = () => undefined,
  ) {}

  /** Starts the rounds (one now, then every second; the timer does not keep the process alive). */
  start(): void {
    this.timer = setInterval(() => this.wake(), POLL_MS);
    this.timer.unref();
    this.wake();
  }

  /** Runs a round now, or right after the one in flight. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.round()
      .catch((err: unknown) =>
        // A store outage: the rows stay queued and the next round tries again.
        this.logger.warn(
          { event: 'audit_webhook_round_failed', err: { message: (err as Error)?.message } },
          'audit webhook round failed',
        ),
      )
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Stops the rounds; resolves once the round in flight has ended (its claims lapse otherwise). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** Claims due rows and delivers them, until none is due. */
  private async round(): Promise<void> {
    for (;;) {
      const claimed = await this.claim();
      if (claimed.length === 0) return;
      await Promise.all(claimed.map((row) => this.deliver(row)));
      if (this.stopped) return;
    }
  }

  /** Leases up to {@link CLAIM_ROWS} due rows to this process, oldest first. */
  private async claim() {
    const now = new Date();
    const at = now.toISOString();
    const due = this.db
      .selectFrom('audit_deliveries')
      .select('id')
      .where('dead_at', 'is', null)
      .where('next_attempt_at', '<=', at)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', at)]))
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(CLAIM_ROWS);
    return this.db
      .updateTable('audit_deliveries')
      .set({ claimed_until: new Date(now.getTime() + CLAIM_MS).toISOString() })
      .where('id', 'in', due)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', at)]))
      .returning(['id', 'event_id', 'body', 'attempts'])
      .execute();
  }

  /** One try of one row; records its outcome. */
  private async deliver(row: { id: string; event_id: string; body: string; attempts: number }): Promise<void> {
    const attempts = Number(row.attempts) + 1;
    const failure = await this.post(row);
    if (failure === undefined) {
      await this.db.deleteFrom('audit_deliveries').where('id', '=', row.id).execute();
      this.count('delivered');
      return;
    }
    const now = new Date();
    if (attempts >= this.settings.maxAttempts) {
      await this.db
        .updateTable('audit_deliveries')
        .set({ attempts, dead_at: now.toISOString(), last_error: failure, claimed_until: null })
        .where('id', '=', row.id)
        .execute();
      this.count('dead');
      this.logger.warn(
        { event: 'audit_webhook_dead_letter', audit_event_id: row.event_id, attempts, reason: failure },
        'audit event not delivered after the last try; kept as a dead letter',
      );
      return;
    }
    await this.db
      .updateTable('audit_deliveries')
      .set({
        attempts,
        last_error: failure,
        claimed_until: null,
        next_attempt_at: new Date(now.getTime() + retryDelayMs(attempts)).toISOString(),
      })
      .where('id', '=', row.id)
      .execute();
    this.count('retry');
  }

  /** POSTs one delivery; undefined on a 2xx answer, else why it failed (status or error name). */
  private async post(row: { id: string; event_id: string; body: string }): Promise<string | undefined> {
    const t = Math.floor(Date.now() / 1000);
    try {
      const res = await fetch(this.settings.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(TRY_TIMEOUT_MS),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'coursegate-audit-webhook',
          'coursegate-event-id': row.event_id,
          'coursegate-delivery': row.id,
          'coursegate-signature': signWebhookBody(this.settings.secret, row.body, t),
        },
        body: row.body,
      });
      await res.body?.cancel();
      return res.status >= 200 && res.status < 300 ? undefined : `HTTP ${res.status}`;
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      return e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? e.name ?? 'network error');
    }
  }
}

/**
 * Deletes dead letters older than `retentionDays` (with the trail's retention purge).
 * @returns how many were deleted
 */
export async function purgeDeadLetters(
  db: Kysely<PlatformDatabase>,
  retentionDays: number,
  now = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000).toISOString();
  const result = await db.deleteFrom('audit_deliveries').where('dead_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
