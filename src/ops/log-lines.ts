/**
 * The stdout destination of the JSON log (`createLogger`, src/server.ts): pino's lines are gathered
 * here, in an array, up to about {@link BATCH_CHARS} characters, and handed to sonic-boom
 * (`pino.destination`, asynchronous writes) as one string per batch.
 *
 * Why not sonic-boom's own buffering (`minLength`): at each line it measures the UTF-8 length of its
 * whole pending buffer (`Buffer.byteLength` of a string grown by concatenation, flattened again at
 * every line). With a 4 KiB buffer that was ~2.6 µs per line, most of what the access log line of a
 * request cost (issue #15); an array joined once per batch costs ~0.35 µs per line.
 *
 * The guarantees of the log stay as they were: a line waits at most `flushMs` when the server is
 * idle; `flush(cb)` (pino's `logger.flush`, called by `RunningServer.stop`) calls back once every
 * line gathered so far is written; on process `exit` (also after an uncaught exception) what is
 * left is written synchronously.
 */
import { writeSync } from 'node:fs';

/** The part of sonic-boom (pino.destination) this destination uses. */
export interface LineSink {
  write(chunk: string): boolean;
  flush(cb?: (err?: Error) => void): void;
  flushSync(): void;
}

/**
 * Characters gathered before a batch is handed to sonic-boom (8 KiB, about 40 access log lines):
 * each batch is one write on libuv's thread pool (a thread wake-up and a `write(2)`), ~1.5 µs per
 * request at 4 KiB batches. sonic-boom requires its `minLength` (this) below its `maxWrite` (16 KiB).
 */
export const BATCH_CHARS = 8 * 1024;

/** Every destination of the process, written synchronously on `exit` (one listener for all). */
const open = new Set<BatchedLines>();
let exitHooked = false;

/** A pino destination gathering lines into batches for a sonic-boom destination. */
export class BatchedLines {
  private lines: string[] = [];
  private chars = 0;

  /**
   * @param sink sonic-boom, asynchronous, with a `minLength` of at least `batchChars` (it starts a
   *   write per batch) and no `periodicFlush` of its own (this destination's timer flushes both)
   * @param fd the file descriptor `sink` writes to (the last lines are written there at exit)
   * @param flushMs the longest a line waits when the server is idle, ms
   */
  constructor(
    private readonly sink: LineSink,
    private readonly fd: number,
    flushMs: number,
    private readonly batchChars = BATCH_CHARS,
  ) {
    setInterval(() => this.flush(), flushMs).unref();
    open.add(this);
    if (!exitHooked) {
      exitHooked = true;
      process.on('exit', () => {
        for (const destination of open) destination.flushSync();
      });
    }
  }

  /** One line from pino (a JSON document and `\n`). */
  write(line: string): boolean {
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= this.batchChars) this.hand();
    return true;
  }

  /** Writes every gathered line; `cb` once they are written (pino's `logger.flush`). */
  flush(cb?: (err?: Error) => void): void {
    this.hand();
    this.sink.flush(cb);
  }

  /** Writes everything left synchronously (process exit): sonic-boom's pending lines, then ours. */
  flushSync(): void {
    try {
      this.sink.flushSync();
    } catch {
      // Not open yet, or ended by pino's own exit hook: nothing of sonic-boom's left to write.
    }
    if (this.chars === 0) return;
    const rest = this.lines.join('');
    this.lines = [];
    this.chars = 0;
    try {
      writeSync(this.fd, rest);
    } catch {
      // stdout closed: nowhere to write the last lines.
    }
  }

  /** Hands the gathered lines to sonic-boom as one string. */
  private hand(): void {
    if (this.chars === 0) return;
    const batch = this.lines.join('');
    this.lines = [];
    this.chars = 0;
    this.sink.write(batch);
  }
}
