/**
 * The generic endpoint shapes every resource uses (get one, list, create/update, delete) on top
 * of the transport, with tolerant parsing: lists drop unusable items, `data: null` or `{}` where
 * an object was due means "not found", fields the server left out are filled from the request.
 */
import { z } from 'zod'
import { AppError } from '../../shared/errors'
import { asIsCheck } from '../../shared/fields'
import { isRecord } from './normalize'
import { TakenAnswer, type Call, type KnownAnswer, type Transport } from './transport'
import { PageOrder } from './pageOrder'
import { LATER_GROUP, type KnownPage, type KnownPages, type ListGroups } from './listGroups'
import { answerDigest, foundAsIs, markAnswer, pagesDigest, readAsIs } from './answerDigest'
import { nextTurn } from '../turn'
import { capAt, LIST_PAGE, LIST_PAGING, LIST_PARSE_STEP, NOTHING_THERE, PAGING_REFUSED } from './listPaging'

export function isEmptyObject(v: unknown): boolean {
  return isRecord(v) && Object.keys(v).length === 0
}

/** Fills keys the server left out (undefined) with what the client sent; server values win. */
export function fillMissing<T extends Record<string, unknown>>(result: T, known: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...result }
  for (const [k, v] of Object.entries(known)) {
    if (v !== undefined && out[k] === undefined) out[k] = v
  }
  return out as T
}

export function pick(obj: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const k of keys) if (obj[k] !== undefined) out[k] = obj[k]
  return out
}

export function protocol(message: string): AppError {
  return new AppError({ kind: 'protocol', message })
}

/** The code of a create the server accepted (success envelope) without sending the new item. */
export const ACCEPTED_WITHOUT_ANSWER = 'accepted_without_answer'

/**
 * A create answered `success: true` with no item (`data: null` or `{}`): the server stored it, so
 * this is not "not found"; the caller refreshes the list to show it.
 */
export function acceptedWithoutAnswer(what: string): AppError {
  return new AppError({
    kind: 'protocol',
    code: ACCEPTED_WITHOUT_ANSWER,
    message: `The server accepted the new ${what} without sending it back: the list is refreshed to show it`
  })
}

/** One page of a list as `pages` hands it on. */
export interface ListPage {
  /** The digest of the bytes it was parsed from (answerDigest.ts). */
  digest: string | undefined
  /** The list came whole (the server does not page it). */
  whole: boolean
  /** Whether the item came as it was in the JSON (not read by zod): its JSON text holds all of it. */
  exact: (item: unknown) => boolean
  /**
   * The items' array is the taker's to change (the cache's writer lets each item go once planned):
   * nothing else holds the answer's items by then.
   */
  release: true
}

/**
 * What takes a list's pages (`pages`): each page's items as they came, and perhaps pages it knows
 * by their digest (`known`), which it then takes unparsed.
 */
export type PageTaker<T> = ((items: T[], page: ListPage) => Promise<void>) & { known?: KnownPages }

/** The endpoint helpers over one transport. */
export function endpoints(t: Transport) {
  const request = (call: Call, groups?: ListGroups, known?: KnownAnswer<KnownPage>) =>
    t.request(call, groups, known)

  function parseOne<S extends z.ZodType<Record<string, unknown>>>(
    schema: S,
    data: unknown,
    what: string
  ): z.output<S> {
    if (data === null || data === undefined || isEmptyObject(data)) {
      throw new AppError({ kind: 'not_found', message: `The ${what} was not found`, code: 'not_found' })
    }
    if (!isRecord(data)) throw protocol(`The server's answer for the ${what} was not an object`)
    const r = schema.safeParse(data)
    if (r.success) return r.data
    if (data.id === undefined || data.id === null || data.id === '') {
      throw new AppError({ kind: 'not_found', message: `The ${what} was not found`, code: 'not_found' })
    }
    throw protocol(`The server's answer for the ${what} could not be read`)
  }

  /**
   * A list's items, each by the tolerant schema, LIST_PARSE_STEP at a time with the event loop
   * free before each step: the answer's JSON.parse and the validation of all its items are no
   * longer one block (a 2,000-item page: JSON.parse, zod and a GC in one turn, 40–60 ms). Also
   * which items zod read (`read`): the others are kept as they came, so their JSON holds all of
   * them; a tolerant schema's `undefined` fields ("keep what is known") have no JSON.
   */
  async function parseItems<S extends z.ZodType>(
    schema: S,
    data: unknown,
    what: string
  ): Promise<{ items: z.output<S>[]; read: Set<unknown> }> {
    if (!Array.isArray(data)) throw protocol(`The server's list of ${what}s was not a list`)
    const read = new Set<unknown>()
    // The same bytes as an answer whose every item read as itself.
    const digest = answerDigest(data)
    if (readAsIs(schema, digest)) {
      // Still a turn of its own, as the checks below begin: a long page's arrival (its parse, in
      // the loop's poll phase) and the cache's first planning step (an immediate) are not one
      // iteration of the loop, with no timer or message run between them (blocks of 60–70 ms at
      // 100,000 agents).
      if (data.length > LIST_PARSE_STEP) await nextTurn()
      return { items: data as z.output<S>[], read } // the answer's own array, handed on
    }
    // An item the schema would read as itself is kept as it came (no copy): every item of a
    // well-behaved server. Others are read by zod (and dropped when they cannot be read).
    const asIs = asIsCheck(schema)
    const items: z.output<S>[] = []
    for (let i = 0; i < data.length; i++) {
      if (i % LIST_PARSE_STEP === 0 && data.length > LIST_PARSE_STEP) await nextTurn()
      const item: unknown = data[i]
      data[i] = undefined // held by `items` alone from here (ListPage.release)
      if (asIs?.(item)) {
        items.push(item as z.output<S>)
        continue
      }
      const r = schema.safeParse(item)
      if (r.success) {
        items.push(r.data)
        read.add(r.data)
      }
    }
    if (read.size === 0 && items.length === data.length) foundAsIs(schema, digest)
    return { items, read }
  }

  const enc = encodeURIComponent

  async function get<S extends z.ZodType<Record<string, unknown>>>(
    op: string,
    path: string,
    schema: S,
    what: string
  ): Promise<z.output<S>> {
    return parseOne(schema, await request({ op, method: 'GET', path, auth: true, scope: 'item', what }), what)
  }
  /**
   * A list, page by page as `onPage` takes them. Where the server pages lists (`skip`/`take`,
   * decisions.md: the local service does), it is read a page at a time: no answer grows past the
   * transport's limit however long the list, each page is parsed on its own and main's event loop
   * runs between pages. A server that ignores the parameters answers the whole list at once (more
   * than a page, or the same first page again: then, a whole page of `take` being perhaps not the
   * whole list, it is read whole) and one that refuses them (4xx) is asked without them; either
   * is remembered. One that gives fewer than asked for (a cap on `take`) is read a
   * capped page at a time (capAt). The next page is asked for before `onPage` takes this one.
   * A whole list in one long answer goes to `onPage` a page's worth at a time as it arrives
   * (listGroups.ts), each such group a page of its own; a group whose items read as themselves
   * (readAsIs) and that `onPage.known` takes by its digest is not parsed, nor handed to `onPage`;
   * nor is such a page of a paged list (read whole once it came, transport.ts' KnownAnswer).
   */
  async function pages<S extends z.ZodType>(
    op: string,
    path: string,
    schema: S,
    what: string,
    query: Record<string, string> | undefined,
    onPage: PageTaker<z.output<S>>
  ): Promise<void> {
    const base: Call = { op, method: 'GET', path, auth: true, scope: 'collection', what }
    // An item that moved across a page boundary while paging (a new item first) comes twice: the
    // taker keeps it once (`list` below; the cache's list writer keeps the first of an id).
    const take = async (data: unknown, whole: boolean) => {
      const digest = answerDigest(data)
      const { items, read } = await parseItems(schema, data, what)
      await onPage(items, { digest, whole, exact: (item) => !read.has(item), release: true })
    }
    const page = t.listPageSize ?? LIST_PAGE
    // A long answer's groups, as they arrive: the answer then held the whole list, and every group
    // went on (the request answers nothing more).
    let grouped = false
    const groups: ListGroups = {
      size: page,
      later: Math.min(page, LATER_GROUP),
      take: async (items) => {
        grouped = true
        await take(items, true)
      }
    }
    // Taken by their digests where the answer is the whole list (no paging), in groups; a page of
    // a paged list, whole (knownPage below).
    const known = onPage.known
    const wholeGroups: ListGroups = known
      ? {
          ...groups,
          known: {
            expects: () => known.expects(),
            next: () => known.next?.(),
            take: async (digest, of) => {
              const took = readAsIs(schema, digest) ? await known.take(digest, of) : null
              if (took) grouped = true
              return took
            }
          }
        }
      : groups
    const once = async () => {
      const data = await request(query ? { ...base, query } : base, wholeGroups)
      if (!grouped) await take(data, true)
    }
    const caps = t.capabilities
    if (!caps || caps.get(LIST_PAGING) === 'not_offered') return once()
    const firstId = (items: unknown[]) => (isRecord(items[0]) ? items[0].id : undefined)
    let first: unknown
    let firstLength = 0
    // What a full page holds: `page`, or less where the server gives at most so many (a cap).
    let size = page
    // Page k the taker may know (the same page of the answer it stored last): read whole, and taken
    // by its digest, unparsed, once the pages before it were handed on (pageOrder.ts).
    const order =
      known &&
      new PageOrder(
        known,
        (digest) => readAsIs(schema, digest),
        (skip, k) => ask(skip, k),
        () => size === page && caps.get(LIST_PAGING) === 'offered'
      )
    const ask = (skip: number, k: number): Promise<unknown> =>
      request(
        { ...base, query: { ...query, skip: String(skip), take: String(page) } },
        skip === 0 ? groups : undefined,
        order?.answer(k, skip, size)
      )
    // The page asked for may be past the list's end: the one before it came short, of a length
    // that may be the server's cap (capAt). It comes empty or refused (NOTHING_THERE): the list
    // was whole. Any other failure is thrown: the list may go on past it.
    let pastEnd = false
    // A full new page means there may be more: the next one is asked for before this one is
    // validated, so that the server prepares (and the network carries) it meanwhile.
    let next: Promise<unknown> | null = null
    try {
      for (let skip = 0, k = 0; ; k++) {
        let data: unknown
        try {
          data = await (next ?? ask(skip, k))
        } catch (e) {
          if (pastEnd && AppError.is(e) && NOTHING_THERE.has(e.status ?? 0)) return
          if (skip > 0 || !AppError.is(e) || !PAGING_REFUSED.has(e.status ?? 0)) throw e
          caps.set(LIST_PAGING, 'not_offered')
          return once()
        }
        next = null
        if (grouped) {
          caps.set(LIST_PAGING, 'not_offered') // page one held the whole list, and went on in groups
          return
        }
        // Taken as the page the taker knows: its length and first id.
        const knew = data instanceof TakenAnswer ? (data.value as KnownPage) : null
        const length = knew ? knew.count : Array.isArray(data) ? data.length : 0
        if (pastEnd && length === 0) return
        pastEnd = false
        if (!knew && !Array.isArray(data)) return void (await parseItems(schema, data, what)) // throws the protocol error
        const firstOf = knew ? knew.first : firstId(data as unknown[])
        if (skip === 0) [first, firstLength] = [firstOf, length]
        else if (length > 0 && firstOf === first) {
          caps.set(LIST_PAGING, 'not_offered') // `skip` was ignored: page one again
          // A whole page of `take` may not be the whole list (`take` honoured): it is read whole,
          // what came on page one kept once.
          if (firstLength >= page) await take(await request(query ? { ...base, query } : base), false)
          return
        }
        if (skip === 0 && length > page) {
          caps.set(LIST_PAGING, 'not_offered')
          return knew ? undefined : take(data, true)
        }
        const full = length >= size
        if (!full && skip === 0 && capAt(length) && caps.get(LIST_PAGING) !== 'offered') {
          size = length
          pastEnd = true
        }
        if (full || pastEnd) {
          next = order?.next(k + 1, skip + length) ?? ask(skip + length, k + 1)
          next.catch(() => undefined) // awaited (and its failure thrown) on the next turn of the loop
        } else order?.drop()
        if (!knew) await take(data, false)
        order?.handedOn(k)
        if (!full && !pastEnd) {
          // Full pages of `page` came: the server pages lists and gives as many as asked for.
          if (skip > 0 && size === page) caps.set(LIST_PAGING, 'offered')
          return
        }
        skip += length
      }
    } finally {
      order?.end()
    }
  }

  /** A whole list (`pages` gathered), marked with the digest of the answer or of its pages. */
  async function list<S extends z.ZodType>(
    op: string,
    path: string,
    schema: S,
    what: string,
    query?: Record<string, string>
  ): Promise<z.output<S>[]> {
    const out: z.output<S>[] = []
    const digests: (string | undefined)[] = []
    const seen = new Set<unknown>()
    let whole = false
    await pages(op, path, schema, what, query, async (items, page) => {
      // Read a page at a time, an item that moved across a page boundary is kept once.
      for (const item of items) {
        const id = page.whole || !isRecord(item) ? undefined : item.id
        if (id !== undefined) {
          if (seen.has(id)) continue
          seen.add(id)
        }
        out.push(item)
      }
      digests.push(page.digest)
      whole = page.whole
    })
    return markAnswer(out, whole && digests.length === 1 ? digests[0] : pagesDigest(digests))
  }
  async function write<S extends z.ZodType<Record<string, unknown>>>(
    op: string,
    method: 'POST' | 'PATCH',
    path: string,
    body: unknown,
    schema: S,
    what: string,
    known: Record<string, unknown>
  ): Promise<z.output<S>> {
    const scope = method === 'POST' ? 'collection' : 'item'
    const data = await request({ op, method, path, body, auth: true, scope, what })
    if (method === 'POST' && (data === null || isEmptyObject(data))) throw acceptedWithoutAnswer(what)
    return fillMissing(parseOne(schema, data, what), known)
  }
  async function del(op: string, path: string, what: string): Promise<null> {
    await request({ op, method: 'DELETE', path, auth: true, scope: 'item', what })
    return null
  }

  return { request, get, list, pages, write, del, parseOne, enc }
}

export type Endpoints = ReturnType<typeof endpoints>

export interface Crud<T, C, U> {
  list(): Promise<T[]>
  /** The list page by page (`pages`). */
  pages(onPage: PageTaker<T>): Promise<void>
  get(id: string): Promise<T>
  create(body: C): Promise<T>
  update(id: string, patch: U): Promise<T>
  delete(id: string): Promise<null>
}

export interface CrudSpec<S> {
  /** The resource's name in operation names ('tools' → 'tools.list', …). */
  resource: string
  /** Its collection path; default `/<resource>`. */
  path?: string
  schema: S
  /** Singular noun for messages ('tool'). */
  what: string
  /** Fields the client knows from a create (and an update) when the server leaves them out. */
  fields: readonly string[]
  /** Those of an update when they differ. */
  updateFields?: readonly string[]
}

/** The five plain endpoints of a resource. */
export function crud<S extends z.ZodType<Record<string, unknown>>, C extends object, U extends object>(
  e: Endpoints,
  spec: CrudSpec<S>
): Crud<z.output<S>, C, U> {
  const { resource: r, schema, what, path = `/${r}`, fields, updateFields = fields } = spec
  const item = (id: string) => `${path}/${e.enc(id)}`
  const known = (b: object, fields: readonly string[]) => pick(b as Record<string, unknown>, fields)
  return {
    list: () => e.list(`${r}.list`, path, schema, what),
    pages: (onPage) => e.pages(`${r}.list`, path, schema, what, undefined, onPage),
    get: (id) => e.get(`${r}.get`, item(id), schema, what),
    create: (b) => e.write(`${r}.create`, 'POST', path, b, schema, what, known(b, fields)),
    update: (id, patch) =>
      e.write(`${r}.update`, 'PATCH', item(id), patch, schema, what, known(patch, updateFields)),
    delete: (id) => e.del(`${r}.delete`, item(id), what)
  }
}
