/**
 * A stored list read a step at a time, as its rows' JSON (offline/listText.ts), on a connection of
 * its own that holds one snapshot of the file for the whole read.
 *
 * The cache's list at a start (`cacheOnly`) or offline was one read of every row and a JSON.parse
 * of each, all in one block of main: 67–72 ms for 10,000 agents, 1.05 s for 100,000 (bench,
 * 2026-11-29). Now main reads `READ_STEP` rows at a time, gives the event loop a turn between
 * steps (turn.ts), and parses nothing: the texts leave main as JSON that the preload parses, as a
 * list read from a server does (answerPieces.ts). The list is answered once its count is known
 * (ComingListText), each piece once its rows are read: the page parses the first pieces while main
 * reads the next.
 *
 * Writes go on through the cache's own connection meanwhile. The reader's transaction keeps what it
 * reads one moment's list (SQLite's WAL: a reader sees the file as of its first read, and writers
 * do not wait for it), so a list written, an item added to its start or removed between two steps
 * neither repeats an item nor loses one. Reads take turns on the connection, each holding it to
 * its last row. `reset` (before a clear of the cache) ends a read's snapshot: the rest of its list
 * fails (answer_gone: the preload asks again). A reader is closed with its store.
 */
import Database from 'libsql'
import { answerGone } from '../answerPieces'
import { LIST_HEAD_SQL, MEMBER_COUNT_SQL, MEMBER_ROW } from './cacheStatements'
import { BUSY_TIMEOUT_MS, type Db, isCorruption, markForRebuild } from './db'
import { ComingListText } from './listText'
import type { Cached, ListReadOptions, Resource } from './types'
import { turnEvery } from '../turn'

/** Rows a step reads (~250 kB of agents, ~2 ms on the bench machine). */
export const READ_STEP = 250

const ROWS = `SELECT l.position, i.json FROM list_items l JOIN ${MEMBER_ROW}
  WHERE l.resource = ? AND l.scope = ?`

function statements(db: Db) {
  return {
    head: db.prepare(LIST_HEAD_SQL).raw(true),
    first: db.prepare(`${ROWS} ORDER BY l.position LIMIT ?`).raw(true),
    after: db.prepare(`${ROWS} AND l.position > ? ORDER BY l.position LIMIT ?`).raw(true),
    count: db.prepare(MEMBER_COUNT_SQL).raw(true)
  }
}

export class ListReader {
  private connection: { db: Db; s: ReturnType<typeof statements> } | null = null
  private tail: Promise<unknown> = Promise.resolve()
  /** Bumped by `reset` and `close`: a read that sees it changed has lost its snapshot. */
  private generation = 0
  private closed = false

  constructor(private readonly file: string) {}

  /**
   * The list (null: that list was never stored) as soon as its head and count are read, after the
   * reads asked before it; its texts then come a step at a time (ComingListText), the connection
   * its own until the last one.
   */
  read<T>(
    resource: Resource,
    scope: string,
    opts: ListReadOptions = {}
  ): Promise<Cached<ComingListText<T>> | null> {
    const begun = this.tail.then(() => this.begin<T>(resource, scope))
    this.tail = begun.then((read) => read?.rest(opts)).catch(() => undefined)
    return begun.then((read) => read && { value: read.list, syncedAt: read.syncedAt })
  }

  /** Ends the snapshot of a read on its way: its list fails at its next step (answer_gone). */
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
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
      this.connection = { db, s: statements(db) }
      return this.connection
    } catch (e) {
      db.close()
      throw e
    }
  }

  /** The snapshot taken, the list's head and count read: the list, and the rest of its read. */
  private begin<T>(resource: Resource, scope: string) {
    if (this.closed) throw new Error('The offline cache is closed.')
    const { db, s } = this.open()
    const generation = this.generation
    db.exec('BEGIN')
    let handedOut = false
    try {
      const head = s.head.get(resource, scope) as unknown[] | undefined
      if (!head) return null
      const key = String(head[1])
      const list = new ComingListText<T>(Number((s.count.get(resource, key) as unknown[])[0]))
      const syncedAt = (head[0] as string | null) ?? null
      const rest = async ({ step = READ_STEP, turn = turnEvery() }: ListReadOptions) => {
        const size = Math.max(1, step)
        try {
          for (let last: number | null = null; ;) {
            const rows = (
              last === null ? s.first.all(resource, key, size) : s.after.all(resource, key, last, size)
            ) as unknown[][]
            list.add(rows.map((row) => String(row[1])))
            if (rows.length < size) return list.end()
            last = Number((rows[rows.length - 1] as unknown[])[0])
            await turn()
            // The cache was cleared or closed meanwhile: what is left is not this list's any more.
            if (this.generation !== generation) return list.end(answerGone())
          }
        } catch (e) {
          if (isCorruption(e)) markForRebuild(this.file)
          list.end(e)
        } finally {
          if (this.generation === generation && db.inTransaction) db.exec('COMMIT')
        }
      }
      handedOut = true
      return { list, syncedAt, rest }
    } finally {
      if (!handedOut && this.generation === generation && db.inTransaction) db.exec('COMMIT')
    }
  }
}
