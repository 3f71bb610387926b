/**
 * The main process's on-disk store for one profile+user: the offline cache (items, lists,
 * catalogue, meta) and the outbox of changes waiting for the server. One SQLite file each.
 */
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type { AppErrorData } from '../../shared/errors'
import type { OutboxEntry } from '../../shared/ipc'
import { SqliteCacheStore } from './cache'
import { type Db, openOrRebuild } from './db'
import { SqliteOutboxStore } from './outbox'

export { replayOutbox, toErrorData, TEMP_ID_PREFIX, type ReplayResult } from './replay'
export { RESOURCE_NAMES } from './cache'
export { SCHEMA_VERSION } from './db'

export type ResourceName =
  'agents' | 'documents' | 'tools' | 'prompts' | 'tags' | 'apiTokens' | 'agentDocuments' | 'agentTools'

/** `syncedAt` is null when the value was written locally (optimistic change) rather than fetched. */
export interface Cached<T> {
  value: T
  syncedAt: string | null
}

export interface CacheStore {
  /**
   * Replaces the membership of a list (scope '' = the whole list, or e.g. 'agent:<id>'), upserting
   * every item merged with what is cached (a missing/undefined field keeps the cached value).
   * Atomic: one transaction; a bad item leaves the previous list untouched. Duplicate ids keep
   * their first position. Returns the merged items as stored, in list order (addition).
   */
  putList<T extends { id: string }>(
    resource: ResourceName,
    scope: string,
    items: T[],
    syncedAt: string | null
  ): T[]
  /** The list's items in stored order, or null when that list was never stored. */
  getList<T>(resource: ResourceName, scope: string): Cached<T[]> | null
  /** Merges and stores one item (it enters the catalogue); returns the merged item. */
  putItem<T extends { id: string }>(resource: ResourceName, item: T, syncedAt: string | null): T
  getItem<T>(resource: ResourceName, id: string): Cached<T> | null
  /** Removes the item, from the catalogue and from every list of that resource. */
  removeItem(resource: ResourceName, id: string): void
  /** Every item of this resource ever seen (and not removed), newest seen first. */
  catalogue<T>(resource: ResourceName): T[]
  getMeta(key: string): string | null
  setMeta(key: string, value: string): void
  /** Wipes cache + catalogue + meta; the outbox too only with `clearOutbox`. */
  clear(options?: { clearOutbox?: boolean }): void
  /** Addition: puts one cached id into an existing list without rewriting it. False if not added. */
  addToList(resource: ResourceName, scope: string, id: string, at?: 'start' | 'end'): boolean
  /** Addition: rewrites a temporary id to the real one across items, lists, scopes and references. */
  remapId(tempId: string, realId: string): void
}

export interface OutboxStore {
  /** Status 'pending', seq increasing, durable (synchronous=FULL) when it returns. */
  enqueue(e: { channel: string; label: string; input: unknown; tempId?: string }): OutboxEntry
  /** In seq order. */
  list(): OutboxEntry[]
  get(id: string): OutboxEntry | null
  /** Counts an attempt. */
  markReplaying(id: string): void
  /** Keeps the input intact. */
  markFailed(id: string, error: AppErrorData): void
  markPending(id: string): void
  remove(id: string): void
  /** Rewrites a temporary id to the real id in the inputs of all entries. */
  remapId(tempId: string, realId: string): void
  /** Addition: removes a replayed entry and applies its remap in one transaction. */
  complete(id: string, remap?: { tempId?: string | undefined; realId?: string | undefined }): void
  /** Addition: the temporary id given to enqueue(), if any. */
  tempIdOf(id: string): string | null
}

export interface ProfileStore {
  cache: CacheStore
  outbox: OutboxStore
  file: string
  close(): void
  /** True if the file was corrupt / of another schema version and was moved aside and rebuilt at open. */
  rebuilt: boolean
  /** True if not even a fresh file could be created: the store lives in memory for this run. */
  memory: boolean
}

class SqliteProfileStore implements ProfileStore {
  readonly cache: SqliteCacheStore
  readonly outbox: SqliteOutboxStore
  private closed = false

  constructor(
    private readonly db: Db,
    readonly file: string,
    readonly rebuilt: boolean,
    readonly memory: boolean
  ) {
    this.cache = new SqliteCacheStore(db, file)
    this.outbox = new SqliteOutboxStore(db)
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    try {
      // Fold the write-ahead log into the main file: the next (cold) open reads one compact file.
      this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    } catch {
      // a damaged file still closes
    }
    this.db.close()
  }
}

/**
 * Opens (creating folders) the SQLite file of one profile+user. A corrupt file, or one from
 * another schema version, is renamed `*.corrupt-<ts>` and rebuilt (its queued edits are salvaged
 * when readable); never fatal.
 */
export function openProfileStore(file: string): ProfileStore {
  const { db, rebuilt, memory } = openOrRebuild(file)
  return new SqliteProfileStore(db, file, rebuilt, memory)
}

/**
 * A file-name-safe, collision-free rendering of an id: letters are lower-cased, `[a-z0-9_.]`
 * and single inner hyphens are kept, anything else is %-escaped; when anything was changed (or
 * the id is long) a hash of the exact id is appended, so ids differing only in case or escaping
 * never share a file (case-insensitive file systems included). A safe segment never contains
 * `--`, so `${profile}--${user}` is unambiguous.
 */
export function safeSegment(id: string): string {
  let out = ''
  let changed = false
  const chars = [...id]
  chars.forEach((ch, i) => {
    if (/[a-z0-9_.]/.test(ch)) out += ch
    else if (/[A-Z]/.test(ch)) {
      out += ch.toLowerCase()
      changed = true
    } else if (ch === '-' && i > 0 && i < chars.length - 1 && chars[i - 1] !== '-' && chars[i + 1] !== '-')
      out += ch
    else {
      out += [...Buffer.from(ch, 'utf8')]
        .map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
        .join('')
      changed = true
    }
  })
  if (out === '' || out === '.' || out === '..') changed = true
  if (out.length > 80) {
    out = out.slice(0, 80)
    changed = true
  }
  if (changed) out += `~${createHash('sha256').update(id).digest('hex').slice(0, 10)}`
  return out
}

/** `${userDataDir}/cache/${safe(profileId)}--${safe(userId)}.sqlite` */
export function profileStorePath(userDataDir: string, profileId: string, userId: string): string {
  return join(userDataDir, 'cache', `${safeSegment(profileId)}--${safeSegment(userId)}.sqlite`)
}
