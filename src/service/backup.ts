/**
 * Backups of service.db and what happens to a damaged one.
 *
 * - A backup is an online, consistent copy made with `VACUUM INTO` (libsql's driver has no
 *   backup API: `db.backup()` throws "not implemented"), written as a temp file and renamed, mode
 *   0600, in `<data>/backups/` (0700), named `service-<UTC time>.db`. The last `keep` are kept.
 *   A copy identical to the newest backup is dropped, so restarts without changes do not rotate
 *   the older backups away.
 * - The copy and the comparison run on a worker thread with a connection of its own: the service's
 *   thread (in the app, Electron's main process) keeps answering meanwhile. On that thread they
 *   took ~0.1 s for a 7.8 MB database (10,000 agents) and 0.35-1.0 s for 60-78 MB (100,000). So
 *   does the check of a large database before it is opened (checkLargeDatabase).
 * - A damaged database is never deleted: it is renamed `service.db.damaged-<time>` (with its
 *   -wal / -shm files) and the caller is told, with the newest backup to offer.
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { copyFile, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { assertQuickCheck } from './db'
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

/**
 * Work done on a worker thread, so the service's thread (in the app, Electron's main process) keeps
 * answering meanwhile: checking a large database before it is opened, and making a backup. Each
 * script is plain CommonJS given as text, so it runs alike from the TypeScript sources (tests, the
 * CLI) and from the app's bundle, which has no file of its own to point a Worker at. It gets the
 * SQLite driver's entry file (the one the service loads) in `job.driver`, and `run(work)` posts
 * what `work` returns, or the message and SQLite code of what it threw.
 */
const THREAD_PRELUDE = `
const { parentPort, workerData: job } = require('node:worker_threads')
const fs = require('node:fs')
const Database = require(job.driver)
function open(file) {
  // The driver has no read-only mode (it ignores the option) and would create a missing file.
  if (!fs.existsSync(file)) throw new Error('there is no database at ' + file)
  const db = new Database(file)
  db.exec('PRAGMA busy_timeout = 5000')
  return db
}
function run(work) {
  let answer
  try {
    answer = { ok: true, value: work() }
  } catch (e) {
    answer = { ok: false, message: String((e && e.message) || e), code: String((e && e.code) || '') }
  }
  parentPort.postMessage(answer)
}
`

/** `PRAGMA quick_check` of `job.file`; answers its rows. */
const CHECK_THREAD = `${THREAD_PRELUDE}
run(() => {
  const db = open(job.file)
  try {
    return db.prepare('PRAGMA quick_check').all().map((row) => ({ quick_check: row.quick_check }))
  } finally {
    db.close()
  }
})
`

/**
 * `VACUUM INTO job.tmp` on a connection of its own (a consistent snapshot; in WAL mode it neither
 * waits for the service's writes nor holds them up, and writes nothing), then the copy compared
 * with the newest backup (sizes first, then 1 MiB at a time); answers whether they are the same
 * (and then has removed the copy).
 */
const COPY_THREAD = `${THREAD_PRELUDE}
function sameBytes(a, b) {
  if (fs.statSync(a).size !== fs.statSync(b).size) return false
  const fa = fs.openSync(a, 'r')
  const fb = fs.openSync(b, 'r')
  const ba = Buffer.alloc(1 << 20)
  const bb = Buffer.alloc(1 << 20)
  try {
    for (;;) {
      const n = fs.readSync(fa, ba, 0, ba.length, null)
      const m = fs.readSync(fb, bb, 0, bb.length, null)
      if (n !== m || !ba.subarray(0, n).equals(bb.subarray(0, m))) return false
      if (n === 0) return true
    }
  } finally {
    fs.closeSync(fa)
    fs.closeSync(fb)
  }
}
run(() => {
  const db = open(job.file)
  try {
    db.exec("VACUUM INTO '" + job.tmp.replace(/'/g, "''") + "'")
  } finally {
    db.close()
  }
  fs.chmodSync(job.tmp, job.mode)
  const same = job.newest !== null && sameBytes(job.newest, job.tmp)
  // Unlinking a large file takes its time too (~50 ms for 60 MB on ext4).
  if (same) fs.rmSync(job.tmp, { force: true })
  return same
})
`

const DRIVER = createRequire(import.meta.url).resolve('libsql')

type ThreadAnswer = { ok: true; value: unknown } | { ok: false; message: string; code: string }

/** Runs one of the scripts above on a new worker thread with `job`; resolves to what it answers. */
function onThread<T>(script: string, job: Record<string, unknown>): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { eval: true, workerData: { driver: DRIVER, ...job } })
    let answer: ThreadAnswer | null = null
    worker.once('message', (a: ThreadAnswer) => (answer = a))
    worker.once('error', reject)
    worker.once('exit', (code) => {
      if (!answer) reject(new Error(`the worker thread stopped (exit code ${code})`))
      else if (answer.ok) resolve(answer.value as T)
      else reject(Object.assign(new Error(answer.message), answer.code ? { code: answer.code } : {}))
    })
  })
}

/**
 * From this size (the file and its WAL) a database is checked on a worker thread before it is
 * opened. At 16 MiB, a Local workspace of 10,000 agents (~10 MB) was checked on main at each start:
 * 40–55 ms of main's loop in the bench, its longest block there.
 */
export const CHECK_ON_THREAD_BYTES = 1024 * 1024

/**
 * `PRAGMA quick_check` reads the whole file: ~13 ms for 7.8 MB (10,000 agents) on an idle machine,
 * ~105 ms for 60 MB (100,000) on the thread that runs it. When `file` and its WAL hold at least `fromBytes`, checks it
 * on a worker thread and resolves true (openDatabase need not check again); else resolves false
 * (a small or missing file: openDatabase checks it). Throws what the check found wrong.
 */
export async function checkLargeDatabase(file: string, fromBytes = CHECK_ON_THREAD_BYTES): Promise<boolean> {
  const size = (f: string) => (existsSync(f) ? statSync(f).size : 0)
  if (!existsSync(file) || size(file) + size(`${file}-wal`) < fromBytes) return false
  await checkOnThread(file)
  return true
}

/** Rejects unless `file` opens as SQLite and passes `PRAGMA quick_check` (run on a worker thread). */
async function checkOnThread(file: string): Promise<void> {
  assertQuickCheck(await onThread<{ quick_check?: unknown }[]>(CHECK_THREAD, { file }))
}

/**
 * Copies the database file `dbFile` (open or not) into backups/ on a worker thread and drops the
 * oldest beyond `keep`. Resolves to the new backup, or null when it equals the newest one (nothing
 * changed since). Calls must not overlap (the service runs them one after another).
 */
export async function makeBackup(
  dbFile: string,
  dataDir: string,
  keep = BACKUP_KEEP,
  now = new Date()
): Promise<BackupInfo | null> {
  const dir = backupsDir(dataDir)
  privateDir(dir)
  const name = `service-${stamp(now)}.db`
  const tmp = join(dir, `.${name}.tmp`)
  rmSync(tmp, { force: true })
  const newest = listBackups(dataDir)[0]
  let same: boolean
  try {
    same = await onThread<boolean>(COPY_THREAD, {
      file: dbFile,
      tmp,
      mode: PRIVATE_FILE_MODE,
      newest: newest ? join(dir, newest.name) : null
    })
  } catch (e) {
    await rm(tmp, { force: true })
    throw e
  }
  if (same) return null
  renameSync(tmp, join(dir, name))
  // Not rmSync: unlinking each old copy would hold this thread as long (libuv's pool does it).
  for (const old of listBackups(dataDir).slice(keep)) await rm(join(dir, old.name), { force: true })
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

/**
 * Puts a backup in place of service.db. The service must be stopped. The current database is
 * moved aside (`service.db.before-restore-<time>`), never deleted. Rejects when the name is not
 * one of listBackups() or the backup itself is damaged (then nothing is changed). The backup is
 * checked on a worker thread and copied by libuv's pool: a 60 MB one would hold the caller's
 * thread for ~100 ms each.
 */
export async function restoreBackup(dataDir: string, name: string): Promise<{ movedAside: string | null }> {
  if (!NAME_RE.test(name) || !listBackups(dataDir).some((b) => b.name === name)) {
    throw new Error(`There is no backup named ${name}`)
  }
  const source = join(backupsDir(dataDir), name)
  await checkOnThread(source)
  const file = join(dataDir, DB_FILE)
  const movedAside = existsSync(file) ? moveAside(file, 'before-restore') : null
  await copyFile(source, file)
  secureDbFiles(file)
  return { movedAside }
}
