/**
 * A long list's write checkpoints on a thread of its own, not in main's commits.
 *
 * The cache's connection folds its write-ahead log back into the file (a checkpoint: pages copied
 * and both files synced to disk) in the commit that takes the log past WAL_AUTOCHECKPOINT pages.
 * A long list's write (listWriter.ts) commits every few hundred rows, so about every other step
 * checkpointed on main: 10–14 ms each, ~215 ms of main's ~1.1–1.5 s in a first list of 10,000
 * agents, and a sync to disk that waits as long as the disk's queue does. From its CHECKPOINT_FROM_STEP-th
 * step a write hands that to a worker thread with a connection of its own, which checkpoints
 * (PASSIVE: it waits for no one and holds no one up) while main goes on writing; main's commits
 * then only append to the log, and once it passes WAL_CAP_BYTES the write waits, its event loop
 * free, for the thread to copy all of it (so the log starts afresh). At the end the thread makes one last pass and
 * closes, and main's connection checkpoints in its commits again: a short write, an edit, the
 * outbox are as before, and no thread outlives a write (a store closes only when none runs).
 */
import { statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/** Main's connection checkpoints in the commit that takes the log past this many pages (db.ts). */
export const WAL_AUTOCHECKPOINT = 250
/** The write step from which a long write's checkpoints run on the thread (a step writes 250 rows). */
export const CHECKPOINT_FROM_STEP = 4
/**
 * The log's size at which a write waits (its event loop free) for the thread to copy all of it:
 * main's next commit then starts the log afresh. Otherwise the thread, copying while main appends,
 * never catches up and the log grows by the whole write (19 MB for a list of 10,000 agents).
 * Also the size the log is cut back to when it starts afresh (journal_size_limit, db.ts).
 */
export const WAL_CAP_BYTES = 4 * 1024 * 1024

const DRIVER = createRequire(import.meta.url).resolve('libsql')

/** One connection, one checkpoint per message; 'close' closes it (the thread then ends). */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads')
const fs = require('node:fs')
if (!fs.existsSync(workerData.file)) throw new Error('there is no database at ' + workerData.file)
const Database = require(workerData.driver)
// Housekeeping: where the system lets a thread have its own priority (Linux), this one yields the
// CPU to main and the service's thread (on two cores it took main's turn: blocks of 94 ms, 64 of it waiting).
try {
  const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop())
  if (tid > 0) require('node:os').setPriority(tid, 10)
} catch {}
const db = new Database(workerData.file)
parentPort.on('message', (m) => {
  if (m === 'close') {
    db.close()
    parentPort.close()
    return
  }
  try {
    parentPort.postMessage({ ok: true, value: db.prepare('PRAGMA wal_checkpoint(PASSIVE)').raw(true).get() })
  } catch (e) {
    parentPort.postMessage({ ok: false, message: String((e && e.message) || e) })
  }
})
`

type Answer = { ok: true; value: unknown } | { ok: false; message: string }

/** What it needs of main's connection (db.ts's Db; db.ts reads this module's constants). */
interface Connection {
  exec(sql: string): unknown
}

/** The checkpoints of one write (a writer's steps): `step` after each, `finish` at its end. */
export class WriteCheckpoints {
  private steps = 0
  private worker: Worker | null = null
  private exited: Promise<void> | null = null
  private running: Promise<void> | null = null
  private failed = false

  constructor(
    private readonly db: Connection,
    private readonly file: string,
    /** Told each checkpoint the thread made (tests, profiling). */
    private readonly onCheckpoint?: () => void
  ) {}

  /**
   * After a step that wrote: from CHECKPOINT_FROM_STEP on, a checkpoint on the thread unless one
   * runs; once the log has grown past WAL_CAP_BYTES, a promise to wait for before the next step,
   * which ends when the thread has copied all of it.
   */
  step(): Promise<void> | undefined {
    this.steps++
    if (this.failed || this.steps < CHECKPOINT_FROM_STEP) return undefined
    if (!this.worker) {
      try {
        this.start()
      } catch {
        this.failed = true // main's commits go on checkpointing, as before
        return undefined
      }
    }
    if (this.logBytes() > WAL_CAP_BYTES) return this.catchUp()
    if (!this.running) this.running = this.checkpoint().finally(() => (this.running = null))
    return undefined
  }

  /** The one running ends, then one more copies what main wrote since. */
  private async catchUp(): Promise<void> {
    await this.running
    if (!this.failed) await this.checkpoint()
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
   * connection checkpoints in its commits again. Never throws: a checkpoint is housekeeping.
   */
  async finish(): Promise<void> {
    if (!this.worker) return
    await this.running
    if (!this.failed) await this.checkpoint()
    this.worker.postMessage('close')
    await this.exited
    this.worker = null
    this.mainCheckpoints()
  }

  /** Main's connection checkpoints in its commits again (the write's end, or the thread failed). */
  private mainCheckpoints(): void {
    try {
      this.db.exec(`PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT}`)
    } catch {
      // a damaged file: the next open rebuilds it (and sets the pragma)
    }
  }

  /** The thread failed: no more checkpoints on it, main's commits make them for the rest of the write. */
  private fail(): void {
    if (this.failed) return
    this.failed = true
    this.mainCheckpoints()
  }

  private start(): void {
    const worker = new Worker(THREAD, { eval: true, workerData: { driver: DRIVER, file: this.file } })
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()))
    worker.on('error', () => this.fail())
    this.worker = worker
    this.db.exec('PRAGMA wal_autocheckpoint = 0')
  }

  /** One checkpoint on the thread; a failure (or the thread's end) only stops the next ones. */
  private checkpoint(): Promise<void> {
    const worker = this.worker
    if (!worker) return Promise.resolve()
    return new Promise<void>((resolve) => {
      const done = (a: Answer | null) => {
        worker.off('message', done)
        worker.off('exit', gone)
        if (a?.ok) this.onCheckpoint?.()
        else this.fail()
        resolve()
      }
      const gone = () => done(null)
      worker.once('message', done)
      worker.once('exit', gone)
      worker.postMessage('checkpoint')
    })
  }
}
