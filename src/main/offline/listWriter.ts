/**
 * A list read from a server, written as its pages come (SqliteCacheStore.listWriter): each page
 * is planned against the cache in short steps (reads only, listWrite.ts) as it arrives, and the
 * list is written in steps once whole. Every item is checked before anything is written; a reader
 * meanwhile sees the previous list. The answer memory (answers.ts) is kept per page: a page whose
 * bytes are those of the same page of the answer stored last, with nothing written since, is
 * taken as stored, and by its digest alone, before its items are parsed (`takeKnown`: a group of a
 * long answer, api/listGroups.ts), answered with its texts where they were kept, else its rows. On
 * a damaged file nothing more is written and the list reads as its items with nothing stored.
 */
import type { AnswerMemory } from './answers'
import type { WriteCheckpoints } from './checkpoints'
import type { CacheStatements } from './cacheStatements'
import { type Db, writeTransaction } from './db'
import type { KnownPage, ListStepsResult } from './listPorts'
import { ListPlan } from './listWrite'
import { ListText } from './listText'
import * as memberships from './memberships'
import { type JsonRecord, checkItem, mergeItem, scrub } from './merge'
import type { ListWriter, Resource, WriterPage } from './types'
import { nextTurn } from '../turn'

/** Rows read per step where a known page's rows are read from the file (~5 ms). */
const READ_STEP = 1_000

/** A page's ids and rows' texts, in order, and the position of its last member. */
type KnownRows = Extract<KnownPage, { texts: readonly string[] }>

/** What a run of steps ends with when the file turned out damaged. */
const DAMAGED = Symbol('damaged file')

/** What a list's writer works with: the store's connection, statements and answer memory. */
export interface ListWriterDeps {
  db: Db
  s: CacheStatements
  memory: AnswerMemory
  resource: Resource
  scope: string
  syncedAt: string | null
  /** The item merged onto its stored row (`row`: [json, synced_at] or undefined), and that as JSON. */
  merged(item: JsonRecord & { id: string }, row: unknown[] | undefined): { value: JsonRecord; json: string }
  /** Merges the item onto its row as it is now and writes it; the merged item. */
  upsert(item: JsonRecord & { id: string }): JsonRecord
  /** `fn`, or `fallback()` when the file turned out damaged (marked to be rebuilt). */
  guarded<R>(fallback: () => R, fn: () => R): R
  /** When a page is answered as it was answered last (no row read). */
  onRemembered?: () => void
  /** The checkpoints of a write in steps (checkpoints.ts); none for a database in memory. */
  checkpoints?: () => WriteCheckpoints
}

export function openListWriter(d: ListWriterDeps): ListWriter {
  const { db, s, memory, resource, scope, syncedAt } = d
  const remembered = memory.get(resource, scope)
  memory.forgetList(resource, scope)
  const dataVersion = () => Number((s.dataVersion.get() as unknown[])[0])
  const writesBefore = memory.writes
  // The writes this list counted itself (any other one since `writesBefore`: not remembered).
  let ownWrites = 0
  const digests: (string | undefined)[] = []
  // The list's membership now (null, none: a list not stored yet has no members).
  const members = () => memberships.membershipOf(s, resource, scope)
  /** The `limit` members after `position` (null: the first), as [position, id], and their rows. */
  const memberPage = (position: unknown, limit: number, rows?: boolean) => {
    const [first, after] = rows ? [s.memberRowsFirst, s.memberRowsAfter] : [s.membersFirst, s.membersAfter]
    return (
      position === null
        ? first.all(resource, members(), limit)
        : after.all(resource, members(), position, limit)
    ) as unknown[][]
  }
  /** The `count` members after `position`, READ_STEP a step, the last at `last`: their ids and rows. */
  function* memberRows(position: unknown, count: number, last: unknown): Generator<void, KnownRows | null> {
    const [ids, texts]: [string[], string[]] = [[], []]
    while (ids.length < count) {
      if (ids.length > 0) yield
      const rows = memberPage(position, Math.min(READ_STEP, count - ids.length), true)
      if (rows.length === 0) return null
      for (const [at, id, json] of rows) {
        if (typeof json !== 'string') return null
        ids.push(id as string)
        texts.push(json)
        position = at
      }
    }
    return count === 0 || position === last ? { ids, texts, last } : null
  }
  const plan = new ListPlan({
    check: checkItem,
    stored: (id) => s.itemJson.get(resource, id) as unknown[] | undefined,
    storedMany: (ids) =>
      new Map(
        (s.itemsJson.all(resource, JSON.stringify(ids)) as unknown[][]).map((r) => [r[2] as string, r])
      ),
    clean: (item) => scrub(resource, item),
    merged: d.merged,
    upsert: d.upsert,
    write: (id, json) => s.upsertItem.run(resource, id, json, syncedAt),
    changes: () => Number((s.totalChanges.get() as unknown[])[0]),
    touched: () => {
      memory.touched(resource)
      ownWrites++
    },
    remembered: () => d.onRemembered?.(),
    memberIds: () => (s.memberIds.all(resource, members()) as unknown[][]).map((r) => r[0]),
    memberPage,
    newKey: memberships.newMembership,
    stage: (key, from, ids) => s.addMembers.run(resource, key, from, JSON.stringify(ids)),
    staged: (key) => Number((s.memberCount.get(resource, key) as unknown[])[0]),
    publish: (key) => s.publish.run(resource, scope, syncedAt, key),
    release: memberships.releaseMembership,
    collect: memberships.membershipCollector(s, resource),
    putHead: () => s.putHead.run(resource, scope, syncedAt, memberships.emptyMembership())
  })
  /** With nothing stored: the item as the list would hold it (a damaged file). */
  const unstored = (item: unknown) => {
    checkItem(item)
    return JSON.stringify(scrub(resource, mergeItem(null, item)))
  }
  /** The file is damaged: nothing more is written, the list reads as its items with nothing stored. */
  let broken: string[] | null = null
  let amended = false
  /** Page k has the bytes of the same page of the answer stored last, and nothing was written since. */
  const sameAnswer = (k: number, digest: string | undefined) =>
    digest !== undefined && remembered?.digests[k] === digest && memory.writes === writesBefore
  const page = (items: readonly unknown[], opts: WriterPage): Generator<void, void> => {
    const k = digests.length
    digests.push(opts.digest)
    ahead.delete(k) // its rows, if read ahead, not needed: its items are here
    const asStored = sameAnswer(k, opts.digest)
    const stored = asStored ? storedPage(k) : undefined
    return plan.add(items, {
      asStored,
      ...(stored && 'texts' in stored ? { stored } : {}),
      ...(opts.exact ? { exact: opts.exact } : {}),
      ...(opts.release ? { release: true } : {})
    })
  }
  /**
   * Page k as answered last, when nothing was committed to the file since (by any connection): its
   * items' ids and texts where they were kept, else how many members it had (their rows read).
   */
  const storedPage = (k: number): KnownPage | undefined => {
    const placed = remembered?.placed
    const end = placed?.pages[k]
    if (!placed || !end || placed.connection !== db || placed.version !== dataVersion()) return undefined
    const from = placed.pages[k - 1]?.end ?? 0
    const stored = remembered?.stored
    if (!stored) return { count: end.end - from, last: end.last }
    return { ids: stored.ids.slice(from, end.end), texts: stored.texts.slice(from, end.end), last: end.last }
  }
  /** Where page k's members began in the answer stored last: after the position of page k - 1's last. */
  const after = (k: number) => (k === 0 ? null : remembered?.placed?.pages[k - 1]?.last)
  /** Page k's rows read from the file (begun once: ahead of its bytes, by `expects`). */
  const ahead = new Map<number, Promise<KnownRows | null | typeof DAMAGED>>()
  const rowsOf = (k: number, page: { count: number; last: unknown }) => {
    let rows = ahead.get(k)
    if (!rows)
      ahead.set(k, (rows = inSteps(memberRows(after(k), page.count, page.last), false).catch(() => null)))
    return rows
  }
  /**
   * Whether page k may be taken by its digest: one of the answer stored last was answered there.
   * Where its rows are then read from the file, they are read now, while its bytes come.
   */
  const expects = (k = digests.length) => {
    const may = !broken && remembered?.placed?.pages[k] !== undefined && memory.writes === writesBefore
    const stored = may && !remembered?.stored && k >= digests.length ? storedPage(k) : undefined
    if (stored && 'count' in stored) void rowsOf(k, stored)
    return may
  }
  /**
   * The next page, known by its digest to be the same page of the answer stored last, taken as
   * answered then (its items never parsed), where nothing was written since: whether it was.
   */
  const takeKnown = async (digest: string, count?: number): Promise<boolean> => {
    const k = digests.length
    if (broken || !sameAnswer(k, digest)) return false
    const stored = storedPage(k)
    const size = stored && ('count' in stored ? stored.count : stored.ids.length)
    const end = plan.membersEnd
    if (!stored || !end || (count !== undefined && size !== count)) return false
    let page = stored
    if ('count' in page) {
      // Its rows, read over several turns after where the members so far end, are taken only if
      // nothing was written or committed meanwhile.
      if (end.position !== after(k)) return false
      const rows = await rowsOf(k, page)
      ahead.delete(k)
      if (rows === DAMAGED || !rows || digests.length !== k || !sameAnswer(k, digest) || !storedPage(k))
        return false
      page = rows
    }
    if (!plan.addKnown(page)) return false
    digests.push(digest)
    return true
  }
  /** After the last step committed: remembers an answer whose items are now stored as given. */
  const finished = (r: ListStepsResult): ListText => {
    if (!r.unchanged) {
      memory.touched(resource)
      ownWrites++
    }
    // Remembered where the same answer would next be found stored as given: nothing written by
    // the list (unchanged), or only the items as given (the first list of new items, say).
    if (
      (r.unchanged || r.asGiven) &&
      !amended &&
      digests.length > 0 &&
      digests.every((d): d is string => d !== undefined)
    )
      memory.remember(resource, scope, digests, writesBefore + ownWrites, {
        ids: plan.order,
        texts: r.texts,
        pages: plan.pages,
        connection: db,
        version: dataVersion()
      })
    return new ListText(r.texts)
  }
  /**
   * Runs one step (in a transaction when it writes: a step that only reads needs none, its
   * statements run with nothing between them); null when the file turned out damaged.
   */
  const step = <R>(run: Generator<void, R>, writes: boolean): IteratorResult<void, R> | null =>
    d.guarded(
      () => {
        run.return(undefined as R)
        return null
      },
      () => (writes ? writeTransaction(db, () => run.next()) : run.next())
    )
  /** Runs every step, the event loop free before each; what it returns, or DAMAGED. */
  const inSteps = async <R>(run: Generator<void, R>, writes: boolean): Promise<R | typeof DAMAGED> => {
    const checkpoints = writes ? d.checkpoints?.() : undefined
    try {
      for (;;) {
        // Each step in a turn of its own: none runs on from the caller's work (a page's parse).
        await nextTurn()
        const r = step(run, writes)
        if (r === null) return DAMAGED
        if (r.done) return r.value
        await checkpoints?.step()
      }
    } finally {
      await checkpoints?.finish()
    }
  }
  return {
    expects,
    expected: () => (expects() ? remembered?.digests[digests.length] : undefined),
    takeKnown,
    planned: (from) => ({ ids: plan.order.slice(from), texts: plan.planned(from) }),
    get order() {
      return plan.order
    },
    async add(items, opts = {}) {
      if (!broken) {
        const before = plan.length
        if ((await inSteps(page(items, opts), false)) !== DAMAGED) return
        // With `release`, what the page's steps that ended planned (their items let go).
        broken = plan.fallback().slice(0, opts.release ? plan.settled : before)
      }
      for (const item of items) if (!opts.release || item !== undefined) broken.push(unstored(item))
    },
    async finish(amend = {}) {
      const first = amend.first ?? []
      if (!broken && (first.length > 0 || amend.leaveOut)) {
        amended = true
        const leaveOut = amend.leaveOut ?? (() => false)
        if ((await inSteps(plan.amend(first, leaveOut), false)) === DAMAGED) broken = plan.fallback()
      }
      if (broken) return new ListText(broken)
      const result = await inSteps(plan.write(), true)
      return result === DAMAGED ? new ListText(plan.fallback()) : finished(result)
    },
    *steps(items, answer) {
      yield* page(items, answer === undefined ? {} : { digest: answer })
      return finished(yield* plan.write())
    }
  }
}
