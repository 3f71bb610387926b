/**
 * A store's last checkpoint and close, on a thread: main makes no sync to disk when a session ends.
 *
 * Closing a store folds its write-ahead log back into the file (`PRAGMA wal_checkpoint(TRUNCATE)`:
 * the file synced, the log cut to nothing), so the next open reads one compact file. On main that
 * waits for the disk: a sync each, 40–130 ms when another program keeps it busy (checkpoints.ts).
 * Here a worker thread opens a connection of its own first; main then closes its connection, which
 * (not the last one open) neither checkpoints nor deletes the log; the thread checkpoints and
 * closes. Where the thread cannot open the file, main closes as before. (The driver closes main's
 * connection only once the collector has taken its statements, storeFiles.ts: the last close,
 * which removes the emptied log, is then that one, later, and has nothing left to copy.)
 */
import type { Worker } from 'node:worker_threads'
import { BUSY_TIMEOUT_MS } from './db'
import { dbThread } from './dbThread'

/** After dbThread's start: 'open', then at main's word (its connection closed) a checkpoint and the close. */
const THREAD = `
parentPort.once('message', () => {
  try {
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  } catch {
    // a damaged file still closes; the next open rebuilds it
  }
  db.close()
  parentPort.close()
})
parentPort.postMessage('open')
`

/**
 * Closes the store of `file`: `closeMain` (main's connections closed, no checkpoint) once the
 * thread holds the file open, then the thread's checkpoint and close. Where the thread fails
 * before that (no file there: dbThread's start ends it), `closeHere` (main's checkpoint and
 * close, as before). Resolves once every connection is closed (main's, as far as the driver
 * lets it: storeFiles.ts); never rejects for the checkpoint.
 */
export function closeOnThread(file: string, closeMain: () => void, closeHere: () => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let mainClosed = false
    let failure: unknown = null
    let worker: Worker
    try {
      worker = dbThread(THREAD, file, BUSY_TIMEOUT_MS)
    } catch {
      closeHere()
      resolve()
      return
    }
    const ended = () => {
      if (!mainClosed) {
        // The thread never held the file: main closes it as before.
        mainClosed = true
        try {
          closeHere()
        } catch (e) {
          failure = e
        }
      }
      if (failure) reject(failure)
      else resolve()
    }
    worker.once('message', () => {
      try {
        closeMain()
      } catch (e) {
        failure = e
      }
      mainClosed = true
      worker.postMessage('close')
    })
    worker.once('error', ended)
    worker.once('exit', ended)
  })
}
