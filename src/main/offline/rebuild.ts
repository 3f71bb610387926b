/**
 * A cache file that cannot be used (damaged, or of another schema version) moved aside and started
 * afresh, never fatally: its queued edits salvaged when they can be read, and, where the file
 * cannot be moved (Windows, while a connection holds it), the store kept in memory for the run.
 */
import { existsSync, renameSync, rmSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'libsql'
import { ensurePrivateDir, SQLITE_FILE_SUFFIXES } from '../privateFiles'
import { columnsOf, type Db, markForRebuild, openChecked, rebuildMarker, writeTransaction } from './db'

export interface SalvagedEntry {
  id: string
  channel: string
  label: string
  input: string | null
  created_at: string
  status: string
  error: string | null
  attempts: number
  temp_id: string | null
  extra: string | null
}

/**
 * Best effort: queued edits of a file we are about to move aside (older/newer schema with a
 * compatible outbox table, or a file that is only partly damaged). Never throws.
 */
export function salvageOutbox(file: string): SalvagedEntry[] {
  if (!existsSync(file)) return []
  let db: Db | null = null
  try {
    db = new Database(file, { readonly: true })
    const cols = columnsOf(db, 'outbox')
    for (const c of ['id', 'channel', 'label', 'input', 'created_at']) if (!cols.has(c)) return []
    const opt = (c: string, fallback: string) => (cols.has(c) ? c : `${fallback} AS ${c}`)
    const rows = db
      .prepare(
        `SELECT id, channel, label, input, created_at, ${opt('status', "'pending'")}, ${opt('error', 'NULL')},
                ${opt('attempts', '0')}, ${opt('temp_id', 'NULL')}, ${opt('extra', 'NULL')} FROM outbox ORDER BY ${cols.has('seq') ? 'seq' : 'rowid'}`
      )
      .raw(true)
      .all() as unknown[][]
    const out: SalvagedEntry[] = []
    for (const r of rows) {
      const [id, channel, label, input, createdAt, status, error, attempts, tempId, extra] = r
      if (typeof id !== 'string' || typeof channel !== 'string' || typeof label !== 'string') continue
      out.push({
        id,
        channel,
        label,
        input: typeof input === 'string' ? input : null,
        created_at: typeof createdAt === 'string' ? createdAt : new Date().toISOString(),
        // An entry that may already be on the server stays so (never silently sent again).
        status: status === 'failed' || status === 'uncertain' || status === 'conflict' ? status : 'pending',
        error: typeof error === 'string' ? error : null,
        attempts: Number(attempts) || 0,
        temp_id: typeof tempId === 'string' ? tempId : null,
        extra: typeof extra === 'string' ? extra : null
      })
    }
    return out
  } catch {
    return []
  } finally {
    try {
      db?.close()
    } catch {
      // ignore
    }
  }
}

/** What `moveAside` does to files: node:fs's, or a test's. */
export interface AsideOps {
  rename(from: string, to: string): void
  remove(file: string): void
}
const fsOps: AsideOps = { rename: renameSync, remove: (f) => rmSync(f, { force: true }) }

/**
 * Renames the file (and its -wal/-shm companions) to `*.corrupt-<ts>`, deleting those that cannot
 * be renamed. Returns the new name, or null when some file could be neither renamed nor deleted
 * (on Windows, a file still open: SQLite shares none for deletion): then the rebuild marker stays.
 */
export function moveAside(file: string, ops: AsideOps = fsOps): string | null {
  const ts = new Date().toISOString().replace(/[:.]/g, '-')
  const target = `${file}.corrupt-${ts}`
  let stuck = false
  for (const suffix of SQLITE_FILE_SUFFIXES) {
    const from = file + suffix
    if (!existsSync(from)) continue
    try {
      ops.rename(from, target + suffix)
    } catch {
      try {
        ops.remove(from)
      } catch {
        stuck = true
      }
    }
  }
  if (stuck) return null
  rmSync(rebuildMarker(file), { force: true })
  return target
}

export interface OpenResult {
  db: Db
  rebuilt: boolean
  /** True when even a fresh file could not be created and the store lives in memory for this run. */
  memory: boolean
}

/** The file opened, or null when it must be rebuilt (its marker, or it failed its checks). */
function openUnlessDamaged(file: string): Db | null {
  ensurePrivateDir(dirname(file))
  if (existsSync(rebuildMarker(file))) return null
  try {
    return openChecked(file)
  } catch {
    return null
  }
}

/** Opens the file, rebuilding it if needed. Never throws for a bad file. */
export function openOrRebuild(file: string, ops: AsideOps = fsOps): OpenResult {
  const db = openUnlessDamaged(file)
  return db ? { db, rebuilt: false, memory: false } : rebuild(file, salvageOutbox(file), ops)
}

/**
 * As `openOrRebuild`, with `letGo` awaited between reading a damaged file and moving it aside:
 * the driver holds the file until the collector takes the statements those reads prepared
 * (storeFiles.ts), and Windows renames no open file.
 */
export async function openOrRebuildLettingGo(file: string, letGo: () => Promise<void>): Promise<OpenResult> {
  const db = openUnlessDamaged(file)
  if (db) return { db, rebuilt: false, memory: false }
  const salvaged = salvageOutbox(file)
  await letGo()
  return rebuild(file, salvaged)
}

/**
 * A fresh file in place of a damaged one, which is moved aside, holding `salvaged`. Where the
 * damaged file cannot be moved, the store lives in memory for this run and the file, with its
 * queued edits, is kept for the next open, which rebuilds it (its marker): those edits are not
 * copied into the store in memory, where they would be sent once now and again after that rebuild.
 */
function rebuild(file: string, salvaged: SalvagedEntry[], ops: AsideOps = fsOps): OpenResult {
  if (moveAside(file, ops) === null) {
    markForRebuild(file)
    return { db: openChecked(':memory:'), rebuilt: true, memory: true }
  }
  let db: Db
  let memory = false
  try {
    db = openChecked(file)
  } catch {
    db = openChecked(':memory:')
    memory = true
  }
  if (salvaged.length > 0) {
    const insert = db.prepare(
      `INSERT OR IGNORE INTO outbox (id, channel, label, input, created_at, status, error, attempts, temp_id, extra)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
    )
    writeTransaction(db, () => {
      for (const s of salvaged) {
        insert.run(
          s.id,
          s.channel,
          s.label,
          s.input,
          s.created_at,
          s.status,
          s.error,
          s.attempts,
          s.temp_id,
          s.extra
        )
      }
    })
  }
  return { db, rebuilt: true, memory }
}
