/**
 * The state of each dependency of this process, for `/healthz` details and the
 * `coursegate_dependency_up` gauge (DESIGN D12: a shared store's outage is reported in `/healthz`
 * details and metrics, not by failing liveness).
 *
 * Dependencies: the embedded store (`sqlite`), `postgres`, `redis` (those configured) and `mail`.
 * A store's state comes from a probe run in the background every `HEALTH_PROBE_SECONDS` (the
 * probes `/readyz` also uses, each bounded to 1 s) and from the faults its connections report
 * between probes; mail's from the outcome of each message sent (no probe: an SMTP server is not
 * reached without a message). `/healthz` only reads this state, so it answers at once and never
 * waits on a store: a liveness probe must not restart every process during an outage.
 */
import type { LinkMailer } from '../ops/mail.js';

/** What `/healthz` reports of one dependency. */
export interface DependencyReport {
  /** `unknown` until the first probe or use. */
  state: 'up' | 'down' | 'unknown';
  /** When the state last changed (ISO 8601). */
  since: string;
  /** The last failure seen, even after recovery: its message (no URL, no secret) and when. */
  lastError?: { message: string; at: string };
}

/** Where each dependency stands; updated by probes, connection faults and mail outcomes. */
export class Dependencies {
  private readonly reports = new Map<string, DependencyReport>();
  private timer: NodeJS.Timeout | undefined;

  /** @param names the dependencies of this process, reported `unknown` until first seen */
  constructor(names: readonly string[]) {
    const now = new Date().toISOString();
    for (const name of names) this.reports.set(name, { state: 'unknown', since: now });
  }

  /** The dependency answered. */
  up(name: string): void {
    this.set(name, 'up');
  }

  /** The dependency failed: its state is `down` and `err` its last error. */
  down(name: string, err: unknown): void {
    const at = new Date().toISOString();
    this.set(name, 'down', { message: messageOf(err), at });
  }

  /** Every dependency's report, by name (a copy). */
  snapshot(): Record<string, DependencyReport> {
    return Object.fromEntries([...this.reports].map(([name, r]) => [name, { ...r }]));
  }

  /** 1 when up, 0 when down or unknown, by name (the gauge). */
  upValues(): Array<[string, number]> {
    return [...this.reports].map(([name, r]) => [name, r.state === 'up' ? 1 : 0]);
  }

  /**
   * Runs each probe now and then every `intervalMs` (the timer does not keep the process alive).
   * @param probes dependency name → probe that rejects when the dependency cannot be reached
   */
  startProbing(probes: Record<string, () => Promise<void>>, intervalMs: number): void {
    const round = () => {
      for (const [name, probe] of Object.entries(probes))
        probe().then(
          () => this.up(name),
          (err: unknown) => this.down(name, err),
        );
    };
    round();
    this.timer = setInterval(round, intervalMs);
    this.timer.unref();
  }

  /** Stops the background probes. */
  stop(): void {
    clearInterval(this.timer);
  }

  private set(name: string, state: DependencyReport['state'], lastError?: DependencyReport['lastError']): void {
    const before = this.reports.get(name);
    const since = before?.state === state ? before.since : new Date().toISOString();
    this.reports.set(name, { state, since, lastError: lastError ?? before?.lastError });
  }
}

/** An error's message on one line, without anything that looks like a URL's credentials. */
function messageOf(err: unknown): string {
  const message = err instanceof Error ? err.message || err.name : String(err);
  return message
    .replace(/\/\/[^/@\s]*@/g, '//')
    .replace(/\s+/g, ' ')
    .slice(0, 300);
}

/**
 * The mailer, reporting each message's outcome as the state of `mail`: `up` once a message was
 * handed to the SMTP server (or written to the outbox), `down` with the error when one was refused.
 */
export function observedMailer(mailer: LinkMailer, dependencies: Dependencies): LinkMailer {
  const observe =
    <A extends unknown[], R>(send: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        const result = await send(...args);
        dependencies.up('mail');
        return result;
      } catch (err) {
        dependencies.down('mail', err);
        throw err;
      }
    };
  return {
    get transport() {
      return mailer.transport;
    },
    get outboxDir() {
      return mailer.outboxDir;
    },
    sendSetPasswordLink: observe(mailer.sendSetPasswordLink.bind(mailer)),
    sendInvitationLink: observe(mailer.sendInvitationLink.bind(mailer)),
    sendAddressLink: observe(mailer.sendAddressLink.bind(mailer)),
    sendNoAccountNotice: observe(mailer.sendNoAccountNotice.bind(mailer)),
    close: () => mailer.close(),
  };
}
