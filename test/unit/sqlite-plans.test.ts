/**
 * adapters/sqlite-plans.ts (issue #15): parameters behind SQLite's no-op unary plus, so that
 * better-sqlite3 does not re-prepare statements whose plan looked at a bound value. The rewrite
 * must keep results and index use exactly as they were.
 */
import Database from 'better-sqlite3';
import { stablePlan } from '../../adapters/sqlite-plans.js';

describe('stablePlan', () => {
  it('puts every kind of parameter behind a unary plus', () => {
    expect(stablePlan('select * from t where a = ? and b = ?2 and c = :c and d = @d and e = $e limit ? offset ?')).toBe(
      'select * from t where a = +? and b = +?2 and c = +:c and d = +@d and e = +$e limit +? offset +?',
    );
    expect(stablePlan('insert into t (a, b) values (?, ?)')).toBe('insert into t (a, b) values (+?, +?)');
  });

  it('leaves string literals, quoted identifiers and comments alone', () => {
    const sql = `select "a?b", [c?], \`d?\`, 'it''s ?', payload->>'$.x' /* ? */ from t -- ?\nwhere x = ?`;
    expect(stablePlan(sql)).toBe(`select "a?b", [c?], \`d?\`, 'it''s ?', payload->>'$.x' /* ? */ from t -- ?\nwhere x = +?`);
  });

  it('keeps results, affinity and index use', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE TABLE t (model TEXT NOT NULL, id TEXT NOT NULL, n INTEGER, PRIMARY KEY (model, id)) WITHOUT ROWID;
      CREATE INDEX t_n ON t (n) WHERE model = 'A';`);
    const insert = db.prepare(stablePlan('INSERT INTO t (model, id, n) VALUES (@model, @id, @n)'));
    for (let i = 0; i < 20; i++) insert.run({ model: i % 2 ? 'A' : 'B', id: `x${i}`, n: i });
    const find = stablePlan('SELECT id, n FROM t WHERE model = ? AND id = ?');
    expect(db.prepare(find).get('A', 'x3')).toEqual({ id: 'x3', n: 3 });
    // The column's INTEGER affinity applies to the parameter as before: '3' finds 3.
    expect(db.prepare(stablePlan('SELECT id FROM t WHERE n = ?')).all('3')).toEqual([{ id: 'x3' }]);
    expect(db.prepare(stablePlan('SELECT id FROM t WHERE model = ? ORDER BY n LIMIT ? OFFSET ?')).all('A', 2, 1)).toEqual([{ id: 'x3' }, { id: 'x5' }]);
    const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${stablePlan(sql)}`).all('A', 'x3') as { detail: string }[]).map((r) => r.detail).join('; ');
    expect(plan('SELECT n FROM t WHERE model = ? AND id = ?')).toMatch(/USING PRIMARY KEY \(model=\? AND id=\?\)/);
  });
});
