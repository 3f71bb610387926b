/**
 * A housekeeping thread with a connection of its own to a store's file: a long write's checkpoints
 * (checkpoints.ts) and a store's last checkpoint and close (closeThread.ts). Its script runs after
 * OPEN, which gives it `parentPort`, `workerData`, `fs` and `db`.
 */
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

const DRIVER = createRequire(import.meta.url).resolve('libsql')

/**
 * The thread's start: it ends at once where the file is not there (SQLite would create it), yields
 * the CPU to main where the system lets a thread have its own priority (Linux: on two cores such a
 * thread took main's turn, blocks of 94 ms, 64 of it waiting), and opens `db`, waiting up to
 * `workerData.busyMs` for a lock.
 */
const OPEN = `
const { parentPort, workerData } = require('node:worker_threads')
const fs = require('node:fs')
if (!fs.existsSync(workerData.file)) throw new Error('there is no database at ' + workerData.file)
try {
  const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop())
  if (tid > 0) require('node:os').setPriority(tid, 10)
} catch {}
const Database = require(workerData.driver)
const db = new Database(workerData.file)
db.exec('PRAGMA busy_timeout = ' + workerData.busyMs)
`

/** A thread running `script` on a connection of its own to `file` (throws where none can start). */
export function dbThread(script: string, file: string, busyMs: number): Worker {
  return new Worker(OPEN + script, { eval: true, workerData: { driver: DRIVER, file, busyMs } })
}
