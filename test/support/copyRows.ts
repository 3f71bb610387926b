/**
 * Many rows for a service's list, fast: copies of one row of a table of user-owned rows, written
 * into the service's file by a connection of their own (the service reads them as another
 * connection's commit).
 */
import Database from 'libsql'
import { join } from 'node:path'

/**
 * Writes `count` copies of the row `seedId` of `table` into `dataDir`'s service.db, each with an
 * id, a time (a thousand to a millisecond: rows of one time follow one another) and, where the
 * column is unique to its owner, a name or token of its own.
 */
export function copyRows(dataDir: string, table: string, seedId: string, count: number): void {
  const db = new Database(join(dataDir, 'service.db'))
  try {
    db.exec('PRAGMA busy_timeout = 5000')
    const columns = (db.prepare(`PRAGMA table_info(${table})`).raw(true).all() as unknown[][])
      .map((c) => String(c[1]))
      .filter((c) => c !== 'seq')
    const value = (c: string) =>
      c === 'id'
        ? `printf('00000000-0000-7000-8000-%012d', x)`
        : c === 'created_at' || c === 'updated_at'
          ? `strftime('%Y-%m-%dT%H:%M:%f', 'now') || printf('%03d', x % 1000) || '+00:00'`
          : c === 'name' || c === 'token'
            ? `${c} || ' ' || x`
            : c
    db.prepare(
      `WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < :count)
       INSERT INTO ${table} (${columns.join(', ')})
       SELECT ${columns.map(value).join(', ')} FROM n, ${table} WHERE ${table}.id = :seed`
    ).run({ count, seed: seedId })
  } finally {
    db.close()
  }
}
