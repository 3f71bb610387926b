/**
 * What a list's plan (listWrite.ts) reads and writes the cache through, what it takes with a page
 * and what its steps end with.
 */
import type { JsonRecord } from './merge'

/** An item as the cache keeps it: a record with an id. */
export type Item = JsonRecord & { id: string }

export interface ListWrite {
  /** The item's stored row ([json, synced_at]), if any. */
  stored(id: string): unknown[] | undefined
  /** The stored rows of these ids, by id (one query for a step: far cheaper than one per item). */
  storedMany(ids: string[]): Map<string, unknown[]>
  /** The item without what the cache never keeps. */
  clean(item: Item): JsonRecord
  /** The item merged onto its row, and that as JSON. */
  merged(item: Item, row: unknown[] | undefined): { value: JsonRecord; json: string }
  /** Merges onto the row as it is now and writes. */
  upsert(item: Item): JsonRecord
  write(id: string, json: string): void
  /** The rows the connection has changed so far (SQLite's total_changes()). */
  changes(): number
  /** Before the first write that may change what the resource's lists show. */
  touched(): void
  /** When a page is answered as it was answered last (PageOptions.stored: no row read). */
  remembered(): void
  memberIds(): unknown[]
  /**
   * Up to `limit` stored members ([position, id], with `rows` [position, id, row JSON or null])
   * after `position` (from the first when null).
   */
  memberPage(position: unknown, limit: number, rows?: boolean): unknown[][]
  /** Throws for an item the cache cannot keep. */
  check(item: unknown): asserts item is Item
  /** A new membership key, kept from collection until released. */
  newKey(): string
  /** Adds `ids` to the membership `key`, from position `from`. */
  stage(key: string, from: number, ids: string[]): void
  /** How many members `key` holds. */
  staged(key: string): number
  /** Points the list at membership `key`, with the list's sync time. */
  publish(key: string): void
  release(key: string): void
  /** Deletes up to `limit` members of memberships no list points to; whether any may be left. */
  collect(limit: number): boolean
  /** Writes the list's sync time. */
  putHead(): void
}

/** What the steps end with: each item's row as JSON text in the list's order, and whether they were stored already. */
export interface ListStepsResult {
  texts: string[]
  /**
   * Every item was stored as given (its row holds the item's fields and no other), once, in the
   * stored order, and nothing else wrote meanwhile: only the list's sync time was written.
   */
  unchanged: boolean
  /**
   * Once written, every row holds its item as given (what it held already, or the item's JSON
   * written), each item once, and nothing else wrote meanwhile: the same answer again finds each
   * item stored as given, so it can be taken as stored (as after an `unchanged` list).
   */
  asGiven: boolean
}

/** How `ListPlan.add` takes a page. */
export interface PageOptions {
  /**
   * Whether an item's JSON text holds all of it: true for items parsed from JSON and kept as they
   * came; not for one a tolerant schema read, whose `undefined` fields mean "keep what is known".
   * An item whose text holds all of it is kept as that text only (default: none is).
   */
  exact?: (item: Item) => boolean
  /** Its items are known to be stored as given (the same answer as the last one stored). */
  asStored?: boolean
  /**
   * With `asStored`, when nothing was committed to the file since: the page as the cache answered
   * it last (its items' rows as text, in order) and the position of its last member; neither is
   * read again.
   */
  stored?: { texts: readonly string[]; last: unknown }
  /**
   * The page's array is the plan's to change: each step's entries are let go (set undefined) once
   * planned, so a page's items die as it is planned, not after (the plan keeps texts, not items).
   */
  release?: boolean
}

/**
 * A page known to be the same page of the answer stored last, as answered then: its items' ids and
 * rows' texts, in order, or how many members it had (their rows then read); and the position of
 * its last member.
 */
export type KnownPage =
  { ids: readonly string[]; texts: readonly string[]; last: unknown } | { count: number; last: unknown }

/** Where a planned page ends: the items up to its end, and the position of its last member. */
export interface PageEnd {
  end: number
  /** The stored position of the page's last member as compared (null: none compared yet). */
  last: unknown
}
