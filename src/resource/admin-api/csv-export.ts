/**
 * CSV exports of admin lists (`Accept: text/csv` on a list operation that declares `csv`, e.g.
 * `GET /api/v1/members`, `/api/v1/orders`, `/api/v1/audit-events`).
 *
 * The answer is the whole filtered list as RFC 4180 CSV (`text/csv; charset=utf-8; header=present`,
 * CRLF line ends, a header row of the item's field names in their declared order): the export runs
 * the list operation itself page after page (keyset paging inside, the largest page size, no row
 * cap), so it sees exactly what the JSON list sees, with the same filters, scope and site. `limit`
 * and `cursor` are ignored: an export always starts at the first row. Rows are streamed as each
 * page arrives, so memory stays one page whatever the list's length.
 *
 * Cells are formula-injection safe (OWASP "CSV Injection"): a cell that starts with `=`, `+`, `-`,
 * `@`, a tab or a carriage return is prefixed with `'`, so a spreadsheet shows the text instead of
 * evaluating it (csv-stringify's `escape_formulas`). Arrays become one cell joined by `; `; objects
 * a JSON cell; null an empty cell.
 */
import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Context } from 'koa';
import type { z } from 'zod';
import type { AdminServices, Operation, OperationValues } from '../../operations/operation.js';
import { runOperation, type Actor } from '../../operations/runner.js';

/** The media type of an export (RFC 4180 §3, RFC 7111's `header` parameter). */
export const CSV_MEDIA_TYPE = 'text/csv; charset=utf-8; header=present';

/** Whether the request prefers CSV over JSON (`Accept: text/csv`; JSON stays the default). */
export function wantsCsv(ctx: Context): boolean {
  return Boolean(ctx.get('accept')) && ctx.accepts('application/json', 'text/csv') === 'text/csv';
}

/**
 * The column names of an export: the keys of the item schema of `op.response.shape[op.csv.rows]`,
 * in declaration order. Throws at start-up (not per request) when the declaration does not name
 * an array of objects or the query has no bounded `limit`.
 */
export function csvColumns(op: Operation): string[] {
  const rows = op.csv?.rows;
  const shape = (op.response as z.ZodObject | undefined)?.shape;
  const list = rows && shape ? (shape[rows] as z.ZodArray<z.ZodObject> | undefined) : undefined;
  const item = list?.element?.shape;
  if (!item) throw new Error(`operation ${op.id}: csv.rows must name an array of objects in its response`);
  largestPage(op);
  return Object.keys(item);
}

/** The largest `limit` the list's own query schema allows (its pages are read at that size). */
function largestPage(op: Operation): number {
  const limit = op.query?.limit as z.ZodDefault<z.ZodNumber> | undefined;
  const max = limit?.unwrap().maxValue;
  if (!max || !Number.isFinite(max)) throw new Error(`operation ${op.id}: csv needs a bounded limit in its query`);
  return max;
}

/** One value as a cell's text (before quoting and formula escaping). */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join('; ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * The export of `op` for `input` (already parsed and authorized) as a byte stream. The pages are
 * read lazily, as the client reads: a slow client holds one page, not the list. An error after
 * the first byte (a store outage mid-export) ends the stream with that error, which the HTTP
 * server turns into an aborted response (the client sees a truncated transfer, never a short file
 * presented as complete).
 */
export function csvExport(
  op: Operation,
  columns: readonly string[],
  input: OperationValues,
  actor: Actor,
  services: AdminServices,
): Readable {
  const rowsKey = op.csv?.rows as string;
  const pageSize = largestPage(op);
  async function* rows(): AsyncGenerator<string[]> {
    yield [...columns];
    let cursor: string | undefined;
    do {
      const query = { ...input.query, limit: pageSize, cursor };
      const page = (await runOperation(op, { ...input, query }, actor, services)) as Record<string, unknown>;
      for (const item of (page[rowsKey] as Array<Record<string, unknown>>) ?? [])
        yield columns.map((c) => cell(item[c]));
      cursor = (page.nextCursor as string | null) ?? undefined;
    } while (cursor);
  }
  const out = stringify({ record_delimiter: 'windows', escape_formulas: true });
  // pipeline: an error of the page reader destroys the answer's stream with it (an aborted transfer).
  pipeline(Readable.from(rows()), out, () => undefined);
  return out;
}
