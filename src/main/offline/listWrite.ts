/**
 * How the cache stores a list read from a server (SqliteCacheStore.listWriter, putList,
 * putListInSteps): first what to write, page by page as the pages come, in steps of LIST_STEP
 * items with only reads (each item checked, scrubbed, compared with its row and merged onto it,
 * and the stored membership compared with the list's order as far as it goes), keeping of each
 * item its id and texts (its row's JSON, what to write), not the item; then the writes, in steps
 * of WRITE_STEP rows that each leave the cache whole, so that a long list never holds the process
 * for long and a crash at any point leaves the old list or the new one, never a mixture:
 * 1. rows of items the cache did not hold (no stored list names them, so nothing shows them yet);
 * 2. the new membership under a new key that no list points to yet ("staged");
 * 3. in one step, the rows of items the cache held (as planned, or merged again when something
 *    else wrote meanwhile), the list pointed at its new membership, and its sync time;
 * 4. memberships no list points to any more (the old one, or what a crash left) deleted.
 * Run in one transaction (putList), the same steps write the same result. What the steps end
 * with is each item's row as text, in order (the list's answer, offline/listText.ts).
 */
import type { Item, ListStepsResult, ListWrite, PageEnd, PageOptions } from './listPorts'
import { compactTexts } from './planTexts'

type Given = string | Item // an item to merge again: its JSON, or itself when that loses something

/** Items per step (each step is one short transaction when run apart). */
export const LIST_STEP = 250
/** Rows written per step. */
export const WRITE_STEP = 250

/**
 * A list's write, planned page by page as the pages come (reads only, as above), then written in
 * steps (`write`). Between pages it holds text and ids, not the items: a list of 100,000 is no
 * object graph for the garbage collector to copy and mark while the rest of it comes.
 */
export class ListPlan {
  /** Per item, in the list's order: */
  private ids: string[] = []
  /** its row's JSON when planned (undefined: a new item), */
  private rows: (string | undefined)[] = []
  /** the JSON to write (null: nothing), */
  private writes: (string | null)[] = []
  /** whether its row holds the item's fields and no other, */
  private asGiven: boolean[] = []
  /** and the item to merge again onto a row that changed meanwhile: its JSON, or itself when that loses something. */
  private given: Given[] = []
  private readonly seen = new Set<string>()
  private duplicates = false
  private readonly changesBefore: number
  // The stored membership, read a step at a time beside the items: whether it is the list's order.
  private membersSame = true
  private memberCount = 0
  private lastPosition: unknown = null
  /** Per page planned: the items up to its end, and the position of its last member as compared. */
  private readonly pageEnds: PageEnd[] = []

  constructor(private readonly w: ListWrite) {
    this.changesBefore = w.changes()
  }

  /** Items planned so far. */
  get length(): number {
    return this.ids.length
  }

  /** Items planned by the steps that ended (a step cut short by a failure planned none). */
  get settled(): number {
    return this.settledLength
  }
  private settledLength = 0

  /** Per page planned: the items up to its end, and the position of its last member as compared. */
  get pages(): readonly PageEnd[] {
    return this.pageEnds
  }

  /** Plans a page: checks its items (throws for one the cache cannot keep), in steps of LIST_STEP. */
  *add(items: readonly unknown[], opts: PageOptions = {}): Generator<void, void> {
    const exact = opts.exact ?? (() => false)
    // The page as answered last, its members compared then: taken whole, or not at all.
    const known =
      opts.asStored &&
      opts.stored?.texts.length === items.length &&
      this.membersSame &&
      this.memberCount === this.ids.length
        ? opts.stored
        : undefined
    this.settledLength = this.ids.length
    for (let start = 0; start < items.length; start += LIST_STEP) {
      if (start > 0) yield
      const step: Item[] = []
      const at: number[] = [] // each one's place in the page
      for (let i = start; i < Math.min(items.length, start + LIST_STEP); i++) {
        const item = items[i]
        this.w.check(item)
        if (this.seen.has(item.id)) {
          this.duplicates = true
          continue
        }
        this.seen.add(item.id)
        step.push(item)
        at.push(i)
      }
      if (known) {
        // An item read by zod is answered as it came, as below.
        step.forEach((item, k) => {
          const text = exact(item) ? known.texts[at[k] as number] : undefined
          if (text !== undefined) this.push(item.id, text, null, true, text)
          else this.push(item.id, JSON.stringify(this.w.clean(item)), null, true, item)
        })
        this.memberCount += step.length
        this.settle(items, start, opts.release)
        continue
      } else if (opts.asStored) {
        // The answer stored, nothing written since: the members are these items in order, each row the
        // item's JSON, read with them (compared as always), not written out again (~9 ms a 1,000).
        const aligned = this.membersSame && this.memberCount === this.ids.length
        const members = aligned ? this.w.memberPage(this.lastPosition, step.length, true) : []
        step.forEach((item, k) => {
          const [, id, json] = members[k] ?? []
          const whole = exact(item)
          const row = whole && id === item.id && typeof json === 'string' ? json : undefined
          const text = row ?? JSON.stringify(this.w.clean(item))
          this.push(item.id, text, null, true, whole ? text : item)
        })
        this.compareMembers(members.length, members)
      } else {
        const rows = this.w.storedMany(step.map((item) => item.id))
        for (const item of step) this.plan(item, rows.get(item.id)?.[0] as string | undefined, exact(item))
      }
      if (this.membersSame) this.compareMembers(this.ids.length - this.memberCount)
      compactTexts({ rows: this.rows, writes: this.writes, given: this.given }, this.ids.length - step.length)
      this.settle(items, start, opts.release)
    }
    if (known) {
      this.lastPosition = known.last
      this.w.remembered()
    }
    this.pageEnds.push({ end: this.ids.length, last: this.lastPosition })
  }

  /** Where the members so far are the list's order: the position of the last one (null: none). */
  get membersEnd(): { position: unknown } | undefined {
    return this.membersSame && this.memberCount === this.ids.length
      ? { position: this.lastPosition }
      : undefined
  }

  /**
   * Plans a page known to be the same page of the answer stored last (by its bytes' digest), with
   * nothing committed to the file since, as it was answered then (its items' ids and rows' texts,
   * in order, and the position of its last member): no item is read, nor any row. Only where the
   * members so far are the list's order, and no id came before: whether it did.
   */
  addKnown(page: { ids: readonly string[]; texts: readonly string[]; last: unknown }): boolean {
    const { ids, texts } = page
    if (!this.membersEnd || ids.some((id) => this.seen.has(id))) return false
    ids.forEach((id, i) => {
      const text = texts[i] as string
      this.seen.add(id)
      this.push(id, text, null, true, text)
    })
    this.memberCount += ids.length
    this.lastPosition = page.last
    this.settledLength = this.ids.length
    this.w.remembered()
    this.pageEnds.push({ end: this.ids.length, last: this.lastPosition })
    return true
  }

  /** Each item's id, in the list's order. */
  get order(): readonly string[] {
    return this.ids
  }

  /** Texts of items `from` on, as planned: each one's row once written (unless it changes meanwhile). */
  planned(from: number): string[] {
    return this.writes.slice(from).map((w, k) => w ?? (this.rows[from + k] as string))
  }

  /** A step from `start` planned: its items let go when the page is the plan's (`release`). */
  private settle(items: readonly unknown[], start: number, release: boolean | undefined) {
    this.settledLength = this.ids.length
    if (release) (items as unknown[]).fill(undefined, start, Math.min(items.length, start + LIST_STEP))
  }

  private push(id: string, row: string | undefined, write: string | null, asGiven: boolean, given: Given) {
    this.ids.push(id)
    this.rows.push(row)
    this.writes.push(write)
    this.asGiven.push(asGiven)
    this.given.push(given)
  }

  private plan(item: Item, row: string | undefined, exact: boolean) {
    if (row === undefined) {
      // Merged onto nothing, an item whose JSON holds all of it is that JSON (the merge copies
      // every field but an undefined one, in order): no copy made.
      if (exact) {
        const json = JSON.stringify(this.w.clean(item))
        return this.push(item.id, undefined, json, false, json)
      }
      return this.push(item.id, undefined, this.w.merged(item, undefined).json, false, item)
    }
    const json = JSON.stringify(this.w.clean(item))
    const given = exact ? json : item
    // An item whose JSON equals the stored one is left as it is (merging it would change
    // nothing; the list's sync time covers it); only the others are merged and written.
    if (row === json) return this.push(item.id, row, null, true, given)
    const merged = this.w.merged(item, [row])
    // Merged, it is the row again (its fields in the row's order): nothing to write either. It is
    // the item as given when nothing but the order differs: the merge keeps every field of the
    // item, so a JSON as long as the item's holds no other.
    if (merged.json === row) return this.push(item.id, row, null, merged.json.length === json.length, given)
    this.push(item.id, row, merged.json, false, given)
  }

  /** The next `limit` stored members (or `page`, read so already) compared with the list's order. */
  private compareMembers(limit: number, page = limit > 0 ? this.w.memberPage(this.lastPosition, limit) : []) {
    for (const [position, id] of page) {
      if (this.ids[this.memberCount] !== id) this.membersSame = false
      this.memberCount++
      this.lastPosition = position
    }
  }

  /**
   * Items to list first (planned now, against their rows as they are), and items to leave out
   * (deleted while the pages came): the membership is then written whole.
   */
  *amend(first: readonly unknown[], leaveOut: (id: string) => boolean): Generator<void, void> {
    const keep: number[] = []
    for (let i = 0; i < this.ids.length; i++) if (!leaveOut(this.ids[i] as string)) keep.push(i)
    if (first.length === 0 && keep.length === this.ids.length) return
    const body = {
      ids: this.ids,
      rows: this.rows,
      writes: this.writes,
      asGiven: this.asGiven,
      given: this.given
    }
    this.ids = []
    this.rows = []
    this.writes = []
    this.asGiven = []
    this.given = []
    this.seen.clear()
    for (const i of keep) this.seen.add(body.ids[i] as string)
    this.membersSame = false
    const head = first.filter((item) => {
      this.w.check(item)
      return !this.seen.has(item.id)
    })
    yield* this.add(head)
    for (const i of keep)
      this.push(
        body.ids[i] as string,
        body.rows[i],
        body.writes[i] as string | null,
        body.asGiven[i] as boolean,
        body.given[i] as Given
      )
    this.duplicates = true // not the answer as it came: never taken as stored
  }

  /** Whether each item's row, once written, is the item as given (stored so, or written as its JSON). */
  private writtenAsGiven(): boolean {
    const { writes, given } = this
    return !this.duplicates && this.asGiven.every((same, i) => same || writes[i] === given[i])
  }

  /** The items planned so far as the list would hold them with nothing stored (a damaged file). */
  fallback(): string[] {
    return this.given.map((g) =>
      typeof g === 'string' ? g : JSON.stringify(this.w.merged(g, undefined).value)
    )
  }

  /** Writes the planned list in steps (yields between them); each item's row as text, in order. */
  *write(): Generator<void, ListStepsResult> {
    const { w, ids, rows, writes, asGiven, given } = this
    const n = ids.length
    // From here on the steps write. What the connection writes besides them (another call between
    // two steps, or while the pages came) is told by its count of changes less theirs: rows are
    // then read again and merged. (Counted per step: nothing else runs within one.)
    let mine = 0
    let base = 0
    // Whether any step found writes besides the list's own (then rows were read again).
    let meanwhile = false
    const stepStarts = () => {
      base = w.changes()
      const other = base !== this.changesBefore + mine
      meanwhile ||= other
      return other
    }
    const stepEnds = () => (mine += w.changes() - base)
    if (this.membersSame) this.compareMembers(1)
    const sameAtPlan = this.membersSame && this.memberCount === n
    const texts = new Array<string>(n)
    let rowsSame = !this.duplicates
    let touched = false
    /** Tells the cache, once, before the first write that may change what the lists show. */
    const touch = () => {
      if (touched) return
      touched = true
      w.touched()
    }
    /** Item i's row: as planned, or merged onto the row as it is now when it changed meanwhile. */
    const settle = (i: number, recheck: boolean) => {
      const id = ids[i] as string
      const write = writes[i] as string | null
      if (write !== null || recheck) touch()
      if (recheck && w.stored(id)?.[0] !== rows[i]) {
        rowsSame = false
        const g = given[i] as Given
        texts[i] = JSON.stringify(w.upsert(typeof g === 'string' ? (JSON.parse(g) as Item) : g))
        return
      }
      if (write !== null) w.write(id, write)
      if (!asGiven[i]) rowsSame = false
      texts[i] = write ?? (rows[i] as string)
    }
    // 1. Items new to the cache, bottom-up: newly seen items enter the catalogue in that order, so
    //    "newest seen first" keeps the server's order.
    let recheck = stepStarts()
    if (recheck) rowsSame = false
    let inStep = 0
    for (let i = n - 1; i >= 0; i--) {
      if (rows[i] !== undefined) continue
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
      w.stage(key, 0, ids)
      return key
    }
    // 2. A membership that differs from the stored one is staged under a new key.
    let key: string | null = null
    try {
      if (!sameAtPlan) {
        touch()
        key = w.newKey()
        for (let from = 0; from < n; from += WRITE_STEP) {
          if (from > 0 || inStep > 0) yield
          inStep = 0
          stepStarts()
          w.stage(key, from, ids.slice(from, from + WRITE_STEP))
          stepEnds()
        }
      }
      if (inStep > 0 || key !== null) yield
      // 3. The rows the cache held, and the list pointed at its membership, in one step.
      recheck = stepStarts()
      if (recheck) rowsSame = false
      for (let i = n - 1; i >= 0; i--) {
        if (rows[i] !== undefined) settle(i, recheck)
        // A row step 1 wrote that was changed or removed meanwhile (an edit, a clear) is merged or
        // written again, so the list never points at a missing row.
        else if (recheck && w.stored(ids[i] as string)?.[0] !== texts[i]) settle(i, true)
      }
      let same = key === null
      if (key === null && recheck) {
        // Nothing staged, but the membership may have changed meanwhile: compared again whole.
        const current = w.memberIds()
        same = current.length === n
        for (let i = 0; same && i < current.length; i++) same = current[i] === ids[i]
        if (!same) {
          touch()
          key = restage(null)
        }
      }
      if (key !== null && recheck && w.staged(key) !== n) {
        // Members staged earlier went meanwhile (a clear, a removal): staged again whole.
        key = restage(key)
      }
      if (key !== null) {
        w.publish(key)
        // Staged afresh, each member at its index: where each page's last one now is.
        for (const page of this.pageEnds) page.last = page.end > 0 ? page.end - 1 : null
      } else w.putHead()
      // 4. Memberships no list points to.
      if (key !== null) {
        w.release(key)
        key = null
        while (w.collect(WRITE_STEP)) yield
      }
      return { texts, unchanged: rowsSame && same, asGiven: !meanwhile && this.writtenAsGiven() }
    } finally {
      // A write that failed or was abandoned leaves its staged membership to be collected.
      if (key !== null) w.release(key)
    }
  }
}
