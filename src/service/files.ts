/**
 * The service's folder and database files: the folder 0700, the database and its -wal / -shm
 * files 0600 (they hold the password hashes, API tokens and, for the CLI, the signing secret).
 * A folder that cannot be used is a clear error at once (Node's recursive mkdir spins forever
 * under /proc, so folders are made one level at a time).
 */
import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  statSync
} from 'node:fs'
import { dirname, resolve } from 'node:path'

export class DataDirError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DataDirError'
  }
}

const DIR_MODE = 0o700
const FILE_MODE = 0o600
const isWindows = process.platform === 'win32'

function reason(e: unknown): string {
  const code = (e as { code?: unknown })?.code
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied'
  if (code === 'EROFS') return 'the file system is read-only'
  if (code === 'ENOTDIR') return 'a part of the path is a file, not a folder'
  if (code === 'ENOENT') return 'it cannot be created there'
  return e instanceof Error ? e.message : String(e)
}

/**
 * Makes sure `dir` is a folder this process can read and write, creating it (and missing
 * parents) with mode 0700 and tightening an existing one to 0700. Throws DataDirError.
 */
export function prepareDataDir(dir: string): void {
  const target = resolve(dir)
  const missing: string[] = []
  let at = target
  while (!existsSync(at)) {
    missing.unshift(at)
    const up = dirname(at)
    if (up === at) break
    at = up
  }
  const fail = (why: string): never => {
    throw new DataDirError(`The data folder ${target} cannot be used: ${why}`)
  }
  try {
    if (!statSync(at).isDirectory()) fail(`${at} is a file, not a folder`)
  } catch (e) {
    if (e instanceof DataDirError) throw e
    fail(reason(e))
  }
  for (const d of missing) {
    try {
      mkdirSync(d, { mode: DIR_MODE })
    } catch (e) {
      fail(reason(e))
    }
  }
  try {
    accessSync(target, constants.R_OK | constants.W_OK | constants.X_OK)
  } catch (e) {
    fail(reason(e))
  }
  if (!isWindows) {
    try {
      chmodSync(target, DIR_MODE)
    } catch (e) {
      fail(`its permissions cannot be set to 0700 (${reason(e)})`)
    }
  }
}

/** Creates `file` empty with mode 0600 if missing; sets 0600 on it and its -wal / -shm files. */
export function secureDbFiles(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', FILE_MODE))
  if (isWindows) return
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    try {
      chmodSync(f, FILE_MODE)
    } catch (e) {
      if ((e as { code?: unknown })?.code !== 'ENOENT') throw e
    }
  }
}

/** Makes a folder (0700) inside the data folder, e.g. backups/. */
export function privateDir(dir: string): void {
  if (!existsSync(dir)) mkdirSync(dir, { mode: DIR_MODE })
  if (!isWindows) chmodSync(dir, DIR_MODE)
}

export const PRIVATE_FILE_MODE = FILE_MODE
