/**
 * Request bodies built to make a parser work hard (docs/security.md "Body parsing cost"): a field
 * name repeated thousands of times, thousands of distinct keys, deep nesting, long names, heavy
 * percent-encoding and escapes, in form, JSON and multipart shapes, each close to a byte size. Shared by the
 * body-parsing tests and the fuzz suite (`npm run fuzz`), which hold every route to the rule that
 * no request holds the event loop more than 100 ms.
 */
import fc from 'fast-check';

/** One adversarial body: what it is (for messages), its content type and its text. */
export interface AdversarialBody {
  kind: string;
  contentType: string;
  body: string;
}

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const MULTIPART = 'multipart/form-data; boundary=x';

/** `unit` repeated to about `bytes` bytes (at least once). */
const fill = (unit: string, bytes: number): string => unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));

/** The shapes, by name; each gives a body of about `bytes` bytes. */
const SHAPES: Record<string, { contentType: string; make: (bytes: number) => string }> = {
  'form: one name repeated': { contentType: FORM, make: (n) => fill('a&', n).slice(0, -1) },
  'form: one name=value repeated': { contentType: FORM, make: (n) => fill('scope=openid&', n).slice(0, -1) },
  'form: distinct keys': {
    contentType: FORM,
    make: (n) => {
      const parts: string[] = [];
      for (let i = 0, size = 0; size < n - 16; i++) {
        const part = `k${i}=${i}`;
        parts.push(part);
        size += part.length + 1;
      }
      return parts.join('&');
    },
  },
  'form: one long name': { contentType: FORM, make: (n) => `${'a'.repeat(n - 2)}=1` },
  'form: percent-encoded everything': { contentType: FORM, make: (n) => `email=${fill('%41', n - 6)}` },
  'form: bracketed nesting names': { contentType: FORM, make: (n) => `a${fill('[b]', n - 3)}=1` },
  'form: separators only': { contentType: FORM, make: (n) => fill('&', n) },
  'form: csrf repeated': { contentType: FORM, make: (n) => fill('csrf=x&', n).slice(0, -1) },
  'json: nested arrays': {
    contentType: JSON_TYPE,
    make: (n) => `${'['.repeat(Math.floor(n / 2))}${']'.repeat(Math.floor(n / 2))}`,
  },
  'json: nested objects': {
    contentType: JSON_TYPE,
    make: (n) => {
      const depth = Math.floor(n / 6);
      return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    },
  },
  'json: many keys': {
    contentType: JSON_TYPE,
    make: (n) => {
      const parts: string[] = [];
      for (let i = 0, size = 2; size < n - 16; i++) {
        const part = `"k${i}":${i}`;
        parts.push(part);
        size += part.length + 1;
      }
      return `{${parts.join(',')}}`;
    },
  },
  'json: one key repeated': { contentType: JSON_TYPE, make: (n) => `{${fill('"a":1,', n - 8)}"a":1}` },
  'json: long array': { contentType: JSON_TYPE, make: (n) => `[${fill('0,', n - 3)}0]` },
  'json: escapes': { contentType: JSON_TYPE, make: (n) => `{"query":"${fill('\\u0041', n - 14)}"}` },
  'json: long key': { contentType: JSON_TYPE, make: (n) => `{"${'k'.repeat(n - 8)}":1}` },
  'multipart: many empty parts': {
    contentType: MULTIPART,
    make: (n) => `${fill('--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n\r\n', n - 8)}--x--\r\n`,
  },
  'multipart: one part, many headers': {
    contentType: MULTIPART,
    make: (n) =>
      `--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n${fill('X-A: b\r\n', n - 120)}\r\nx\r\n--x--\r\n`,
  },
  'json: prototype keys': { contentType: JSON_TYPE, make: (n) => `{${fill('"__proto__":{},', n - 16)}"x":1}` },
};

/** Every shape at `bytes` bytes (use a route's body limit, or just under it). */
export function adversarialBodies(bytes: number): AdversarialBody[] {
  return Object.entries(SHAPES).map(([kind, { contentType, make }]) => ({ kind, contentType, body: make(bytes) }));
}

/**
 * fast-check arbitrary of the shapes (the fuzz suite's bodies): mostly just under the two body
 * limits of the route table (16 KiB and `maxBytes`), where a parser's cost peaks; else any size
 * from 1 KiB.
 */
export function adversarialBody(maxBytes = 64 * 1024): fc.Arbitrary<AdversarialBody> {
  const size = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(16 * 1024 - 64, maxBytes - 64) },
    { weight: 1, arbitrary: fc.integer({ min: 1024, max: maxBytes - 64 }) },
  );
  return fc
    .tuple(fc.constantFrom(...Object.keys(SHAPES)), size)
    .map(([kind, bytes]) => ({ kind, contentType: SHAPES[kind]!.contentType, body: SHAPES[kind]!.make(bytes) }));
}

/** How often the watch samples the loop (ms). */
const TICK_MS = 5;

/**
 * The longest gap between two ticks of a 5 ms interval timer of this process while some work ran:
 * a stretch for which the event loop was held. (perf_hooks' `monitorEventLoopDelay` records a
 * stretch only from its second sample on, which a request sent at once can beat.) The timer is
 * unref'd, so it keeps no process alive.
 */
class LoopWatch {
  private last = performance.now();
  private longest = 0;
  private waiting: Array<() => void> = [];
  constructor() {
    setInterval(() => {
      const now = performance.now();
      this.longest = Math.max(this.longest, now - this.last);
      this.last = now;
      for (const wake of this.waiting.splice(0)) wake();
    }, TICK_MS).unref();
  }

  /** Resolves at the next tick. */
  private tick(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Runs `work` between two ticks; the longest gap seen meanwhile (ms). */
  async measure<T>(work: () => Promise<T>): Promise<{ result: T; heldMs: number }> {
    await this.tick();
    this.longest = 0;
    const result = await work();
    await this.tick();
    return { result, heldMs: this.longest };
  }
}

let watch: LoopWatch | undefined;

/**
 * The longest stretch (ms) this process's event loop was held while `work` ran: the server under
 * test runs in this process, so a request whose handling blocks the loop shows here. An idle loop
 * shows about 5 ms (the sampling interval).
 */
export function loopHeldDuring<T>(work: () => Promise<T>): Promise<{ result: T; heldMs: number }> {
  watch ??= new LoopWatch();
  return watch.measure(work);
}

/**
 * `loopHeldDuring(work)`, tried up to `tries` times while the loop is held longer than `boundMs`,
 * a quarter of a second apart: on a loaded machine (more runnable processes than cores) a stretch
 * can be the scheduler's, not the request's, but a request that costs the time itself is over the
 * bound every time. Returns the shortest stretch seen.
 */
export async function shortestLoopHold<T>(
  work: () => Promise<T>,
  boundMs: number,
  tries = 3,
): Promise<{ result: T; heldMs: number }> {
  let best = await loopHeldDuring(work);
  for (let i = 1; i < tries && best.heldMs >= boundMs; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const next = await loopHeldDuring(work);
    if (next.heldMs < best.heldMs) best = next;
  }
  return best;
}
