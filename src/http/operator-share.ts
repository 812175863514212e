/**
 * The operators' share of the event loop (issue #29: "No operator read may stall token traffic").
 *
 * Token traffic (the token endpoint, introspection, UserInfo, the Account API, member MCP tools)
 * and operator requests (`/api/v1`, `/admin`, MCP operator tools) are served by one event loop.
 * Every operator request is bounded (keyset pages, maintained counters, index-bound statements), but
 * an operator script that pages without pause still takes the loop as often as it asks: measured
 * at ~30 % of a core, UserInfo fell to 0.7× of its rate alone. This module keeps operator requests
 * to a share of the loop while other traffic is being served, and leaves them unhindered otherwise:
 *
 * - a bucket of loop time, in ms: it refills at `share` ms per ms of wall time, up to `burstMs`;
 * - each operator request is charged, ms: the time from the edge to its admission (the bearer
 *   check), then the wall time from admission to the closed response (handler, Koa's JSON write,
 *   and the work interleaved with it under load), but at most its loop thread's CPU time or
 *   `ioCapMs` (20), whichever is more: an upload or a slow database read waits on I/O without
 *   holding the loop (charging CPU time alone undercharged: on a core shared with GC and worker
 *   threads the loop thread's CPU time is well under its wall time); and at least `minChargeMs`
 *   (2): the HTTP parsing before the edge and the garbage a request leaves are not seen in it;
 * - other traffic is "being served" while another request is in flight or one was answered less
 *   than `quietMs` ago (on the embedded store a UserInfo request starts and ends within one turn
 *   of the loop, so "in flight" alone would rarely see it);
 * - an operator request is admitted at once when the bucket holds credit or no other traffic is
 *   being served (nothing to yield to); otherwise it waits, first come first served, until the
 *   bucket refills, the other traffic stops, or it has waited `maxWaitMs`.
 *
 * Nothing is refused: a waiting operator request is answered later, never 429 (rate limits are
 * DESIGN D7's, per client and address; this is a scheduler). A person clicking through `/admin`
 * does not notice (one page is a few ms against a burst of `burstMs`); a script paging every list
 * while members call UserInfo is slowed to `share` of the loop.
 *
 * The edge (src/app.ts) counts every request in and out (`enter`/`leave`, with whether its route
 * is an operator row); the `shareLoop` column step (src/pipelines/steps.ts, route-table rows with
 * `loop: 'operator'`) and the MCP operator tools (src/resource/admin-api/mcp-tools.ts) call `admit`.
 */

/** A clock in ms (`performance.now()`). */
export type Clock = () => number;

type CpuUsage = { user: number; system: number };
const threadCpuUsage = (process as unknown as { threadCpuUsage?: () => CpuUsage }).threadCpuUsage;

/**
 * CPU time of the event loop's thread so far, ms: `process.threadCpuUsage()` (Node ≥ 23.9 and
 * recent 22.x), else the whole process's (`process.cpuUsage()`, which also counts GC and worker
 * threads: a charge then errs on the high side).
 */
export function loopCpuMs(): number {
  const used = threadCpuUsage ? threadCpuUsage.call(process) : process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/** Settings of {@link OperatorLoopShare}. */
export interface OperatorLoopShareOptions {
  /**
   * Fraction of wall time operator requests may be in flight while other traffic is served
   * (0 < share ≤ 1; 1 turns the scheduling off). `OPERATOR_LOOP_SHARE`, default 0.1.
   */
  share: number;
  /** Bucket size in ms of loop time: what operators may take at once before the share applies (default 100). */
  burstMs?: number;
  /** Other traffic counts as served for this long after its last answer, ms (default 10). */
  quietMs?: number;
  /** Longest wait of one request, ms (default 5,000): after it the request runs whatever the bucket holds. */
  maxWaitMs?: number;
  /**
   * Most a request is charged beyond its loop thread's CPU time, ms (default 20): an upload or a
   * slow database read is in flight long without holding the loop.
   */
  ioCapMs?: number;
  /**
   * Least a request is charged, ms (default 2): a request costs the loop more than the time it is
   * seen (its HTTP parsing before the edge, the garbage it leaves for the collector). bench:volume
   * measured ~1.2 ms of CPU per page of 100 rows against ~0.3–0.4 ms seen.
   */
  minChargeMs?: number;
  clock?: Clock;
  /** Called with the ms a request waited, for those that waited (the metrics' histogram). */
  onWait?: (ms: number) => void;
  /** Called with the ms of loop time each operator request was charged (the metrics' counter). */
  onCharge?: (ms: number) => void;
}

/** What {@link OperatorLoopShare.admit} answers: call it once the request is answered (charges the bucket). */
export type Release = () => void;

const noRelease: Release = () => {};

/** The operators' share of the event loop; one per app. */
export class OperatorLoopShare {
  readonly share: number;
  private readonly burstMs: number;
  private readonly quietMs: number;
  private readonly maxWaitMs: number;
  private readonly ioCapMs: number;
  private readonly minChargeMs: number;
  private readonly clock: Clock;
  private readonly onWait?: (ms: number) => void;
  private readonly onCharge?: (ms: number) => void;
  /** Loop time operators may still take, ms (may fall below 0: a long request is charged in full). */
  private credit: number;
  private stamp: number;
  /** Requests in flight whose route is not an operator row. */
  private others = 0;
  /** When the last of them was answered (clock ms). */
  private lastOtherAt = Number.NEGATIVE_INFINITY;
  private readonly queue: Array<{ since: number; go: () => void }> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(options: OperatorLoopShareOptions) {
    if (!(options.share > 0 && options.share <= 1)) throw new RangeError('share must be in (0, 1]');
    this.share = options.share;
    this.burstMs = options.burstMs ?? 100;
    this.quietMs = options.quietMs ?? 10;
    this.maxWaitMs = options.maxWaitMs ?? 5_000;
    this.ioCapMs = options.ioCapMs ?? 20;
    this.minChargeMs = options.minChargeMs ?? 2;
    this.clock = options.clock ?? (() => performance.now());
    this.onWait = options.onWait;
    this.onCharge = options.onCharge;
    this.credit = this.burstMs;
    this.stamp = this.clock();
  }

  /** Whether operators are scheduled at all (`share` < 1). */
  get enabled(): boolean {
    return this.share < 1;
  }

  /** A request entered the edge. @param operator whether its route is an operator row (`loop: 'operator'`) */
  enter(operator: boolean): void {
    if (!operator) this.others += 1;
  }

  /** A request left the edge (after its answer). @param operator as given to `enter` */
  leave(operator: boolean): void {
    if (operator) return;
    this.others -= 1;
    this.lastOtherAt = this.clock();
    // Waiting operators go once the traffic is quiet: the timer looks again after `quietMs`.
    if (this.queue.length > 0 && this.others === 0) this.schedule();
  }

  /**
   * Waits until an operator request may run (at once when the bucket holds credit or no other
   * traffic is served). Never rejects.
   * @param options.countedAsOther the caller's own request is counted as other traffic (an MCP
   *   operator tool: `/mcp` is not an operator row), so it is left out of the count
   * @param options.startedAt when the request reached the edge (clock ms): the charge covers the
   *   work before admission too (bearer check); default: admission
   * @returns the release to call once the request is answered: charges its time to the bucket
   */
  async admit(options: { countedAsOther?: boolean; startedAt?: number } = {}): Promise<Release> {
    if (!this.enabled) return noRelease;
    const self = options.countedAsOther ? 1 : 0;
    const asked = this.clock();
    this.refill();
    let waited = 0;
    if (this.queue.length > 0 || (this.credit <= 0 && this.busy(self))) {
      await new Promise<void>((go) => {
        this.queue.push({ since: asked, go });
        this.schedule();
      });
      waited = this.clock() - asked;
      this.onWait?.(waited);
    }
    // Charged: the work before admission (from the edge: its bearer check) and the time from
    // admission to the answer (see the module comment).
    const before = Math.max(0, asked - (options.startedAt ?? asked));
    const cpuAt = loopCpuMs();
    const admitted = this.clock();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // Wall time (under load it holds the interleaved work the request caused too), but a
      // request that mostly waited on I/O is charged its CPU time or `ioCapMs`, whichever is more.
      const wall = this.clock() - admitted;
      const spent = Math.min(wall, Math.max(loopCpuMs() - cpuAt, this.ioCapMs));
      this.refill();
      const charge = Math.max(this.minChargeMs, before + spent);
      this.credit -= charge;
      this.onCharge?.(charge);
      if (this.queue.length > 0) this.schedule();
    };
  }

  /** Whether other traffic is being served: in flight (besides `self` of the caller's), or answered within `quietMs`. */
  private busy(self = 0): boolean {
    return this.others - self > 0 || this.clock() - this.lastOtherAt < this.quietMs;
  }

  private refill(): void {
    const now = this.clock();
    this.credit = Math.min(this.burstMs, this.credit + (now - this.stamp) * this.share);
    this.stamp = now;
  }

  /** Admits the head of the queue when the bucket holds credit, the traffic is quiet, or it waited its longest. */
  private drain(): void {
    this.refill();
    const now = this.clock();
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      const quiet = !this.busy();
      if (this.credit <= 0 && !quiet && now - head.since < this.maxWaitMs) break;
      this.queue.shift();
      head.go();
      // While the share applies, one at a time: the next one waits for this one's charge.
      if (!quiet) break;
    }
    this.schedule();
  }

  /** One timer for the head of the queue: when the bucket is back above 0, the traffic quiet, or its longest wait over. */
  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.length === 0) return;
    const now = this.clock();
    const head = this.queue[0]!;
    const refillMs = this.credit > 0 ? 0 : -this.credit / this.share;
    const quietInMs = this.others > 0 ? Number.POSITIVE_INFINITY : Math.max(0, this.lastOtherAt + this.quietMs - now);
    const waitedMs = now - head.since;
    const delay = Math.max(0, Math.min(refillMs, quietInMs, this.maxWaitMs - waitedMs));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.drain();
    }, Math.ceil(delay));
    this.timer.unref();
  }

  /** Stops the timer (app close): waiting requests are admitted. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const q of this.queue.splice(0)) q.go();
  }
}
