/**
 * Where the pages of a list ended, so that the next page begins after the row the last one ended
 * with instead of passing over every row before it.
 *
 * A page is `skip` rows in, newest first (`ORDER BY created_at DESC, seq DESC`). With `OFFSET`,
 * SQLite steps over the `skip` rows before it, one index entry each: a client reading 100,000
 * agents a page of 1,000 at a time waited 960 ms for them all, against 600 ms a page of 5,000
 * (page 100 took twice as long as page 1; 2026-11-30), and a list ten times longer would take a
 * hundred times as long to pass over. A page that begins where one ended is found from that row
 * instead (its `created_at` and `seq`: rows are ordered by both, and `seq` is unique), whatever its
 * `skip`: each page costs its own rows.
 *
 * It is the same page only while the list is as it was: an end is kept with the number of this
 * connection's writes to the list's tables (DbChanges.writesTo: its rows, and the users whose
 * deletion takes them along) and of other connections' commits (`foreignVersion`) when its page
 * was read, and used only while both are unchanged. Otherwise the page is found with `OFFSET`, as
 * before, and its end noted afresh.
 */
import type { Db } from './db'

/** Ends kept per table (the oldest noted goes first): a few clients reading a few lists each. */
export const ENDS_KEPT = 64

export class PageEnds {
  private readonly ends = new Map<string, { at: string; seq: number }>()
  /** Pages that began after the row the page before them ended with. */
  followed = 0

  constructor(
    private readonly db: Db,
    /** The list's table, and those whose changes change its rows (a user's deletion). */
    private readonly tables: readonly string[],
    private readonly keep = ENDS_KEPT
  ) {}

  /** The state of the list's tables now: read before a page's rows, handed back to `ended`. */
  stamp(): string {
    return `${this.tables.map((t) => this.db.writesTo(t)).join(',')}/${this.db.foreignVersion()}`
  }

  /**
   * The `seq` of the row just before position `skip` of `owner`'s list, when a page ended there
   * and the list has not changed since; else null (find the page with OFFSET).
   */
  before(owner: string, skip: number, now = this.stamp()): number | null {
    if (skip <= 0) return null
    const key = `${owner}\n${skip}`
    const end = this.ends.get(key)
    if (!end) return null
    if (end.at !== now) {
      this.ends.delete(key)
      return null
    }
    this.followed++
    return end.seq
  }

  /**
   * A page of `owner`'s list from `skip`, about to be read: the list's state now (`at`, for `read`
   * or `track`), and what finds the page, `{ after }` (the `seq` of the row an earlier page ended
   * with: the statement that begins after it) or `{ skip }` (OFFSET).
   */
  begin(owner: string, skip: number): { at: string; start: { after: number } | { skip: number } } {
    const at = this.stamp()
    const after = this.before(owner, skip, at)
    return { at, start: after === null ? { skip } : { after } }
  }

  /**
   * A page of `owner`'s list ended at position `end` (its `skip` plus its rows) with the row
   * `seq`, its rows read as the list was at `at` (`stamp()` before they were read). Not kept
   * when the list has changed since.
   */
  ended(owner: string, end: number, seq: number, at: string): void {
    if (at !== this.stamp()) return
    const key = `${owner}\n${end}`
    this.ends.delete(key)
    this.ends.set(key, { at, seq })
    while (this.ends.size > this.keep) this.ends.delete(this.ends.keys().next().value as string)
  }

  /**
   * A page of `take` rows from `skip` (-1: the rest of the list) was read as the list was at `at`:
   * `n` rows, the last with `seq`. Where a whole page ended is noted (a shorter one ended the list).
   */
  read(owner: string, skip: number, take: number, n: number, seq: unknown, at: string): void {
    if (take > 0 && n === take && seq !== null && seq !== undefined)
      this.ended(owner, skip + n, Number(seq), at)
  }

  /** A page's `rows` as they are read (each with its `seq` at `seqAt`), `read` once all are. */
  *track<R extends readonly unknown[]>(
    rows: Iterable<R>,
    owner: string,
    skip: number,
    take: number,
    at: string,
    seqAt: number
  ): Generator<R, void, undefined> {
    let n = 0
    let seq: unknown = null
    for (const row of rows) {
      n++
      seq = row[seqAt]
      yield row
    }
    this.read(owner, skip, take, n, seq, at)
  }
}

/** The keyset condition of a page that begins after the row `:after` (of `table`, aliased `a` or not). */
export const afterRow = (table: string, alias = '') =>
  `(${alias}created_at, ${alias}seq) < (SELECT created_at, seq FROM ${table} WHERE seq = :after)`

/**
 * A statement prepared when first used: those of pages found from an end only where a list is
 * read a page at a time, so a service that never pages prepares no more statements than before.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: { value: T } | null = null
  return () => (made ??= { value: make() }).value
}
