/**
 * Group commit: the changes of the requests that arrive in the same turn of the event loop are
 * committed in one SQLite transaction.
 *
 * A commit writes every page the transaction touched to the WAL; one agent touches about nine
 * (its row, four indexes, its tag links and their two indexes, the AUTOINCREMENT counter), and
 * most of them are the same pages for the next agent. So N changes in one transaction cost
 * little more than one. Nothing about durability changes: the pragmas are the same, and each
 * request is answered only after the transaction holding its change has committed.
 *
 * A request that fails (a 400, a 409, an unexpected error) fails alone and the others still
 * commit. Most fail before they change anything: the references are checked before the first
 * write, and a statement that fails (a UNIQUE conflict) changes nothing, so there is nothing to
 * undo (`Db.rowWrites` tells). One that fails after changing rows is undone by rolling the whole
 * transaction back; the requests run before it in that transaction then run again, in a new one.
 * (Not a SAVEPOINT per request: opening and releasing one cost ~10–18 µs of a ~180 µs POST, on
 * every request, for a case that is rare.) So a request's work may run more than once, and only
 * its last run counts: it changes nothing but the database and what is kept in memory of the
 * database, which a rollback lets go (`Db.ownWrites`, `Db.writesTo`).
 *
 * The same when SQLite itself rolls the transaction back with a request's error (SQLITE_FULL once
 * the file may grow no more, some I/O errors): that request fails, the ones before it run again.
 * Each pass fails at least one request, so the batch always ends. Should the COMMIT fail, every
 * request whose change was in it gets that error (running them again could fail the same way for
 * ever). The work is synchronous and runs in one go, so no other request ever sees a half-done
 * batch.
 */
import type { Db } from './db'

interface Job {
  run(): unknown
  resolve(value: unknown): void
  reject(error: unknown): void
}

export class WriteQueue {
  private jobs: Job[] = []
  private idle: Promise<void> | null = null
  private markIdle: (() => void) | null = null

  constructor(private readonly db: Db) {}

  /**
   * Runs `work` (synchronous; it may read and write) in the next group transaction; resolves
   * with its result once that transaction has committed, or rejects with its error.
   */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.jobs.push({ run: work, resolve: resolve as (v: unknown) => void, reject })
      if (this.jobs.length === 1) this.schedule()
    })
  }

  /** Whether changes are waiting to be committed. */
  get pending(): boolean {
    return this.jobs.length > 0
  }

  /** Resolves once the changes waiting now are committed (or failed). */
  settled(): Promise<void> {
    return this.idle ?? Promise.resolve()
  }

  private schedule() {
    this.idle ??= new Promise<void>((resolve) => (this.markIdle = resolve))
    setImmediate(() => this.flush())
  }

  private flush() {
    const jobs = this.jobs
    this.jobs = []
    const rest = this.commit(jobs)
    if (rest.length) {
      this.jobs = rest.concat(this.jobs)
      this.schedule()
      return
    }
    if (this.jobs.length === 0) {
      const done = this.markIdle
      this.idle = null
      this.markIdle = null
      done?.()
    }
  }

  /** One transaction over `jobs`; returns the jobs to run again in a new one. */
  private commit(jobs: Job[]): Job[] {
    const db = this.db
    try {
      // IMMEDIATE: take the write lock first, so a database locked by another connection fails
      // the whole batch once (after busy_timeout) instead of each request in turn.
      db.exec('BEGIN IMMEDIATE')
    } catch (e) {
      for (const j of jobs) j.reject(e)
      return []
    }
    const committed = db.writeLocked()
    const done: { job: Job; value: unknown }[] = []
    for (let i = 0; i < jobs.length; i++) {
      const job = jobs[i] as Job
      const before = db.rowWrites
      try {
        done.push({ job, value: job.run() })
      } catch (e) {
        job.reject(e)
        if (db.inTransaction && db.rowWrites === before) continue // it changed nothing
        // It changed rows before failing (undo the transaction), or SQLite rolled the transaction
        // back with its error (SQLITE_FULL, some I/O errors): the ones before it run again.
        try {
          if (db.inTransaction) db.exec('ROLLBACK')
        } catch {
          // still open: given up on below
        }
        if (!db.inTransaction) return done.map((d) => d.job).concat(jobs.slice(i + 1))
        const why = e instanceof Error ? e.message : String(e)
        this.abandon(done, new Error(`The transaction holding this change could not be undone (${why})`))
        return jobs.slice(i + 1)
      }
    }
    try {
      db.exec('COMMIT')
      committed()
    } catch (e) {
      this.abandon(done, e)
      return []
    }
    for (const { job, value } of done) job.resolve(value)
    return []
  }

  private abandon(done: { job: Job }[], error: unknown) {
    try {
      if (this.db.inTransaction) this.db.exec('ROLLBACK')
    } catch {
      // already rolled back
    }
    for (const { job } of done) job.reject(error)
  }
}
