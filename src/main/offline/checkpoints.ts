/**
 * A long list's write leaves every sync to disk to a thread of its own.
 *
 * The cache's connection folds its write-ahead log back into the file (a checkpoint: pages copied
 * and both files synced to disk) in the commit that takes the log past WAL_AUTOCHECKPOINT pages,
 * and the commit that starts the log afresh after a checkpoint syncs the log's new header and cuts
 * the file back (db.ts' journal_size_limit). On main, each of these waits for the disk: 5–12 ms
 * each when it is idle, 40–130 ms when another program keeps it busy (the first list of 10,000
 * agents then blocked main for 125–194 ms, asleep in those syncs). A long list's write
 * (listWriter.ts) commits every few hundred rows, and while it runs main's connection makes none
 * of them: from its first step its commits only append to the log. Once the log holds more than
 * WAL_AUTOCHECKPOINT pages, a worker thread with a connection of its own checkpoints (PASSIVE: it
 * waits for no one and holds no one up) while main goes on writing. Once the log passes
 * WAL_CAP_BYTES the write waits, its event loop free, for the thread to copy all of it and start
 * it afresh itself (a one-page write of its own, so the header's sync and the cut are the
 * thread's). At the end the thread makes one last such pass and closes, and main's connection
 * checkpoints in its commits again: an edit, the outbox, a short write are as before, and no
 * thread outlives a write (a store closes only when none runs). Main's write transactions take the
 * lock as they begin (db.ts' writeTransaction), so the thread's one-page write never fails theirs.
 */
import { statSync } from 'node:fs'
import type { Worker } from 'node:worker_threads'
import { dbThread } from './dbThread'

/** Main's connection checkpoints in the commit that takes the log past this many pages (db.ts). */
export const WAL_AUTOCHECKPOINT = 250
/** The log's size in bytes past which a write's thread starts: about WAL_AUTOCHECKPOINT pages. */
export const THREAD_FROM_BYTES = WAL_AUTOCHECKPOINT * 4096
/**
 * The log's size at which a write waits (its event loop free) for the thread to copy all of it
 * and start it afresh. Otherwise the thread, copying while main appends, never catches up and the
 * log grows by the whole write (19 MB for a list of 10,000 agents). Also the size main's
 * connection cuts the log back to when it starts it afresh itself (journal_size_limit, db.ts); the
 * thread cuts it to its one page, so the file's size tells what the log holds.
 */
export const WAL_CAP_BYTES = 4 * 1024 * 1024

/** How long the thread waits for main's connection to let go of the write lock (it holds it for a step). */
const THREAD_BUSY_MS = 1000

/**
 * After dbThread's start: per message one checkpoint, then with `restart` a new log where the
 * checkpoint copied all of it; 'close' closes it (the thread then ends). Answers what the
 * checkpoint gave ([busy, frames in the log, frames copied]) and whether it started the log afresh.
 * Main's connection holds the write lock for a step at most (its transactions take it as they
 * begin): the thread waits THREAD_BUSY_MS for it.
 */
const THREAD = `
// Its commit (the new log's first page) does not sync the page; the new log's header is synced
// (SQLite does so in every mode but OFF), and the file is cut back to what the log then holds.
db.exec('PRAGMA synchronous = NORMAL')
db.exec('PRAGMA journal_size_limit = 0')
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)').raw(true)
const version = db.prepare('PRAGMA user_version').raw(true)
/**
 * A log whose every page is in the file is started afresh by the next commit: this one's, which
 * writes the database's header page unchanged (its user_version set to what it is). Where the
 * lock stays taken (busy_timeout), main's next commit starts it, as it did before this thread.
 */
function restart() {
  try {
    db.exec('BEGIN IMMEDIATE')
  } catch (e) {
    if (String((e && e.code) || '').startsWith('SQLITE_BUSY')) return false
    throw e
  }
  try {
    db.exec('PRAGMA user_version = ' + Number(version.get()[0]))
    db.exec('COMMIT')
    return true
  } catch (e) {
    db.exec('ROLLBACK')
    throw e
  }
}
parentPort.on('message', (m) => {
  if (m === 'close') {
    db.close()
    parentPort.close()
    return
  }
  try {
    const value = checkpoint.get()
    const whole = value[0] === 0 && value[1] > 0 && value[1] === value[2]
    parentPort.postMessage({ ok: true, value, restarted: m.restart && whole ? restart() : false })
  } catch (e) {
    parentPort.postMessage({ ok: false, message: String((e && e.message) || e) })
  }
})
`

type Answer = { ok: true; value: unknown; restarted: boolean } | { ok: false; message: string }

/** What it needs of main's connection (db.ts's Db; db.ts reads this module's constants). */
interface Connection {
  exec(sql: string): unknown
}

/** What a write's thread did (tests, profiling): checkpoints, and those that started the log afresh. */
export interface ThreadWork {
  checkpoints: number
  restarts: number
}

/** The writes in steps running on each connection: its commits checkpoint again once none does. */
const writing = new WeakMap<Connection, number>()

/**
 * The checkpoints of one write (a writer's steps): made before its first step, `step` after each,
 * `finish` at its end.
 */
export class WriteCheckpoints {
  private worker: Worker | null = null
  private exited: Promise<void> | null = null
  private running: Promise<void> | null = null
  private failed = false
  private finished = false

  constructor(
    private readonly db: Connection,
    private readonly file: string,
    /** Counts what the thread did. */
    private readonly work?: ThreadWork
  ) {
    const n = writing.get(db) ?? 0
    writing.set(db, n + 1)
    // From the first step on, main's commits only append to the log.
    if (n === 0) this.autocheckpoint(0)
  }

  /**
   * After a step that wrote: once the log holds more than THREAD_FROM_BYTES, a checkpoint on the
   * thread unless one runs; once it has grown past WAL_CAP_BYTES, a promise to wait for before the
   * next step, which ends when the thread has copied all of it and started it afresh.
   */
  step(): Promise<void> | undefined {
    if (this.failed) return undefined
    const bytes = this.logBytes()
    if (!this.worker) {
      if (bytes <= THREAD_FROM_BYTES) return undefined
      try {
        this.start()
      } catch {
        this.fail() // main's commits checkpoint, as before
        return undefined
      }
    }
    if (bytes > WAL_CAP_BYTES) return this.catchUp()
    if (!this.running) this.running = this.checkpoint(false).finally(() => (this.running = null))
    return undefined
  }

  /** The one running ends, then one more copies what main wrote since and starts the log afresh. */
  private async catchUp(): Promise<void> {
    await this.running
    if (!this.failed) await this.checkpoint(true)
  }

  private logBytes(): number {
    try {
      return statSync(`${this.file}-wal`).size
    } catch {
      return 0
    }
  }

  /**
   * At the write's end (each step committed): the thread's last pass and its end, then main's
   * connection checkpoints in its commits again (once no other write in steps runs on it). Never
   * throws: a checkpoint is housekeeping.
   */
  async finish(): Promise<void> {
    if (this.finished) return
    this.finished = true
    if (this.worker) {
      await this.running
      if (!this.failed) await this.checkpoint(true)
      this.worker.postMessage('close')
      await this.exited
      this.worker = null
    }
    const n = (writing.get(this.db) ?? 1) - 1
    writing.set(this.db, n)
    if (n === 0 && !this.failed) this.autocheckpoint(WAL_AUTOCHECKPOINT)
  }

  /** Sets main's connection's automatic checkpoints (0: none). */
  private autocheckpoint(pages: number): void {
    try {
      this.db.exec(`PRAGMA wal_autocheckpoint = ${pages}`)
    } catch {
      // a damaged file: the next open rebuilds it (and sets the pragma)
    }
  }

  /** The thread failed: no more checkpoints on it, main's commits make them for the rest of the write. */
  private fail(): void {
    if (this.failed) return
    this.failed = true
    this.autocheckpoint(WAL_AUTOCHECKPOINT)
  }

  private start(): void {
    const worker = dbThread(THREAD, this.file, THREAD_BUSY_MS)
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()))
    worker.on('error', () => this.fail())
    this.worker = worker
  }

  /**
   * One checkpoint on the thread (then, with `restart`, a new log); a failure (or the thread's
   * end) only stops the next ones.
   */
  private checkpoint(restart: boolean): Promise<void> {
    const worker = this.worker
    if (!worker) return Promise.resolve()
    return new Promise<void>((resolve) => {
      const done = (a: Answer | null) => {
        worker.off('message', done)
        worker.off('exit', gone)
        if (!a?.ok) this.fail()
        else if (this.work) {
          this.work.checkpoints++
          if (a.restarted) this.work.restarts++
        }
        resolve()
      }
      const gone = () => done(null)
      worker.once('message', done)
      worker.once('exit', gone)
      worker.postMessage({ restart })
    })
  }
}
