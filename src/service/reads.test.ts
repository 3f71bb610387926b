/**
 * Long reads (reads.ts) on a real database file in WAL mode: a read a part at a time is the
 * database as it was when it began, holds no writer back, and gives its connection back however
 * it ends; where the file is not in WAL mode there are none.
 */
import Database from 'libsql'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from './db'
import { LongReads, openLongReads, textParts } from './reads'

const cleanup: (() => void)[] = []
afterEach(() => {
  while (cleanup.length) cleanup.pop()?.()
})

/** A database of `n` rows 0..n-1 in `t`, and long reads beside it. */
function setUp(n: number): { db: Db; reads: LongReads } {
  const dir = mkdtempSync(join(tmpdir(), 'agent-desk-reads-'))
  // A checkpoint held back by a reader waits no longer than this for it.
  const db = openDatabase(join(dir, 'service.db'), ['CREATE TABLE t (x INTEGER PRIMARY KEY)'], 20)
  db.prepare(
    'WITH RECURSIVE s(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM s WHERE x + 1 < ?) INSERT INTO t (x) SELECT x FROM s'
  ).run(n)
  const reads = openLongReads(db, join(dir, 'service.db'))
  if (!reads) throw new Error('the database is in WAL mode: long reads were expected')
  cleanup.push(() => {
    void reads.close()
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return { db, reads }
}

/** Whether a checkpoint could not reset the WAL (a reader still holds a snapshot of it). */
const checkpointHeldBack = (db: Db) =>
  (db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy: number }).busy !== 0

const ALL = 'SELECT x FROM t ORDER BY x'

describe('a long read', () => {
  it('is the database as it was when it began; writers commit meanwhile, unhindered', () => {
    const { db, reads } = setUp(1000)
    const rows = reads.rows(ALL, {})
    const first = Array.from({ length: 10 }, () => rows.next().value)
    expect(reads.underWay).toBe(1)
    // Committed on the service's connection while the read is part-way: no SQLITE_BUSY.
    db.prepare('DELETE FROM t WHERE x >= 500').run()
    db.prepare('INSERT INTO t (x) VALUES (5000)').run()
    expect(checkpointHeldBack(db)).toBe(true)
    const rest = [...rows]
    expect([...first, ...rest].map((r) => (r as unknown[])[0])).toEqual(
      Array.from({ length: 1000 }, (_, i) => i)
    )
    expect(reads.underWay).toBe(0)
    expect(checkpointHeldBack(db)).toBe(false)
    // The next read sees what was committed.
    expect([...reads.rows('SELECT count(*) FROM t', {})]).toEqual([[501]])
  })

  it('let go part-way gives its connection back: nothing holds the WAL, and reads go on', () => {
    const { db, reads } = setUp(1000)
    const rows = reads.rows(ALL, {})
    rows.next()
    db.prepare('INSERT INTO t (x) VALUES (5000)').run()
    expect(checkpointHeldBack(db)).toBe(true)
    rows.return()
    expect(reads.underWay).toBe(0)
    expect(checkpointHeldBack(db)).toBe(false)
    expect([...reads.rows('SELECT count(*) FROM t', {})]).toEqual([[1001]])
  })

  it('that fails gives its connection back', () => {
    const { reads } = setUp(10)
    expect(() => [...reads.rows('SELECT x FROM no_such_table', {})]).toThrow(/no_such_table/)
    expect(reads.underWay).toBe(0)
  })

  it('under way when the service closes ends with its connection; none begins after', async () => {
    const { db, reads } = setUp(1000)
    const rows = reads.rows(ALL, {})
    rows.next()
    let closed = false
    const closing = reads.close().then(() => (closed = true))
    expect(rows.next().done).toBe(false)
    await Promise.resolve()
    expect(closed).toBe(false)
    rows.return()
    await closing
    expect(reads.underWay).toBe(0)
    expect(checkpointHeldBack(db)).toBe(false)
    expect(() => reads.rows(ALL, {}).next()).toThrow(/closing/)
  })

  it('is not made where the database is not in WAL mode (a reader would hold writers off)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-desk-reads-'))
    const file = join(dir, 'plain.db')
    const db = new Database(file)
    cleanup.push(() => {
      db.close()
      rmSync(dir, { recursive: true, force: true })
    })
    db.exec('PRAGMA journal_mode = DELETE')
    expect(openLongReads(db, file)).toBeNull()
  })
})

describe('textParts', () => {
  it('joins the texts with commas into parts of about the size asked, all of them in order', () => {
    const texts = Array.from({ length: 50 }, (_, i) => `"${'x'.repeat(i)}"`)
    const rows = texts.map((t) => [t])[Symbol.iterator]()
    const parts = [...textParts(rows, (r) => String(r[0]), 100)]
    expect(parts.length).toBeGreaterThan(10)
    for (const p of parts.slice(0, -1)) expect(p.length).toBeGreaterThanOrEqual(100)
    expect(JSON.parse(`[${parts.join(',')}]`)).toEqual(texts.map((t) => JSON.parse(t) as string))
  })

  it('let go, lets its rows go', () => {
    const { reads } = setUp(100_000)
    const parts = textParts(reads.rows(ALL, {}), (r) => String(r[0]), 10)
    expect(parts.next().value).toBe('0,1,2,3,4,5,6,7,8,9')
    expect(reads.underWay).toBe(1)
    parts.return()
    expect(reads.underWay).toBe(0)
  })
})
