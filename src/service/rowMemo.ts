/**
 * Rows' answer texts kept in memory while nothing may have changed them: no write by this
 * connection to the tables they come from (`Db.writesTo`: a rollback counts as one), no commit
 * by another connection to the file (`Db.foreignVersion`). Exact like the item answers'
 * memory (responses.ts), but not emptied by writes to other tables: a new agent does not
 * change the tags it names, so the next one names them without reading them again.
 */
import type { Db } from './db'

export class RowMemo {
  private readonly kept = new Map<string, string>()
  /** What the tables' write counts and other connections' version were when last asked. */
  private readonly seen: number[]
  private foreign = -1

  constructor(
    private readonly db: Db,
    /** The tables the rows come from, and those whose changes take them along (CASCADE). */
    private readonly tables: readonly string[],
    /** Most texts kept (then all are let go and read again). */
    private readonly max = 4096
  ) {
    this.seen = tables.map(() => -1)
  }

  /** The text kept for `key`, while its rows are as they were when it was read. */
  get(key: string): string | undefined {
    this.check()
    return this.kept.get(key)
  }

  /** Keeps `text`, read just now (in the same synchronous run, with no write in between). */
  set(key: string, text: string): void {
    this.check()
    if (this.kept.size >= this.max) this.kept.clear()
    this.kept.set(key, text)
  }

  /** Lets everything go when one of the tables may have changed since last asked. */
  private check(): void {
    let changed = false
    for (let i = 0; i < this.tables.length; i++) {
      const n = this.db.writesTo(this.tables[i] as string)
      if (n !== this.seen[i]) {
        this.seen[i] = n
        changed = true
      }
    }
    const foreign = this.db.foreignVersion()
    if (foreign !== this.foreign) {
      this.foreign = foreign
      changed = true
    }
    if (changed) this.kept.clear()
  }
}
