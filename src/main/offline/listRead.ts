/**
 * A stored list read a step at a time, as its rows' JSON (offline/listText.ts), on a connection of
 * its own that holds one snapshot of the file for the whole read.
 *
 * The cache's list at a start (`cacheOnly`) or offline was one read of every row and a JSON.parse
 * of each, all in one block of main: 67–72 ms for 10,000 agents, 1.05 s for 100,000 (bench,
 * 2026-11-29). Now main reads `READ_STEP` rows at a time, gives the event loop a turn after each
 * step (turn.ts), and parses nothing: the texts leave main as JSON that the preload parses, as a
 * list read from a server does (answerPieces.ts). SQLite joins each step's rows into one JSON array
 * of bytes (`JOINED`), kept so until it leaves (listText.ts `addJson`): a string a row cost the
 * driver ~2.5 µs each, and its decoding of two-byte text more than ICU's of the joined bytes (1,000
 * agents read in 6.8 ms as rows, 3.5 as steps joined, 2026-11-30). The list is answered once its
 * count is known (ComingListText) with its first step, each piece as its rows are read: the page
 * parses one piece while main reads the next (a list of 1,000 from a cold store reached the page in
 * 13–16 ms against 17–19 answered whole, 2026-11-30). The count, too, passes `COUNT_STEP` members a
 * step.
 *
 * A list of up to `AT_ONCE` members is read otherwise: in one go, on the cache's own connection. Its
 * steps would hold little back (one step took ~0.3 ms, the page's parse of it more), and a
 * connection of its own costs ~0.3 ms (opened, then the schema read), and each piece a wake of the
 * page and of main. A list of 1,000 from a cold store reached the page in 6.39 ms (median of 12
 * batches of 11 runs) read so, against 7.34 in steps, 1.22× the cache's floor against 1.38×; main's
 * part 3.5–3.8 ms against 5.1–6.5; 2,000 agents 10.3–10.6 against 11.0–11.3 (2026-12-01).
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
import { BUSY_TIMEOUT_MS, closeDb, type Db, isCorruption, markForRebuild, preparedOnUse } from './db'
import { isJsonBytes, type JsonBytes } from './jsonBytes'
import { ComingListText } from './listText'
import type { Cached, ListReadOptions, Resource } from './types'
import { nextTurn } from '../turn'

/** Rows a step reads (~250 kB of agents, ~2 ms on the bench machine). */
export const READ_STEP = 250

/**
 * Lists of up to this many members are read in one go on the cache's own connection (~3 ms of main
 * for 2,000 agents): a piece of text (answerPieces.ts), which such a list leaves main as.
 */
export const AT_ONCE = 2000

/**
 * Members a step of the count passes (~3 ms at 100,000 agents). Counted at once, 100,000 held main
 * 27–37 ms (2026-11-29).
 */
export const COUNT_STEP = 10_000

/** Connections kept open, idle, for the reads to come (a start reads 5–7 lists one after another). */
export const IDLE_KEPT = 2

const ROWS = `SELECT l.position p, i.json j FROM list_items l JOIN ${MEMBER_ROW}
  WHERE l.resource = ? AND l.scope = ?`
/**
 * A step's rows as SQLite joins them (a JSON array of UTF-8 bytes: no text is made of a row on
 * main), with their count, each one's length in bytes and position, in the order joined. The order
 * is the subquery's as SQLite feeds an aggregate its rows; SQLite does not promise it, so it is
 * checked (`jsonStep`). An `ORDER BY` in the aggregates would promise it, for a sort of every step.
 */
const JOINED = (rows: string) => `SELECT count(*), CAST('[' || group_concat(j, ',') || ']' AS BLOB),
  group_concat(octet_length(j)), group_concat(p) FROM (${rows})`
const MEMBERS = 'FROM list_items WHERE resource = ? AND scope = ?'
/** The position of the n-th member (after a position; n - 1 bound), if there are that many. */
const PASSED = 'ORDER BY position LIMIT 1 OFFSET ?'

/** A reader's statements, prepared on first use (a list of 1,000 runs four of them). */
function statements(db: Db) {
  return preparedOnUse(db, {
    head: () => db.prepare(LIST_HEAD_SQL).raw(true),
    first: () => db.prepare(`${ROWS} ORDER BY l.position LIMIT ?`).raw(true),
    after: () => db.prepare(`${ROWS} AND l.position > ? ORDER BY l.position LIMIT ?`).raw(true),
    firstJson: () => db.prepare(JOINED(`${ROWS} ORDER BY l.position LIMIT ?`)).raw(true),
    afterJson: () => db.prepare(JOINED(`${ROWS} AND l.position > ? ORDER BY l.position LIMIT ?`)).raw(true),
    passFirst: () => db.prepare(`SELECT position ${MEMBERS} ${PASSED}`).raw(true),
    passAfter: () => db.prepare(`SELECT position ${MEMBERS} AND position > ? ${PASSED}`).raw(true),
    countAfter: () => db.prepare(`SELECT COUNT(*) ${MEMBERS} AND position > ?`).raw(true),
    countAll: () => db.prepare(`SELECT COUNT(*) ${MEMBERS}`).raw(true),
    countUpTo: () => db.prepare(`SELECT COUNT(*) FROM (SELECT 1 ${MEMBERS} LIMIT ?)`).raw(true)
  })
}

/**
 * A step as `JOINED` answers it: its rows' JSON, their count and the last one's position; null if
 * it is not as asked (rows out of order, lengths that do not add up), when it is read row by row.
 */
export function jsonStep(row: unknown[]): { n: number; last: number | null; json?: JsonBytes } | null {
  const n = Number(row[0])
  if (n === 0) return { n, last: null }
  const [, bytes, lengthsText, positionsText] = row
  if (!Buffer.isBuffer(bytes) || typeof lengthsText !== 'string' || typeof positionsText !== 'string')
    return null
  const lengths = lengthsText.split(',').map(Number)
  const positions = positionsText.split(',').map(Number)
  if (lengths.length !== n || positions.length !== n || !isJsonBytes(bytes, lengths)) return null
  for (let i = 1; i < n; i++) if (!((positions[i] as number) > (positions[i - 1] as number))) return null
  return { n, last: positions[n - 1] as number, json: { bytes, lengths } }
}

type Connection = { db: Db; s: ReturnType<typeof statements> }

/**
 * The `size` members after position `last` (null: from the first) read into `list`, as SQLite joins
 * them; their count and the last one's position.
 */
function readStep(
  s: Connection['s'],
  list: ComingListText<unknown>,
  resource: Resource,
  key: string,
  last: number | null,
  size: number
): { n: number; last: number | null } {
  const args = last === null ? [resource, key, size] : [resource, key, last, size]
  const step = jsonStep((last === null ? s.firstJson : s.afterJson).get(...args) as unknown[])
  if (step) {
    if (step.json) list.addJson(step.json)
    return step
  }
  // Not as SQLite joins a step (not seen): its rows one by one, as text.
  const rows = (last === null ? s.first : s.after).all(...args) as unknown[][]
  list.add(rows.map((row) => String(row[1])))
  const end = rows[rows.length - 1]
  return { n: rows.length, last: end ? Number(end[0]) : null }
}

export class ListReader {
  private readonly idle: Connection[] = []
  /** Connections of the reads on their way, and their lists (once counted). */
  private readonly busy = new Set<Connection>()
  private readonly lists = new Set<ComingListText<unknown>>()
  /** Bumped by `reset` and `close`: a read that sees it changed has lost its snapshot. */
  private generation = 0
  private closed = false

  /** The statements of the cache's own connection (`own`), prepared on first use. */
  private ownStatements: Connection['s'] | null = null

  /** `own`: the cache's own connection, which reads lists of up to `AT_ONCE` members (`atOnce`). */
  constructor(
    private readonly file: string,
    private readonly own?: Db
  ) {}

  /**
   * The list (null: that list was never stored, or the cache was cleared or closed meanwhile) once
   * its head is read and its members counted; its texts then come a step at a time
   * (ComingListText), on a connection of the read's own until the last. A list of up to `atOnce`
   * members (default AT_ONCE) is all there when answered, read on the cache's own connection.
   */
  async read<T>(
    resource: Resource,
    scope: string,
    opts: ListReadOptions = {}
  ): Promise<Cached<ComingListText<T>> | null> {
    if (this.closed) throw new Error('The offline cache is closed.')
    const atOnce = this.atOnce<T>(resource, scope, opts.atOnce ?? AT_ONCE)
    if (atOnce !== undefined) return atOnce
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

  /**
   * The list read whole on the cache's own connection, if it has `max` members or fewer: read as a
   * list of steps is, its rows as SQLite joins them, in one transaction (no turn of the event loop
   * in between: nothing else writes meanwhile). undefined when it is longer (or no connection of
   * the cache's was given, or it is in a transaction of its own), null as `read`.
   */
  private atOnce<T>(
    resource: Resource,
    scope: string,
    max: number
  ): Cached<ComingListText<T>> | null | undefined {
    const db = this.own
    if (!db || max < 1 || db.inTransaction) return undefined
    const s = (this.ownStatements ??= statements(db))
    return db.transaction(() => {
      const head = s.head.get(resource, scope) as unknown[] | undefined
      if (!head) return null
      const key = String(head[1])
      const n = Number((s.countUpTo.get(resource, key, max + 1) as unknown[])[0])
      if (n > max) return undefined
      const list = new ComingListText<T>(n)
      readStep(s, list, resource, key, null, n)
      list.end()
      return { value: list, syncedAt: (head[0] as string | null) ?? null }
    })()
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
    for (const { db } of [...this.idle.splice(0), ...this.busy]) if (db.open) closeDb(db)
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
        const step = readStep(s, list, resource, key, last, size)
        if (step.n < size || step.last === null) return list.end()
        last = step.last
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
    else closeDb(c.db)
  }
}
