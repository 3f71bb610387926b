/**
 * The contracts of main's offline store (cache, outbox), apart from their SQLite implementations
 * so that those and their users import them without a circle.
 */
import type { AppErrorData } from '../../shared/errors'
import type { OutboxEntry } from '../../shared/ipc'
import type { DraftEntry } from '../../shared/drafts'
import type { ListText } from './listText'

/** Every kind of item main keeps: the resources and the two link kinds. The one Resource union. */
export const RESOURCES = [
  'agents',
  'documents',
  'tools',
  'prompts',
  'tags',
  'apiTokens',
  'agentDocuments',
  'agentTools'
] as const
export type Resource = (typeof RESOURCES)[number]

export interface NamedRow {
  id: string
  name: string
  description: string | null
}

/** A step of the names of a resource's items (`CacheStore.names`), and where the next starts (null: none). */
export interface NamedPage {
  rows: NamedRow[]
  next: number | null
}

/** What a change created offline is called until the server gives it a real id. */
export const LOCAL_ID_PREFIX = 'local-'
/** The least text past every id that starts with LOCAL_ID_PREFIX (its last character the next). */
export const PAST_LOCAL_IDS =
  LOCAL_ID_PREFIX.slice(0, -1) +
  String.fromCharCode(LOCAL_ID_PREFIX.charCodeAt(LOCAL_ID_PREFIX.length - 1) + 1)
export const isLocalId = (id: unknown): boolean => typeof id === 'string' && id.startsWith(LOCAL_ID_PREFIX)

/** A cached item: any JSON object with an id. */
export type Item = { id: string } & Record<string, unknown>

/** `syncedAt` is null when the value was written locally (optimistic change) rather than fetched. */
export interface Cached<T> {
  value: T
  syncedAt: string | null
}

/** How a list is read a step at a time (CacheStore.listText). */
export interface ListReadOptions {
  /** Rows a step. Default listRead.ts's READ_STEP. */
  step?: number
  /** Members a step of the list's count passes. Default listRead.ts's COUNT_STEP. */
  countStep?: number
  /**
   * A list of this many members or fewer is read in one go on the cache's own connection, not a
   * step at a time on one of its own. Default listRead.ts's AT_ONCE; 0: every list in steps.
   */
  atOnce?: number
  /**
   * Awaited between steps. Default: a turn of the event loop (nextTurn), so that a list's answer
   * leaves with its first step and each piece as it is read (answerPieces.ts).
   */
  turn?: () => Promise<void>
}

export interface CacheStore {
  /**
   * Replaces the membership of a list (scope '' = the whole list, or e.g. 'agent:<id>'), upserting
   * every item merged with what is cached (a missing/undefined field keeps the cached value).
   * Atomic: one transaction; a bad item leaves the previous list untouched. Duplicate ids keep
   * their first position. Returns the merged items as stored, in list order (addition).
   * `answer`: the digest of the server answer the items were read from (api/answerDigest.ts).
   * When the last list stored with that answer found every item stored already and nothing has
   * written the resource since, the items are taken as stored: only the sync time is written.
   */
  putList<T extends { id: string }>(
    resource: Resource,
    scope: string,
    items: T[],
    syncedAt: string | null,
    answer?: string
  ): T[]
  /**
   * putList for long lists read from a server: the same result, the reads (each item compared
   * with its row and merged) in short steps with the event loop free between them, then every
   * write in one transaction (listWrite.ts): a 10,000-item list never blocks main for long, the
   * items are checked before anything is written, and a reader meanwhile sees the previous list.
   */
  putListInSteps<T extends { id: string }>(
    resource: Resource,
    scope: string,
    items: T[],
    syncedAt: string | null,
    answer?: string
  ): Promise<T[]>
  /**
   * A list read from a server, written as its pages come (SqliteCacheStore.listWriter): the same
   * result as putList, with each page planned against the cache as it arrives and the list
   * written in steps once whole; what it ends with is each item's row as JSON text.
   */
  listWriter(resource: Resource, scope: string, syncedAt: string | null): ListWriter
  /** The list's items in stored order, or null when that list was never stored. */
  getList<T>(resource: Resource, scope: string): Cached<T[]> | null
  /** Its members created offline (a local id, LOCAL_ID_PREFIX), in order: none read but those. */
  localMembers<T>(resource: Resource, scope: string): T[]
  /**
   * The same list as its rows' JSON, unparsed, read a step at a time with the event loop free
   * between steps, all of it as the file stood when the read began (listRead.ts). Answered once its
   * count is known: its texts may still be coming (ComingListText: wait for them with `whole`).
   */
  listText<T>(resource: Resource, scope: string, opts?: ListReadOptions): Promise<Cached<ListText<T>> | null>
  /** Merges and stores one item (it enters the catalogue); returns the merged item. */
  putItem<T extends { id: string }>(resource: Resource, item: T, syncedAt: string | null): T
  getItem<T>(resource: Resource, id: string): Cached<T> | null
  /** Removes the item, from the catalogue and from every list of that resource. */
  removeItem(resource: Resource, id: string): void
  /** Every item of this resource ever seen (and not removed), newest seen first. */
  catalogue<T>(resource: Resource): T[]
  /**
   * Id, name and description of the items of this resource in the catalogue (unnamed ones by
   * description), newest seen first: up to `limit` of them seen before `before` (null: from the
   * newest; a page's `next` for the next page).
   */
  names(resource: Resource, before: number | null, limit: number): NamedPage
  getMeta(key: string): string | null
  setMeta(key: string, value: string): void
  /** Wipes cache + catalogue + meta; the outbox too only with `clearOutbox`. The file shrinks. */
  clear(options?: { clearOutbox?: boolean }): void
  /** How many items the cache holds (every resource and link). */
  itemCount(): number
  /** Addition: puts one cached id into an existing list without rewriting it. False if not added. */
  addToList(resource: Resource, scope: string, id: string, at?: 'start' | 'end'): boolean
  /** Addition: rewrites a temporary id to the real one across items, lists, scopes and references. */
  remapId(tempId: string, realId: string): void
}

/** The replay state an outbox entry keeps beside its input (column `extra`, JSON). */
export interface OutboxExtra {
  /** The entry's `Idempotency-Key`, the same on every attempt (made at enqueue when not given). */
  key?: string
  /** An update: the item it changes and the `updatedAt` the edit started from (lost-update check). */
  itemId?: string
  base?: string
  /** A create: when it was first sent, and the ids of same-named items known then (uncertain check). */
  attemptedAt?: string
  knownIds?: string[]
  /** Not before this time (429/503 or back-off), and how many such waits so far. */
  retryAt?: string
  throttled?: number
  /** A conflict: the server's item. */
  server?: unknown
  /** The user said "send anyway": no conflict or uncertain check on the next attempt. */
  force?: boolean
}

/** A change to queue (`OutboxStore.enqueue`). */
export interface NewOutboxEntry {
  channel: string
  label: string
  input: unknown
  /** The temporary id this entry creates, so replay can hold back later entries that refer to it. */
  tempId?: string
  /** A direct write whose outcome is unknown: queued 'uncertain' with that error and its attempts. */
  uncertain?: AppErrorData
  attempts?: number
  extra?: OutboxExtra
}

export interface OutboxStore {
  /** Status 'pending' (or 'uncertain'), seq increasing, durable (synchronous=FULL) when it returns. */
  enqueue(e: NewOutboxEntry): OutboxEntry
  /** In seq order. */
  list(): OutboxEntry[]
  get(id: string): OutboxEntry | null
  /** Counts an attempt. */
  markReplaying(id: string): void
  /** Keeps the input intact. */
  markFailed(id: string, error: AppErrorData): void
  markPending(id: string, opts?: { resetAttempts?: boolean }): void
  /** Addition: pending, waiting until `retryAt` (429/503, back-off). */
  markWaiting(id: string, error: AppErrorData, retryAt: string, throttled: number): void
  /** Addition: outcome unknown. */
  markUncertain(id: string, error: AppErrorData): void
  /** Addition: the item moved on the server. */
  markConflict(id: string, error: AppErrorData, server: unknown): void
  /** Addition: the entry's replay state. */
  extraOf(id: string): OutboxExtra
  patchExtra(id: string, patch: Partial<OutboxExtra>): void
  remove(id: string): void
  /** Rewrites a temporary id to the real id in the inputs of all entries. */
  remapId(tempId: string, realId: string): void
  /** Addition: removes a replayed entry and applies its remap in one transaction. */
  complete(id: string, remap?: { tempId?: string | undefined; realId?: string | undefined }): void
  /** Addition: the temporary id given to enqueue(), if any. */
  tempIdOf(id: string): string | null
}

/** Unsaved form contents by key (`tool-edit:<id>`), secret-looking keys dropped. */
export interface DraftStore {
  list(): DraftEntry[]
  save(key: string, value: Record<string, unknown>): void
  remove(key: string): void
  count(): number
}

export interface OfflineStore {
  cache: CacheStore
  outbox: OutboxStore
  drafts: DraftStore
  file: string
  /** Closes on main: the log folded back into the file, synced (tests, tools). */
  close(): void
  /**
   * Closes with main's connection only; a thread folds the log back into the file and syncs it
   * (closeThread.ts). Resolves once the file is closed everywhere.
   */
  closeOffMain(): Promise<void>
  /** True if the file was corrupt / of another schema version and was moved aside and rebuilt at open. */
  rebuilt: boolean
  /** True if not even a fresh file could be created: the store lives in memory for this run. */
  memory: boolean
}

/** One page of a list as `ListWriter.add` takes it. */
export interface WriterPage {
  /** The digest of the bytes it was read from (api/answerDigest.ts). */
  digest?: string | undefined
  /** Whether an item's JSON text holds all of it (listWrite.ts `PageOptions.exact`). */
  exact?: ((item: { id: string }) => boolean) | undefined
  /** The page's array is the writer's: its items are let go as they are planned (`PageOptions.release`). */
  release?: boolean | undefined
  /** A part of one answer that holds the whole list (a server without paging, api/endpoints.ts). */
  whole?: boolean | undefined
}

/** A list's write as its pages come (CacheStore.listWriter). */
export interface ListWriter {
  /** Plans a page against the cache (every item checked: throws for one it cannot keep). */
  add(items: readonly unknown[], page?: WriterPage): Promise<void>
  /**
   * Whether the next page (or page `page`, counted from 0) may be one of the answer stored last,
   * to be taken by its digest (`takeKnown`). Where that page's rows would be read from the file
   * (its texts not kept), their reading begins, while its bytes come.
   */
  expects(page?: number): boolean
  /** The digest the next page had in the answer stored last, where it may be taken by it (`expects`). */
  expected(): string | undefined
  /**
   * Takes the next page as the same page of the answer stored last (known by the digest of its
   * bytes; of `count` items where given), its items never read, if nothing was written since:
   * whether it did. Its rows, where read from the file, are read in steps.
   */
  takeKnown(digest: string, count?: number): Promise<boolean>
  /**
   * Writes the list: `first`, items to list before the pages' (planned now), and `leaveOut`, ids
   * to leave out (deleted while the pages came). Each item's row as JSON text, in order.
   */
  finish(amend?: { first?: readonly unknown[]; leaveOut?: (id: string) => boolean }): Promise<ListText>
  /** Items planned from `from` on (their ids, and texts as planned: `ListPlan.planned`). */
  planned(from: number): { ids: string[]; texts: string[] }
  /** The list's ids in order (once finished: as written, amended). */
  readonly order: readonly string[]
  /** All of it at once over `items` (putList, in its caller's transaction). */
  steps(items: readonly unknown[], answer?: string): Generator<void, ListText>
}
