/**
 * How the cache stores a list read from a server (SqliteCacheStore.putList / putListInSteps):
 * first what to write, in steps of LIST_STEP items with only reads (each item checked, scrubbed,
 * compared with its row and merged onto it, and the stored membership compared with the list's
 * order as far as it goes); then every write in one go: the items whose rows did not change
 * meanwhile as planned (others merged again), the membership when it differs, and the list's
 * sync time. Run apart, only the last step writes, so a list is still stored whole or not at all.
 */
import type { JsonRecord } from './merge'

/** Items per step (each step is one short transaction when run apart). */
export const LIST_STEP = 500

type Item = JsonRecord & { id: string }

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
  /** A number that changes whenever the connection writes (SQLite's total_changes()). */
  changes(): unknown
  memberIds(): unknown[]
  /** Up to `limit` stored members ([position, id]) after `position` (from the first when null). */
  memberPage(position: unknown, limit: number): unknown[][]
  /** Throws for an item the cache cannot keep. */
  check(item: unknown): asserts item is Item
  setMembers(ids: string[]): void
  putHead(): void
}

/** What the steps end with: the merged items in the list's order, and whether they were stored already. */
export interface ListStepsResult<T> {
  items: T[]
  /**
   * Every item was stored as given (its row holds the item's fields and no other), once, in the
   * stored order, and nothing else wrote meanwhile: only the list's sync time was written.
   */
  unchanged: boolean
}

/**
 * The steps over `items` (checked, and kept once per id, in steps too): yields between steps,
 * returns the merged items in the list's order.
 */
export function* listSteps<T>(items: readonly unknown[], w: ListWrite): Generator<void, ListStepsResult<T>> {
  const plan = (item: Item, row: unknown[] | undefined) => {
    if (!row) return { row: undefined, ...w.merged(item, row), asGiven: false }
    const clean = w.clean(item)
    const json = JSON.stringify(clean)
    // An item whose JSON equals the stored one is left as it is (merging it would change
    // nothing; the list's sync time covers it); only the others are merged and written.
    if (row[0] === json) return { row: row[0], value: clean, json: null, asGiven: true }
    const merged = w.merged(item, row)
    // Merged, it is the row again (its fields in the row's order): nothing to write either. It is
    // the item as given when nothing but the order differs: the merge keeps every field of the
    // item, so a JSON as long as the item's holds no other.
    if (merged.json === row[0])
      return { row: row[0], value: merged.value, json: null, asGiven: merged.json.length === json.length }
    return { row: row[0], ...merged, asGiven: false }
  }
  const order: Item[] = []
  const seen = new Set<string>()
  const plans: ReturnType<typeof plan>[] = []
  const changesBefore = w.changes()
  // The stored membership, read a step at a time beside the items: whether it is the list's order.
  let membersSame = true
  let memberCount = 0
  let lastPosition: unknown = null
  const compareMembers = (limit: number) => {
    const page = w.memberPage(lastPosition, limit)
    for (const [position, id] of page) {
      if (order[memberCount]?.id !== id) membersSame = false
      memberCount++
      lastPosition = position
    }
  }
  for (let start = 0; start < items.length; start += LIST_STEP) {
    const from = order.length
    for (const item of items.slice(start, start + LIST_STEP)) {
      w.check(item)
      if (seen.has(item.id)) continue
      seen.add(item.id)
      order.push(item)
    }
    const step = order.slice(from)
    const rows = w.storedMany(step.map((item) => item.id))
    for (const item of step) plans.push(plan(item, rows.get(item.id)))
    if (membersSame) compareMembers(order.length - memberCount)
    if (start + LIST_STEP < items.length) yield
  }
  // Rows are read again only when the connection wrote anything since they were planned.
  const recheck = w.changes() !== changesBefore
  // Newly seen items enter the catalogue bottom-up, so "newest seen first" keeps the server's order.
  const merged = new Array<T>(order.length)
  let rowsSame = !recheck && order.length === items.length
  for (let i = order.length - 1; i >= 0; i--) {
    const item = order[i] as Item
    const p = plans[i] as ReturnType<typeof plan>
    if (recheck && w.stored(item.id)?.[0] !== p.row) merged[i] = w.upsert(item) as unknown as T
    else {
      if (p.json !== null) w.write(item.id, p.json)
      if (!p.asGiven) rowsSame = false
      merged[i] = p.value as unknown as T
    }
  }
  // Membership is rewritten only when it changed: as compared in the steps (one more stored member
  // means it is longer), or read again whole when the connection wrote meanwhile.
  let same: boolean
  if (recheck) {
    const current = w.memberIds()
    same = current.length === order.length
    for (let i = 0; same && i < current.length; i++) same = current[i] === order[i]?.id
  } else {
    if (membersSame) compareMembers(1)
    same = membersSame && memberCount === order.length
  }
  if (!same) w.setMembers(order.map((i) => i.id))
  w.putHead()
  return { items: merged, unchanged: rowsSame && same }
}
