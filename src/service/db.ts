/**
 * SQLite storage for the embedded service: opening the database file, pragmas and migrations.
 * Uses libsql's better-sqlite3-compatible synchronous API. The tables themselves are declared
 * by the resource modules (`resources/*.ts`), each as its part of a numbered migration.
 */
import { closeSync, openSync, readSync } from 'node:fs'
import Database from 'libsql'

/** A libsql connection. */
export type Connection = InstanceType<typeof Database>
/** A prepared statement of a connection. */
export type Statement = ReturnType<Connection['prepare']>

/**
 * The service's connection: libsql's, plus what its in-memory caches need to know whether the
 * database may have changed since they read it.
 */
export type Db = Connection & DbChanges

export interface DbChanges {
  /**
   * Bumped before every `run()` of a prepared statement and every `exec()` on this connection
   * (every change is made with one of them: rows are only read with `get` / `all`).
   */
  readonly ownWrites: number
  /**
   * Bumped after every `run()` that changed a row and before every `exec()` (a script may change
   * rows and then fail). A statement that fails changes nothing (SQLite undoes its part), so
   * work that failed with this unchanged since it began left nothing behind to undo.
   */
  readonly rowWrites: number
  /**
   * This connection's writes that may have changed rows of `table`: each `run()` of a statement
   * that writes it (INSERT / REPLACE INTO, UPDATE, DELETE FROM naming it), plus every write whose
   * table is not known (an `exec()`, a `run()` of any other statement, ROLLBACK included; not
   * BEGIN, COMMIT, SAVEPOINT or RELEASE, which change no row, unless they fail), and every
   * statement that failed. Rows that a change of another table takes with it (ON DELETE
   * CASCADE) count there: ask for that table too.
   */
  writesTo(table: string): number
  /**
   * A number that changes whenever another connection to the file has committed (it may also
   * change on this connection's commits and on checkpoints). Read at most once per synchronous
   * run of JavaScript (one request's checks share it), and afresh after.
   *
   * How: every commit in WAL mode, by any connection, rewrites the WAL-index header, the first
   * 48 bytes of `<db>-shm` (documented in https://sqlite.org/walformat.html: its `iChange`
   * counter and `mxFrame` change on each commit), and only then returns to its caller. Reading
   * those bytes is one pread (~2 µs); SQLite's own `PRAGMA data_version` reads the same header
   * but costs a whole read transaction (~20 µs: two lock syscalls and the driver's overhead).
   * On Windows a read of a file is not guaranteed to see what another process wrote into its
   * mapping (SQLite maps `-shm`), and without WAL there is no `-shm`: there, data_version it is.
   */
  foreignVersion(): number
  /**
   * For a write transaction that holds the write lock (after `BEGIN IMMEDIATE`): takes note of
   * other connections' commits up to now, and returns what to call once it has committed, which
   * takes this connection's own commit as seen (no other connection can commit while the lock
   * is held), so it does not count as another connection's.
   */
  writeLocked(): () => void
}

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

function currentVersion(db: Connection): number {
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
export function openDatabase(
  file: string,
  migrations: readonly string[],
  busyTimeoutMs = 5000,
  /** `PRAGMA quick_check` already passed just before (on a worker thread: backup.ts checkOnThread). */
  checked = false
): Db {
  const db = new Database(file)
  try {
    prepare(db, migrations, busyTimeoutMs, checked)
    return watchChanges(db, walIndexProbe(db, file))
  } catch (e) {
    if (db.open) db.close()
    throw e
  }
}

/** Whether `db`'s file is in WAL mode (SQLite may refuse it, on some file systems). */
export function inWalMode(db: Connection): boolean {
  const mode = db.prepare('PRAGMA journal_mode').get() as { journal_mode?: unknown } | undefined
  return String(mode?.journal_mode).toLowerCase() === 'wal'
}

/** A change counter over the WAL-index header of `file` (see DbChanges), or null where not usable. */
function walIndexProbe(
  db: Connection,
  file: string
): { version(): number | null; absorb(): void; close(): void } | null {
  if (process.platform === 'win32' || !inWalMode(db)) return null
  let fd: number
  try {
    fd = openSync(`${file}-shm`, 'r')
  } catch {
    return null
  }
  const head = Buffer.alloc(48)
  const seen = Buffer.alloc(48)
  let version = 0
  return {
    /** Bumped when the header differs from the last read; null when it cannot be read. */
    version() {
      if (readSync(fd, head, 0, 48, 0) !== 48) return null
      if (!head.equals(seen)) {
        head.copy(seen)
        version++
      }
      return version
    },
    /** Takes the header as it is now as seen, without counting it as a change. */
    absorb() {
      if (readSync(fd, head, 0, 48, 0) === 48) head.copy(seen)
    },
    close: () => closeSync(fd)
  }
}

/** Statements that change no row: opening, committing, or releasing a transaction or savepoint. */
const KEEPS_ROWS = /^\s*(?:BEGIN|COMMIT|END|SAVEPOINT|RELEASE)\b/i

/** The table a statement writes, lower-cased; null when it is not one that names its table first. */
export function writtenTable(sql: string): string | null {
  const m =
    /^\s*(?:(?:INSERT|REPLACE)(?:\s+OR\s+\w+)?\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+["`[]?(\w+)/i.exec(
      sql
    )
  return m ? (m[1] as string).toLowerCase() : null
}

/** Counts this connection's writes and notices other connections' commits (see DbChanges). */
function watchChanges(raw: Connection, probe: ReturnType<typeof walIndexProbe>): Db {
  const db = raw as Connection & { -readonly [K in keyof DbChanges]: DbChanges[K] }
  db.ownWrites = 0
  db.rowWrites = 0
  const byTable = new Map<string, number>()
  let anyTable = 0
  db.writesTo = (table) => (byTable.get(table) ?? 0) + anyTable
  const exec = raw.exec.bind(raw)
  const prepareStatement = raw.prepare.bind(raw)
  const close = raw.close.bind(raw)
  // A statement that fails may take the whole transaction with it (SQLite rolls it back on
  // some errors): whatever it changed before, of any table, may be undone.
  const failed = (e: unknown): never => {
    anyTable++
    throw e
  }
  db.exec = (sql: string) => {
    db.ownWrites++
    db.rowWrites++
    if (!KEEPS_ROWS.test(sql)) anyTable++
    try {
      exec(sql)
    } catch (e) {
      failed(e)
    }
    return db
  }
  db.prepare = ((sql: string) => {
    const statement = prepareStatement(sql)
    const run = statement.run.bind(statement)
    const table = writtenTable(sql)
    const anyRows = table === null && !KEEPS_ROWS.test(sql)
    statement.run = (...params: unknown[]) => {
      db.ownWrites++
      if (anyRows) anyTable++
      else if (table !== null) byTable.set(table, (byTable.get(table) ?? 0) + 1)
      let info: ReturnType<typeof run>
      try {
        info = run(...params)
      } catch (e) {
        return failed(e)
      }
      if (info.changes > 0) db.rowWrites++
      return info
    }
    return statement
  }) as Connection['prepare']
  db.close = () => {
    probe?.close()
    close()
    return db
  }
  const dataVersion = prepareStatement('PRAGMA data_version')
  // One number for both sources: the header's count, or (when the header cannot be read)
  // data_version offset past any count the header could reach.
  const read = () =>
    probe?.version() ?? 2 ** 40 + Number((dataVersion.get() as { data_version: unknown }).data_version)
  let memo: number | null = null
  const forget = () => {
    memo = null
  }
  db.foreignVersion = () => {
    if (memo === null) {
      memo = read()
      setImmediate(forget)
    }
    return memo
  }
  const absorb = () => probe?.absorb()
  db.writeLocked = () => {
    memo = read()
    queueMicrotask(forget)
    return absorb
  }
  return db
}

/** Throws SQLITE_CORRUPT unless the rows of `PRAGMA quick_check` say 'ok'. */
export function assertQuickCheck(rows: readonly { quick_check?: unknown }[]): void {
  const first = rows[0]?.quick_check
  if (rows.length !== 1 || first !== 'ok') {
    // One line: its first finding, e.g. "*** in database main *** Fragmentation of 165 bytes …".
    const found = String(first).replace(/\s*\n\s*/g, ' ')
    throw Object.assign(new Error(`database disk image is malformed (${found})`), {
      code: 'SQLITE_CORRUPT'
    })
  }
}

function prepare(db: Connection, migrations: readonly string[], busyTimeoutMs: number, checked: boolean) {
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`)
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA foreign_keys = ON')
  db.exec('PRAGMA synchronous = NORMAL')
  if (!checked) assertQuickCheck(db.prepare('PRAGMA quick_check').all() as { quick_check?: unknown }[])
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
