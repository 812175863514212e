/**
 * Stable query plans for SQLite statements run through better-sqlite3 (issue #15).
 *
 * SQLite lets the value bound to a parameter steer the query plan in a few places: `LIMIT ?` /
 * `OFFSET ?`, an equality `col = ?` the chosen index does not use (its selectivity guess), a
 * comparison with a partial index's condition (`model = ?` against `WHERE model = 'RefreshToken'`).
 * Such a parameter marks the prepared statement "re-prepare when this binding changes". better-sqlite3
 * clears every binding after each run (`sqlite3_clear_bindings`), and clearing expires a statement
 * that carries such a mark, so the statement is parsed and planned again on EVERY run: ~5–10 µs
 * each time, the whole cost of a small indexed read (a 3-table join: 10.6 µs instead of 0.5 µs).
 * SQLite's switch for plans that ignore bound values (SQLITE_DBCONFIG_ENABLE_QPSG) is not exposed
 * by better-sqlite3.
 *
 * A parameter behind SQLite's no-op unary plus (`+?`, "returns the same value as its operand", no
 * affinity, like a bare parameter) is not a bare variable to the planner: the plan is made once,
 * without looking at values, the same plan an index search takes anyway (`col = +?` still uses
 * the index on `col`).
 */

/**
 * `sql` with every parameter (`?`, `?NNN`, `:name`, `@name`, `$name`) written as `+<parameter>`;
 * string literals, quoted identifiers and comments are left as they are.
 * @param sql one SQLite statement
 */
export function stablePlan(sql: string): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    // Quoted text ('literal', "identifier", `identifier`, [identifier]) is copied as is.
    if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      while (j < sql.length && sql[j] !== close) j++;
      out += sql.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const j = end < 0 ? sql.length : end;
      out += sql.slice(i, j);
      i = j;
      continue;
    }
    if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      const j = end < 0 ? sql.length : end + 2;
      out += sql.slice(i, j);
      i = j;
      continue;
    }
    const named = c === ':' || c === '@' || c === '$';
    if (c === '?' || (named && /[A-Za-z_]/.test(sql[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < sql.length && /[A-Za-z0-9_]/.test(sql[j]!)) j++;
      out += `+${sql.slice(i, j)}`;
      i = j;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}
