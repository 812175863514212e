/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/ §3.2, the `traceparent` header), read
 * only so that an access log line can carry the trace of the request that a proxy, a gateway or
 * an instrumented client started (issue #28 item 5; no tracing SDK: coursegate does not export
 * spans). The header is `version-trace_id-parent_id-flags` in lowercase hex:
 * `00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01`.
 */

/** version `00`: exactly 55 characters; later versions may append `-…` fields after them (§3.2.4). */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_PARENT = '0'.repeat(16);

/**
 * The trace id of a `traceparent` header value, or undefined when the header is absent or invalid
 * (then the header is ignored, as §3.2 tells a receiver to do). Invalid: not the shape above,
 * version `ff`, an all-zero trace id or parent id, or version `00` with anything after the flags.
 * @param header the raw header value (Node gives a string; a repeated header is not valid)
 * @returns 32 lowercase hex characters
 */
export function traceIdOf(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string' || header.length > 512) return undefined;
  const match = TRACEPARENT.exec(header.trim());
  if (!match) return undefined;
  const [, version, traceId, parentId, , rest] = match;
  if (version === 'ff' || traceId === ZERO_TRACE || parentId === ZERO_PARENT) return undefined;
  if (version === '00' && rest !== undefined) return undefined;
  return traceId;
}
