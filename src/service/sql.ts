/**
 * SQLite helpers for the embedded service, written once and knowing no resource by name:
 * column decoders, the clock and ids, paging, and `ownedTable`, the prepared create / get /
 * list / update / delete statements of a table whose rows belong to one user.
 * Every read and change is scoped to the owner, so another user's row is simply "not there".
 * Rows are mapped column by column (libsql rows may carry an extra `_metadata` key).
 */
import { randomFillSync } from 'node:crypto'
import { formatTimestamp, type UserStrict } from '../shared'
import type { Db } from './db'
import { JsonArrayParts } from './http'
import { afterRow, onFirstUse, PageEnds } from './pageEnds'
import { sentAsRead, textParts, type LongReads } from './reads'

export type Row = Record<string, unknown>

export const str = (v: unknown): string => (typeof v === 'string' ? v : String(v))
export const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : str(v))
export const intOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v))
export function jsonObj(v: unknown): Record<string, unknown> {
  if (typeof v !== 'string') return {}
  const parsed: unknown = JSON.parse(v)
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : {}
}
export function jsonObjOrNull(v: unknown): Record<string, unknown> | null {
  return v === null || v === undefined ? null : jsonObj(v)
}
/** The leading fields of a user-owned row as the contract orders them: id, owner id, owner. */
export const ownerFields = (r: Row, user: UserStrict) => ({ id: str(r.id), userId: str(r.user_id), user })
/** The owner fields, plus the `name` and `type` columns of a named, typed resource (documents, tools). */
export const namedTypedFields = <Type extends string>(r: Row, user: UserStrict) => ({
  ...ownerFields(r, user),
  name: str(r.name),
  type: str(r.type) as Type
})
/** The trailing fields of a row: creation and last-change times. */
export const timeFields = (r: Row) => ({ createdAt: str(r.created_at), updatedAt: str(r.updated_at) })

/** JSON text for a column, or NULL. */
export const jsonText = (v: unknown): string | null => (v === null ? null : JSON.stringify(v))

let lastMicros = 0
/** The millisecond of the last stamp, and its text up to the microseconds. */
let lastMs = -1
let msText = ''
/**
 * Now as a contract timestamp; strictly increasing within the process (microsecond steps). The
 * changes of one batch mostly share a millisecond: its text is formatted once.
 */
export function nowStamp(): string {
  let us = Date.now() * 1000
  if (us <= lastMicros) us = lastMicros + 1
  lastMicros = us
  const ms = Math.floor(us / 1000)
  if (ms !== lastMs) {
    lastMs = ms
    msText = formatTimestamp(new Date(ms)).slice(0, 23)
  }
  return `${msText}${String(us % 1000).padStart(3, '0')}+00:00`
}

/** Random bytes for ids, drawn 4 KiB at a time (one call into the CSPRNG per 256 ids). */
const entropy = Buffer.alloc(4096)
let entropyUsed = entropy.length
const idBytes = Buffer.alloc(16)
/**
 * A new id: a time-ordered UUID (RFC 9562 version 7: 48 bits of Unix milliseconds, then 74
 * random bits). Ids are opaque to clients (decisions.md); time order keeps the rows created
 * together on the same pages of each id index, so a commit writes fewer pages than with random
 * (version 4) ids, whose every insert lands on a different page.
 */
export function newId(): string {
  if (entropyUsed === entropy.length) {
    randomFillSync(entropy)
    entropyUsed = 0
  }
  const b = idBytes
  entropy.copy(b, 0, entropyUsed, entropyUsed + 16)
  entropyUsed += 16
  b.writeUIntBE(Date.now(), 0, 6)
  b[6] = 0x70 | ((b[6] as number) & 0x0f)
  b[8] = 0x80 | ((b[8] as number) & 0x3f)
  const h = b.toString('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

export interface Page {
  skip: number
  take: number // -1 = all
}
export const ALL: Page = { skip: 0, take: -1 }

/** The order of every list: newest first. */
export const NEWEST = 'ORDER BY created_at DESC, seq DESC'

/** Thrown for a UNIQUE constraint violation, so callers can answer 409. */
export function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code
  return (
    typeof code === 'string' &&
    (code.startsWith('SQLITE_CONSTRAINT_UNIQUE') || code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
  )
}

/** Runs fn in a transaction (joins the current one when already inside: libsql does not nest). */
export function transaction<T>(db: Db, fn: () => T): T {
  if (db.inTransaction) return fn()
  return db.transaction(fn)()
}

/** A table of user-owned rows: `seq, id, user_id`, its own columns, `created_at[, updated_at]`. */
export interface TableDef {
  table: string
  /** The resource's own columns in order, with their SQL type and constraints. */
  columns: Readonly<Record<string, string>>
  /** Whether rows carry `updated_at` (default true). */
  updatedAt?: boolean
  /** Table constraints after the columns, e.g. `UNIQUE (a, b)`. */
  constraints?: string
  /** SQL run after the table and its owner index (more indexes, side tables). */
  extra?: string
}

const stampsOf = (d: TableDef) => (d.updatedAt === false ? ['created_at'] : ['created_at', 'updated_at'])

/** The DDL of a table of user-owned rows, with its newest-first index per owner. */
export function createTableSql(d: TableDef): string {
  const lines = [
    'seq INTEGER PRIMARY KEY AUTOINCREMENT',
    'id TEXT NOT NULL UNIQUE',
    'user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE',
    ...Object.entries(d.columns).map(([name, type]) => `${name} ${type}`),
    ...stampsOf(d).map((c) => `${c} TEXT NOT NULL`),
    ...(d.constraints ? [d.constraints] : [])
  ]
  return `
  CREATE TABLE ${d.table} (
    ${lines.join(',\n    ')}
  );
  CREATE INDEX ${d.table}_user ON ${d.table}(user_id, created_at DESC, seq DESC);${d.extra ?? ''}`
}

export interface Codec<T, I> {
  /** Column values of an input, by column name (extra keys are ignored). */
  encode(input: I): Record<string, unknown>
  /** The row as the contract's object; `user` is the owner (for embedding). */
  decode(row: Row, user: UserStrict): T
  /** The columns an update writes besides `updated_at`; default all own columns. */
  updatable?: readonly string[]
}

export interface OwnedTable<T, I> {
  /** Inserts a row (new id, now as created/updated time) and returns it as read back. */
  create(user: UserStrict, input: I): T
  get(user: UserStrict, id: string): T | undefined
  /** Which of `ids` are the owner's rows (an index lookup each; nothing read or decoded). */
  owned(user: UserStrict, ids: readonly string[]): Set<string>
  /**
   * The owner's rows, newest first; or (a page longer than SENT_WHOLE or the whole list, where
   * there are long reads) their JSON, a part at a time as the rows are read (reads.ts).
   */
  list(user: UserStrict, page: Page): T[] | JsonArrayParts
  /** Where the owners' pages ended (the next page begins there). */
  readonly pageEnds: PageEnds
  /** Writes the updatable columns of `input`; undefined when there is no such row. */
  update(user: UserStrict, id: string, input: I): T | undefined
  remove(user: UserStrict, id: string): boolean
}

/**
 * The prepared statements of a table of user-owned rows, and the operations on them; `reads`: long
 * lists are read on connections of their own as they are sent, else on `db` whole.
 */
export function ownedTable<T, I>(
  db: Db,
  def: TableDef,
  codec: Codec<T, I>,
  reads: LongReads | null = null
): OwnedTable<T, I> {
  const { table } = def
  const columns = Object.keys(def.columns)
  const stamps = stampsOf(def)
  const all = ['id', 'user_id', ...columns, ...stamps]
  const cols = all.join(', ')
  const updatable = codec.updatable ?? columns
  // A page (`all`, then `seq`): `:skip` rows in, or after the row `:after` (pageEnds.ts). Read
  // whole on `db`, or (a long one) as rows of values on `reads`.
  const listSql = `SELECT ${cols}, seq FROM ${table} WHERE user_id = :uid ${NEWEST} LIMIT :take OFFSET :skip`
  const listAfterSql = `SELECT ${cols}, seq FROM ${table} WHERE user_id = :uid AND ${afterRow(table)} ${NEWEST} LIMIT :take`
  const s = {
    insert: db.prepare(`INSERT INTO ${table} (${cols}) VALUES (${all.map(() => '?').join(', ')})`),
    get: db.prepare(`SELECT ${cols} FROM ${table} WHERE id = ? AND user_id = ?`),
    owned: db.prepare(`SELECT 1 FROM ${table} WHERE id = ? AND user_id = ?`),
    list: db.prepare(listSql),
    listAfter: onFirstUse(() => db.prepare(listAfterSql)),
    update:
      def.updatedAt === false
        ? null
        : db.prepare(
            `UPDATE ${table} SET ${updatable.map((c) => `${c} = ?`).join(', ')}, updated_at = ? WHERE id = ? AND user_id = ?`
          ),
    remove: db.prepare(`DELETE FROM ${table} WHERE id = ? AND user_id = ?`)
  }
  // Where pages ended: the next one begins there (a user's deletion takes their rows along).
  const ends = new PageEnds(db, [table, 'users'])
  const ops: OwnedTable<T, I> = {
    pageEnds: ends,
    create(user, input) {
      const id = newId()
      const values = codec.encode(input)
      const now = nowStamp()
      s.insert.run(id, user.id, ...columns.map((c) => values[c]), ...stamps.map(() => now))
      return ops.get(user, id) as T
    },
    get(user, id) {
      const r = s.get.get(id, user.id) as Row | undefined
      return r ? codec.decode(r, user) : undefined
    },
    owned(user, ids) {
      return new Set(ids.filter((id) => s.owned.get(id, user.id) !== undefined))
    },
    list(user, page) {
      const { at, start } = ends.begin(user.id, page.skip)
      const after = 'after' in start
      const params = { uid: user.id, take: page.take, ...start }
      if (sentAsRead(reads, page.take)) {
        const rows = reads.rows(after ? listAfterSql : listSql, params)
        return new JsonArrayParts(
          textParts(ends.track(rows, user.id, page.skip, page.take, at, all.length), (values) => {
            const r: Row = {}
            for (let i = 0; i < all.length; i++) r[all[i] as string] = values[i]
            return JSON.stringify(codec.decode(r, user))
          })
        )
      }
      const rows = (after ? s.listAfter() : s.list).all(params) as Row[]
      ends.read(user.id, page.skip, page.take, rows.length, rows.at(-1)?.seq, at)
      return rows.map((r) => codec.decode(r, user))
    },
    update(user, id, input) {
      if (!s.update) throw new Error(`${table} rows are never changed`)
      const values = codec.encode(input)
      const changed = s.update.run(...updatable.map((c) => values[c]), nowStamp(), id, user.id).changes
      return changed ? ops.get(user, id) : undefined
    },
    remove(user, id) {
      return s.remove.run(id, user.id).changes > 0
    }
  }
  return ops
}

/** `patch` over `current`: the fields the patch gives (not undefined) replace those of current. */
export function merge<T extends object>(current: T, patch: object): T {
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(current))
  for (const [k, v] of Object.entries(patch)) if (v !== undefined) out[k] = v
  return out as T
}
