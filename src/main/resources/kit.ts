/**
 * What every resource module is written with: the lease a handler works under, the write
 * operation (online path + optimistic outbox path), generic create/update/delete operations, and
 * the generic list/get/write handlers. Knows no resource by name.
 */
import { AppError } from '../../shared/errors'
import type { Channel, ChannelParsedInput, ChannelResult, Profile, Read, Write } from '../../shared/ipc'
import { endpoints, type Crud, type Endpoints, type PageTaker } from '../api/endpoints'
import { answerDigest } from '../api/answerDigest'
import type { Answer, ListRead } from '../offline/listText'
import type { Transport } from '../api/transport'
import type { KnownPages } from '../api/listGroups'
import { nowTimestamp as now } from '../clock'
import { placeItem } from '../offline/scopes'
import { removeDeleted } from '../offline/removals'
import type { CacheStore, Item, OutboxStore, Resource, WriterPage } from '../offline/types'
import type { StoredUser } from '../profiles'

/** The signed-in session as a handler or a write operation sees it. */
export interface Lease {
  profile: Profile
  user: StoredUser
  token: string | null
  cache: CacheStore
  outbox: OutboxStore
  client: { readonly transport: Transport } | null
}

/** The endpoint helpers on the lease's connection. */
export function api(s: Lease): Endpoints {
  if (!s.client) throw new AppError({ kind: 'internal', message: 'The session is not ready' })
  return endpoints(s.client.transport)
}

/** One write as it runs online (now, or when the outbox replays it). */
export interface WriteOp {
  resource: Resource
  kind: 'create' | 'update' | 'delete'
  /** What the user sees in the outbox. */
  label(s: Lease): string
  /** The API call plus the cache update; returns the result data (and the real id of a create). */
  online(s: Lease, tempId: string | undefined): Promise<{ data: unknown; realId?: string }>
  /** The change applied to the cache while it waits in the outbox. */
  optimistic(s: Lease, tempId: string | undefined): unknown
  /** Ids this change refers to (a pending local id means it must wait behind its create). */
  refs: string[]
  /** The item an update changes (lost-update check, offline/writeRules.ts). */
  itemId?: string
  /** What the change tells about the item: a create is found by it, an update's patch. */
  known?(s: Lease): Record<string, unknown>
  /** A create: the server's list, to look for an item whose create had no clear answer. */
  find?(s: Lease): Promise<Item[]>
  /** An update: the item as the server has it now. */
  current?(s: Lease): Promise<Item>
  /** Takes a server item as this change's result (a create found, an update already applied). */
  adopt?(s: Lease, item: Item, tempId: string | undefined): { data: unknown; realId?: string }
}

/** What a write operation may ask of the session. */
export interface WriteKit {
  /** The session user's id, finding it now if the token did not tell at sign-in. */
  requireUserId(s: Lease): Promise<string>
}

/** A resource's write operations, keyed by channel, built from the channel's parsed input. */
export type Writes<C extends Channel> = {
  [K in C]: (input: ChannelParsedInput<K>, kit: WriteKit) => WriteOp
}

/**
 * Takes a list's page as it comes (CachedApi.readList): planned against the cache on arrival; a
 * page of the answer the cache stored last may be taken by its digest alone (`known`).
 */
export type PageSink<T> = ((items: T[], page?: WriterPage) => Promise<void>) & { known?: KnownPages }

export interface ReadOptions<T> {
  cacheOnly?: boolean | undefined
  filter?: (item: T) => boolean
  view?: (item: T) => T
}

/** What a resource's handlers may use (the core's handler context has this and more). */
export interface ResourceContext {
  lease(): Promise<Lease>
  cached: {
    readList<T extends Item>(
      s: Lease,
      resource: Resource,
      scope: string,
      fetch: (page: PageSink<T>) => Promise<void>,
      opts?: ReadOptions<T>
    ): Promise<ListRead<T>>
    readItem<T extends Item>(
      s: Lease,
      resource: Resource,
      id: string,
      fetch: () => Promise<T>,
      opts?: ReadOptions<T>
    ): Promise<Read<T>>
    write<T>(s: Lease, channel: string, args: unknown): Promise<Write<T>>
  }
  connectivity: { markOffline(message: string): void; markOnline(at?: string): void }
}

/** A resource's IPC handlers, keyed by channel. */
export type Routes<C extends Channel> = {
  [K in C]: (input: ChannelParsedInput<K>, ctx: ResourceContext) => Promise<Answer<ChannelResult<K>>>
}

export const q = (s: string) => `“${s}”`

export function cachedItem(s: Lease, resource: Resource, id: string): Item | null {
  const hit = s.cache.getItem<Item>(resource, id)
  return hit ? hit.value : null
}

/** How a label names an item: its cached name (or another field), else its id. */
export function cachedName(s: Lease, resource: Resource, id: string, field = 'name'): string {
  const v = cachedItem(s, resource, id)?.[field]
  return typeof v === 'string' && v ? v : id
}

/** Copies `over` onto `base`, skipping undefined (a field the server left out never blanks a known one). */
export function mergeDefined<T extends Record<string, unknown>>(
  base: Record<string, unknown>,
  over: T
): T & Record<string, unknown> {
  const out: Record<string, unknown> = { ...base }
  for (const [k, v] of Object.entries(over)) if (v !== undefined) out[k] = v
  return out as T & Record<string, unknown>
}

// ------------------------------------------------------------------------------------------------
// The three kinds of change
// ------------------------------------------------------------------------------------------------

export interface ChangeSpec {
  label: (s: Lease) => string
  /** What the change tells about the item before the server answers. */
  known: (s: Lease) => Record<string, unknown>
  call: (s: Lease) => Promise<Item>
  refs?: string[]
  /** A create: the list to look in; an update: the item now (see WriteOp.find / current). */
  find?: (s: Lease) => Promise<Item[]>
  current?: (s: Lease) => Promise<Item>
}

export function createOp(resource: Resource, spec: ChangeSpec): WriteOp {
  const adopt = (s: Lease, res: Item, tempId: string | undefined) => {
    const item = mergeDefined(spec.known(s), res) as Item
    const opts = tempId ? { prepend: true, replaceId: tempId } : { prepend: true }
    const merged = placeItem(s.cache, resource, item, now(), opts)
    if (tempId) s.cache.removeItem(resource, tempId)
    return { data: merged, realId: merged.id }
  }
  const op: WriteOp = {
    resource,
    kind: 'create',
    label: spec.label,
    refs: spec.refs ?? [],
    known: spec.known,
    adopt,
    async online(s, tempId) {
      return adopt(s, await spec.call(s), tempId)
    },
    optimistic(s, tempId) {
      const at = now()
      const item: Item = {
        ...spec.known(s),
        id: tempId ?? '',
        userId: s.user.id || undefined,
        createdAt: at,
        updatedAt: at
      }
      return placeItem(s.cache, resource, item, null, { prepend: true })
    }
  }
  if (spec.find) op.find = spec.find
  return op
}

export function updateOp(resource: Resource, id: string, spec: ChangeSpec): WriteOp {
  const adopt = (s: Lease, res: Item) => ({
    data: placeItem(s.cache, resource, mergeDefined(spec.known(s), res) as Item, now())
  })
  const op: WriteOp = {
    resource,
    kind: 'update',
    label: spec.label,
    refs: [id, ...(spec.refs ?? [])],
    itemId: id,
    known: spec.known,
    adopt,
    async online(s) {
      return adopt(s, await spec.call(s))
    },
    optimistic(s) {
      const item: Item = { ...spec.known(s), id, updatedAt: now() }
      return placeItem(s.cache, resource, item, null)
    }
  }
  if (spec.current) op.current = spec.current
  return op
}

export function deleteOp(
  resource: Resource,
  id: string,
  label: (s: Lease) => string,
  call: (s: Lease) => Promise<unknown>
): WriteOp {
  return {
    resource,
    kind: 'delete',
    label,
    refs: [id],
    async online(s) {
      try {
        await call(s)
      } catch (e) {
        // Already gone is what the user wanted.
        if (!(AppError.is(e) && e.kind === 'not_found')) throw e
      }
      removeDeleted(s.cache, resource, id)
      return { data: null }
    },
    optimistic(s) {
      removeDeleted(s.cache, resource, id)
      return null
    }
  }
}

/** "Delete agent “x”": the plain delete, named with the resource's noun. */
export function plainDelete(
  resource: Resource,
  noun: string,
  call: (s: Lease, id: string) => Promise<unknown>,
  field = 'name'
) {
  return ({ id }: { id: string }): WriteOp =>
    deleteOp(
      resource,
      id,
      (s) => `Delete ${noun} ${q(cachedName(s, resource, id, field))}`,
      (s) => call(s, id)
    )
}

/** Create, change and delete as most resources have them ("Create tool “x”", "Change tool “x”"), keyed by channel. */
export function crudWrites<R extends Resource, C extends { name: string }, U extends Record<string, unknown>>(
  resource: R,
  noun: string,
  ep: (s: Lease) => Crud<Item, C, U>
) {
  const create = (b: C) =>
    createOp(resource, {
      label: () => `Create ${noun} ${q(b.name)}`,
      known: () => ({ ...b }),
      call: (s) => ep(s).create(b),
      find: (s) => ep(s).list()
    })
  const update = ({ id, patch }: { id: string; patch: U }) =>
    updateOp(resource, id, {
      label: (s) => `Change ${noun} ${q(cachedName(s, resource, id))}`,
      known: () => ({ ...patch }),
      call: (s) => ep(s).update(id, patch),
      current: (s) => ep(s).get(id)
    })
  const ops = {
    [`${resource}.create`]: create,
    [`${resource}.update`]: update,
    [`${resource}.delete`]: plainDelete(resource, noun, (s, id) => ep(s).delete(id))
  }
  return ops as { [K in `${R}.create`]: typeof create } & { [K in `${R}.update`]: typeof update } & {
    [K in `${R}.delete`]: (input: { id: string }) => WriteOp
  }
}

// ------------------------------------------------------------------------------------------------
// Generic handlers
// ------------------------------------------------------------------------------------------------

/** A list read whole, handed to `page` as one page (with its answer's digest, if it kept one). */
export async function wholeList<T>(items: Promise<T[]>, page: PageSink<T>): Promise<void> {
  const list = await items
  await page(list, { digest: answerDigest(list) })
}

/** A list read through the cache (stale-while-revalidate, offline), its pages as they come. */
export function listRoute<T extends Item>(
  resource: Resource,
  fetch: (s: Lease, page: PageSink<T>) => Promise<void>
) {
  return async (i: { cacheOnly?: boolean | undefined } | undefined, ctx: ResourceContext) => {
    const s = await ctx.lease()
    return ctx.cached.readList<T>(s, resource, 'all', (page) => fetch(s, page), { cacheOnly: i?.cacheOnly })
  }
}

/** An item read through the cache. */
export function getRoute<T extends Item>(resource: Resource, fetch: (s: Lease, id: string) => Promise<T>) {
  return async (i: { id: string; cacheOnly?: boolean | undefined }, ctx: ResourceContext) => {
    const s = await ctx.lease()
    return ctx.cached.readItem(s, resource, i.id, () => fetch(s, i.id), { cacheOnly: i.cacheOnly })
  }
}

/** The list and get handlers of a resource, keyed by channel. */
export function readRoutes<R extends Resource, T extends Item>(
  resource: R,
  ep: (s: Lease) => {
    pages(onPage: PageTaker<T>): Promise<void>
    get(id: string): Promise<T>
  }
) {
  const list = listRoute<T>(resource, (s, page) => ep(s).pages(page))
  const get = getRoute(resource, (s, id) => ep(s).get(id))
  const routes = { [`${resource}.list`]: list, [`${resource}.get`]: get }
  return routes as { [K in `${R}.list`]: typeof list } & { [K in `${R}.get`]: typeof get }
}

/** A change: online now, or queued in the outbox (see cachedApi.ts). */
export function writeRoute<C extends Channel>(channel: C) {
  return async (input: ChannelParsedInput<C>, ctx: ResourceContext): Promise<ChannelResult<C>> => {
    const s = await ctx.lease()
    return (await ctx.cached.write(s, channel, input)) as ChannelResult<C>
  }
}
