/**
 * How an `/admin` page runs an operator action (issue #27): it names the operation, hands it the
 * input mapped from its form, and gets back the result or a refusal to show on the page. The
 * operation runs through the operations runner (src/operations/runner.ts) as the session's
 * operator, audited with surface `admin`; input is checked by the operation's own zod schemas, and
 * refusals name fields as people read them ("Redirect URIs (line 2)", not `redirectUris.1`).
 */
import type { AdminServices } from '../operations/operation.js';
import { operation, runOperation, validateInput, type InputIssue } from '../operations/runner.js';
import { PlatformError } from '../platform/errors.js';
import { fromDomain } from '../errors/catalogue.js';

/** The operator of a page, as far as running an action needs it. */
export interface PageOperator {
  session: { userId: string };
  site: { id: string };
}

/** What an action came to: its result, or a refusal with the HTTP status of the page and a message for people. */
export type Outcome<R = unknown> =
  | { ok: true; result: R }
  | {
      ok: false;
      status: number;
      message: string;
      /** Headers of the refusal for the page's answer (`Retry-After` of a 429). */
      headers?: Record<string, string>;
    };

/** A form value that may repeat (checkboxes): always a list of strings. */
export const fieldList = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)];

/** "Redirect URIs (line 2): …" for `['redirectUris', 1]`. */
function readable(issue: InputIssue, labels: Record<string, string>): string {
  const [field, index] = issue.path;
  const name = typeof field === 'string' ? (labels[field] ?? field) : 'form';
  const where = typeof index === 'number' ? ` (line ${index + 1})` : '';
  return `${name}${where}: ${issue.message}`;
}

/**
 * Checks `raw` against operation `id`'s input schemas without running it (a page that asks for a
 * confirmation first refuses bad input before asking).
 * @returns ok, or the 400 refusal `act` would answer
 */
export function checkInput(
  id: string,
  raw: { params?: Record<string, unknown>; body?: Record<string, unknown> },
  labels: Record<string, string> = {},
): { ok: true } | { ok: false; status: 400; message: string } {
  const checked = validateInput(operation(id), raw);
  return checked.ok
    ? { ok: true }
    : { ok: false, status: 400, message: checked.issues.map((i) => readable(i, labels)).join('; ') };
}

/**
 * Runs operation `id` with `raw` input as the page's operator.
 * @param labels the form's field names as people read them, by input field
 * @returns the result, or the refusal (400 for invalid input; a domain refusal's status otherwise)
 * @throws what the operation throws that is not a refusal (a fault: the page answers 500)
 */
export async function act<R = unknown>(
  services: AdminServices,
  op: PageOperator,
  id: string,
  raw: { params?: Record<string, unknown>; body?: Record<string, unknown> },
  labels: Record<string, string> = {},
): Promise<Outcome<R>> {
  const declared = operation(id);
  const checked = validateInput(declared, raw);
  if (!checked.ok)
    return { ok: false, status: 400, message: checked.issues.map((i) => readable(i, labels)).join('; ') };
  try {
    const result = await runOperation(
      declared,
      checked.input,
      { siteId: op.site.id, userId: op.session.userId, clientId: null, surface: 'admin' },
      services,
    );
    return { ok: true, result: result as R };
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    const refusal = fromDomain(err);
    return { ok: false, status: refusal.status, message: err.message, headers: refusal.headers };
  }
}
