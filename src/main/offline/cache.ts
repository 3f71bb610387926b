/**
 * The cache half of a profile store: items as JSON per (resource, id), list membership per
 * (resource, scope) with positions, a catalogue (every item ever seen), and a small meta table.
 */
import { type Db, isCorruption, markForRebuild, scalar, writeTransaction } from './db'
import { type JsonRecord, checkItem, mergeItem, replaceString, scrub } from './merge'
import { openListWriter } from './listWriter'
import { cacheStatements, type CacheStatements } from './cacheStatements'
import { AnswerMemory, type AnswerSharing } from './answers'
import { type ThreadWork, WriteCheckpoints } from './checkpoints'
import * as memberships from './memberships'
import { ListReader } from './listRead'
import { ListText } from './listText'
import {
  LOCAL_ID_PREFIX,
  PAST_LOCAL_IDS,
  RESOURCES,
  type CacheStore,
  type Cached,
  type ListReadOptions,
  type ListWriter,
  type NamedPage,
  type Resource
} from './types'

function checkResource(resource: string): void {
  if (!(RESOURCES as readonly string[]).includes(resource)) {
    throw new TypeError(`Unknown cache resource "${resource}"`)
  }
}

export class SqliteCacheStore implements CacheStore {
  private readonly s: CacheStatements
  private readonly memory: AnswerMemory

  /** Whether the database is the file (not a stand-in in memory): its long writes checkpoint on a thread. */
  private readonly onDisk: boolean
  /** What long writes' threads did (checkpoints.ts): checkpoints, and those that started the log afresh. */
  readonly threadWork: ThreadWork = { checkpoints: 0, restarts: 0 }
  /** Pages of lists answered as they were answered last, no row read (answers.ts). */
  pagesRemembered = 0
  /** Long reads of lists, a step at a time on a connection of their own (the file only). */
  private readonly reader: ListReader | null

  /** `share`: how it shares what it remembers of answers (answers.ts). */
  constructor(
    private readonly db: Db,
    private readonly file: string,
    share: AnswerSharing = 'file'
  ) {
    this.s = cacheStatements(db)
    this.memory = AnswerMemory.join(file, share)
    this.onDisk = share !== 'none'
    this.reader = this.onDisk && file !== ':memory:' ? new ListReader(file, db) : null
  }

  /** When the store closes (before its connection does). */
  release(): void {
    this.memory.release()
    this.reader?.close()
  }

  /** Reads never crash the app on a damaged file: a miss now, a rebuild at the next open. */
  private read<R>(fallback: R, fn: () => R): R {
    try {
      return fn()
    } catch (e) {
      if (!isCorruption(e)) throw e
      markForRebuild(this.file)
      return fallback
    }
  }

  /**
   * Cache writes on a damaged file do not crash the app either: the write is dropped (the cache
   * is a copy) and the next open rebuilds. Other errors (bad input) still throw.
   */
  private write<R>(fallback: () => R, fn: () => R): R {
    try {
      return fn()
    } catch (e) {
      if (!isCorruption(e)) throw e
      markForRebuild(this.file)
      return fallback()
    }
  }

  /** An item merged onto its stored row (`row`: [json, synced_at] or undefined). */
  private merged(resource: Resource, item: JsonRecord & { id: string }, row: unknown[] | undefined) {
    const prev = row ? (JSON.parse(String(row[0])) as JsonRecord) : null
    const value = scrub(resource, mergeItem(prev && scrub(resource, prev), scrub(resource, item)))
    value.id = item.id
    return { value, json: JSON.stringify(value) }
  }

  /** Merges and writes one item (inside the caller's transaction); returns the merged value. */
  private upsert(resource: Resource, item: JsonRecord & { id: string }, syncedAt: string | null): JsonRecord {
    const row = this.s.itemJson.get(resource, item.id) as unknown[] | undefined
    const { value, json } = this.merged(resource, item, row)
    if (!row || row[0] !== json || row[1] !== syncedAt)
      this.s.upsertItem.run(resource, item.id, json, syncedAt)
    return value
  }

  putList<T extends { id: string }>(
    resource: Resource,
    scope: string,
    items: T[],
    syncedAt: string | null,
    answer?: string
  ): T[] {
    if (!Array.isArray(items)) throw new TypeError('putList needs an array of items')
    const run = this.listWriter(resource, scope, syncedAt).steps(items, answer)
    const all = () => {
      for (;;) {
        const r = run.next()
        if (r.done) return r.value.values() as T[]
      }
    }
    return this.write(
      () => items.map((i) => scrub(resource, mergeItem(null, i as unknown as JsonRecord)) as unknown as T),
      () => writeTransaction(this.db, all)
    )
  }

  async putListInSteps<T extends { id: string }>(
    resource: Resource,
    scope: string,
    items: T[],
    syncedAt: string | null,
    answer?: string
  ): Promise<T[]> {
    if (!Array.isArray(items)) throw new TypeError('putList needs an array of items')
    const writer = this.listWriter(resource, scope, syncedAt)
    await writer.add(items, answer === undefined ? {} : { digest: answer })
    return (await writer.finish()).values() as T[]
  }

  /**
   * A list read from a server, written as its pages come (listWriter.ts): each page planned
   * against the cache as it arrives, the list written in steps once whole.
   */
  listWriter(resource: Resource, scope: string, syncedAt: string | null): ListWriter {
    checkResource(resource)
    return openListWriter({
      db: this.db,
      s: this.s,
      memory: this.memory,
      resource,
      scope,
      syncedAt,
      merged: (item, row) => this.merged(resource, item, row),
      upsert: (item) => this.upsert(resource, item, syncedAt),
      guarded: (fallback, fn) => this.write(fallback, fn),
      onRemembered: () => void this.pagesRemembered++,
      ...(this.onDisk ? { checkpoints: () => new WriteCheckpoints(this.db, this.file, this.threadWork) } : {})
    })
  }

  getList<T>(resource: Resource, scope: string): Cached<T[]> | null {
    checkResource(resource)
    const rows = this.read(null, () => this.rowsOf(resource, scope))
    if (!rows) return null
    const texts = rows.value
    const value = new Array<T>(texts.length)
    for (let i = 0; i < texts.length; i++) value[i] = JSON.parse(texts[i] as string) as T
    return { value, syncedAt: rows.syncedAt }
  }

  localMembers<T>(resource: Resource, scope: string): T[] {
    checkResource(resource)
    const rows = this.read([], () =>
      this.s.listRowsWithIds.all(resource, scope, LOCAL_ID_PREFIX, PAST_LOCAL_IDS)
    )
    return (rows as unknown[][]).map((r) => JSON.parse(r[0] as string) as T)
  }

  /** A list's rows as text, at once (null: that list was never stored). */
  private rowsOf(resource: Resource, scope: string): Cached<string[]> | null {
    const head = this.s.listHead.get(resource, scope) as unknown[] | undefined
    if (!head) return null
    const rows = this.s.listRows.all(resource, scope) as unknown[][]
    return { value: rows.map((r) => r[0] as string), syncedAt: (head[0] as string | null) ?? null }
  }

  async listText<T>(
    resource: Resource,
    scope: string,
    opts?: ListReadOptions
  ): Promise<Cached<ListText<T>> | null> {
    checkResource(resource)
    try {
      if (this.reader) return await this.reader.read<T>(resource, scope, opts)
      // A stand-in in memory is read at once, on the one connection there is.
      const rows = this.rowsOf(resource, scope)
      return rows && { value: new ListText<T>(rows.value), syncedAt: rows.syncedAt }
    } catch (e) {
      if (!isCorruption(e)) throw e
      markForRebuild(this.file)
      return null
    }
  }

  putItem<T extends { id: string }>(resource: Resource, item: T, syncedAt: string | null): T {
    checkResource(resource)
    checkItem(item)
    this.memory.touched(resource)
    return this.write(
      () => scrub(resource, mergeItem(null, item)),
      () => writeTransaction(this.db, () => this.upsert(resource, item, syncedAt))
    ) as unknown as T
  }

  getItem<T>(resource: Resource, id: string): Cached<T> | null {
    checkResource(resource)
    return this.read(null, () => {
      const row = this.s.itemSynced.get(resource, id) as unknown[] | undefined
      if (!row) return null
      const own = (row[1] as string | null) ?? null
      const listed = (row[2] as string | null) ?? null
      // A never-synced (optimistic) value stays unsynced; otherwise the newer of the two.
      const syncedAt = own !== null && listed !== null && listed > own ? listed : own
      return { value: JSON.parse(String(row[0])) as T, syncedAt }
    })
  }

  removeItem(resource: Resource, id: string): void {
    checkResource(resource)
    this.memory.touched(resource)
    this.write(
      () => undefined,
      () =>
        writeTransaction(this.db, () => {
          this.s.deleteItem.run(resource, id)
          this.s.removeMember.run(resource, id)
        })
    )
  }

  /**
   * Adds one id (already cached with putItem) to a list without rewriting it: at the start or the
   * end. No-op when the list does not exist or already holds the id. Returns whether it was added.
   */
  addToList(resource: Resource, scope: string, id: string, at: 'start' | 'end' = 'start'): boolean {
    checkResource(resource)
    this.memory.touched(resource)
    return writeTransaction(this.db, () => {
      const key = memberships.membershipOf(this.s, resource, scope)
      if (key === null || !this.s.itemJson.get(resource, id)) return false
      const exists = scalar(
        this.db,
        'SELECT 1 FROM list_items WHERE resource = ? AND scope = ? AND id = ?',
        resource,
        key,
        id
      )
      if (exists !== undefined) return false
      const agg = at === 'start' ? 'MIN' : 'MAX'
      const edge = scalar(
        this.db,
        `SELECT ${agg}(position) FROM list_items WHERE resource = ? AND scope = ?`,
        resource,
        key
      )
      const position = edge === null || edge === undefined ? 0 : Number(edge) + (at === 'start' ? -1 : 1)
      this.s.addMember.run(resource, key, position, id)
      return true
    })
  }

  catalogue<T>(resource: Resource): T[] {
    checkResource(resource)
    return this.read([], () =>
      (this.s.catalogue.all(resource) as unknown[][]).map((r) => JSON.parse(String(r[0])) as T)
    )
  }

  names(resource: Resource, before: number | null, limit: number): NamedPage {
    checkResource(resource)
    const text = (v: unknown): string | null => (typeof v === 'string' && v ? v : null)
    return this.read({ rows: [], next: null }, () => {
      const found = this.s.names.all(resource, before ?? Number.MAX_SAFE_INTEGER, limit) as unknown[][]
      const rows = found.flatMap(([, id, n, d]) => {
        // Items without a name (API tokens) go by their description.
        const name = text(n) ?? text(d)
        return name ? [{ id: String(id), name, description: text(n) ? text(d) : null }] : []
      })
      return { rows, next: found.length === limit ? Number(found[found.length - 1]?.[0]) : null }
    })
  }

  getMeta(key: string): string | null {
    return this.read(null, () => {
      const row = this.s.getMeta.get(key) as unknown[] | undefined
      return row ? String(row[0]) : null
    })
  }

  setMeta(key: string, value: string): void {
    this.write(
      () => undefined,
      () => this.s.setMeta.run(key, String(value))
    )
  }

  /**
   * Rewrites a temporary id (an item created offline) to the server's id everywhere in the cache:
   * the item's own row (merged under the real item when that is cached already), list membership,
   * list scopes such as `agent:<tempId>`, and references inside other items (e.g. a link's agentId).
   */
  remapId(tempId: string, realId: string): void {
    if (!tempId || tempId === realId) return
    this.memory.touched()
    writeTransaction(this.db, () => {
      for (const resource of RESOURCES) {
        const row = this.s.itemJson.get(resource, tempId) as unknown[] | undefined
        if (row) {
          const temp = replaceString(JSON.parse(String(row[0])), tempId, realId) as JsonRecord
          const realRow = this.s.itemJson.get(resource, realId) as unknown[] | undefined
          const real = realRow ? (JSON.parse(String(realRow[0])) as JsonRecord) : null
          const merged = real ? mergeItem(temp, real) : temp
          merged.id = realId
          this.s.deleteItem.run(resource, tempId)
          this.s.upsertItem.run(
            resource,
            realId,
            JSON.stringify(scrub(resource, merged)),
            realRow ? realRow[1] : row[1]
          )
        }
        // Membership: where the real id is listed already, the temp entry just goes.
        this.db
          .prepare(
            `DELETE FROM list_items WHERE resource = ? AND id = ? AND EXISTS (SELECT 1 FROM list_items o
             WHERE o.resource = list_items.resource AND o.scope = list_items.scope AND o.id = ?)`
          )
          .run(resource, tempId, realId)
        this.db
          .prepare('UPDATE list_items SET id = ? WHERE resource = ? AND id = ?')
          .run(realId, resource, tempId)
      }
      // Scopes naming the temp id.
      const scopes = this.db
        .prepare('SELECT resource, scope, COALESCE(members, scope) FROM lists WHERE instr(scope, ?) > 0')
        .raw(true)
        .all(tempId) as string[][]
      for (const [resource, scope, key] of scopes) {
        const next = (scope as string).split(tempId).join(realId)
        if (
          scalar(this.db, 'SELECT 1 FROM lists WHERE resource = ? AND scope = ?', resource, next) !==
          undefined
        ) {
          this.s.clearMembers.run(resource, key)
          this.db.prepare('DELETE FROM lists WHERE resource = ? AND scope = ?').run(resource, scope)
        } else {
          // The list keeps its membership under the key it had (the old scope, in older files).
          this.db
            .prepare(
              'UPDATE lists SET scope = ?, members = COALESCE(members, scope) WHERE resource = ? AND scope = ?'
            )
            .run(next, resource, scope)
        }
      }
      // References inside other items.
      const needle = JSON.stringify(tempId)
      const refs = this.db
        .prepare('SELECT resource, id, json FROM items WHERE instr(json, ?) > 0')
        .raw(true)
        .all(needle) as string[][]
      for (const [resource, id, json] of refs) {
        const next = replaceString(JSON.parse(json as string), tempId, realId)
        this.db
          .prepare('UPDATE items SET json = ? WHERE resource = ? AND id = ?')
          .run(JSON.stringify(next), resource, id)
      }
    })
  }

  clear(options: { clearOutbox?: boolean } = {}): void {
    this.memory.touched()
    // A list being read ends (answer_gone), holding no snapshot for the VACUUM to wait for.
    this.reader?.reset()
    writeTransaction(this.db, () => {
      this.db.exec('DELETE FROM list_items; DELETE FROM lists; DELETE FROM items; DELETE FROM meta;')
      if (options.clearOutbox) this.db.exec('DELETE FROM outbox')
    })
    // The file shrinks (freed pages are returned), and old pages leave the write-ahead log too.
    this.db.exec('VACUUM')
    this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  }

  itemCount(): number {
    return this.read(0, () => Number(scalar(this.db, 'SELECT COUNT(*) FROM items')))
  }
}
