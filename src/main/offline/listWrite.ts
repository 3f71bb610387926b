/**
 * How the cache stores a list read from a server (SqliteCacheStore.putList / putListInSteps):
 * first what to write, in steps of LIST_STEP items with only reads (each item checked, scrubbed,
 * compared with its row and merged onto it, and the stored membership compared with the list's
 * order as far as it goes); then the writes, in steps of WRITE_STEP rows that each leave the
 * cache whole, so that a long list never holds the process for long and a crash at any point
 * leaves the old list or the new one, never a mixture:
 * 1. rows of items the cache did not hold (no stored list names them, so nothing shows them yet);
 * 2. the new membership under a new key that no list points to yet ("staged");
 * 3. in one step, the rows of items the cache held (as planned, or merged again when something
 *    else wrote meanwhile), the list pointed at its new membership, and its sync time;
 * 4. memberships no list points to any more (the old one, or what a crash left) deleted.
 * Run in one transaction (putList), the same steps write the same result.
 */
import type { JsonRecord } from './merge'

/** Items per step (each step is one short transaction when run apart). */
export const LIST_STEP = 250
/** Rows written per step. */
export const WRITE_STEP = 250

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
  /** The rows the connection has changed so far (SQLite's total_changes()). */
  changes(): number
  /** Before the first write that may change what the resource's lists show. */
  touched(): void
  memberIds(): unknown[]
  /** Up to `limit` stored members ([position, id]) after `position` (from the first when null). */
  memberPage(position: unknown, limit: number): unknown[][]
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
  // From here on the steps write. What the connection writes besides them (another call between
  // two steps) is told by its count of changes less theirs: rows are then read again and merged.
  // (Counted per step: nothing else runs within one.)
  let mine = 0
  let base = 0
  const stepStarts = () => {
    base = w.changes()
    return base !== changesBefore + mine
  }
  const stepEnds = () => (mine += w.changes() - base)
  if (membersSame) compareMembers(1)
  const sameAtPlan = membersSame && memberCount === order.length
  const merged = new Array<T>(order.length)
  let rowsSame = order.length === items.length
  let touched = false
  /** Tells the cache, once, before the first write that may change what the lists show. */
  const touch = () => {
    if (touched) return
    touched = true
    w.touched()
  }
  /** The JSON written for each item new to the cache (step 1), to see whether it changed since. */
  const wrote: (string | undefined)[] = []
  /** Item i's row: as planned, or merged onto the row as it is now when it changed meanwhile. */
  const settle = (i: number, recheck: boolean) => {
    const item = order[i] as Item
    const p = plans[i] as ReturnType<typeof plan>
    if (p.json !== null || recheck) touch()
    if (recheck && w.stored(item.id)?.[0] !== p.row) {
      rowsSame = false
      merged[i] = w.upsert(item) as unknown as T
      wrote[i] = JSON.stringify(merged[i])
      return
    }
    if (p.json !== null) w.write(item.id, (wrote[i] = p.json))
    if (!p.asGiven) rowsSame = false
    merged[i] = p.value as unknown as T
  }
  // 1. Items new to the cache, bottom-up: newly seen items enter the catalogue in that order, so
  //    "newest seen first" keeps the server's order.
  let recheck = stepStarts()
  if (recheck) rowsSame = false
  let inStep = 0
  for (let i = order.length - 1; i >= 0; i--) {
    if ((plans[i] as ReturnType<typeof plan>).row !== undefined) continue
    settle(i, recheck)
    if (++inStep === WRITE_STEP) {
      inStep = 0
      stepEnds()
      yield
      recheck = stepStarts()
      if (recheck) rowsSame = false
    }
  }
  stepEnds()
  /** A new key holding the whole membership, in this step (`old`, released). */
  const restage = (old: string | null): string => {
    if (old !== null) w.release(old)
    const key = w.newKey()
    w.stage(
      key,
      0,
      order.map((i) => i.id)
    )
    return key
  }
  // 2. A membership that differs from the stored one is staged under a new key.
  let key: string | null = null
  try {
    if (!sameAtPlan) {
      touch()
      key = w.newKey()
      for (let from = 0; from < order.length; from += WRITE_STEP) {
        if (from > 0 || inStep > 0) yield
        inStep = 0
        stepStarts()
        w.stage(
          key,
          from,
          order.slice(from, from + WRITE_STEP).map((i) => i.id)
        )
        stepEnds()
      }
    }
    if (inStep > 0 || key !== null) yield
    // 3. The rows the cache held, and the list pointed at its membership, in one step.
    recheck = stepStarts()
    if (recheck) rowsSame = false
    for (let i = order.length - 1; i >= 0; i--) {
      if ((plans[i] as ReturnType<typeof plan>).row !== undefined) settle(i, recheck)
      // A row step 1 wrote that was changed or removed meanwhile (an edit, a clear) is merged or
      // written again, so the list never points at a missing row.
      else if (recheck && w.stored((order[i] as Item).id)?.[0] !== wrote[i]) settle(i, true)
    }
    let same = key === null
    if (key === null && recheck) {
      // Nothing staged, but the membership may have changed meanwhile: compared again whole.
      const current = w.memberIds()
      same = current.length === order.length
      for (let i = 0; same && i < current.length; i++) same = current[i] === order[i]?.id
      if (!same) {
        touch()
        key = restage(null)
      }
    }
    if (key !== null && recheck && w.staged(key) !== order.length) {
      // Members staged earlier went meanwhile (a clear, a removal): staged again whole.
      key = restage(key)
    }
    if (key !== null) w.publish(key)
    else w.putHead()
    // 4. Memberships no list points to.
    if (key !== null) {
      w.release(key)
      key = null
      while (w.collect(WRITE_STEP)) yield
    }
    return { items: merged, unchanged: rowsSame && same }
  } finally {
    // A write that failed or was abandoned leaves its staged membership to be collected.
    if (key !== null) w.release(key)
  }
}
