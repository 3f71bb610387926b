/**
 * SQLite storage for the embedded service: opening the database file, pragmas and migrations.
 * Uses libsql's better-sqlite3-compatible synchronous API. The tables themselves are declared
 * by the resource modules (`resources/*.ts`), each as its part of a numbered migration.
 */
import Database from 'libsql'

export type Db = InstanceType<typeof Database>

/** A module's DDL by schema version: `{ 1: 'CREATE TABLE …' }`; a later change adds `2: 'ALTER …'`. */
export type Migrations = Readonly<Record<number, string>>

/**
 * Joins the modules' parts into ordered migrations (index + 1 is the schema version a
 * migration brings the database to); within a version, modules come in the order given.
 */
export function composeMigrations(parts: readonly Migrations[]): string[] {
  const last = Math.max(0, ...parts.flatMap((p) => Object.keys(p).map(Number)))
  const out: string[] = []
  for (let v = 1; v <= last; v++) out.push(parts.map((p) => p[v] ?? '').join(''))
  return out
}

function currentVersion(db: Db): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)')
  const row = db.prepare('SELECT version FROM schema_version LIMIT 1').get() as
    { version: number } | undefined
  if (!row) {
    db.prepare('INSERT INTO schema_version (version) VALUES (0)').run()
    return 0
  }
  return Number(row.version)
}

/**
 * Opens (creating if needed) the database file, checks it (`PRAGMA quick_check`), sets pragmas
 * and applies pending migrations. On failure the file is closed again and the error thrown (a
 * damaged file fails here, with SQLITE_NOTADB or SQLITE_CORRUPT, not on a later request).
 */
export function openDatabase(file: string, migrations: readonly string[], busyTimeoutMs = 5000): Db {
  const db = new Database(file)
  try {
    prepare(db, migrations, busyTimeoutMs)
  } catch (e) {
    if (db.open) db.close()
    throw e
  }
  return db
}

function prepare(db: Db, migrations: readonly string[], busyTimeoutMs: number) {
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`)
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA foreign_keys = ON')
  db.exec('PRAGMA synchronous = NORMAL')
  const check = db.prepare('PRAGMA quick_check').all() as { quick_check?: unknown }[]
  if (check.length !== 1 || check[0]?.quick_check !== 'ok') {
    throw Object.assign(new Error(`database disk image is malformed (${String(check[0]?.quick_check)})`), {
      code: 'SQLITE_CORRUPT'
    })
  }
  const version = currentVersion(db)
  if (version > migrations.length) {
    db.close()
    throw new Error(`Database schema version ${version} is newer than this service (${migrations.length})`)
  }
  for (let v = version; v < migrations.length; v++) {
    const sql = migrations[v] as string
    const apply = db.transaction(() => {
      db.exec(sql)
      db.prepare('UPDATE schema_version SET version = ?').run(v + 1)
    })
    apply()
  }
}
