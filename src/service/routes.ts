/**
 * Routing of the embedded service, written once and knowing no resource by name: the handler
 * context, the route table a resource module exports, query helpers, `crud` for the common
 * create / list / get / patch / delete shapes, and `buildRouter`, which joins the tables.
 * Each handler receives the signed-in user (public shape), path params, query and parsed body,
 * and returns the `data` of the success envelope.
 */
import type { z } from 'zod'
import { ListQuery, type UserStrict } from '../shared'
import { invalid, notFound, Router, validate } from './http'
import { merge, type OwnedTable, type Page } from './sql'

export interface OpenCtx {
  params: string[]
  query: URLSearchParams | null
  body: Record<string, unknown>
  /** The client's network address (sign-in back-off). */
  address: string
}

/** What the request was authenticated with: a session token (its id and expiry) or an API token. */
export type Credential = { kind: 'session'; jti: string; exp: number } | { kind: 'apiToken' }

export interface Ctx extends OpenCtx {
  user: UserStrict
  credential: Credential
}

/**
 * `auth: false` only for sign-in / sign-up; `body`: the operation takes a JSON object body;
 * `cache`: a GET whose answer depends only on the user, the URL and the database, so it may be
 * answered from memory while the database has not changed (responses.ts).
 */
export type Route =
  | { auth: true; body: boolean; cache?: boolean; run(ctx: Ctx): unknown }
  | { auth: false; body: boolean; run(ctx: OpenCtx): unknown }

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

/** One row of a route table: `/agents/:id` style path. */
export interface RouteEntry {
  method: Method
  path: string
  route: Route
}
export type RouteTable = RouteEntry[]

const entry = (method: Method, path: string, route: Route): RouteEntry => ({ method, path, route })
/** A route anyone may call (sign-in, sign-up): JSON body, no credential. */
export const open = (method: Method, path: string, run: (ctx: OpenCtx) => unknown) =>
  entry(method, path, { auth: false, body: true, run })
export const get = (path: string, run: (ctx: Ctx) => unknown, o: { cache?: boolean } = {}) =>
  entry('GET', path, { auth: true, body: false, cache: o.cache ?? false, run })
export const del = (path: string, run: (ctx: Ctx) => unknown) =>
  entry('DELETE', path, { auth: true, body: false, run })
/** A signed-in POST that takes no body (any body sent is ignored). */
export const action = (path: string, run: (ctx: Ctx) => unknown) =>
  entry('POST', path, { auth: true, body: false, run })
export const post = (path: string, run: (ctx: Ctx) => unknown) =>
  entry('POST', path, { auth: true, body: true, run })
export const patch = (path: string, run: (ctx: Ctx) => unknown) =>
  entry('PATCH', path, { auth: true, body: true, run })

/** `skip` / `take` of a list request (each at most once, whole numbers). */
export function page(query: URLSearchParams | null): Page {
  if (!query) return { skip: 0, take: -1 }
  const raw: Record<string, string> = {}
  for (const k of ['skip', 'take']) {
    const values = query.getAll(k)
    if (values.length > 1) throw invalid([{ field: k, message: `Give ${k} once` }])
    if (values[0] !== undefined) raw[k] = values[0]
  }
  for (const [k, v] of Object.entries(raw)) {
    if (!/^\d+$/.test(v.trim())) throw invalid([{ field: k, message: 'Expected a whole number' }])
  }
  const q = validate(ListQuery, raw)
  return { skip: q.skip ?? 0, take: q.take ?? -1 }
}

/** A boolean query flag: absent → false; '', true, 1 → true; false, 0 → false. */
export function flag(query: URLSearchParams | null, name: string): boolean {
  const v = query?.get(name)
  if (v === null || v === undefined) return false
  if (v === '' || v === 'true' || v === '1') return true
  if (v === 'false' || v === '0') return false
  throw invalid([{ field: name, message: 'Expected true or false' }])
}

/** The `:id` of the path. */
export const id = (ctx: Ctx) => ctx.params[0] as string

/** The value, or a 404 naming `what`. */
export function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw notFound(what)
  return value
}

export interface CrudSpec {
  /** e.g. `/documents`; the item routes are `${path}/:id`. */
  path: string
  /** What a 404 names, e.g. 'Document'. */
  what: string
  list(ctx: Ctx): unknown
  /** The item, or undefined (→ 404). */
  get(ctx: Ctx, id: string): unknown
  remove(ctx: Ctx, id: string): boolean
  /** POST `path` (absent: no such route). */
  create?(ctx: Ctx): unknown
  /** PATCH `path/:id`: the changed item, or undefined (→ 404). Absent: no such route. */
  update?(ctx: Ctx, id: string): unknown
}

/** The routes of a collection: GET list, GET/DELETE item, and POST / PATCH when given. */
export function crud(s: CrudSpec): RouteTable {
  const item = `${s.path}/:id`
  const { create, update } = s
  const table: RouteTable = [
    get(s.path, (ctx) => s.list(ctx)),
    get(item, (ctx) => must(s.get(ctx, id(ctx)), s.what), { cache: true }),
    del(item, (ctx) => {
      if (!s.remove(ctx, id(ctx))) throw notFound(s.what)
      return null
    })
  ]
  if (create) table.push(post(s.path, (ctx) => create(ctx)))
  if (update) table.push(patch(item, (ctx) => must(update(ctx, id(ctx)), s.what)))
  return table
}

export interface OwnedCrudSpec<I, T extends I, C, U> {
  path: string
  what: string
  table: OwnedTable<T, I>
  /** POST: the body's schema and the row input it makes. */
  create?: { schema: z.ZodType<C>; input(body: C, ctx: Ctx): I }
  /** PATCH: the body's schema and the row input it makes from the current row (default: merge). */
  update?: { schema: z.ZodType<U>; input?(body: U, current: T): I }
}

/**
 * `crud` over an owned table: the body is validated before anything is read, a missing row
 * is a 404, a PATCH changes only what the body gives.
 */
export function ownedCrud<I, T extends I & object, C, U extends object>(
  spec: OwnedCrudSpec<I, T, C, U>
): RouteTable {
  const { table, create, update } = spec
  return crud({
    path: spec.path,
    what: spec.what,
    list: (ctx) => table.list(ctx.user, page(ctx.query)),
    get: (ctx, itemId) => table.get(ctx.user, itemId),
    remove: (ctx, itemId) => table.remove(ctx.user, itemId),
    create: create && ((ctx) => table.create(ctx.user, create.input(validate(create.schema, ctx.body), ctx))),
    update:
      update &&
      ((ctx, itemId) => {
        const body = validate(update.schema, ctx.body)
        const current = table.get(ctx.user, itemId)
        if (!current) return undefined
        const next = update.input ? update.input(body, current) : merge(current, body)
        return table.update(ctx.user, itemId, next)
      })
  })
}

export function buildRouter(tables: readonly RouteTable[]): Router<Route> {
  const r = new Router<Route>()
  for (const t of tables) for (const e of t) r.add(e.method, e.path, e.route)
  return r
}
