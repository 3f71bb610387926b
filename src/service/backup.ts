/**
 * Backups of service.db and what happens to a damaged one.
 *
 * - A backup is an online, consistent copy made with `VACUUM INTO` (libsql's driver has no
 *   backup API: `db.backup()` throws "not implemented"), written as a temp file and renamed, mode
 *   0600, in `<data>/backups/` (0700), named `service-<UTC time>.db`. The last `keep` are kept.
 *   A copy identical to the newest backup is dropped, so restarts without changes do not rotate
 *   the older backups away.
 * - A damaged database is never deleted: it is renamed `service.db.damaged-<time>` (with its
 *   -wal / -shm files) and the caller is told, with the newest backup to offer.
 */
import { createHash } from 'node:crypto'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync
} from 'node:fs'
import { join } from 'node:path'
import Database from 'libsql'
import type { Connection } from './db'
import { PRIVATE_FILE_MODE, privateDir, secureDbFiles } from './files'

export const DB_FILE = 'service.db'
export const BACKUP_KEEP = 7
export const BACKUP_EVERY_MS = 24 * 60 * 60 * 1000
const NAME_RE = /^service-(\d{8}T\d{9}Z)\.db$/

export interface BackupInfo {
  /** The file name in backups/ (what restore takes). */
  name: string
  /** When it was made (ISO 8601). */
  createdAt: string
  bytes: number
}

/** What the service did with a database it could not open. */
export interface DamageNotice {
  /** Why it could not be opened, e.g. "file is not a database". */
  error: string
  /** Where the damaged file now is. */
  movedTo: string
  at: string
  /** The newest backup, to offer for restoring; null when there is none. */
  newestBackup: BackupInfo | null
}

export const backupsDir = (dataDir: string) => join(dataDir, 'backups')

/** `20261123T220700123Z` */
export function stamp(d: Date): string {
  return d.toISOString().replace(/[-:.]/g, '')
}

function createdAtOf(name: string): string {
  const s = NAME_RE.exec(name)?.[1] ?? ''
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}.${s.slice(15, 18)}Z`
}

/** The backups, newest first. */
export function listBackups(dataDir: string): BackupInfo[] {
  const dir = backupsDir(dataDir)
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((n) => NAME_RE.test(n))
    .sort()
    .reverse()
    .map((name) => ({ name, createdAt: createdAtOf(name), bytes: statSync(join(dir, name)).size }))
}

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

/**
 * Copies the open database into backups/ and drops the oldest beyond `keep`. Returns the new
 * backup, or null when it equals the newest one (nothing changed since).
 */
export function makeBackup(
  db: Connection,
  dataDir: string,
  keep = BACKUP_KEEP,
  now = new Date()
): BackupInfo | null {
  const dir = backupsDir(dataDir)
  privateDir(dir)
  const name = `service-${stamp(now)}.db`
  const tmp = join(dir, `.${name}.tmp`)
  rmSync(tmp, { force: true })
  db.exec(`VACUUM INTO '${tmp.replace(/'/g, "''")}'`)
  chmodSync(tmp, PRIVATE_FILE_MODE)
  const newest = listBackups(dataDir)[0]
  if (newest && digest(join(dir, newest.name)) === digest(tmp)) {
    rmSync(tmp, { force: true })
    return null
  }
  renameSync(tmp, join(dir, name))
  for (const old of listBackups(dataDir).slice(keep)) rmSync(join(dir, old.name), { force: true })
  return listBackups(dataDir).find((b) => b.name === name) ?? null
}

/** True for errors that mean the file is not a usable SQLite database. */
export function isDamage(e: unknown): boolean {
  const code = String((e as { code?: unknown })?.code ?? '')
  const message = e instanceof Error ? e.message : String(e)
  return (
    code.startsWith('SQLITE_NOTADB') ||
    code.startsWith('SQLITE_CORRUPT') ||
    /file is not a database|malformed|file is encrypted/i.test(message)
  )
}

/** Renames `file` and its -wal / -shm to `<file>.<label>-<time>[-wal|-shm]`; returns the new name. */
export function moveAside(file: string, label: string, now = new Date()): string {
  const target = `${file}.${label}-${stamp(now)}`
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(file + suffix)) renameSync(file + suffix, target + suffix)
  }
  renameSync(file, target)
  return target
}

/** Throws unless `file` opens as SQLite and passes quick_check. */
export function checkDatabase(file: string): void {
  const db = new Database(file, { readonly: true })
  try {
    const rows = db.prepare('PRAGMA quick_check').all() as { quick_check?: unknown }[]
    const first = rows[0]?.quick_check
    if (rows.length !== 1 || first !== 'ok') {
      throw Object.assign(new Error(`database disk image is malformed (${String(first)})`), {
        code: 'SQLITE_CORRUPT'
      })
    }
  } finally {
    db.close()
  }
}

/**
 * Puts a backup in place of service.db. The service must be stopped. The current database is
 * moved aside (`service.db.before-restore-<time>`), never deleted. Throws when the name is not
 * one of listBackups() or the backup itself is damaged (then nothing is changed).
 */
export function restoreBackup(dataDir: string, name: string): { movedAside: string | null } {
  if (!NAME_RE.test(name) || !listBackups(dataDir).some((b) => b.name === name)) {
    throw new Error(`There is no backup named ${name}`)
  }
  const source = join(backupsDir(dataDir), name)
  checkDatabase(source)
  const file = join(dataDir, DB_FILE)
  const movedAside = existsSync(file) ? moveAside(file, 'before-restore') : null
  copyFileSync(source, file)
  secureDbFiles(file)
  return { movedAside }
}
