/**
 * A stored list read a step at a time, as its rows' JSON (offline/listText.ts), on a connection of
 * its own that holds one snapshot of the file for the whole read.
 *
 * The cache's list at a start (`cacheOnly`) or offline was one read of every row and a JSON.parse
 * of each, all in one block of main: 67–72 ms for 10,000 agents, 1.05 s for 100,000 (bench,
 * 2026-11-29). Now main reads `READ_STEP` rows at a time, gives the event loop a turn between
 * steps (turn.ts), and parses nothing: the texts leave main as JSON that the preload parses, as a
 * list read from a server does (answerPieces.ts).
 *
 * Writes go on through the cache's own connection meanwhile. The reader's transaction keeps what it
 * reads one moment's list (SQLite's WAL: a reader sees the file as of its first read, and writers
 * do not wait for it), so a list written, an item added to its start or removed between two steps
 * neither repeats an item nor loses one. Reads take turns on the connection. `reset` (before a
 * clear of the cache) ends a read's snapshot, and the read starts again; a reader is closed with
 * its store.
 */
import Database from 'libsql'
import type { Db } from './db'
import type { Cached, ListReadOptions, Resource } from './types'
import { turnEvery } from '../turn'

/** Rows a step reads (~250 kB of agents, ~2 ms on the bench machine). */
export const READ_STEP = 250

// A member's row through its link (`item_seq`, db.ts), or by id when it has none (as getList).
const ROWS = `SELECT l.position, i.json FROM list_items l
  JOIN items i ON i.seq = COALESCE(l.item_seq,
    (SELECT seq FROM items o WHERE o.resource = l.resource AND o.id = l.id))
  WHERE l.resource = ? AND l.scope = ?`

function statements(db: Db) {
  return {
    head: db
      .prepare('SELECT synced_at, COALESCE(members, scope) FROM lists WHERE resource = ? AND scope = ?')
      .raw(true),
    first: db.prepare(`${ROWS} ORDER BY l.position LIMIT ?`).raw(true),
    after: db.prepare(`${ROWS} AND l.position > ? ORDER BY l.position LIMIT ?`).raw(true)
  }
}

export class ListReader {
  private connection: { db: Db; s: ReturnType<typeof statements> } | null = null
  private tail: Promise<unknown> = Promise.resolve()
  /** Bumped by `reset` and `close`: a read that sees it changed has lost its snapshot. */
  private generation = 0
  private closed = false

  constructor(private readonly file: string) {}

  /** The list's rows (null: that list was never stored), after the reads asked before it. */
  read(resource: Resource, scope: string, opts: ListReadOptions = {}): Promise<Cached<string[]> | null> {
    const run = this.tail.then(() => this.steps(resource, scope, opts))
    this.tail = run.catch(() => undefined)
    return run
  }

  /** Ends the snapshot of a read on its way (it starts again at its next step). */
  reset(): void {
    this.generation++
    const db = this.connection?.db
    if (db?.inTransaction) db.exec('ROLLBACK')
  }

  close(): void {
    this.closed = true
    this.reset()
    this.connection?.db.close()
    this.connection = null
  }

  private open(): { db: Db; s: ReturnType<typeof statements> } {
    if (this.connection) return this.connection
    const db = new Database(this.file)
    try {
      db.exec('PRAGMA query_only = ON')
      db.exec('PRAGMA busy_timeout = 3000')
      this.connection = { db, s: statements(db) }
      return this.connection
    } catch (e) {
      db.close()
      throw e
    }
  }

  private async steps(
    resource: Resource,
    scope: string,
    opts: ListReadOptions
  ): Promise<Cached<string[]> | null> {
    const step = Math.max(1, opts.step ?? READ_STEP)
    const turn = opts.turn ?? turnEvery()
    for (;;) {
      if (this.closed) throw new Error('The offline cache is closed.')
      const { db, s } = this.open()
      const generation = this.generation
      db.exec('BEGIN')
      try {
        const head = s.head.get(resource, scope) as unknown[] | undefined
        if (!head) return null
        const key = String(head[1])
        const texts: string[] = []
        for (let last: number | null = null; ;) {
          const rows = (
            last === null ? s.first.all(resource, key, step) : s.after.all(resource, key, last, step)
          ) as unknown[][]
          for (const row of rows) texts.push(String(row[1]))
          if (rows.length < step) return { value: texts, syncedAt: (head[0] as string | null) ?? null }
          last = Number((rows[rows.length - 1] as unknown[])[0])
          await turn()
          if (this.generation !== generation) break
        }
      } finally {
        if (this.generation === generation && db.inTransaction) db.exec('COMMIT')
      }
    }
  }
}
