/**
 * The app's files are the user's alone: the folders it creates (user data, caches, logs, the
 * Local workspace's folder) are 0700 and its databases, settings and profile files 0600, whatever
 * the umask. Existing ones from an older version are tightened when the app opens them. (Windows
 * has no such modes: a user's profile folder is private there already; these calls do nothing.)
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs'
import { chmod, mkdir } from 'node:fs/promises'

export const PRIVATE_DIR_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600
/** A SQLite database's files: itself and its companions (write-ahead log, shared memory, journal). */
export const SQLITE_FILE_SUFFIXES = ['', '-wal', '-shm', '-journal'] as const

const posix = process.platform !== 'win32'

function tighten(path: string, mode: number): void {
  if (!posix) return
  try {
    chmodSync(path, mode)
  } catch {
    // not ours to change (another owner): the open that follows reports what matters
  }
}

/** Creates `dir` (and missing parents) 0700; an existing `dir` is set to 0700. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
  tighten(dir, PRIVATE_DIR_MODE)
}

/** The same off main's event loop (a change of mode waits for the file system's journal). */
export async function ensurePrivateDirAsync(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
  if (posix) await chmod(dir, PRIVATE_DIR_MODE).catch(() => undefined)
}

/**
 * Before SQLite opens `file`: creates it empty with 0600 when missing (SQLite gives its -wal and
 * -shm files the database's own mode, so they are 0600 too), and sets an existing file and its
 * companions to 0600.
 */
export function preparePrivateDb(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', PRIVATE_FILE_MODE))
  for (const suffix of SQLITE_FILE_SUFFIXES) {
    if (existsSync(file + suffix)) tighten(file + suffix, PRIVATE_FILE_MODE)
  }
}

/** Sets an existing file to 0600 (a file another library created). */
export function tightenFile(file: string): void {
  if (existsSync(file)) tighten(file, PRIVATE_FILE_MODE)
}
