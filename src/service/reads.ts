/**
 * Long reads on connections of their own, a part at a time, while the answer goes out.
 *
 * A whole list of 100,000 agents is ~1.6 s of SQLite's work and ~100 MB of text. Read on the
 * service's connection in one go, it held the service's event loop that long, and not a byte went
 * out before the last row was read (the client waited 1.4–2.1 s for the answer's first byte).
 * Here its rows are read a part at a time between turns of the event loop, and past its first 2 MB
 * each part is sent as soon as it is made (http.ts, `sendParts`).
 *
 * A statement being stepped keeps its read transaction open until it has stepped to its end. In
 * WAL mode that transaction is a snapshot: the list is the database as it was when its first row
 * was read, whatever is committed meanwhile, and no writer waits for it. That needs a connection
 * of its own (one that is stepping a statement runs no other), and WAL: with a rollback journal a
 * reader would hold off every writer, so there are no long reads there (`openLongReads` gives
 * null) and lists are read whole, as before.
 *
 * A read left part-way (the client went away) is ended at once: the snapshot it holds would keep
 * the WAL from being checkpointed.
 */
import Database from 'libsql'
import { inWalMode, type Connection, type Statement } from './db'

/** Characters of row texts in one part (~250 agents: ~4 ms of SQLite's work). */
export const PART_CHARS = 256 * 1024

/**
 * Pages up to this long are made whole before they are sent; longer ones and the whole list as
 * they are read (where there are long reads). Sent as they were read, the app's pages of 5,000
 * agents came no sooner (lists of 10,000 and 100,000 agents took as long), and on two cores its
 * main process waited for a CPU 44–50 ms at a time while the service read the next page beside it
 * (longest blocks 68–92 ms, against 25–39 ms).
 */
export const SENT_WHOLE = 5000

/** Whether a page of `take` rows (-1: the whole list) is sent as its rows are read, on `reads`. */
export const sentAsRead = (reads: LongReads | null, take: number): reads is LongReads =>
  reads !== null && (take < 0 || take > SENT_WHOLE)

export class LongReads {
  private readonly idle: Connection[] = []
  private readonly statements = new WeakMap<Connection, Map<string, Statement>>()
  private closed = false
  /** Connections lent to reads under way. */
  private reading = 0
  /** Called once the last read under way ended, after `close`. */
  private ended: (() => void) | null = null

  constructor(
    private readonly file: string,
    private readonly busyTimeoutMs: number,
    /** Connections kept open for the next long read once one ends. */
    private readonly keep = 2
  ) {}

  /** Connections lent to reads that have not ended. */
  get underWay(): number {
    return this.reading
  }

  /**
   * The rows of `sql` (each an array of its columns), read on a connection of their own as they
   * are asked for. Read to the end, or let go with `return()`: either gives the connection back.
   */
  *rows(sql: string, params: Record<string, unknown>): Generator<unknown[], void, undefined> {
    const c = this.take()
    let s: Statement | undefined
    let ended = false
    try {
      s = this.statement(c, sql)
      yield* s.iterate(params) as Iterable<unknown[]>
      ended = true
    } finally {
      // Left part-way: libsql's iterator cannot reset its statement, nor does closing the
      // connection end the read while the statement lives. A `get` steps it once more and resets
      // it, which ends the read.
      if (!ended && s) ended = reset(s, params)
      this.give(c, ended)
    }
  }

  /**
   * Closes the connections kept; those of reads under way close as their reads end (a read sent
   * to a client ends once its connection closes: http.ts `sendParts`). Resolves once none is left.
   */
  close(): Promise<void> {
    this.closed = true
    for (const c of this.idle.splice(0)) c.close()
    return this.reading === 0 ? Promise.resolve() : new Promise((resolve) => (this.ended = resolve))
  }

  private take(): Connection {
    if (this.closed) throw new Error('The service is closing')
    this.reading++
    const kept = this.idle.pop()
    if (kept) return kept
    const c = new Database(this.file)
    try {
      c.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(this.busyTimeoutMs))}`)
      c.exec('PRAGMA query_only = ON')
    } catch (e) {
      this.reading--
      c.close()
      throw e
    }
    return c
  }

  private give(c: Connection, ended: boolean): void {
    this.reading--
    if (ended && !this.closed && this.idle.length < this.keep) this.idle.push(c)
    else c.close()
    if (this.reading === 0) this.ended?.()
  }

  private statement(c: Connection, sql: string): Statement {
    let kept = this.statements.get(c)
    if (!kept) this.statements.set(c, (kept = new Map()))
    let s = kept.get(sql)
    if (!s) kept.set(sql, (s = c.prepare(sql).raw()))
    return s
  }
}

/** Resets `s` (its read ends); false where that failed. */
function reset(s: Statement, params: Record<string, unknown>): boolean {
  try {
    s.get(params)
    return true
  } catch {
    return false
  }
}

/** Long reads beside `db` (its file is `file`), or null where it is not in WAL mode. */
export function openLongReads(db: Connection, file: string, busyTimeoutMs = 5000): LongReads | null {
  return inWalMode(db) ? new LongReads(file, busyTimeoutMs) : null
}

/**
 * The texts of `rows` (`text` of each), joined with commas into parts of about `partChars`
 * characters (the items of a JSON array, a part at a time). Nothing is read before the first part
 * is asked for.
 */
export function* textParts(
  rows: Iterator<unknown[], void, undefined>,
  text: (row: unknown[]) => string,
  partChars = PART_CHARS
): Generator<string, void, undefined> {
  try {
    let texts: string[] = []
    let chars = 0
    for (let r = rows.next(); !r.done; r = rows.next()) {
      const t = text(r.value)
      texts.push(t)
      chars += t.length
      if (chars >= partChars) {
        yield texts.join(',')
        texts = []
        chars = 0
      }
    }
    if (texts.length) yield texts.join(',')
  } finally {
    rows.return?.()
  }
}
