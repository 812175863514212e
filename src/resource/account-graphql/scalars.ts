/**
 * The `DateTime` scalar: ISO 8601 instants in UTC (`2026-12-31T23:59:59.000Z`). Output values are
 * normalised with `Date#toISOString`; input values must carry `Z` or an `±hh:mm` offset (a local
 * time without zone is ambiguous) and are normalised to UTC, so stored text sorts by time.
 */
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

/** True when the calendar fields exist (no 30 February, no 25:00) — `Date` would roll them over. */
function realCalendarFields(m: RegExpExecArray): boolean {
  const [year, month, day, hour, minute, second = '0', offH = '0', offM = '0'] = m
    .slice(1)
    .map((v) => v ?? '0') as string[];
  const d = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return (
    d.getUTCMonth() === Number(month) - 1 &&
    d.getUTCDate() === Number(day) &&
    Number(hour) <= 23 &&
    Number(minute) <= 59 &&
    Number(second) <= 59 &&
    Number(offH) <= 23 &&
    Number(offM) <= 59
  );
}

function badInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

/**
 * Parses an ISO 8601 date-time with offset into `toISOString` form.
 * @throws GraphQLError BAD_USER_INPUT when not such a string or not a real instant
 */
export function parseDateTime(value: unknown): string {
  const match = typeof value === 'string' ? ISO_8601.exec(value) : null;
  if (!match) throw badInput('DateTime must be an ISO 8601 date-time with Z or an offset, e.g. 2026-11-21T10:00:00Z');
  const date = new Date(match[0]);
  const year = date.getUTCFullYear();
  if (!realCalendarFields(match) || Number.isNaN(date.getTime()) || year < 1970 || year > 9999) {
    throw badInput(`DateTime ${JSON.stringify(value)} is not a valid instant`);
  }
  return date.toISOString();
}

export const DateTimeScalar = new GraphQLScalarType<string, string>({
  name: 'DateTime',
  description: 'An ISO 8601 instant in UTC, e.g. 2026-12-31T23:59:59.000Z.',
  serialize(value) {
    const date = value instanceof Date ? value : new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new GraphQLError('DateTime cannot represent an invalid date');
    return date.toISOString();
  },
  parseValue: parseDateTime,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw badInput('DateTime must be a string');
    return parseDateTime(ast.value);
  },
});
