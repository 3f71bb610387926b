/**
 * The answers of item GETs (`GET /agents/{id}` and the like), kept in memory per user and URL
 * while the database has not changed.
 *
 * "Not changed" is exact, not a time limit: every write through the service's connection (a
 * statement run or exec: see DbChanges) and every commit by another connection to the file
 * (SQLite's data_version) empties the whole cache, so an answer is only ever served while the
 * rows it was built from are as they were. An answer computed while something changed is not
 * kept. Only routes that declare `cache: true` are kept: their answer depends on nothing but
 * the user, the URL and the database.
 */
import type { Db } from './db'

/** When an answer was computed: this connection's writes and other connections' version. */
export interface Stamp {
  own: number
  foreign: number
}

export class ResponseCache {
  private readonly entries = new Map<string, string>()
  private bytes = 0
  private own: number
  private foreign: number

  constructor(
    private readonly db: Db,
    /** Most characters kept in all (then the oldest answers are dropped). */
    private readonly maxChars = 4 * 1024 * 1024,
    /** Larger answers are not kept. */
    private readonly maxEntryChars = 64 * 1024
  ) {
    this.own = db.ownWrites
    this.foreign = db.foreignVersion()
  }

  /** The database's state now; empties the cache when it changed since last asked. */
  stamp(): Stamp {
    const own = this.db.ownWrites
    const foreign = this.db.foreignVersion()
    if (own !== this.own || foreign !== this.foreign) {
      this.entries.clear()
      this.bytes = 0
      this.own = own
      this.foreign = foreign
    }
    return { own, foreign }
  }

  /** The kept answer for `key`, when the database has not changed since it was computed. */
  get(key: string): string | undefined {
    this.stamp()
    return this.entries.get(key)
  }

  /** Keeps `text` for `key` when the database is still as it was at `at` (taken before computing). */
  set(key: string, text: string, at: Stamp) {
    if (text.length > this.maxEntryChars) return
    const now = this.stamp()
    if (now.own !== at.own || now.foreign !== at.foreign) return
    const old = this.entries.get(key)
    if (old !== undefined) {
      this.bytes -= old.length
      this.entries.delete(key)
    }
    this.entries.set(key, text)
    this.bytes += text.length
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxChars) break
      this.entries.delete(k)
      this.bytes -= v.length
    }
  }
}
