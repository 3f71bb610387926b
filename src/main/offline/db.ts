/**
 * The per profile+user SQLite file: schema, pragmas, the checked open, and the statements prepared
 * on a connection (let go when it closes). A file that fails its checks is rebuilt (rebuild.ts).
 */
import { writeFileSync } from 'node:fs'
import Database from 'libsql'
import { preparePrivateDb, PRIVATE_FILE_MODE } from '../privateFiles'
import { WAL_AUTOCHECKPOINT, WAL_CAP_BYTES } from './checkpoints'

export type Db = InstanceType<typeof Database>

/** The values of each statement set `preparedOnUse` made on a connection, emptied by `closeDb`. */
const statementSets = new WeakMap<Db, unknown[][]>()

/** Not made yet (a statement is never undefined). */
const UNMADE = undefined

/** A statement set's class: a getter for each of its names, on a prototype made once per names. */
type SetClass = new (makers: Record<string, () => unknown>, values: unknown[]) => object
const setClasses = new Map<string, SetClass>()

function setClassOf(keys: readonly string[]): SetClass {
  const known = setClasses.get(keys.join('\n'))
  if (known) return known
  class StatementSet {
    constructor(
      readonly makers: Record<string, () => unknown>,
      readonly values: unknown[]
    ) {}
  }
  keys.forEach((key, i) => {
    Object.defineProperty(StatementSet.prototype, key, {
      enumerable: true,
      get(this: StatementSet) {
        let value = this.values[i]
        if (value === UNMADE) value = this.values[i] = (this.makers[key] as () => unknown)()
        return value
      }
    })
  })
  setClasses.set(keys.join('\n'), StatementSet)
  return StatementSet
}

/**
 * An object each of whose values its maker makes when it is first read, then keeps: statements
 * prepared on `db` on first use, so that opening a file prepares none it does not run (a store
 * opened to read one list runs a few of its 30). `closeDb` lets them all go. Its getters are
 * defined once for each set of names, on a class's prototype: defined on each object, the stores'
 * sets took ~0.04 ms of every cold open.
 */
export function preparedOnUse<M extends Record<string, () => unknown>>(
  db: Db,
  makers: M
): { readonly [K in keyof M]: ReturnType<M[K]> } {
  const keys = Object.keys(makers)
  const values = new Array<unknown>(keys.length).fill(UNMADE)
  const sets = statementSets.get(db)
  if (sets) sets.push(values)
  else statementSets.set(db, [values])
  return new (setClassOf(keys))(makers, values) as { readonly [K in keyof M]: ReturnType<M[K]> }
}

/**
 * Closes `db` and lets go of every statement `preparedOnUse` made on it. The driver (libsql 0.5)
 * closes a connection's file only once the collector has taken every statement prepared on it
 * (storeFiles.ts): kept by a store that is itself still referenced (a close under way, a session
 * being retired), they would hold the file open past any collection, and Windows deletes no open
 * file. A statement read after this is prepared again, and fails: the connection is closed.
 */
export function closeDb(db: Db): void {
  try {
    db.close()
  } finally {
    for (const values of statementSets.get(db) ?? []) values.fill(UNMADE)
    statementSets.delete(db)
  }
}

/** Bumped on any incompatible schema change; a file with another version is moved aside and rebuilt. */
export const SCHEMA_VERSION = 1

const SCHEMA = `
  CREATE TABLE items (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    resource TEXT NOT NULL,
    id TEXT NOT NULL,
    json TEXT NOT NULL,
    synced_at TEXT,
    UNIQUE (resource, id)
  );
  CREATE TABLE lists (
    resource TEXT NOT NULL,
    scope TEXT NOT NULL,
    synced_at TEXT,
    members TEXT,
    PRIMARY KEY (resource, scope)
  ) WITHOUT ROWID;
  CREATE TABLE list_items (
    resource TEXT NOT NULL,
    scope TEXT NOT NULL,
    position INTEGER NOT NULL,
    id TEXT NOT NULL,
    item_seq INTEGER,
    PRIMARY KEY (resource, scope, position)
  ) WITHOUT ROWID;
  CREATE INDEX list_items_id ON list_items (resource, id);
  CREATE INDEX items_catalogue ON items (resource, seq);
  CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE outbox (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    channel TEXT NOT NULL,
    label TEXT NOT NULL,
    input TEXT,
    created_at TEXT NOT NULL,
    status TEXT NOT NULL,
    error TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    temp_id TEXT,
    extra TEXT
  );
`
/**
 * A member's `item_seq` is the `seq` of the item row it names, or NULL, so a list is read by joining
 * on the items' integer key: one b-tree lookup a row instead of two (the `(resource, id)` index,
 * then the row). The statements that add members set it (cacheStatements.ts), and the list read
 * looks a NULL one up by id (a member added by an older version of the app, which knows no
 * `item_seq`, or before its item row). A non-NULL link is always the right row: these triggers
 * relink a member renamed (an id remap) and the members of an item row whose id or seq changes;
 * and `seq` is AUTOINCREMENT, never reused, so the members of a deleted item match nothing, as by
 * id (the cache deletes an item's members with it). No trigger runs on the inserts a list write
 * makes. Members left NULL are linked on open (the partial index finds them).
 */
const ITEM_SEQ = `
  CREATE INDEX IF NOT EXISTS list_items_unlinked ON list_items (resource, id) WHERE item_seq IS NULL;
  CREATE TRIGGER IF NOT EXISTS items_relink AFTER UPDATE OF seq, resource, id ON items BEGIN
    UPDATE list_items SET item_seq = NULL WHERE resource = OLD.resource AND id = OLD.id;
    UPDATE list_items SET item_seq = NEW.seq WHERE resource = NEW.resource AND id = NEW.id;
  END;
  CREATE TRIGGER IF NOT EXISTS list_items_relink AFTER UPDATE OF resource, id ON list_items BEGIN
    UPDATE list_items SET item_seq = (SELECT seq FROM items WHERE resource = NEW.resource AND id = NEW.id)
      WHERE resource = NEW.resource AND scope = NEW.scope AND position = NEW.position;
  END;
`
/** What ITEM_SEQ creates, by name (read from it): an open runs it only where one is missing. */
const ITEM_SEQ_NAMES = [...ITEM_SEQ.matchAll(/IF NOT EXISTS (\w+)/g)].map((m) => m[1] as string)
/**
 * Whether a member lacks its item row. Through the partial index by name: SQLite's planner scans
 * the whole table for this query otherwise (~20 ms on main at each open of a cache holding
 * 100,000 agents, found as most of a Local workspace start's longest block).
 */
export const ANY_UNLINKED =
  'SELECT 1 FROM list_items INDEXED BY list_items_unlinked WHERE item_seq IS NULL LIMIT 1'
const LINK_UNLINKED = `
  UPDATE list_items SET item_seq = (SELECT seq FROM items i WHERE i.resource = list_items.resource AND i.id = list_items.id)
    WHERE item_seq IS NULL;
`

/** Created on open when missing: added after schema version 1 shipped, nothing else changed. */
const DRAFTS_TABLE = `
  CREATE TABLE IF NOT EXISTS drafts (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    saved_at TEXT NOT NULL
  ) WITHOUT ROWID;
`

const TABLES = ['items', 'lists', 'list_items', 'meta', 'outbox']

/** Raised when the file is readable SQLite but not ours / not this version. */
export class SchemaMismatch extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SchemaMismatch'
  }
}

/** Marker written when corruption shows up after open; the next open rebuilds. */
export const rebuildMarker = (file: string) => `${file}.needs-rebuild`

export function scalar(db: Db, sql: string, ...params: unknown[]): unknown {
  const row = db
    .prepare(sql)
    .raw(true)
    .get(...params) as unknown[] | undefined
  return row ? row[0] : undefined
}

/**
 * Runs `fn` in a transaction that takes the write lock as it begins (BEGIN IMMEDIATE). Main's
 * connection is not the file's only writer: a long write's thread (checkpoints.ts) writes the page
 * that starts the log afresh. A transaction begun without the lock that has read before that
 * commit cannot then write (SQLite answers "database is locked" at once, without waiting); one
 * begun with it waits its turn (busy_timeout), and the thread's turn is short.
 */
export function writeTransaction<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate()
}

/** How long a connection waits for a lock another holds (SQLite's busy timeout), ms. */
export const BUSY_TIMEOUT_MS = 3000

function applyPragmas(db: Db): void {
  // One call for all: each call crosses into the driver and prepares its statements apart.
  db.exec(
    [
      'PRAGMA journal_mode = WAL',
      // NORMAL in WAL mode: a commit survives an app crash; only an OS crash/power cut can lose the
      // last commits. Outbox writes switch to FULL around their own transaction (see outbox.ts).
      'PRAGMA synchronous = NORMAL',
      // The log is copied back into the file (a checkpoint) in the commit that takes it past this
      // many pages, and that commit holds main meanwhile: with SQLite's 1,000 pages (~4 MB), the
      // steps of a long list's write (listWrite.ts) that checkpointed took ~50 ms against ~20 ms
      // for the others; with 250 pages, none took more than ~26 ms. A long write checkpoints on a
      // thread (checkpoints.ts).
      `PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT}`,
      // A log grown by a long write is cut back to this when it starts afresh.
      `PRAGMA journal_size_limit = ${WAL_CAP_BYTES}`,
      `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`,
      // Deleted rows (sign-out with "clear cache", removed items) are overwritten, not left in free pages.
      'PRAGMA secure_delete = ON'
    ].join(';')
  )
}

/** A file's schema as its open reads it: its version, and the names of its tables, indexes and triggers. */
interface Schema {
  version: number
  tables: string[]
  /** Names of its indexes and triggers. */
  others: Set<string>
}

function schemaOf(db: Db): Schema {
  const rows = db.prepare('SELECT type, name FROM sqlite_master').raw(true).all() as [string, string][]
  return {
    version: Number(scalar(db, 'PRAGMA user_version')),
    tables: rows.filter(([type]) => type === 'table').map(([, name]) => name),
    others: new Set(rows.filter(([type]) => type !== 'table').map(([, name]) => name))
  }
}

/** Columns added after version 1 shipped, by table: each NULL in older rows. */
const ADDED_COLUMNS: [table: string, column: string, type: string][] = [
  // The replay state of an entry (outbox.ts).
  ['outbox', 'extra', 'TEXT'],
  // The key of a list's membership (cache.ts), NULL (the scope) for old lists.
  ['lists', 'members', 'TEXT'],
  // Each member's item row (see ITEM_SEQ), filled in by linkMembers.
  ['list_items', 'item_seq', 'INTEGER']
]

/**
 * Whether every column added since version 1 is there: one statement naming them all prepares
 * (0.05 ms, on the way of every cold list; a PRAGMA table_info of each table took 0.07–0.23).
 */
function hasAddedColumns(db: Db): boolean {
  try {
    db.prepare(`SELECT ${ADDED_COLUMNS.map(([t, c]) => `(SELECT ${c} FROM ${t})`).join(', ')}`)
    return true
  } catch {
    return false
  }
}

/** Opens and checks one file; throws (after closing) on corruption or a schema mismatch. */
export function openChecked(file: string): Db {
  if (file !== ':memory:') preparePrivateDb(file)
  const db = new Database(file)
  try {
    applyPragmas(db)
    let schema = schemaOf(db)
    if (schema.version === 0) {
      if (schema.tables.some((n) => !n.startsWith('sqlite_')))
        throw new SchemaMismatch('Not an Agent Desk cache file')
      writeTransaction(db, () => {
        db.exec(SCHEMA)
        db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`)
      })
      schema = { version: SCHEMA_VERSION, tables: TABLES, others: new Set() }
    } else if (schema.version !== SCHEMA_VERSION) {
      throw new SchemaMismatch(`Cache schema version ${schema.version}, expected ${SCHEMA_VERSION}`)
    } else if (TABLES.some((t) => !schema.tables.includes(t))) {
      throw new SchemaMismatch('Cache file is missing tables')
    } else if (!hasAddedColumns(db)) {
      for (const [table, column, type] of ADDED_COLUMNS)
        if (!columnsOf(db, table).has(column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`)
    }
    if (!schema.tables.includes('drafts')) db.exec(DRAFTS_TABLE)
    linkMembers(db, schema)
    return db
  } catch (e) {
    try {
      db.close()
    } catch {
      // already unusable
    }
    throw e
  }
}

/**
 * Keeps each member's item row (ITEM_SEQ): the triggers and, for rows an older version added, the
 * link. These read past the schema page; a file damaged there is found, as before, by the first
 * read that meets the damage (a cache miss, then a rebuild), not here.
 */
function linkMembers(db: Db, schema: Schema): void {
  try {
    if (ITEM_SEQ_NAMES.some((name) => !schema.others.has(name))) db.exec(ITEM_SEQ)
    if (scalar(db, ANY_UNLINKED) !== undefined) db.exec(LINK_UNLINKED)
  } catch {
    // See above.
  }
}

export function columnsOf(db: Db, table: string): Set<string> {
  return new Set(
    (db.prepare(`PRAGMA table_info(${table})`).raw(true).all() as unknown[][]).map((r) => String(r[1]))
  )
}

export function markForRebuild(file: string): void {
  try {
    writeFileSync(rebuildMarker(file), new Date().toISOString(), { mode: PRIVATE_FILE_MODE })
  } catch {
    // best effort
  }
}

export function isCorruption(e: unknown): boolean {
  const code = typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : ''
  return code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB')
}
