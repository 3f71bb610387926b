/**
 * A stored list read a step at a time, as its rows' JSON (offline/listText.ts), on a connection of
 * its own that holds one snapshot of the file for the whole read.
 *
 * The cache's list at a start (`cacheOnly`) or offline was one read of every row and a JSON.parse
 * of each, all in one block of main: 67–72 ms for 10,000 agents, 1.05 s for 100,000 (bench,
 * 2026-11-29). Now main reads `READ_STEP` rows at a time, gives the event loop a turn after each
 * step (turn.ts), and parses nothing: the texts leave main as JSON that the preload parses, as a
 * list read from a server does (answerPieces.ts). The list is answered once its count is known
 * (ComingListText) with its first step, each piece as its rows are read: the page parses one
 * piece while main reads the next (a list of 1,000 from a cold store reached the page in 13–16 ms
 * against 17–19 answered whole, 2026-11-30). The count, too, passes `COUNT_STEP` members a step.
 *
 * Writes go on through the cache's own connection meanwhile. A read's transaction keeps what it
 * reads one moment's list (SQLite's WAL: a reader sees the file as of its first read, and writers
 * do not wait for it), so a list written, an item added to its start or removed between two steps
 * neither repeats an item nor loses one. Each read has a connection to itself until its last row
 * (kept for the next read after: `IDLE_KEPT`), so a list read at its page's pace (`pace`,
 * listText.ts) holds up no other. A list let go by its taker (`end`: its answer dropped, see
 * answerPieces.ts) ends its read. `reset` (before a clear of the cache) ends every read's
 * snapshot: the rest of its list fails (answer_gone: the preload asks again). Readers are closed
 * with their store.
 */
import Database from 'libsql'
import { answerGone } from '../answerPieces'
import { LIST_HEAD_SQL, MEMBER_ROW } from './cacheStatements'
import { BUSY_TIMEOUT_MS, type Db, isCorruption, markForRebuild, preparedOnUse } from './db'
import { ComingListText } from './listText'
import type { Cached, ListReadOptions, Resource } from './types'
import { nextTurn } from '../turn'

/** Rows a step reads (~250 kB of agents, ~2 ms on the bench machine). */
export const READ_STEP = 250

/**
 * Members a step of the count passes (~3 ms at 100,000 agents). Counted at once, 100,000 held main
 * 27–37 ms (2026-11-29).
 */
export const COUNT_STEP = 10_000

/** Connections kept open, idle, for the reads to come (a start reads 5–7 lists one after another). */
export const IDLE_KEPT = 2

const ROWS = `SELECT l.position, i.json FROM list_items l JOIN ${MEMBER_ROW}
  WHERE l.resource = ? AND l.scope = ?`
const MEMBERS = 'FROM list_items WHERE resource = ? AND scope = ?'
/** The position of the n-th member (after a position; n - 1 bound), if there are that many. */
const PASSED = 'ORDER BY position LIMIT 1 OFFSET ?'

/** A reader's statements, prepared on first use (a list of 1,000 runs four of them). */
function statements(db: Db) {
  return preparedOnUse({
    head: () => db.prepare(LIST_HEAD_SQL).raw(true),
    first: () => db.prepare(`${ROWS} ORDER BY l.position LIMIT ?`).raw(true),
    after: () => db.prepare(`${ROWS} AND l.position > ? ORDER BY l.position LIMIT ?`).raw(true),
    passFirst: () => db.prepare(`SELECT position ${MEMBERS} ${PASSED}`).raw(true),
    passAfter: () => db.prepare(`SELECT position ${MEMBERS} AND position > ? ${PASSED}`).raw(true),
    countAfter: () => db.prepare(`SELECT COUNT(*) ${MEMBERS} AND position > ?`).raw(true),
    countAll: () => db.prepare(`SELECT COUNT(*) ${MEMBERS}`).raw(true)
  })
}

type Connection = { db: Db; s: ReturnType<typeof statements> }

export class ListReader {
  private readonly idle: Connection[] = []
  /** Connections of the reads on their way, and their lists (once counted). */
  private readonly busy = new Set<Connection>()
  private readonly lists = new Set<ComingListText<unknown>>()
  /** Bumped by `reset` and `close`: a read that sees it changed has lost its snapshot. */
  private generation = 0
  private closed = false

  constructor(private readonly file: string) {}

  /**
   * The list (null: that list was never stored, or the cache was cleared or closed meanwhile) once
   * its head is read and its members counted; its texts then come a step at a time
   * (ComingListText), on a connection of the read's own until the last.
   */
  async read<T>(
    resource: Resource,
    scope: string,
    opts: ListReadOptions = {}
  ): Promise<Cached<ComingListText<T>> | null> {
    if (this.closed) throw new Error('The offline cache is closed.')
    const c = this.take()
    const { db, s } = c
    const generation = this.generation
    const turn = opts.turn ?? nextTurn
    const size = Math.max(1, opts.step ?? READ_STEP)
    const countStep = Math.max(1, opts.countStep ?? COUNT_STEP)
    /** Whether the snapshot is still this read's (no reset or close since it began). */
    const current = () => this.generation === generation
    let handedOut = false
    this.busy.add(c)
    db.exec('BEGIN')
    try {
      const head = s.head.get(resource, scope) as unknown[] | undefined
      if (!head) return null
      const key = String(head[1])
      const count = await this.count(s, resource, key, countStep, turn, current)
      if (count === null) return null
      const list = new ComingListText<T>(count)
      this.lists.add(list as ComingListText<unknown>)
      handedOut = true
      void this.rest(c, list, resource, key, size, turn, current)
      return { value: list, syncedAt: (head[0] as string | null) ?? null }
    } finally {
      if (!handedOut) this.done(c, current)
    }
  }

  /** Ends the snapshot of every read on its way: its list fails (answer_gone) unless all there. */
  reset(): void {
    this.generation++
    for (const { db } of this.busy) if (db.inTransaction) db.exec('ROLLBACK')
    for (const list of this.lists) list.end(answerGone())
  }

  close(): void {
    this.closed = true
    this.reset()
    for (const { db } of [...this.idle.splice(0), ...this.busy]) if (db.open) db.close()
  }

  /** Members of the list counted a step at a time; null when the snapshot was lost meanwhile. */
  private async count(
    s: Connection['s'],
    resource: Resource,
    key: string,
    step: number,
    turn: () => Promise<void>,
    current: () => boolean
  ): Promise<number | null> {
    let passed = 0
    for (let last: unknown = null; ;) {
      const at = (
        last === null
          ? s.passFirst.get(resource, key, step - 1)
          : s.passAfter.get(resource, key, last, step - 1)
      ) as unknown[] | undefined
      if (!at) {
        const rest = last === null ? s.countAll.get(resource, key) : s.countAfter.get(resource, key, last)
        return passed + Number((rest as unknown[])[0])
      }
      passed += step
      last = at[0]
      await turn()
      if (!current()) return null
    }
  }

  /** The list's rows read a step at a time, at its taker's pace (`room`), into `list`. */
  private async rest<T>(
    c: Connection,
    list: ComingListText<T>,
    resource: Resource,
    key: string,
    size: number,
    turn: () => Promise<void>,
    current: () => boolean
  ): Promise<void> {
    const { s } = c
    try {
      for (let last: number | null = null; ;) {
        const rows = (
          last === null ? s.first.all(resource, key, size) : s.after.all(resource, key, last, size)
        ) as unknown[][]
        list.add(rows.map((row) => String(row[1])))
        if (rows.length < size) return list.end()
        last = Number((rows[rows.length - 1] as unknown[])[0])
        await turn()
        // Its taker let it go (or the cache was cleared or closed: reset ended it).
        if (!(await list.room()) || !current()) return list.end(answerGone())
      }
    } catch (e) {
      if (isCorruption(e)) markForRebuild(this.file)
      list.end(e)
    } finally {
      this.lists.delete(list as ComingListText<unknown>)
      this.done(c, current)
    }
  }

  private take(): Connection {
    const kept = this.idle.pop()
    if (kept) return kept
    const db = new Database(this.file)
    try {
      db.exec('PRAGMA query_only = ON')
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
      return { db, s: statements(db) }
    } catch (e) {
      db.close()
      throw e
    }
  }

  /** A read's end: its snapshot let go, its connection kept for the next read, or closed. */
  private done(c: Connection, current: () => boolean): void {
    this.busy.delete(c)
    if (!c.db.open) return
    if (current() && c.db.inTransaction) c.db.exec('COMMIT')
    if (!this.closed && this.idle.length < IDLE_KEPT) this.idle.push(c)
    else c.db.close()
  }
}
