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
 * Not on Windows, which deletes no open file whatever its size: there the files are deleted once
 * closed, as before.
 */
import { rm, truncate } from 'node:fs/promises'
import { SQLITE_FILE_SUFFIXES } from '../privateFiles'

/** Deletes a closed store's files (its log and shared memory too), off the event loop. */
export async function removeStoreFiles(file: string): Promise<void> {
  if (process.platform !== 'win32')
    await Promise.all(
      [file, `${file}-wal`].map((f) =>
        truncate(f, 0).catch((e: unknown) => {
          if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
        })
      )
    )
  await Promise.all(SQLITE_FILE_SUFFIXES.map((suffix) => rm(file + suffix, { force: true })))
}
