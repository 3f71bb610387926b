/**
 * A closed store's files deleted (a sign-out that clears the cache, storeClosings.ts).
 *
 * The driver (libsql 0.5) does not close a connection's file at `close()` while any statement it
 * prepared is alive: the statements hold the connection, and SQLite closes it when the garbage
 * collector has taken the last of them, in a task on main (tursodatabase/libsql-js#228; fixed
 * upstream by #236, in no release yet). Every store prepares statements, so its files stay open
 * until some later collection, and the last close of a deleted file frees its blocks: that close
 * held main 150–210 ms for the 168 MB file of 100,000 agents (strace: main's `close` of the
 * deleted file, right after a collection; 2026-11-30). So the file and its log are first cut to
 * nothing here, off main (the pool's threads), and the late close finds nothing to free. Not the
 * shared memory: SQLite has it mapped, and a mapped file cut short faults whoever reads it. Safe
 * for SQLite: a closing connection whose file was moved or deleted neither checkpoints nor deletes
 * the log (pager.c, `databaseIsUnmoved`), and one that finds the log empty has nothing to copy.
 * Windows deletes no open file whatever its size: there the closed store's statements, let go at
 * its close (db.ts, `closeDb`), are collected first, now, so that the driver closes its files, and
 * the files are deleted then.
 */
import { rm, truncate } from 'node:fs/promises'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { SQLITE_FILE_SUFFIXES } from '../privateFiles'

let collector: (() => void) | undefined

/**
 * A full collection now: V8's `gc`, reached by turning its flag on for as long as it takes to make
 * a context that has it. Electron's main process cannot be given V8 flags at its start, and lets
 * them change after (it starts V8 with `--no-freeze-flags-after-init`, as Node does).
 */
function collectGarbage(): void {
  if (!collector) {
    const exposed = (globalThis as { gc?: () => void }).gc
    if (exposed) collector = exposed
    else {
      setFlagsFromString('--expose-gc')
      try {
        collector = runInNewContext('gc') as () => void
      } finally {
        setFlagsFromString('--no-expose-gc')
      }
    }
  }
  collector()
}

/**
 * The driver's finalizers run in tasks after the collection, not in it (the file is still open
 * right after `gc()`, closed a task later): this leaves them a few.
 */
const FINALIZERS_MS = 10

/**
 * Lets the driver close the files of closed stores whose statements nothing holds (`closeDb`): a
 * full collection takes the statements, and the driver's finalizers close the connections in the
 * tasks that follow it. Holds main for the collection (tens of ms with a large cache in memory).
 */
export async function releaseClosedFiles(): Promise<void> {
  collectGarbage()
  await new Promise<void>((resolve) => setTimeout(resolve, FINALIZERS_MS))
}

/**
 * Deletes a closed store's files (its log and shared memory too), off the event loop. `platform`:
 * whose way, this machine's unless a test says otherwise.
 */
export async function removeStoreFiles(file: string, platform = process.platform): Promise<void> {
  const windows = platform === 'win32'
  if (windows) await releaseClosedFiles()
  else
    await Promise.all(
      [file, `${file}-wal`].map((f) =>
        truncate(f, 0).catch((e: unknown) => {
          if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
        })
      )
    )
  // On Windows, a file another program has open (an antivirus scan) is tried again a few times.
  const retries = windows ? { maxRetries: 5, retryDelay: 100 } : {}
  await Promise.all(SQLITE_FILE_SUFFIXES.map((suffix) => rm(file + suffix, { force: true, ...retries })))
}
